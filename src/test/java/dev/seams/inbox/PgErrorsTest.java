package dev.seams.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every rule of {@link PgErrors}, by SQLState class, with the exact class and name. */
class PgErrorsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "08006 | retriable: SQLState 08006 (connection exception)",
            "08001 | retriable: SQLState 08001 (connection exception)",
            "40001 | retriable: SQLState 40001 (transaction rollback)",
            "40P01 | retriable: SQLState 40P01 (transaction rollback)",
            "53100 | retriable: SQLState 53100 (insufficient resources)",
            "53300 | retriable: SQLState 53300 (insufficient resources)",
            "57P01 | retriable: SQLState 57P01 (operator intervention)",
            "57P03 | retriable: SQLState 57P03 (operator intervention)",
            "22003 | permanent: SQLState 22003 (data exception)",
            "23505 | permanent: SQLState 23505 (integrity constraint violation)",
            "42P01 | permanent: SQLState 42P01 (syntax error or access rule violation)",
            "42501 | permanent: SQLState 42501 (syntax error or access rule violation)",
            "28P01 | permanent: SQLState 28P01 (invalid authorization)",
            "3D000 | permanent: SQLState 3D000 (invalid catalog name)",
            "XX000 | permanent: SQLState XX000",
    })
    void theSqlStateClassDecides(String state, String expected) {
        assertThat(PgErrors.classify(new SQLException("boom", state))).hasToString(expected);
    }

    @Test
    void withoutSqlStateTheDriversHintDecides() {
        assertThat(PgErrors.classify(new SQLTransientConnectionException("gone")))
                .hasToString("retriable: no SQLState (SQLTransientConnectionException: gone)");
        assertThat(PgErrors.classify(new SQLException("io", (String) null, new IOException("reset"))).retriable()).isTrue();
        assertThat(PgErrors.classify(new SQLException("strange"))).hasToString("permanent: no SQLState (SQLException: strange)");
    }
}
