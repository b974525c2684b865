package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

/** The stand's Kafka layouts (claim B5's cluster): what one node and a three-node cluster are given. */
class BrokerLayoutTest {

    @Test
    void oneNodeIsTheDefaultAndStaysAsItWas() {
        BrokerLayout one = BrokerLayout.parse(null);
        assertThat(one.count()).isEqualTo(1);
        assertThat(BrokerLayout.parse("")).isEqualTo(one);
        assertThat(BrokerLayout.parse("${seams.kafka.brokers}")).as("an unresolved Maven expression").isEqualTo(one);
        assertThat(one.cluster()).isFalse();
        assertThat(one.onNetwork()).isEqualTo("kafka:19092");
        assertThat(one.alias(1)).isEqualTo("kafka");
        assertThat(one.replicationFactor()).isEqualTo((short) 1);
        assertThat(one.env(1)).containsExactly(
                entry("KAFKA_TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS", "1000"));
        assertThat(one.connectEnv()).isEmpty();
    }

    @Test
    void threeNodesAreAQuorumOfCombinedNodesWithEveryTopicReplicatedThreeTimes() {
        BrokerLayout three = BrokerLayout.parse("3");
        assertThat(three.cluster()).isTrue();
        assertThat(three.nodeIds()).containsExactly(1, 2, 3);
        assertThat(three.onNetwork()).isEqualTo("kafka-1:19092,kafka-2:19092,kafka-3:19092");
        assertThat(three.replicationFactor()).isEqualTo((short) 3);
        assertThat(three.minInsyncReplicas()).isEqualTo(2);
        assertThat(three.env(2))
                .containsEntry("KAFKA_NODE_ID", "2")
                .containsEntry("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@kafka-1:9094,2@kafka-2:9094,3@kafka-3:9094")
                .containsEntry("KAFKA_DEFAULT_REPLICATION_FACTOR", "3")
                .containsEntry("KAFKA_MIN_INSYNC_REPLICAS", "2")
                .containsEntry("KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE", "false")
                .containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "3")
                .containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "3")
                .containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "2")
                .containsEntry("KAFKA_TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS", "1000");
        assertThat(three.settings()).containsEntry("min.insync.replicas", "2").containsEntry("unclean.leader.election.enable", "false")
                .hasSize(7);
        assertThat(three.connectEnv()).containsOnlyKeys("CONNECT_CONFIG_STORAGE_REPLICATION_FACTOR",
                "CONNECT_OFFSET_STORAGE_REPLICATION_FACTOR", "CONNECT_STATUS_STORAGE_REPLICATION_FACTOR").containsValue("3");
    }

    @Test
    void twoNodesOrNonsenseAreRefused() {
        assertThatThrownBy(() -> BrokerLayout.parse("2")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seams.kafka.brokers must be 1");
        assertThatThrownBy(() -> BrokerLayout.parse("0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BrokerLayout.parse("three")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'three'");
    }
}
