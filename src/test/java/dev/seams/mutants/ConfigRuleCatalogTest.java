package dev.seams.mutants;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.config.ConfigCheck;
import dev.seams.config.ConfigRule;
import dev.seams.config.ConnectorSettings;
import dev.seams.config.TableDefinitions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every rule of {@code seams check-config} is the change of one catalogue mutant: it finds that change in the shipped
 * file the mutant patches, and the committed mutation report confirms it (its mutant KILLED, its claims among the
 * entries credited with the kill: a finding no run confirms is not printed; docs/config.md). Beside the catalogue, in
 * the mutation tier's package, which a mutant's copy does not carry.
 */
class ConfigRuleCatalogTest {

    private static final Path ROOT = Path.of(System.getProperty("seams.root", ".")).toAbsolutePath();
    private static final Path CONNECTOR = ROOT.resolve("containers/debezium/orders-connector.json");
    private static final Path DDL = ROOT.resolve("containers/clickhouse/001-tables.sql");
    private static final Path MUTANTS = ROOT.resolve("src/test/resources/dev/seams/mutants");

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
        JsonNode mutant = Stream.of(report.path("mutants")).flatMap(m -> StreamSupport.stream(m.spliterator(), false))
                .filter(m -> rule.mutant().equals(m.path("id").asText())).findFirst().orElseThrow(
                        () -> new AssertionError(rule + ": its mutant " + rule.mutant() + " is not in reports/mutants.json"));
        assertThat(mutant.path("verdict").asText()).as(rule + "'s mutant").isEqualTo("KILLED");
        List<String> credited = new ArrayList<>();
        mutant.path("credited").fieldNames().forEachRemaining(credited::add);
        assertThat(credited).as(rule + ": the entries credited with killing " + rule.mutant()).containsAll(rule.claims());
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
