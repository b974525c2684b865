package dev.seams.cli.options;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration the way the seed's commands write it ({@code --for 15s}, {@code --until-idle 5s}):
 * a non-negative whole number with a unit {@code ms}, {@code s}, {@code m} or {@code h}, or an ISO-8601
 * duration ({@code PT5S}). picocli's own converter only takes the ISO form.
 */
public final class HumanDuration implements ITypeConverter<Duration> {

    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

    /** Creates the converter (picocli instantiates it). */
    public HumanDuration() {
    }

    /**
     * @param text e.g. {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, {@code PT5S}
     * @return the duration
     * @throws TypeConversionException for any other text
     */
    @Override
    public Duration convert(String text) {
        Matcher m = SHORT.matcher(text.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        }
        try {
            return Duration.parse(text.trim());
        } catch (RuntimeException e) {
            throw new TypeConversionException("'" + text + "' is not a duration like 500ms, 5s, 2m, 1h or PT5S");
        }
    }
}
