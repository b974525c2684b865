package dev.seams.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** {@code seams sink --for 15s --until-idle 5s} as docs/sink.md and the seed write them. */
class HumanDurationTest {

    private final HumanDuration converter = new HumanDuration();

    @Test
    void readsShortFormsAndIso() {
        assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(converter.convert("5s")).isEqualTo(Duration.ofSeconds(5));
        assertThat(converter.convert("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(converter.convert("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(converter.convert("PT15S")).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void refusesAnythingElse() {
        assertThatThrownBy(() -> converter.convert("5 seconds")).isInstanceOf(TypeConversionException.class)
                .hasMessage("'5 seconds' is not a duration like 500ms, 5s, 2m, 1h or PT5S");
        assertThatThrownBy(() -> converter.convert("-5s")).isInstanceOf(TypeConversionException.class);
    }
}
