package dev.seams.stand;

import java.math.BigDecimal;

/**
 * One customer's figures as a system reports them: order count and total, exact to the cent.
 * Equality compares the total by value at scale 2, so {@code 10.5} equals {@code 10.50}.
 */
public record Totals(long orders, BigDecimal total) {

    /** Normalises the total to scale 2. */
    public Totals {
        total = total.setScale(2);
    }

    @Override
    public String toString() {
        return orders + "/" + total.toPlainString();
    }
}
