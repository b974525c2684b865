package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class ExpectationTest {

    @Test
    void numbersCompareNumerically() {
        assertThat(Expectation.met("1.50", "1.5")).isTrue();
        assertThat(Expectation.met(60L, 60)).isTrue();
        assertThat(Expectation.met(new BigDecimal("1112.08"), "1112.08")).isTrue();
        assertThat(Expectation.met(59L, 60L)).isFalse();
    }

    @Test
    void otherValuesCompareAsText() {
        assertThat(Expectation.met(true, true)).isTrue();
        assertThat(Expectation.met("read_committed", "read_committed")).isTrue();
        assertThat(Expectation.met(false, true)).isFalse();
        assertThat(Expectation.met("true", true)).isTrue();
    }

    @Test
    void boundsCompareWithTheirOperator() {
        assertThat(Expectation.met(1, "> 0")).isTrue();
        assertThat(Expectation.met(0, "> 0")).isFalse();
        assertThat(Expectation.met(10, "<= 10")).isTrue();
        assertThat(Expectation.met(10.5, "<= 10")).isFalse();
        assertThat(Expectation.met(3, ">= 3")).isTrue();
        assertThat(Expectation.met(2, "!= 0")).isTrue();
        assertThat(Expectation.met("n/a", "> 0")).as("a bound needs a number").isFalse();
    }

    @Test
    void anUnmeasuredFigureNeverMeetsAnExpectation() {
        assertThat(Expectation.met(null, 0)).isFalse();
        assertThat(Expectation.met(null, "null")).isFalse();
    }
}
