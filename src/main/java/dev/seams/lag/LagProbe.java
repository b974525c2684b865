package dev.seams.lag;

import dev.seams.kafka.KafkaClientConfig;
import dev.seams.kafka.OffsetRangeReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Lag of a consumer group per partition, like {@code kafka-consumer-groups --describe}, plus the
 * last stable offset and a check of what lies behind the committed offset (claim G12, seed section
 * "Лаг как метрика здоровья"): a lag made only of transaction control markers is told from real lag
 * by reading the records between the committed offset and the log end (read_uncommitted) and
 * counting data records.
 */
public final class LagProbe {

    /** How long a request may wait for the cluster unless the caller says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** The cluster did not answer a request within the probe's timeout: nothing was measured. */
    public static final class UnansweredException extends IllegalStateException {
        UnansweredException(String message, Throwable cause) {
            super(message, cause);
        }
    }


    /** {@link #LagProbe(Admin, String, long, KafkaClientConfig)}'s bound for reading no partition's records: every gap is read. */
    public static final long READ_ALL = Long.MAX_VALUE;

    private final Admin admin;
    private final Duration timeout;
    private final String bootstrapServers;
    private final long maxGapRead;
    private final KafkaClientConfig clientConfig;

    /**
     * A probe that reads every gap between a committed offset and the log end to count its data records (the suite's
     * probe: a claim needs the exact count whatever the backlog).
     *
     * @param admin            an admin client of the cluster (not closed here)
     * @param bootstrapServers the same cluster, for the short-lived consumer that counts data records
     */
    public LagProbe(Admin admin, String bootstrapServers) {
        this(admin, bootstrapServers, READ_ALL, KafkaClientConfig.NONE);
    }

    /**
     * @param admin            an admin client of the cluster (not closed here)
     * @param bootstrapServers the same cluster, for the short-lived consumer that counts data records
     * @param maxGapRead       the largest gap, in offsets, whose records are read to count the data records behind; a
     *                         partition further behind shows {@link PartitionLag#UNKNOWN} (a real backlog is not read
     *                         whole: {@code seams lag --max-read})
     * @param clientConfig     the user's client properties for that consumer ({@code --kafka-config})
     * @throws IllegalArgumentException if maxGapRead is negative
     */
    public LagProbe(Admin admin, String bootstrapServers, long maxGapRead, KafkaClientConfig clientConfig) {
        this(admin, bootstrapServers, maxGapRead, clientConfig, DEFAULT_TIMEOUT);
    }

    /**
     * @param timeout how long each request may wait for the cluster ({@code seams lag --timeout}); the admin client's own
     *                {@code default.api.timeout.ms} should not be longer. The read that counts the data records behind
     *                may take {@link #DEFAULT_TIMEOUT}, or this timeout if longer
     * @see #LagProbe(Admin, String, long, KafkaClientConfig)
     */
    public LagProbe(Admin admin, String bootstrapServers, long maxGapRead, KafkaClientConfig clientConfig, Duration timeout) {
        this.timeout = timeout;
        if (maxGapRead < 0) {
            throw new IllegalArgumentException("the largest gap to read must not be negative, got " + maxGapRead);
        }
        this.admin = admin;
        this.bootstrapServers = bootstrapServers;
        this.maxGapRead = maxGapRead;
        this.clientConfig = clientConfig;
    }

    /**
     * Describes every partition of each topic the group has committed offsets on: a partition of such a topic it never
     * committed (one added to the topic, one its members never got) shows committed -1 and its whole log (from its start)
     * as lag, never nothing — a monitor reading this table must see it.
     *
     * @param group consumer group id
     * @return one entry per partition, ordered by topic and partition; empty if the group has no offsets
     * @throws UnansweredException if the cluster does not answer within the timeout; IllegalStateException if it refuses
     */
    public List<PartitionLag> describe(String group) {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>(groupOffsets(group));
        committed.keySet().stream().map(TopicPartition::topic).distinct().toList()
                .forEach(topic -> partitions(topic).forEach(tp -> committed.putIfAbsent(tp, null)));
        return describe(group, committed);
    }

    /**
     * Describes the given partitions of a topic for the group (partitions without committed offsets
     * show committed = -1 and count the whole log, from its start, as lag).
     *
     * @param group consumer group id
     * @param topic topic
     * @return one entry per partition of the topic
     */
    public List<PartitionLag> describe(String group, String topic) {
        Map<TopicPartition, OffsetAndMetadata> all = groupOffsets(group);
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        for (TopicPartition tp : partitions(topic)) {
            committed.put(tp, all.get(tp));
        }
        return describe(group, committed);
    }

    /**
     * The cheap form for sampling: log end offset − committed offset summed over the topic's
     * partitions, without reading records.
     *
     * @return the group's total lag on the topic, in offsets
     */
    public long totalLag(String group, String topic) {
        Map<TopicPartition, OffsetAndMetadata> all = groupOffsets(group);
        List<TopicPartition> partitions = partitions(topic);
        Map<TopicPartition, Long> logEnd = offsets(partitions, OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED);
        long lag = 0;
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata om = all.get(tp);
            lag += logEnd.get(tp) - (om == null ? 0 : om.offset());
        }
        return lag;
    }

    /** @return the group's committed offsets; none for a group the cluster does not know (a typo is a row, not a failure) */
    private Map<TopicPartition, OffsetAndMetadata> groupOffsets(String group) {
        return unlessUnknownGroup(() -> get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()), Map.of());
    }

    /** @return the request's answer, or {@code none} when the cluster knows no such group ({@link GroupIdNotFoundException}) */
    private static <T> T unlessUnknownGroup(java.util.function.Supplier<T> request, T none) {
        try {
            return request.get();
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return none;
            }
            throw e;
        }
    }

    private List<PartitionLag> describe(String group, Map<TopicPartition, OffsetAndMetadata> committed) {
        if (committed.isEmpty()) {
            return List.of();
        }
        Map<TopicPartition, Long> logStart = offsets(committed.keySet(), OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, Long> logEnd = offsets(committed.keySet(), OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, Long> lastStable = offsets(committed.keySet(), OffsetSpec.latest(), IsolationLevel.READ_COMMITTED);
        Map<TopicPartition, Long> read = gapsToRead(committed, logStart, logEnd, maxGapRead);
        return rows(group, committed, logStart, logEnd, lastStable, read, countDataRecords(read, logEnd));
    }

    /**
     * @param committed  partition → the group's committed offset, null where it never committed one
     * @param logStart   partition → its log start offset
     * @param logEnd     partition → its log end offset
     * @param maxGapRead the largest gap whose records are read
     * @return partition → the offset its gap is read from (its committed offset, or the log start where that is above it
     *     or the group has none: what is left of the log), for the partitions whose gap is at most {@code maxGapRead}
     */
    static Map<TopicPartition, Long> gapsToRead(Map<TopicPartition, OffsetAndMetadata> committed, Map<TopicPartition, Long> logStart,
                                                Map<TopicPartition, Long> logEnd, long maxGapRead) {
        Map<TopicPartition, Long> read = new HashMap<>();
        committed.forEach((tp, om) -> {
            long from = Math.max(om == null ? 0L : om.offset(), logStart.getOrDefault(tp, 0L));
            if (logEnd.get(tp) - from <= maxGapRead) {
                read.put(tp, from);
            }
        });
        return read;
    }

    /**
     * @param group      the consumer group
     * @param committed  partition → the group's committed offset, null where it never committed one (committed -1: the
     *                   whole log, from its start, counts as behind)
     * @param logStart   partition → its log start offset
     * @param logEnd     partition → its log end offset
     * @param lastStable partition → its last stable offset
     * @param read       the gaps that were read ({@link #gapsToRead})
     * @param dataBehind partition → the data records found in its gap (absent: none)
     * @return one row per partition, ordered by topic and partition; {@link PartitionLag#UNKNOWN} data records behind
     *     where the gap was not read
     */
    static List<PartitionLag> rows(String group, Map<TopicPartition, OffsetAndMetadata> committed, Map<TopicPartition, Long> logStart,
                                   Map<TopicPartition, Long> logEnd, Map<TopicPartition, Long> lastStable,
                                   Map<TopicPartition, Long> read, Map<TopicPartition, Long> dataBehind) {
        List<PartitionLag> result = new ArrayList<>();
        for (TopicPartition tp : committed.keySet()) {
            OffsetAndMetadata om = committed.get(tp);
            long behind = read.containsKey(tp) ? dataBehind.getOrDefault(tp, 0L) : PartitionLag.UNKNOWN;
            result.add(new PartitionLag(group, tp.topic(), tp.partition(), om == null ? -1 : om.offset(),
                    logEnd.get(tp), lastStable.get(tp), behind, logStart.getOrDefault(tp, 0L)));
        }
        result.sort(Comparator.comparing(PartitionLag::topic).thenComparingInt(PartitionLag::partition));
        return result;
    }

    private List<TopicPartition> partitions(String topic) {
        return get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic).partitions().stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
    }

    private Map<TopicPartition, Long> offsets(java.util.Collection<TopicPartition> partitions, OffsetSpec spec, IsolationLevel isolation) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, ListOffsetsResultInfo> info =
                get(admin.listOffsets(request, new ListOffsetsOptions(isolation)).all());
        Map<TopicPartition, Long> result = new HashMap<>();
        info.forEach((tp, i) -> result.put(tp, i.offset()));
        return result;
    }

    /** Data records in [from, to) per partition, read read_uncommitted (control markers are never returned). */
    private Map<TopicPartition, Long> countDataRecords(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
        Map<TopicPartition, Long> counts = new HashMap<>();
        // a read of up to maxGapRead records per partition, not one request: never bounded below the default
        Duration budget = timeout.compareTo(DEFAULT_TIMEOUT) > 0 ? timeout : DEFAULT_TIMEOUT;
        try {
            OffsetRangeReader.read(bootstrapServers, clientConfig, IsolationLevel.READ_UNCOMMITTED, from, to, budget,
                    r -> counts.merge(new TopicPartition(r.topic(), r.partition()), 1L, Long::sum));
        } catch (org.apache.kafka.common.errors.TimeoutException | OffsetRangeReader.NotReadInTimeException slow) {
            throw new UnansweredException("the cluster at " + bootstrapServers + " did not serve the records behind within "
                    + budget.toSeconds() + " s (" + slow.getMessage() + ")", slow);
        }
        return counts;
    }

    /**
     * The partition's owner in the group, as {@code kafka-consumer-groups --describe} shows it.
     *
     * @param consumerId the member id
     * @param host       the member's host as the broker saw it, e.g. {@code /10.0.0.7}
     * @param clientId   the member's client id
     */
    public record Owner(String consumerId, String host, String clientId) {

        /** What a partition no member holds shows: {@code -} in each column. */
        public static final Owner NONE = new Owner("-", "-", "-");
    }

    /**
     * @param group a consumer group id
     * @return partition → the member that holds it now (absent: no member holds it)
     * @throws UnansweredException if the cluster does not answer within the timeout; IllegalStateException if it refuses
     */
    public Map<TopicPartition, Owner> owners(String group) {
        Map<TopicPartition, Owner> owners = new HashMap<>();
        unlessUnknownGroup(() -> get(admin.describeConsumerGroups(List.of(group)).all()).get(group).members(), List.<MemberDescription>of())
                .forEach(m -> m.assignment().topicPartitions().forEach(tp -> owners.put(tp, new Owner(m.consumerId(), m.host(), m.clientId()))));
        return owners;
    }

    /** The columns of {@link #format}: kafka-consumer-groups' in its order, then this probe's. */
    public static final List<String> COLUMNS = List.of("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
            "CONSUMER-ID", "HOST", "CLIENT-ID", "LAST-STABLE-OFFSET", "LAG-TO-LSO", "DATA-BEHIND");

    /**
     * @param lags   partitions, as {@link #describe} returns them
     * @param owners partition → its owner now ({@link #owners}); a partition absent shows {@link Owner#NONE}
     * @return the lag table: {@code kafka-consumer-groups --describe}'s columns in their order (scripts that read them
     *     by position keep working), then the last stable offset, the lag against it and the data records behind
     *     ({@code -} where the gap was not read), a lag made only of control markers marked after the row
     */
    public static String format(List<PartitionLag> lags, Map<TopicPartition, Owner> owners) {
        StringBuilder out = new StringBuilder(String.format(ROW, (Object[]) concat(COLUMNS, "")));
        for (PartitionLag l : lags) {
            Owner o = owners.getOrDefault(new TopicPartition(l.topic(), l.partition()), Owner.NONE);
            out.append(String.format(ROW, l.group(), l.topic(), l.partition(), l.committed() < 0 ? "-" : Long.toString(l.committed()),
                    l.logEnd(), l.lag(), o.consumerId(), o.host(), o.clientId(), l.lastStable(), l.lagToLastStable(),
                    l.dataRecordsBehind() == PartitionLag.UNKNOWN ? "-" : Long.toString(l.dataRecordsBehind()),
                    l.onlyMarkersBehind() ? "  (control markers only)" : ""));
        }
        return out.toString();
    }

    private static final String ROW = "%-12s %-40s %9s %14s %14s %6s %-40s %-16s %-24s %18s %10s %11s%s%n";

    /** What the row of a group without committed offsets says after it. */
    public static final String NO_OFFSETS = "  (no committed offsets: the cluster knows no such group, or it never committed)";

    /**
     * @param group the group described
     * @return {@link #format(List, Map)}; for a group without committed offsets one row saying so ({@value #NO_OFFSETS}),
     *     every column {@code -}, so that a typo in one of several groups is visible and fails nothing
     */
    public static String format(String group, List<PartitionLag> lags, Map<TopicPartition, Owner> owners) {
        if (!lags.isEmpty()) {
            return format(lags, owners);
        }
        List<String> dashes = new ArrayList<>(java.util.Collections.nCopies(COLUMNS.size() - 1, "-"));
        dashes.add(0, group);
        return String.format(ROW, (Object[]) concat(COLUMNS, "")) + String.format(ROW, (Object[]) concat(dashes, NO_OFFSETS));
    }

    private static String[] concat(List<String> columns, String last) {
        List<String> all = new ArrayList<>(columns);
        all.add(last);
        return all.toArray(String[]::new);
    }

    private <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking the broker", e);
        } catch (TimeoutException e) {
            throw unanswered(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw unanswered(e.getCause());
            }
            throw new IllegalStateException("the cluster at " + bootstrapServers + " refused the request: " + e.getCause(), e.getCause());
        }
    }

    private UnansweredException unanswered(Throwable cause) {
        return new UnansweredException("the cluster at " + bootstrapServers + " did not answer within " + timeout.toMillis() / 1000.0
                + " s (" + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()) + ")", cause);
    }
}
