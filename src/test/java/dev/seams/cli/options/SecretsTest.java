package dev.seams.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a password comes from: option, then file, then environment, then the default (docs/sink.md: never only argv). */
class SecretsTest {

    @TempDir
    Path dir;

    private static final Map<String, String> ENV = Map.of("PW", "from-env");

    @Test
    void theOptionWins() {
        assertThat(Secrets.resolve("argv", null, "PW", ENV, "dflt")).isEqualTo("argv");
    }

    @Test
    void aFileIsReadWithoutItsTrailingLineBreaks() throws Exception {
        Path file = Files.writeString(dir.resolve("pw"), "se cret \r\n\n", StandardCharsets.UTF_8);

        assertThat(Secrets.resolve(null, file, "PW", ENV, "dflt")).isEqualTo("se cret ");
    }

    @Test
    void thenTheEnvironmentThenTheDefault() {
        assertThat(Secrets.resolve(null, null, "PW", ENV, "dflt")).isEqualTo("from-env");
        assertThat(Secrets.resolve(null, null, "PW", Map.of(), "dflt")).isEqualTo("dflt");
    }

    @Test
    void bothOptionAndFileOrAnUnreadableFileAreRefused() {
        assertThatThrownBy(() -> Secrets.resolve("argv", dir.resolve("pw"), "PW", ENV, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("give the password or the password file, not both");
        assertThatThrownBy(() -> Secrets.resolve(null, dir.resolve("missing"), "PW", ENV, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("cannot read the password file ");
    }
}
