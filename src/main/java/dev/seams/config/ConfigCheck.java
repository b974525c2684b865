package dev.seams.config;

import dev.seams.config.TableDefinitions.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads a connector's settings and a DDL's tables against every {@link ConfigRule} (docs/config.md). */
public final class ConfigCheck {

    /**
     * One finding.
     *
     * @param rule    the rule that found it
     * @param setting the setting or definition as found, e.g. {@code snapshot.mode=no_data}
     */
    public record Finding(ConfigRule rule, String setting) {

        /** @return one line: the setting, what it does in production, the entries that show it */
        public String line() {
            return setting + ": " + rule.consequence() + " (shown by " + String.join(", ", rule.claims())
                    + ", docs/claims.md)";
        }
    }

    private ConfigCheck() {
    }

    /**
     * @param connector the connector's settings, or null if not given
     * @param tables    the tables of a DDL file, or null if not given
     * @return the findings, in the rules' order
     */
    public static List<Finding> check(Map<String, String> connector, Map<String, Table> tables) {
        ConfigRule.Inputs in = new ConfigRule.Inputs(connector, tables);
        List<Finding> found = new ArrayList<>();
        for (ConfigRule rule : ConfigRule.values()) {
            rule.find(in).ifPresent(setting -> found.add(new Finding(rule, setting)));
        }
        return found;
    }
}
