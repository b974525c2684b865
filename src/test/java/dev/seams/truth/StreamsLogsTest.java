package dev.seams.truth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** B9's and G14's readings of a restarted ds-streams' log, from Kafka Streams 4.2's own lines. */
class StreamsLogsTest {

    @Test
    void sumsTheRecordsOfEveryChangelogPartitionRestored() {
        String log = """
                04:45:51.935 INFO  [x-StateUpdater-1] o.a.k.s.p.i.StoreChangelogReader - state-updater [x-StateUpdater-1] Restoration in progress for 1 partitions. {ds-streams-totals-by-customer-changelog-2: position=1055, end=56897, totalRestored=1000}
                04:45:53.336 INFO  [x-StateUpdater-1] o.a.k.s.p.i.StoreChangelogReader - state-updater [x-StateUpdater-1] Finished restoring changelog ds-streams-totals-by-customer-changelog-2 to store totals-by-customer with a total number of 55483 records
                04:45:54.291 INFO  [x-StateUpdater-1] o.a.k.s.p.i.StoreChangelogReader - state-updater [x-StateUpdater-1] Finished restoring changelog ds-streams-orders-by-id-changelog-1 to store orders-by-id with a total number of 67926 records
                """;
        assertThat(StreamsLogs.restoredRecords(log)).isEqualTo(55483 + 67926);
    }

    @Test
    void aProcessThatRestoredNothingRestoredZero() {
        assertThat(StreamsLogs.restoredRecords("04:45:49.983 INFO [main] o.apache.kafka.streams.KafkaStreams - State transition from CREATED to REBALANCING"))
                .isZero();
    }

    @Test
    void aRestartThatFoundItsTasksCorruptedSaysSo() {
        String log = "05:52:18.539 ERROR [x-StreamThread-1] o.a.k.s.p.internals.TaskManager - stream-thread [x-StreamThread-1] "
                + "Get exceptions for the following tasks: {0_1=org.apache.kafka.streams.errors.TaskCorruptedException: "
                + "Tasks [0_1] are corrupted and hence need to be re-initialized}";
        assertThat(StreamsLogs.taskCorrupted(log)).isTrue();
        assertThat(StreamsLogs.taskCorrupted("05:52:17.001 INFO [main] o.apache.kafka.streams.KafkaStreams - State transition from CREATED to REBALANCING"))
                .isFalse();
    }
}
