package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.clickhouse.client.api.ClientException;
import com.clickhouse.client.api.ClientMisconfigurationException;
import com.clickhouse.client.api.ConnectionInitiationException;
import com.clickhouse.client.api.DataTransferException;
import com.clickhouse.client.api.ServerException;
import dev.seams.consumer.ErrorClass;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every rule of {@link ClickHouseErrors}, one test per rule, with the exact class and name (B5, docs/sink.md). */
class ClickHouseErrorsTest {

    private static ServerException server(int code, int http) {
        return new ServerException(code, "Code: " + code + ". DB::Exception: something", http, "query-1");
    }

    @ParameterizedTest(name = "code {0} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "252 | 500 | retriable: server error 252 (too many parts)",
            "241 | 500 | retriable: server error 241 (memory limit exceeded)",
            "159 | 500 | retriable: server error 159 (timeout exceeded)",
            "209 | 500 | retriable: server error 209 (socket timeout)",
            "210 | 500 | retriable: server error 210 (network error)",
            "202 | 500 | retriable: server error 202 (too many simultaneous queries)",
            "242 | 500 | retriable: server error 242 (table is read only)",
            "16  | 400 | permanent: server error 16 (no such column)",
            "60  | 404 | permanent: server error 60 (unknown table)",
            "81  | 404 | permanent: server error 81 (unknown database)",
            "53  | 400 | permanent: server error 53 (type mismatch)",
            "27  | 400 | permanent: server error 27 (cannot parse input)",
            "117 | 400 | permanent: server error 117 (incorrect data)",
            "321 | 400 | permanent: server error 321 (value out of range of the data type)",
            "516 | 401 | permanent: server error 516 (authentication failed)",
            "192 | 500 | permanent: server error 192 (unknown user)",
            "193 | 500 | permanent: server error 193 (wrong password)",
            "497 | 403 | permanent: server error 497 (access denied)",
            "62  | 400 | permanent: server error 62 (syntax error)",
            "999 | 500 | retriable: server error 999",
            "48  | 500 | permanent: server error 48",
    })
    void aServerErrorIsClassifiedByItsCode(int code, int http, String expected) {
        assertThat(ClickHouseErrors.classify(server(code, http))).hasToString(expected);
    }

    @Test
    void aServerWithoutCodeIsUnavailableOnlyFor502To504() {
        assertThat(ClickHouseErrors.classify(server(0, 503))).hasToString("retriable: server unavailable (HTTP 503)");
        assertThat(ClickHouseErrors.classify(server(0, 502))).hasToString("retriable: server unavailable (HTTP 502)");
        assertThat(ClickHouseErrors.classify(server(0, 504))).hasToString("retriable: server unavailable (HTTP 504)");
        assertThat(ClickHouseErrors.classify(server(0, 401))).hasToString("permanent: server error without code (HTTP 401)");
    }

    @Test
    void connectionRefusedIsRetriable() {
        ConnectionInitiationException refused = new ConnectionInitiationException("Failed to connect",
                new ConnectException("Connection refused"));

        assertThat(ClickHouseErrors.classify(refused)).hasToString("retriable: cannot connect (ConnectException: Connection refused)");
        assertThat(ClickHouseErrors.classify(new ConnectException("Connection refused")))
                .hasToString("retriable: cannot connect (ConnectException: Connection refused)");
    }

    @Test
    void aSocketTimeoutOfAFrozenServerIsRetriable() {
        DataTransferException frozen = new DataTransferException("Failed to read", new SocketTimeoutException("Read timed out"));

        assertThat(ClickHouseErrors.classify(frozen)).hasToString("retriable: timeout (SocketTimeoutException: Read timed out)");
    }

    @Test
    void ourOwnWaitTimingOutIsRetriable() {
        assertThat(ClickHouseErrors.classify(new TimeoutException())).hasToString("retriable: timeout (TimeoutException)");
    }

    @Test
    void aBrokenTransferIsRetriable() {
        assertThat(ClickHouseErrors.classify(new DataTransferException("broken pipe", new IOException("Broken pipe"))))
                .hasToString("retriable: transfer failed (IOException: Broken pipe)");
    }

    @Test
    void theCauseChainIsSearchedThroughWrappers() {
        ExecutionException wrapped = new ExecutionException(new RuntimeException("insert failed", server(252, 500)));

        assertThat(ClickHouseErrors.classify(wrapped)).hasToString("retriable: server error 252 (too many parts)");
        assertThat(ClickHouseErrors.classify(new ExecutionException(server(60, 404))).retriable()).isFalse();
    }

    @Test
    void anythingElseIsPermanent() {
        assertThat(ClickHouseErrors.classify(new ClientMisconfigurationException("bad endpoint")))
                .hasToString("permanent: unclassified (ClientMisconfigurationException: bad endpoint)");
        assertThat(ClickHouseErrors.classify(new ClientException("cannot serialize")).errorClass()).isEqualTo(ErrorClass.PERMANENT);
    }
}
