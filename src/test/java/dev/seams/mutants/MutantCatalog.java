package dev.seams.mutants;

import dev.seams.project.Project;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The mutation tier's catalogue (issue 21): every {@code *.patch} of
 * {@code src/test/resources/dev/seams/mutants/} ({@link Mutant}), in file-name order, and
 * {@code claims-without-mutants.tsv} beside them: for a claim no mutant can apply to, why (the report
 * shows it in the claim's row of the matrix instead of an empty one).
 */
public final class MutantCatalog {

    /** Where the patches are, relative to the project root. */
    public static final String DIR = "src/test/resources/dev/seams/mutants";

    private final List<Mutant> mutants;
    private final Map<String, String> withoutMutants;

    private MutantCatalog(List<Mutant> mutants, Map<String, String> withoutMutants) {
        this.mutants = List.copyOf(mutants);
        this.withoutMutants = Map.copyOf(withoutMutants);
    }

    /**
     * @param root the project root
     * @return the catalogue of that tree
     * @throws IllegalArgumentException if a patch's header is invalid ({@link Mutant#parse})
     * @throws UncheckedIOException     if the directory cannot be read
     */
    public static MutantCatalog load(Path root) {
        Path dir = root.resolve(DIR);
        List<Mutant> mutants;
        try (Stream<Path> files = Files.list(dir)) {
            mutants = files.filter(p -> p.getFileName().toString().endsWith(".patch")).sorted().map(Mutant::parse).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the mutants in " + dir, e);
        }
        Map<String, String> without = new LinkedHashMap<>();
        Path tsv = dir.resolve("claims-without-mutants.tsv");
        try {
            for (String line : Files.exists(tsv) ? Files.readAllLines(tsv) : List.<String>of()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] cells = line.split("\t", 2);
                    without.put(cells[0], cells.length > 1 ? cells[1] : "");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new MutantCatalog(mutants, without);
    }

    /** @return the catalogue of this project ({@link Project#root()}) */
    public static MutantCatalog load() {
        return load(Project.root());
    }

    /** @return every mutant, in file-name order */
    public List<Mutant> mutants() {
        return mutants;
    }

    /**
     * @param ids mutant ids, comma separated; blank: all
     * @return those mutants, in catalogue order
     * @throws IllegalArgumentException if an id is not in the catalogue
     */
    public List<Mutant> select(String ids) {
        if (ids == null || ids.isBlank() || ids.startsWith("${")) {
            return mutants;
        }
        List<String> wanted = Stream.of(ids.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        for (String id : wanted) {
            if (mutants.stream().noneMatch(m -> m.id().equals(id))) {
                throw new IllegalArgumentException("no mutant " + id + " in " + DIR);
            }
        }
        return mutants.stream().filter(m -> wanted.contains(m.id())).toList();
    }

    /** @return claim id → why no mutant of the catalogue applies to it */
    public Map<String, String> withoutMutants() {
        return withoutMutants;
    }
}
