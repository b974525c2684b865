package dev.seams.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.seams.stand.Project;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Writes {@code reports/guarantees.json} (shape fixed in CLAIMS.md) and {@code reports/guarantees.md}
 * at the end of a test run that recorded claim evidence; a run without claims (unit tests) writes
 * nothing. Registered as a JUnit Platform {@link LauncherSessionListener} (META-INF/services).
 */
public final class ReportWriter implements LauncherSessionListener {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private long openedNanos;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        openedNanos = System.nanoTime();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        List<ClaimEvidence> claims = Evidence.claims();
        if (claims.isEmpty()) {
            return;
        }
        double suiteSeconds = (System.nanoTime() - openedNanos) / 1e9;
        write(Project.root().resolve("reports"), Evidence.suiteFacts(), claims, suiteSeconds, Instant.now());
    }

    /**
     * Writes both files.
     *
     * @param dir          the reports directory (created if missing)
     * @param suite        suite facts: {@code profile}, {@code versions} (map), {@code stand_start_seconds}
     * @param claims       the claims in the order they ran
     * @param suiteSeconds wall time of the run
     * @param now          the generation time
     */
    static void write(Path dir, Map<String, Object> suite, List<ClaimEvidence> claims, double suiteSeconds, Instant now) {
        Map<String, Object> json = toJson(suite, claims, suiteSeconds, now);
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("guarantees.json"), JSON.writeValueAsString(json) + "\n");
            Files.writeString(dir.resolve("guarantees.md"), Markdown.render(json, claims));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + dir, e);
        }
    }

    static Map<String, Object> toJson(Map<String, Object> suite, List<ClaimEvidence> claims, double suiteSeconds, Instant now) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("generated_at", now.truncatedTo(ChronoUnit.SECONDS).toString());
        json.put("profile", suite.getOrDefault("profile", "unknown"));
        json.put("versions", suite.getOrDefault("versions", Map.of()));
        json.put("suite_seconds", round(suiteSeconds));
        json.put("stand_start_seconds", suite.get("stand_start_seconds"));
        Map<String, Long> verdicts = claims.stream().collect(Collectors.groupingBy(
                c -> String.valueOf(c.verdict()), LinkedHashMap::new, Collectors.counting()));
        json.put("verdicts", verdicts);
        List<Map<String, Object>> list = new ArrayList<>();
        for (ClaimEvidence c : claims) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", c.id());
            entry.put("title", c.title());
            entry.put("verdict", c.verdict() == null ? "FAIL" : c.verdict().name());
            entry.put("anomalies", c.anomalies());
            entry.put("figures", c.figures());
            entry.put("expected", c.expectedValues());
            entry.put("seconds", round(c.seconds()));
            if (c.failure() != null) {
                entry.put("failure", c.failure());
            }
            if (!c.notes().isEmpty()) {
                entry.put("notes", c.notes());
            }
            if (!c.charts().isEmpty()) {
                entry.put("charts", c.charts());
            }
            if (!c.tables().isEmpty()) {
                entry.put("tables", c.tables());
            }
            list.add(entry);
        }
        json.put("claims", list);
        return json;
    }

    static double round(double seconds) {
        return BigDecimal.valueOf(seconds).setScale(1, java.math.RoundingMode.HALF_UP).doubleValue();
    }
}
