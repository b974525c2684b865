package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimDisplayNamesTest {

    static class Samples {

        @Claim(id = "B12", variant = "commit interval 5s", title = "Group membership changes stop nothing")
        void withVariant() {
        }

        @Claim(id = "G1", title = "Baseline parity")
        void plain() {
        }

        void notAClaim() {
        }
    }

    private final ClaimDisplayNames names = new ClaimDisplayNames();

    @Test
    void aClaimTestIsNamedByItsEntryAndTitle() throws Exception {
        assertThat(name("withVariant")).isEqualTo("B12[commit interval 5s] Group membership changes stop nothing");
        assertThat(name("plain")).isEqualTo("G1 Baseline parity");
    }

    @Test
    void anyOtherTestKeepsJUnitsName() throws Exception {
        assertThat(name("notAClaim")).isEqualTo("notAClaim()");
    }

    @Test
    void theGeneratorIsTheDefaultOfThisSuite() throws Exception {
        java.util.Properties properties = new java.util.Properties();
        try (var in = getClass().getClassLoader().getResourceAsStream("junit-platform.properties")) {
            properties.load(in);
        }
        assertThat(properties.getProperty(org.junit.jupiter.api.DisplayNameGenerator.DEFAULT_GENERATOR_PROPERTY_NAME))
                .isEqualTo(ClaimDisplayNames.class.getName());
    }

    private String name(String method) throws Exception {
        return names.generateDisplayNameForMethod(List.of(), Samples.class, Samples.class.getDeclaredMethod(method));
    }
}
