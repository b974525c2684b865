package dev.seams.stand;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version as the servers and images write it: dotted numbers, then an optional qualifier
 * ({@code 3.5.0.Final} is 3, 5, 0 and {@code Final}; {@code 18beta1} is 18 and {@code beta1};
 * {@code 15.18 (Debian 15.18-0+deb12u1)} is 15, 18 and no qualifier: text after a space is
 * dropped). Used by {@link ServerVersions} (claim B7) and {@link ServerTraits}.
 *
 * @param numbers   the dotted numbers, at least one
 * @param qualifier what follows them up to the first space, without a leading {@code .} or
 *                  {@code -}; empty if nothing does
 */
public record Version(List<Integer> numbers, String qualifier) implements Comparable<Version> {

    private static final Pattern FORM = Pattern.compile("^(\\d+(?:\\.\\d+)*)[.-]?(\\S*)");

    /** Copies the numbers. */
    public Version {
        numbers = List.copyOf(numbers);
        if (numbers.isEmpty()) {
            throw new IllegalArgumentException("a version has at least one number");
        }
    }

    /**
     * @param text a version as printed, e.g. {@code 25.8.11.66} or {@code 15.18 (Debian ...)}
     * @return the parsed version
     * @throws IllegalArgumentException if the text does not start with a number
     */
    public static Version parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.strip());
        if (!m.find()) {
            throw new IllegalArgumentException("not a version: '" + text + "'");
        }
        List<Integer> numbers = new ArrayList<>();
        for (String part : m.group(1).split("\\.")) {
            numbers.add(Integer.parseInt(part));
        }
        return new Version(numbers, m.group(2));
    }

    /** @return whether the text starts like a version (a digit after optional blanks) */
    public static boolean looksLikeOne(String text) {
        return text != null && FORM.matcher(text.strip()).find();
    }

    /**
     * @param count how many leading numbers
     * @return this version's first {@code count} numbers (missing ones count as 0), no qualifier
     */
    public Version first(int count) {
        List<Integer> head = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            head.add(i < numbers.size() ? numbers.get(i) : 0);
        }
        return new Version(head, "");
    }

    /**
     * Orders by the numbers only (missing trailing numbers count as 0; the qualifier is ignored,
     * so {@code 21.1 == 21.1.0.0}); for "does this server have feature X since version V".
     */
    @Override
    public int compareTo(Version other) {
        int size = Math.max(numbers.size(), other.numbers.size());
        for (int i = 0; i < size; i++) {
            int a = i < numbers.size() ? numbers.get(i) : 0;
            int b = i < other.numbers.size() ? other.numbers.get(i) : 0;
            if (a != b) {
                return Integer.compare(a, b);
            }
        }
        return 0;
    }

    /** @return whether this version is {@code other} or newer, by {@link #compareTo} */
    public boolean atLeast(String other) {
        return compareTo(parse(other)) >= 0;
    }

    /** @return the canonical text: the numbers joined by dots, then {@code .qualifier} if any */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        numbers.forEach(n -> text.append(text.isEmpty() ? "" : ".").append(n));
        return qualifier.isEmpty() ? text.toString() : text + "." + qualifier;
    }
}
