package dev.seams.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every rule of {@code seams check-config} is the change of one catalogue mutant, finds it in the shipped files that
 * mutant patches, finds nothing in the shipped files as they are, and is confirmed by the committed mutation report:
 * its mutant KILLED, its claims among the entries credited with the kill (a finding no run confirms is not printed).
 */
class ConfigRuleTest {

    private static final Path ROOT = Path.of(System.getProperty("seams.root", ".")).toAbsolutePath();
    private static final Path CONNECTOR = ROOT.resolve("containers/debezium/orders-connector.json");
    private static final Path DDL = ROOT.resolve("containers/clickhouse/001-tables.sql");
    private static final Path MUTANTS = ROOT.resolve("src/test/resources/dev/seams/mutants");

    @Test
    void theShippedFilesHaveNoFinding() {
        assertThat(ConfigCheck.check(ConnectorSettings.load(CONNECTOR), TableDefinitions.load(DDL))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ConfigRule.class)
    void eachRuleFindsTheChangeOfItsMutant(ConfigRule rule) throws IOException {
        Path shipped = rule.readsConnector() ? CONNECTOR : DDL;
        Path patched = Files.createTempFile("mutated-", shipped.getFileName().toString());
        try {
            Files.writeString(patched, apply(Files.readString(MUTANTS.resolve(rule.mutant() + ".patch")), Files.readString(shipped)));
            List<ConfigCheck.Finding> found = rule.readsConnector()
                    ? ConfigCheck.check(ConnectorSettings.load(patched), null) : ConfigCheck.check(null, TableDefinitions.load(patched));
            assertThat(found).extracting(ConfigCheck.Finding::rule).contains(rule);
        } finally {
            Files.deleteIfExists(patched);
        }
    }

    @ParameterizedTest
    @EnumSource(ConfigRule.class)
    void eachRuleIsConfirmedByTheCommittedMutationReport(ConfigRule rule) throws IOException {
        JsonNode report = new ObjectMapper().readTree(ROOT.resolve("reports/mutants.json").toFile());
        JsonNode mutant = Stream.of(report.path("mutants")).flatMap(m -> java.util.stream.StreamSupport.stream(m.spliterator(), false))
                .filter(m -> rule.mutant().equals(m.path("id").asText())).findFirst().orElseThrow(
                        () -> new AssertionError(rule + ": its mutant " + rule.mutant() + " is not in reports/mutants.json"));
        assertThat(mutant.path("verdict").asText()).as(rule + "'s mutant").isEqualTo("KILLED");
        List<String> credited = new ArrayList<>();
        mutant.path("credited").fieldNames().forEachRemaining(credited::add);
        assertThat(credited).as(rule + ": the entries credited with killing " + rule.mutant()).containsAll(rule.claims());
    }

    @Test
    void theThreeShapesOfAConnectorFileReadAlike(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path connect = Files.writeString(dir.resolve("c.json"), "{\"name\": \"orders\", \"config\": {\"connector.class\": \"x\", "
                + "\"snapshot.mode\": \"no_data\", \"heartbeat.interval.ms\": 10000}}");
        Path bare = Files.writeString(dir.resolve("b.json"), "{\"connector.class\": \"x\", \"snapshot.mode\": \"no_data\", "
                + "\"heartbeat.interval.ms\": \"10000\"}");
        Path properties = Files.writeString(dir.resolve("p.properties"), "connector.class=x\nsnapshot.mode = no_data\n"
                + "heartbeat.interval.ms=10000\n");
        for (Path file : List.of(connect, bare, properties)) {
            Map<String, String> settings = ConnectorSettings.load(file);
            assertThat(settings).as(file.getFileName().toString()).containsEntry("snapshot.mode", "no_data")
                    .containsEntry("heartbeat.interval.ms", "10000");
        }
    }

    @Test
    void aFileThatIsNoConnectorConfigurationSaysSoByName(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path notJson = Files.writeString(dir.resolve("n.json"), "{ nope");
        Path noClass = Files.writeString(dir.resolve("x.json"), "{\"name\": \"orders\"}");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConnectorSettings.load(notJson))
                .hasMessageStartingWith(notJson + ": not JSON");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConnectorSettings.load(noClass))
                .hasMessageStartingWith(noClass + ": not a connector configuration");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TableDefinitions.load(noClass))
                .hasMessageStartingWith(noClass + ": no CREATE TABLE");
    }

    @Test
    void theShippedTablesAreReadWithTheirEnginesAndSortingKeys() {
        Map<String, TableDefinitions.Table> tables = TableDefinitions.load(DDL);
        assertThat(tables.get("raw_totals")).isEqualTo(new TableDefinitions.Table("raw_totals", "MergeTree", "", "customer_id, version"));
        assertThat(tables.get("customer_totals"))
                .isEqualTo(new TableDefinitions.Table("customer_totals", "ReplacingMergeTree", "version", "customer_id"));
        assertThat(tables.get("order_dedup").sortsBy("version")).isFalse();
        assertThat(tables).containsKeys("order_counts_raw", "order_dedup");
    }

    /** Applies a unified diff's hunks to a text: each hunk's old lines (context and '-') replaced by its new ones. */
    static String apply(String patch, String text) {
        String result = text;
        List<String> oldBlock = null;
        List<String> newBlock = null;
        for (String line : (patch + "\n@@").split("\n")) {
            if (line.startsWith("@@")) {
                if (oldBlock != null) {
                    String before = String.join("\n", oldBlock);
                    assertThat(result).as("the hunk's old lines in the shipped file").contains(before);
                    result = result.replace(before, String.join("\n", newBlock));
                }
                oldBlock = new ArrayList<>();
                newBlock = new ArrayList<>();
            } else if (oldBlock != null && !line.startsWith("\\")) {
                char kind = line.isEmpty() ? ' ' : line.charAt(0);
                String content = line.isEmpty() ? "" : line.substring(1);
                if (kind != '+') {
                    oldBlock.add(content);
                }
                if (kind != '-') {
                    newBlock.add(content);
                }
            }
        }
        return result;
    }
}
