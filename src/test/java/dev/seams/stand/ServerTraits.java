package dev.seams.stand;

import dev.seams.truth.ClickHouse;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Version-dependent behaviour of the stand's servers, decided in one place from their live
 * versions ({@code Stand.versions()}), so that a test asks instead of hard-coding what one version
 * does and a run on another profile (claim B7's {@code offline-candidate}, {@code current}) fails
 * only on real changes. Each rule names its source; where a test can also probe the server (G6 reads
 * {@code system.settings}), the probe is the fact and this rule is what it is checked against.
 *
 * <p>Kept small on purpose: add a rule only when a test's expectation really depends on a version.
 */
public final class ServerTraits {

    private final Version clickhouse;

    private ServerTraits(Version clickhouse) {
        this.clickhouse = clickhouse;
    }

    /**
     * @param live component → live version, as {@code Stand.versions()} returns them
     * @return the traits of those servers
     * @throws IllegalArgumentException if the ClickHouse version is missing or was not read
     */
    public static ServerTraits of(Map<String, String> live) {
        String ch = live.get("clickhouse");
        if (!Version.looksLikeOne(ch)) {
            throw new IllegalArgumentException("no ClickHouse version to decide by: " + ch);
        }
        return new ServerTraits(Version.parse(ch));
    }

    /**
     * Whether ClickHouse has the setting {@code optimize_on_insert} (a ReplacingMergeTree collapses
     * same-key rows of one INSERT block while writing the part). Source: ClickHouse changelog v21.1
     * (setting added, on by default); Debian's 18.16.1 has no such setting. Used by G6.
     *
     * @return whether the server is 21.1 or newer
     */
    public boolean clickhouseHasOptimizeOnInsert() {
        return clickhouse.atLeast("21.1");
    }

    /**
     * Whether ClickHouse prints a Decimal's trailing zeros in text ({@code toString}, TSV):
     * {@code toString(toDecimal64(10.50, 2))} is {@code 10.50} before 21.9 and {@code 10.5} from
     * 21.9 on. Source: ClickHouse changelog v21.9, backward incompatible change "do not output
     * trailing zeros in text representation of Decimal types" (the output formats follow the setting
     * {@code output_format_decimal_trailing_zeros}, default 0; {@code toString} changed unconditionally).
     *
     * @return whether the server is older than 21.9
     */
    public boolean clickhouseDecimalTextKeepsTrailingZeros() {
        return !clickhouse.atLeast("21.9");
    }

    /**
     * @param value a value of a {@code Decimal(P, S)} column, at scale S (money: scale 2, docs/event-contract.md)
     * @return its text as this ClickHouse prints it with {@code toString} or in TSV: {@code 10.50} on
     *     18.16, {@code 10.5} on 25.8; {@code 0.00} / {@code 0}; compare a TSV cell with this, never
     *     with {@code BigDecimal.toPlainString()}
     */
    public String clickhouseDecimalText(BigDecimal value) {
        if (clickhouseDecimalTextKeepsTrailingZeros()) {
            return value.toPlainString();
        }
        BigDecimal stripped = value.stripTrailingZeros();
        return (stripped.scale() < 0 ? stripped.setScale(0) : stripped).toPlainString();
    }

    /** @return the ClickHouse version the traits were decided by */
    public Version clickhouse() {
        return clickhouse;
    }
}
