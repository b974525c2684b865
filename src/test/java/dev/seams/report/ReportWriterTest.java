package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

    private static final Provenance SOURCE = new Provenance("abc", Map.of("src", "a"), "c0ffee", false);
    private static final Map<String, Object> SUITE = Map.of("profile", "offline", "versions", Map.of("clickhouse", "18.16.1"),
            "stand_start_seconds", 20.0);

    private static ClaimEvidence passed(String id) {
        ClaimEvidence e = new ClaimEvidence(id, "t", "SampleIT#t", List.of("sink/Sink"));
        e.check("lag", 0).isZero("lag");
        e.finish(Verdicts.decide(e, null));
        return e;
    }

    private static ReportWriter.Run run(String tier, Provenance source) {
        return new ReportWriter.Run(tier, 123.4, Instant.parse("2026-11-30T10:00:00Z"), source);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> claims(Map<String, Object> json) {
        return (List<Map<String, Object>>) json.get("claims");
    }

    @Test
    void aClaimWithNoTestShowsAsNotRunWithItsReason() {
        Map<String, Object> json = ReportWriter.toJson(SUITE, List.of(passed("G1")), run("default", SOURCE),
                ClaimCatalog.load(), Map.of());
        List<Map<String, Object>> claims = claims(json);
        assertThat(claims).extracting(c -> c.get("id")).containsAll(
                ClaimCatalog.load().entries().stream().map(ClaimCatalog.Entry::id).toList());
        Map<String, Object> b5 = claims.stream().filter(c -> c.get("id").equals("B5")).findFirst().orElseThrow();
        assertThat(b5.get("verdict")).isEqualTo("NOT_RUN");
        assertThat((String) b5.get("reason")).contains("faults tier, which did not run");
        Map<String, Object> g2 = claims.stream().filter(c -> c.get("id").equals("G2")).findFirst().orElseThrow();
        assertThat(g2.get("reason")).isEqualTo("no test of this run covers it");
    }

    @Test
    void theReportNamesItsSinkUnderTestAndAnotherSinksRunGoesToItsOwnDirectory() {
        Map<String, Object> json = ReportWriter.toJson(Map.of("profile", "offline", "sink", "kafka-engine"), List.of(passed("G1")),
                run("default", SOURCE), ClaimCatalog.load(), Map.of());
        assertThat(json.get("sink")).isEqualTo("kafka-engine");
        assertThat(ReportWriter.toJson(SUITE, List.of(passed("G1")), run("default", SOURCE), ClaimCatalog.load(), Map.of())
                .get("sink")).as("a run that names none is ds-sink's").isEqualTo("ds-sink");
        assertThat(ReportWriter.runDir(false, false, false, "ds-sink")).as("a user's mvn verify leaves the checkout clean")
                .isEqualTo("target/reports");
        assertThat(ReportWriter.runDir(false, false, true, "ds-sink")).as("asked to refresh the committed report").isEqualTo("reports");
        assertThat(ReportWriter.runDir(false, false, false, "kafka-engine")).isEqualTo("target/reports/sinks/kafka-engine");
        assertThat(ReportWriter.runDir(true, false, true, "ds-sink")).isEqualTo("target/partial-report");
        assertThat(ReportWriter.runDir(false, true, true, "ds-sink")).isEqualTo("target/external-report");
        assertThat(ReportWriter.reportsDir("ds-sink")).isEqualTo("reports");
        assertThat(ReportWriter.reportsDir("kafka-engine")).isEqualTo("reports/sinks/kafka-engine");
        assertThat(ReportWriter.reportsDir("image:Registry.example.com/team/sink:1.4")).isEqualTo("reports/sinks/image-registry.example.com-team-sink-1.4");
        assertThat(ReportWriter.reportsDir("ds-sink", "shipped")).isEqualTo("reports");
        assertThat(ReportWriter.reportsDir("ds-sink", "debezium-tutorial")).isEqualTo("reports/connectors/debezium-tutorial");
        assertThat(ReportWriter.reportsDir("kafka-engine", "mine")).isEqualTo("reports/connectors/mine/sinks/kafka-engine");
        assertThat(ReportWriter.runDir(false, false, false, "ds-sink", "mine")).isEqualTo("target/reports/connectors/mine");
    }

    @Test
    void aReportNamesItsConnectorAndCarriesNoTierOfAnotherConfigurationsReport() {
        Map<String, Object> shipped = ReportWriter.toJson(SUITE, List.of(passed("G1")), run("faults", SOURCE), ClaimCatalog.load(), Map.of());
        Map<String, Object> mine = ReportWriter.toJson(Map.of("profile", "offline", "sink", "ds-sink", "connector",
                        Map.of("name", "mine", "file", "/home/u/mine.json", "overrides", List.of("topic.prefix: prod -> seams"))),
                List.of(passed("G2")), run("default", SOURCE), ClaimCatalog.load(), shipped);
        assertThat(shipped.get("connector")).isEqualTo(Map.of("name", "shipped", "file", "containers/debezium/orders-connector.json"));
        assertThat(claims(mine)).filteredOn(c -> "G1".equals(c.get("id"))).extracting(c -> c.get("verdict")).containsExactly("NOT_RUN");
        assertThat(ReportWriter.connectorName(mine.get("connector"))).isEqualTo("mine");
        assertThat(ReportWriter.connectorName(null)).as("a report from before the field").isEqualTo("shipped");
    }

    @Test
    void anotherSinksReportCarriesNoTierOfDsSinksReport() {
        Map<String, Object> dsSink = ReportWriter.toJson(SUITE, List.of(passed("G1")), run("faults", SOURCE), ClaimCatalog.load(), Map.of());
        Map<String, Object> engine = ReportWriter.toJson(Map.of("profile", "offline", "sink", "kafka-engine"), List.of(passed("G2")),
                run("default", SOURCE), ClaimCatalog.load(), dsSink);
        assertThat(claims(engine)).filteredOn(c -> "G1".equals(c.get("id"))).extracting(c -> c.get("verdict")).containsExactly("NOT_RUN");
    }

    @Test
    void everyVerdictIsCountedAndEntriesFollowClaimsOrder() {
        Map<String, Object> json = ReportWriter.toJson(SUITE, List.of(passed("B1"), passed("G10"), passed("G3[n=400]"),
                passed("G3[n=51]"), passed("G2")), run("default", SOURCE), ClaimCatalog.load(), Map.of());
        assertThat(claims(json).subList(0, 5)).extracting(c -> c.get("id"))
                .containsExactly("G1", "G2", "G3[n=400]", "G3[n=51]", "G4");
        @SuppressWarnings("unchecked")
        Map<String, Long> verdicts = (Map<String, Long>) json.get("verdicts");
        assertThat(verdicts).containsOnlyKeys("PASS", "FAIL", "UNVERIFIED", "ENVIRONMENT", "NOT_RUN");
        assertThat(verdicts.get("PASS")).isEqualTo(5);
        assertThat(verdicts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(claims(json).size());
        assertThat(json.get("source")).isEqualTo(SOURCE.toJson());
    }

    @Test
    void theFaultMatrixIsSummedUpPerFault(@TempDir Path dir) throws Exception {
        ClaimEvidence fault = new ClaimEvidence("B5[clickhouse-stop]", "Faults lose nothing", "FaultMatrixIT#t", List.of());
        fault.negativeControl("raw_duplicate_rows", 12, Anomaly.DUPLICATE, "the raw twin shows the re-inserted rows");
        fault.finish(Verdicts.decide(fault, null));
        ReportWriter.write(dir, SUITE, List.of(fault, passed("B5[clickhouse-stop@50%]")), run("faults", SOURCE), ClaimCatalog.load(), false);
        assertThat(Files.readString(dir.resolve("guarantees.md"))).contains("## B5 fault matrix",
                "| clickhouse-stop | **PASS** | none | raw_duplicate_rows = 12 | 50% PASS |",
                "The default tier did not run on this source",
                "| cluster-leader-kill | **NOT_RUN** | — | — | no test of this run recorded it");
        assertThat(claims(ReportWriter.read(dir.resolve("guarantees.json")))).filteredOn(c -> c.get("id").equals("B5[cluster-leader-kill]"))
                .extracting(c -> c.get("reason")).singleElement().asString().startsWith("no test of this run recorded it");
        assertThat(ReportWriter.read(dir.resolve("guarantees.json")).get("suite_seconds"))
                .as("a faults run alone is not the default tier's time").isNull();
    }

    @Test
    void anotherTiersEntriesAreCarriedOverOnlyFromTheSameSource(@TempDir Path dir) throws Exception {
        ReportWriter.write(dir, SUITE, List.of(passed("G1")), run("default", SOURCE), ClaimCatalog.load(), true);
        ReportWriter.write(dir, SUITE, List.of(passed("B5[clickhouse-stop@50%]")), run("faults", SOURCE), ClaimCatalog.load(), true);
        Map<String, Object> both = ReportWriter.read(dir.resolve("guarantees.json"));
        assertThat(claims(both)).filteredOn(c -> !"NOT_RUN".equals(c.get("verdict"))).extracting(c -> c.get("id"))
                .containsExactly("G1", "B5[clickhouse-stop@50%]");
        assertThat(both.get("suite_seconds")).as("the default tier's time").isEqualTo(123.4);
        assertThat(Files.readString(dir.resolve("guarantees.md"))).contains("| [B5[clickhouse-stop@50%]](claims/b5.md#b5-clickhouse-stop-50) |", "| [G1](claims/g1.md#g1) |");
        assertThat(dir.resolve("claims/b5.md")).content().contains("## B5[clickhouse-stop@50%]");

        Provenance changed = new Provenance("def", Map.of("src", "b"), "c0ffee", true);
        ReportWriter.write(dir, SUITE, List.of(passed("G1")), run("default", changed), ClaimCatalog.load(), true);
        Map<String, Object> fresh = ReportWriter.read(dir.resolve("guarantees.json"));
        assertThat(claims(fresh)).filteredOn(c -> c.get("id").equals("B5")).extracting(c -> c.get("verdict"))
                .containsExactly("NOT_RUN");
        assertThat(claims(fresh)).as("an owed entry of a claim no test covered is not listed apart")
                .noneMatch(c -> String.valueOf(c.get("id")).startsWith("B5["));
    }

    @Test
    void aCarriedTierThatStoppedKeepsItsCutEntriesWithTheStopsReason(@TempDir Path dir) throws Exception {
        ClaimEvidence cut = new ClaimEvidence("B5[broker-kill]", "t", "BrokerFaultIT#b5", List.of());
        cut.finish(new Verdicts.Outcome(Verdict.NOT_RUN, "the tier's claims ran out of their 3000 s", List.of()));
        Map<String, Object> stop = Map.of("reason", "the tier's claims ran out of their 3000 s", "not_run", List.of("B5[broker-kill]"));
        ReportWriter.write(dir, SUITE, List.of(passed("B5[clickhouse-stop@50%]"), cut), new ReportWriter.Run("faults", 1,
                Instant.parse("2026-11-30T10:00:00Z"), SOURCE, null, true, stop), ClaimCatalog.load(), true);
        ReportWriter.write(dir, SUITE, List.of(passed("B5[cluster-leader-kill]")), run("faults-cluster", SOURCE), ClaimCatalog.load(), true);

        Map<String, Object> all = ReportWriter.read(dir.resolve("guarantees.json"));
        assertThat(claims(all)).filteredOn(c -> c.get("id").equals("B5[broker-kill]")).extracting(c -> c.get("reason"))
                .containsExactly("the tier's claims ran out of their 3000 s");
        assertThat(Files.readString(dir.resolve("guarantees.md"))).contains("**Overall: FAIL** — the faults tier stopped");
    }

    @Test
    void theFaultsProfilesTwoExecutionsLandInOneReport(@TempDir Path dir) throws Exception {
        // pom.xml's faults profile: the single-broker execution (tier faults), then the cluster one (faults-cluster)
        ReportWriter.write(dir, SUITE, List.of(passed("G1")), run("default", SOURCE), ClaimCatalog.load(), true);
        ReportWriter.write(dir, SUITE, List.of(passed("B5[broker-kill]")), run("faults", SOURCE), ClaimCatalog.load(), true);
        ReportWriter.write(dir, SUITE, List.of(passed("B5[cluster-leader-kill]")), run("faults-cluster", SOURCE), ClaimCatalog.load(), true);
        Map<String, Object> all = ReportWriter.read(dir.resolve("guarantees.json"));
        assertThat(claims(all)).filteredOn(c -> !"NOT_RUN".equals(c.get("verdict"))).extracting(c -> c.get("id"))
                .containsExactly("G1", "B5[broker-kill]", "B5[cluster-leader-kill]");

        // the next -Pfaults run replaces each execution's own entries and keeps the other's until it runs too
        ReportWriter.write(dir, SUITE, List.of(passed("B5[sink-kill-after-insert]")), run("faults", SOURCE), ClaimCatalog.load(), true);
        Map<String, Object> again = ReportWriter.read(dir.resolve("guarantees.json"));
        assertThat(claims(again)).filteredOn(c -> !"NOT_RUN".equals(c.get("verdict"))).extracting(c -> c.get("id"))
                .containsExactly("G1", "B5[cluster-leader-kill]", "B5[sink-kill-after-insert]");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> runs = (List<Map<String, Object>>) again.get("runs");
        assertThat(runs).extracting(r -> r.get("tier")).containsExactlyInAnyOrder("faults", "default", "faults-cluster");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aWholeGatedTierRunListsTheBaselinePassesItDidNotProduceAsMissingAndARestrictedOneDoesNot() {
        Gate gate = Gate.of(Map.of("source", Map.of("commit", "2af64c2"), "claims", List.of(
                Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G2", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B5[broker-kill]", "verdict", "PASS", "tier", "faults"))), "baseline.json");
        Instant at = Instant.parse("2026-11-30T10:00:00Z");

        Map<String, Object> whole = ReportWriter.toJson(SUITE, List.of(passed("G1")),
                new ReportWriter.Run("default", 1, at, SOURCE, gate, true, null), ClaimCatalog.load(), Map.of());
        Map<String, Object> restricted = ReportWriter.toJson(SUITE, List.of(passed("G1")),
                new ReportWriter.Run("default", 1, at, SOURCE, gate, false, null), ClaimCatalog.load(), Map.of());

        assertThat((List<String>) ((Map<String, Object>) whole.get("gate")).get("regressions")).containsExactly(
                "G2: PASS in the baseline, MISSING now (the default tier ran whole and produced it as NOT_RUN: "
                        + "no test of this run covers it)");
        assertThat((List<String>) ((Map<String, Object>) restricted.get("gate")).get("regressions")).isEmpty();
    }
}
