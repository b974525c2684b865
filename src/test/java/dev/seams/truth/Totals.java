package dev.seams.truth;

import java.math.BigDecimal;

/**
 * One customer's figures as a system reports them: order count and total, exact to the last decimal
 * the source holds. Equality compares the total by value in money's canonical form (at least two
 * decimals, trailing zeros beyond them dropped), so {@code 10.5} equals {@code 10.50} and
 * {@code 12.000} (a sum of PostgreSQL's numeric(14,3), claim B15) equals {@code 12.00}, while
 * {@code 3.255} stays {@code 3.255}: nothing is rounded, a rounded total is a wrong value.
 */
public record Totals(long orders, BigDecimal total) {

    /** Puts the total in money's canonical form; never rounds. */
    public Totals {
        total = canonical(total);
    }

    /**
     * @param amount an exact amount
     * @return it with at least two decimals and no trailing zero beyond them ({@code 12.000} → {@code 12.00})
     */
    public static BigDecimal canonical(BigDecimal amount) {
        BigDecimal stripped = amount.stripTrailingZeros();
        return stripped.scale() < 2 ? stripped.setScale(2) : stripped;
    }

    @Override
    public String toString() {
        return orders + "/" + total.toPlainString();
    }
}
