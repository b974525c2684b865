package dev.seams.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code seams check-config} finds nothing in the shipped files as they are, and reads every shape of the files users
 * have; that each rule is its catalogue mutant's change, confirmed by the committed mutation report, is
 * {@code mutants/ConfigRuleCatalogTest} (beside the catalogue, which a mutant's copy does not carry).
 */
class ConfigRuleTest {

    private static final Path ROOT = Path.of(System.getProperty("seams.root", ".")).toAbsolutePath();
    private static final Path CONNECTOR = ROOT.resolve("containers/debezium/orders-connector.json");
    private static final Path DDL = ROOT.resolve("containers/clickhouse/001-tables.sql");

    @Test
    void theShippedFilesHaveNoFinding() {
        assertThat(ConfigCheck.check(ConnectorSettings.load(CONNECTOR), TableDefinitions.load(DDL))).isEmpty();
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
}
