package dev.seams.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A git repository in a temporary folder for the tests of what the report code asks git ({@link Waivers}, {@link SubReports}). */
record ScratchRepo(Path dir) {

    /** @return a new repository in {@code dir} */
    static ScratchRepo init(Path dir) {
        ScratchRepo repo = new ScratchRepo(dir);
        repo.git("init", "-q");
        return repo;
    }

    /**
     * Writes {@code content} to {@code path} (null: leaves the file as it is), commits it.
     *
     * @return the commit
     */
    String commit(String path, String content, String message) throws IOException {
        if (content != null) {
            Files.createDirectories(dir.resolve(path).getParent());
            Files.writeString(dir.resolve(path), content);
        }
        git("add", path);
        git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", message);
        return git("rev-parse", "HEAD");
    }

    /** @return the output of a git command that must succeed */
    String git(String... args) {
        Git.Result r = Git.run(dir, args);
        if (!r.ok()) {
            throw new IllegalStateException("git " + String.join(" ", args) + ": " + r.output());
        }
        return r.output();
    }
}
