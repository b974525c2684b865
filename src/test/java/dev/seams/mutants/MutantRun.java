package dev.seams.mutants;

import dev.seams.fixture.Pipeline;
import dev.seams.project.Project;
import dev.seams.report.Gate;
import dev.seams.report.ReportWriter;
import dev.seams.report.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link Mutant} (issue 21): copies the tree ({@code pom.xml}, {@code src/}, {@code containers/}, {@code docs/}) to
 * {@code <work>/<id>/tree} — never touching the working tree — applies the patch there with {@code git apply},
 * then builds and tests the copy with Maven, as a user's CI would: {@code mvn verify} of the mutant's tier, gated
 * against the baseline report ({@code -Dseams.gate}, {@link Gate}), its unit tests run without stopping the
 * build ({@code -Dseams.unit.failure.ignore=true}) so that the claims are asked too. First only the expected claims
 * ({@code -Dit.test}), every one of them; if they let the mutant survive, the rest of its tier, stopped at its first
 * red claim ({@code -Dseams.fail.fast=true}: red from then on).
 *
 * <p>Killed means the build went red because of a check (issue 36 §1): an entry FAILed, or an entry that PASSed in the
 * baseline does not PASS (the gate) — and the same entry is not red in the unmutated control build of the same
 * selectors ({@link MutantControls.Control}). An entry that is ENVIRONMENT (the stand did not start or failed) and a
 * build that timed out are never a kill: a build whose stand failed runs once more ({@link #standFailed}), and a
 * mutant with nothing else is an ERROR. Each kill is credited to the check
 * that fired ({@link #credit}): the entry's own check, or the shared settle precondition ({@code fixture/Pipeline}) named
 * as itself.
 * The unit tests that failed are recorded beside, never counted as the kill.
 */
public final class MutantRun {

    private static final Logger LOG = LoggerFactory.getLogger(MutantRun.class);
    /** The mutation tier itself: not copied (its catalogue test would find the applied patch no longer applies). */
    private static final String MUTATION_TIER = "src/test/(java|resources)/dev/seams/mutants(/.*)?";
    /** The copies' bound on a settle (fixture/Pipeline): a pipeline the mutant made settle wrong fails after it. */
    private static final int SETTLE_SECONDS = 120;
    /** The copies' Maven and unit-test JVMs: the client compiler starts short-lived JVMs faster (docs/mutants.md step 1). */
    private static final String CLIENT_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    /** The copies' bound on a settle that stopped moving (fixture/Pipeline: nothing left to consume, PG still differs). */
    private static final int STUCK_SECONDS = 20;

    /**
     * How the tier runs its mutants.
     *
     * @param root         the project root (the tree copied)
     * @param work         where the copies go, e.g. {@code target/mutants}
     * @param baseline     the baseline report the copies are gated against
     * @param profile      the stand profile ({@code -Dseams.profile})
     * @param mvn          the Maven executable
     * @param widen        whether a survivor of its expected claims runs the rest of its tier
     * @param buildTimeout the longest one build of a copy may take
     */
    public record Settings(Path root, Path work, Path baseline, String profile, String mvn, boolean widen, Duration buildTimeout) {
    }

    /** The credit of a kill by the shared settle check, not the claim's own ({@link Pipeline#isSettleFailure}). */
    public static final String SETTLE_PRECONDITION = "settle precondition (fixture/Pipeline: ds-streams' snapshots vs PostgreSQL)";

    /**
     * One Maven build of a copy.
     *
     * @param selector     the {@code -Dit.test} selector, or {@code (whole tier)}
     * @param exit         Maven's exit status (-1: timed out, killed)
     * @param seconds      its wall time
     * @param log          its output
     * @param killers      the entries that FAILed or regressed against the baseline and are not red in the control, not
     *                     ENVIRONMENT, in report order: entry id → its line ({@code <id>: <why>}); empty if it timed out
     * @param unitFailures unit tests that failed ({@code Class#method})
     * @param entries      how many report entries the build produced
     * @param notCounted   red entries that are no kill: entry id → why (ENVIRONMENT, red in the control too, timed out)
     * @param credits      each killer → the check its kill is credited to ({@link MutantJudge#credit})
     * @param failures     every red entry → all its failure lines
     */
    public record Build(String selector, int exit, double seconds, Path log, Map<String, String> killers,
                        List<String> unitFailures, int entries, Map<String, String> notCounted, Map<String, String> credits,
                        Map<String, List<String>> failures) {

        public Build(String selector, int exit, double seconds, Path log, Map<String, String> killers, List<String> unitFailures,
                     int entries) {
            this(selector, exit, seconds, log, killers, unitFailures, entries, Map.of(), Map.of());
        }

        public Build(String selector, int exit, double seconds, Path log, Map<String, String> killers, List<String> unitFailures,
                     int entries, Map<String, String> notCounted, Map<String, String> credits) {
            this(selector, exit, seconds, log, killers, unitFailures, entries, notCounted, credits, Map.of());
        }

        boolean killed() {
            return exit > 0 && !killers.isEmpty();
        }

        /** @return whether an entry turned red only by a timeout or a crash, no check firing ({@link MutantJudge#CAUGHT_ONLY}) */
        boolean caught() {
            return exit > 0 && notCounted.values().stream().anyMatch(v -> v.startsWith(MutantJudge.CAUGHT_ONLY));
        }
    }

    /**
     * A mutant's outcome.
     *
     * @param mutant   the mutant
     * @param verdict  {@code KILLED}, {@code CAUGHT} (red only by a timeout or a crash inside a claim, no check fired),
     *                 {@code SURVIVED} (every build green, or red only through unit tests) or {@code ERROR} (the patch does
     *                 not apply, the copy does not build, a build timed out without a kill)
     * @param killedBy the build that killed it: {@code expected claims} or {@code rest of the tier}; empty if not killed
     * @param detail   why, for ERROR and SURVIVED
     * @param builds   every build, in order
     * @param seconds  the mutant's wall time
     */
    public record Result(Mutant mutant, String verdict, String killedBy, String detail, List<Build> builds, double seconds) {

        /** @return every entry that killed it (entry id only), in order */
        public List<String> killerEntries() {
            Set<String> ids = new LinkedHashSet<>();
            builds.stream().filter(Build::killed).forEach(b -> ids.addAll(b.killers().keySet()));
            return List.copyOf(ids);
        }

        /** @return every killing entry → the check its kill is credited to ({@link #credit}), in order */
        public Map<String, String> credits() {
            Map<String, String> credits = new LinkedHashMap<>();
            builds.stream().filter(Build::killed).forEach(b -> b.credits().forEach(credits::putIfAbsent));
            return credits;
        }

        /** @return the red entries of its builds that are no kill → why */
        public Map<String, String> notCounted() {
            Map<String, String> all = new LinkedHashMap<>();
            builds.forEach(b -> b.notCounted().forEach(all::putIfAbsent));
            return all;
        }

        /** @return every unit test that failed on the mutant */
        public List<String> unitFailures() {
            Set<String> all = new LinkedHashSet<>();
            builds.forEach(b -> all.addAll(b.unitFailures()));
            return List.copyOf(all);
        }
    }

    private MutantRun() {
    }

    /**
     * @param mutant   the mutant
     * @param settings how to run it
     * @return its outcome (never throws for a failing build: that is an outcome)
     * @throws UncheckedIOException if the copy cannot be made
     */
    public static Result run(Mutant mutant, Settings settings, MutantControls controls) {
        Set<String> controlRed = controls.red(mutant.tier(), false);   // built before the mutant's clock starts
        long t0 = System.nanoTime();
        Path dir = settings.work().resolve(mutant.id());
        Path tree = dir.resolve("tree");
        List<Build> builds = new ArrayList<>();
        copy(settings.root(), tree);
        String notApplied = apply(mutant, settings.root(), tree, dir.resolve("apply.log"));
        if (notApplied != null) {
            return new Result(mutant, "ERROR", "", notApplied, builds, seconds(t0));
        }
        if (mutant.files().stream().noneMatch(f -> f.endsWith(".java"))) {   // the control's classes are this copy's
            takeClasses(controls.tree(mutant.tier()), tree);
        }
        Build expected = build(mutant.id(), mutant.tier(), settings, tree, dir, String.join(",", mutant.expected()), 1, false,
                controlRed);
        builds.add(expected);
        if (standFailed(expected)) {   // a stand that did not start says nothing about the mutant: its build once more
            expected = build(mutant.id(), mutant.tier(), settings, tree, dir, String.join(",", mutant.expected()), 3, false,
                    controlRed);
            builds.add(expected);
        }
        if (expected.killed()) {
            return new Result(mutant, "KILLED", "expected claims", "", builds, seconds(t0));
        }
        String error = error(expected, controls.broken(mutant.tier(), false));
        if (error != null) {
            return new Result(mutant, "ERROR", "", error, builds, seconds(t0));
        }
        if (!settings.widen()) {
            return expected.caught() ? caught(mutant, builds, t0) : new Result(mutant, "SURVIVED", "",
                    "its expected claims passed; the rest of the tier was not run", builds, seconds(t0));
        }
        long beforeControl = System.nanoTime();
        Set<String> wholeRed = controls.red(mutant.tier(), true);
        t0 += System.nanoTime() - beforeControl;   // a control's build is not the mutant's time
        Build rest = build(mutant.id(), mutant.tier(), settings, tree, dir, null, 2, true, wholeRed);
        builds.add(rest);
        if (standFailed(rest)) {
            rest = build(mutant.id(), mutant.tier(), settings, tree, dir, null, 4, true, wholeRed);
            builds.add(rest);
        }
        if (rest.killed()) {
            return new Result(mutant, "KILLED", "rest of the tier", "", builds, seconds(t0));
        }
        error = error(rest, controls.broken(mutant.tier(), true));
        if (error == null && builds.stream().anyMatch(Build::caught)) {
            return caught(mutant, builds, t0);
        }
        return new Result(mutant, error != null ? "ERROR" : "SURVIVED", "", error != null ? error
                : "every claim of the " + mutant.tier() + " tier passed on it (exit " + rest.exit() + ")", builds, seconds(t0));
    }

    private static Result caught(Mutant mutant, List<Build> builds, long t0) {
        return new Result(mutant, "CAUGHT", "", "red only by a timeout or a crash inside a claim, no check fired: strengthen "
                + "the claim so that a check names what differs", builds, seconds(t0));
    }

    /**
     * @return whether the build killed nothing and some entry was ENVIRONMENT (the stand did not start or failed, e.g. a
     *     host port taken between its choice and the container's start): such a build is run once more before the
     *     mutant can be an ERROR; a build that timed out is not
     */
    static boolean standFailed(Build b) {
        return !b.killed() && b.exit() != -1
                && b.notCounted().values().stream().anyMatch(v -> v.startsWith(Verdict.ENVIRONMENT.name()));
    }

    /**
     * @return why a build that killed nothing is an ERROR of the mutant (timed out, ran no claim, red only by
     *     ENVIRONMENT, or its control was no comparison), or null
     */
    private static String error(Build b, String brokenControl) {
        if (brokenControl != null) {
            return brokenControl + " (no kill can be judged against it)";
        }
        if (b.exit() == -1) {
            return "the build timed out (a timeout is never a kill): see " + b.log();
        }
        if (b.exit() != 0 && b.entries() == 0) {
            return "the copy did not build or ran no claim (exit " + b.exit() + "): see " + b.log();
        }
        List<String> environment = b.notCounted().entrySet().stream().filter(e -> e.getValue().startsWith(Verdict.ENVIRONMENT.name()))
                .map(e -> e.getKey() + " (" + e.getValue() + ")").toList();
        if (!environment.isEmpty()) {
            return "the stand did not start or failed (ENVIRONMENT is never a kill): " + String.join("; ", environment);
        }
        return null;
    }

    /**
     * Applies the patch to the copy with {@code git apply}, outside any repository (the copy lives in the project's
     * {@code target/}: inside the work tree, git would skip every path outside the current directory), and checks
     * that every file it names changed.
     *
     * @return null once applied, else why not
     */
    static String apply(Mutant mutant, Path root, Path tree, Path log) {
        Command apply = Command.run(tree, List.of("git", "apply", "--verbose", "--whitespace=nowarn", mutant.patch().toAbsolutePath().toString()),
                log, Duration.ofMinutes(1), Map.of("GIT_CEILING_DIRECTORIES", tree.getParent().toAbsolutePath().toString()));
        if (apply.exit() != 0) {
            return "the patch does not apply to this tree: " + apply.tail();
        }
        try {
            for (String file : mutant.files()) {
                if (Files.mismatch(root.resolve(file), tree.resolve(file)) == -1) {
                    return "the patch left " + file + " unchanged: " + apply.tail();
                }
            }
        } catch (IOException e) {
            return "cannot compare the patched files: " + e;
        }
        return null;
    }

    static Build build(String id, String tier, Settings settings, Path tree, Path dir, String selector, int n,
                       boolean failFast, Set<String> controlRed) {
        return build(id, tier, settings, tree, dir, selector, n, failFast, controlRed, false);
    }

    /**
     * One Maven build of a copy: {@code mvn verify} of the tier with the copies' settle bounds, gated against the baseline.
     *
     * @param skipUnitTests whether surefire is skipped ({@code -Dseams.unit.skip}: a control's unit tests tell nothing)
     */
    static Build build(String id, String tier, Settings settings, Path tree, Path dir, String selector, int n,
                       boolean failFast, Set<String> controlRed, boolean skipUnitTests) {
        List<String> args = new ArrayList<>(List.of(settings.mvn(), "-B", "-ntp", "verify", "-Dseams.profile=" + settings.profile(),
                "-Dseams.gate=" + settings.baseline().toAbsolutePath(), "-Dseams.unit.failure.ignore=true",
                "-Dseams.settle.seconds=" + SETTLE_SECONDS, "-Dseams.settle.stuck.seconds=" + STUCK_SECONDS,
                // a mutant's whole tier stops at its first red claim; the expected claims and a control all run
                "-Dseams.fail.fast=" + failFast, "-D" + ReportWriter.REFRESH_PROPERTY + "=true",   // the copy's own reports/
                "-Dseams.unit.skip=" + skipUnitTests,
                // a class newer than its source is up to date (takeClasses); a patched source is compiled with the rest
                "-Dmaven.compiler.useIncrementalCompilation=false",
                // the unit tests' short-lived JVMs start faster on the client compiler; the claims' JVMs are left as they are
                "-Dseams.unit.argLine=" + CLIENT_JVM));
        if (tier.equals("faults")) {
            args.add("-Pfaults");
        }
        if (selector != null) {
            args.add("-Dit.test=" + selector);
        }
        Path log = dir.resolve("build-" + n + ".log");
        LOG.info("{}: build {} ({}), log {}", id, n, selector == null ? "its whole tier" : selector, log);
        long t0 = System.nanoTime();
        Command c = Command.run(tree, args, log, settings.buildTimeout(),
                Map.of("MAVEN_OPTS", (System.getenv().getOrDefault("MAVEN_OPTS", "") + " " + CLIENT_JVM).trim()));
        StandLeftovers.remove();
        Path report = tree.resolve(selector == null ? "reports/guarantees.json" : "target/partial-report/guarantees.json");
        Map<String, Object> json = ReportWriter.read(report);
        Gate gate = Gate.of(ReportWriter.read(settings.baseline()), settings.baseline().toString());
        MutantJudge.Judged judged = MutantJudge.judge(json, gate, controlRed, c.exit() == -1);
        @SuppressWarnings("unchecked")
        int entries = ((List<Object>) json.getOrDefault("claims", List.of())).size();
        return new Build(selector == null ? "(whole tier)" : selector, c.exit(), seconds(t0), log, judged.kills(),
                SurefireResults.failures(tree.resolve("target/surefire-reports")), entries, judged.notCounted(), judged.credits(),
                judged.failures());
    }

    /**
     * Gives a copy whose patch touches no Java source the classes its tier's control compiled from the same sources,
     * with their times, so that its build compiles nothing ({@code maven.compiler.useIncrementalCompilation=false}: a
     * class newer than its source is up to date). A patch of a Java source never takes them: a constant it changes is
     * inlined in other classes, which only a whole compile renews.
     *
     * @param control the control's tree, or null when it has none
     * @param tree    the mutant's copy
     */
    static void takeClasses(Path control, Path tree) {
        if (control == null) {
            return;
        }
        for (String dir : List.of("target/classes", "target/test-classes")) {
            if (!Files.isDirectory(control.resolve(dir))) {
                return;
            }
            try {
                copyTree(control, tree, dir, p -> true);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot copy " + control.resolve(dir) + " to " + tree, e);
            }
        }
    }

    /**
     * Copies {@code from/top} to {@code to/top}, each file with its times, the paths {@code keep} refuses left out.
     *
     * @param keep takes a path relative to {@code from}
     */
    private static void copyTree(Path from, Path to, String top, java.util.function.Predicate<String> keep) throws IOException {
        try (Stream<Path> walk = Files.walk(from.resolve(top))) {
            for (Path p : walk.filter(p -> keep.test(from.relativize(p).toString())).toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /**
     * Copies pom.xml, src/, containers/ and docs/ (no build output, not the mutation tier) into an emptied {@code to},
     * with their times (a class compiled from an unchanged source stays up to date: {@link #takeClasses}).
     */
    static void copy(Path root, Path to) {
        try {
            Project.deleteTree(to);
            Files.createDirectories(to);
            Files.copy(root.resolve("pom.xml"), to.resolve("pom.xml"), StandardCopyOption.COPY_ATTRIBUTES);
            for (String top : List.of("src", "containers", "docs")) {
                copyTree(root, to, top, p -> !p.matches("(.*/)?target(/.*)?") && !p.matches(MUTATION_TIER));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the tree to " + to, e);
        }
    }

    private static double seconds(long since) {
        return Math.round((System.nanoTime() - since) / 1e8) / 10.0;
    }

    /**
     * A child process, its output into a log file, bounded in time (the whole process tree is killed at the bound).
     *
     * @param exit its exit status, -1 if it was killed at the bound
     * @param log  its output
     */
    record Command(int exit, Path log) {

        static Command run(Path dir, List<String> args, Path log, Duration timeout, Map<String, String> env) {
            try {
                Files.createDirectories(log.getParent());
                ProcessBuilder builder = new ProcessBuilder(args).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(log.toFile());
                builder.environment().putAll(env);
                Process p = builder.start();
                if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    Files.writeString(log, "\n[mutation tier] killed after " + timeout + "\n", StandardCharsets.UTF_8,
                            java.nio.file.StandardOpenOption.APPEND);
                    return new Command(-1, log);
                }
                return new Command(p.exitValue(), log);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot run " + args, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running " + args, e);
            }
        }

        /** @return the last lines of the log, for a message */
        String tail() {
            try {
                List<String> lines = Files.readAllLines(log);
                return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
    }
}
