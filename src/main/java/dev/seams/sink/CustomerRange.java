package dev.seams.sink;

/**
 * An opt-in rule of the sink: the customer ids it accepts, inclusive ({@code --customers 1..5}); a
 * changelog record of any other customer is then a bad record. It reproduces the source's consumer,
 * which rejected customer_id outside 1..5 (section "Эволюция схемы сквозь звенья") because its
 * stand only had those customers: a property of a stand, not of a sink, so no range applies unless
 * one is given (claims G10, B11).
 *
 * @param first lowest accepted id, >= 1
 * @param last  highest accepted id, >= first
 */
public record CustomerRange(int first, int last) {

    /** @throws IllegalArgumentException unless 1 <= first <= last */
    public CustomerRange {
        if (first < 1 || last < first) {
            throw new IllegalArgumentException("customer range must satisfy 1 <= first <= last, got " + first + ".." + last);
        }
    }

    /**
     * @param text {@code first..last}, e.g. {@code 1..5}
     * @return the range
     * @throws IllegalArgumentException if the text is not of that form
     */
    public static CustomerRange parse(String text) {
        String[] parts = text.trim().split("\\.\\.", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("customer range must look like 1..5, got '" + text + "'");
        }
        try {
            return new CustomerRange(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("customer range must look like 1..5, got '" + text + "'", e);
        }
    }

    /** @return whether the id lies in the range */
    public boolean contains(long customerId) {
        return customerId >= first && customerId <= last;
    }

    @Override
    public String toString() {
        return first + ".." + last;
    }
}
