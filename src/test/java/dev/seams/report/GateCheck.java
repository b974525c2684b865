package dev.seams.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The regression gate's verdict on whole tier runs, handed from the test JVM that ran a tier to the build's gate
 * execution ({@code GateCheckTest}, docs/gate.md "The regression gate"): a claim test fails itself when its entry regressed,
 * but an entry that vanished — its test deleted, disabled or renamed, or now NOT_RUN — has no test left to fail.
 * {@link ReportWriter} writes {@code target/gate/<tier>.json} at the end of a whole, gated tier run; the gate execution
 * reads the files of its own build and fails on every regression they list, {@link Gate#MISSING} included.
 */
final class GateCheck {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private GateCheck() {
    }

    /**
     * One tier run's gate verdict.
     *
     * @param tier        the tier
     * @param finished    when the run ended
     * @param baseline    the baseline and its commit
     * @param regressions every regression, one line each ({@link Gate.Regression#line()})
     */
    record Verdict(String tier, Instant finished, String baseline, List<String> regressions) {
    }

    /**
     * The build's gate verdict (docs/gate.md "The regression gate"): every regression of its tier runs, and every tier the build
     * owes that left no verdict — a tier whose selector matched no claim test (a moved package, a renamed {@code *FaultIT})
     * writes no report, so only its absence tells.
     *
     * @param verdicts the verdicts this build's tier runs left ({@link #read})
     * @param owed     the tiers a whole, gated build of this profile runs ({@code seams.gate.tiers} in pom.xml)
     * @return one line per failure, none when the gate holds
     */
    static List<String> failures(List<Verdict> verdicts, List<String> owed) {
        List<String> failures = new ArrayList<>();
        for (String tier : owed) {
            if (verdicts.stream().noneMatch(v -> v.tier().equals(tier))) {
                failures.add("the " + tier + " tier ran whole against a baseline and left no verdict in " + dir(Path.of(""))
                        + ": no claim test of it ran (its selector matched none, or its JVM ended before the report)");
            }
        }
        verdicts.forEach(v -> v.regressions().forEach(r -> failures.add("the " + v.tier() + " tier against " + v.baseline() + ": " + r)));
        return failures;
    }

    /** @return the folder of the gate files under the project root */
    static Path dir(Path root) {
        return root.resolve("target/gate");
    }

    /**
     * Writes {@code target/gate/<tier>.json} from a report's {@code gate} section.
     *
     * @param root     the project root
     * @param tier     the tier that ran whole
     * @param finished when it ended
     * @param report   the report it wrote (its {@code gate} section lists the regressions)
     * @throws UncheckedIOException if the file cannot be written
     */
    @SuppressWarnings("unchecked")
    static void write(Path root, String tier, Instant finished, Map<String, Object> report) {
        Map<String, Object> gate = (Map<String, Object>) report.getOrDefault("gate", Map.of());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("tier", tier);
        json.put("finished", finished.toString());
        json.put("baseline", gate.get("baseline") + " (commit " + gate.get("baseline_commit") + ")");
        json.put("entries", gate.get("entries_produced"));
        json.put("baseline_entries", gate.get("baseline_entries"));
        json.put("regressions", gate.getOrDefault("regressions", List.of()));
        try {
            Files.createDirectories(dir(root));
            Files.writeString(dir(root).resolve(tier + ".json"), JSON.writeValueAsString(json) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the gate's verdict to " + dir(root), e);
        }
    }

    /**
     * Writes {@code target/gate/<tier>.stopped}: the tier's claims stopped before their end ({@link TierClock}), which
     * the gate execution fails on, gated or not.
     *
     * @param root the project root
     * @param tier the tier
     * @param stop the report's {@code stopped} section of the run ({@link TierClock#stop})
     * @throws UncheckedIOException if the file cannot be written
     */
    static void writeStop(Path root, String tier, Map<String, Object> stop) {
        try {
            Files.createDirectories(dir(root));
            Files.writeString(dir(root).resolve(tier + ".stopped"), stopLine(tier, stop) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the tier's stop to " + dir(root), e);
        }
    }

    /**
     * @param tier the tier
     * @param stop its run's {@code stopped} section ({@code reason}, {@code not_run})
     * @return one line: the tier stopped before its end, why, and how many claims it did not start
     */
    static String stopLine(String tier, Map<String, Object> stop) {
        List<?> notRun = (List<?>) stop.getOrDefault("not_run", List.of());
        return "the " + tier + " tier stopped before its end: " + stop.get("reason") + "; " + notRun.size()
                + (notRun.size() == 1 ? " claim" : " claims") + " not started (NOT_RUN)";
    }

    /**
     * @param root  the project root
     * @param since the start of the build: files written before it are of another build and ignored
     * @return the line of every tier of this build that stopped before its end ({@link #writeStop})
     * @throws UncheckedIOException if the folder cannot be read
     */
    static List<String> stops(Path root, Instant since) {
        Path dir = dir(root);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> stops = new ArrayList<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".stopped")).sorted().toList()) {
                if (!Files.getLastModifiedTime(file).toInstant().isBefore(since)) {
                    stops.add(Files.readString(file).strip());
                }
            }
            return stops;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the tiers' stops in " + dir, e);
        }
    }

    /**
     * @param root  the project root
     * @param since the start of the build: files written before it are of another build and ignored
     * @return the verdicts of the tier runs of this build, by tier name
     * @throws UncheckedIOException if the folder cannot be read
     */
    @SuppressWarnings("unchecked")
    static List<Verdict> read(Path root, Instant since) {
        Path dir = dir(root);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Verdict> verdicts = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                Map<String, Object> json = JSON.readValue(file.toFile(), Map.class);
                Instant finished = Instant.parse(String.valueOf(json.get("finished")));
                if (!finished.isBefore(since)) {
                    verdicts.add(new Verdict(String.valueOf(json.get("tier")), finished, String.valueOf(json.get("baseline")),
                            (List<String>) json.getOrDefault("regressions", List.of())));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the gate's verdicts in " + dir, e);
        }
        return verdicts;
    }
}
