package dev.seams.streams;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the static member of a dying stream thread from ds-streams' consumer group before the thread
 * is replaced ({@link ThreadReplacements}).
 *
 * <p>Why: with static membership ({@code --instance-id ID}) Kafka Streams gives the main consumer of
 * stream thread {@code N} the {@code group.instance.id} {@code ID-N}. A replaced thread leaves the group
 * without a LeaveGroup request ({@code REMAIN_IN_GROUP}), and its replacement gets the next free index,
 * i.e. a <em>new</em> static member id; the coordinator then keeps the dead member and its partitions
 * until its {@code session.timeout.ms} expires (45 s by default). Measured by B5[cluster-coordinator-kill]
 * (issue 12): a commit failed with {@code InvalidTxnStateException} after the transaction coordinator's
 * kill -9, the thread died and the group stalled 45 s. Removing the dead member (Admin API
 * {@code removeMembersFromConsumerGroup}, KIP-345) lets the replacement's join rebalance at once.
 *
 * <p>Never throws: a removal that fails or times out is logged, and the group falls back to waiting for
 * the session timeout (the state before this fix: slower, never incorrect). The Admin request itself is
 * bounded by {@link #TIMEOUT} ({@code timeoutMs}), not only the wait for it: Kafka Streams reuses thread
 * indexes, so a removal still retrying later could hit a live replacement holding the same id. A thread
 * that died of {@link FencedInstanceIdException} is not removed: its id belongs to another live member.
 */
public final class StaticMemberRemoval implements BiConsumer<String, Throwable> {

    /** Kafka Streams names stream thread {@code N} {@code <client id>-StreamThread-N}. */
    private static final Pattern STREAM_THREAD = Pattern.compile("-StreamThread-(\\d+)$");
    /** How long the removal may take before the thread is replaced anyway. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(StaticMemberRemoval.class);

    private final Supplier<Admin> admin;
    private final String groupId;
    private final String instanceId;

    /**
     * @param admin      the Admin client to remove members with (asked at each removal; may be created lazily)
     * @param groupId    the consumer group: ds-streams' {@code application.id}
     * @param instanceId the {@code --instance-id} the app runs with (not null)
     */
    public StaticMemberRemoval(Supplier<Admin> admin, String groupId, String instanceId) {
        this.admin = admin;
        this.groupId = groupId;
        this.instanceId = instanceId;
    }

    /**
     * @param threadName a stream thread's name, e.g. {@code ds-streams-7f3c…-StreamThread-1}
     * @param instanceId the app's {@code --instance-id}
     * @return that thread's static member id, e.g. {@code ds-streams-stand-1}, or empty if the name is not
     *     a stream thread's (e.g. the global thread's)
     */
    static Optional<String> memberOf(String threadName, String instanceId) {
        Matcher m = STREAM_THREAD.matcher(threadName);
        return m.find() ? Optional.of(instanceId + "-" + m.group(1)) : Optional.empty();
    }

    /**
     * Removes the static member of the stream thread named {@code threadName}, the request bounded by
     * {@link #TIMEOUT}; logs the outcome, never throws.
     *
     * @param threadName the dying stream thread's name
     * @param death      what killed it; a {@link FencedInstanceIdException} in its causes skips the removal
     */
    @Override
    public void accept(String threadName, Throwable death) {
        for (Throwable t = death; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof FencedInstanceIdException) {
                LOG.warn("{} was fenced: its static member id belongs to another live member, not removed from group {}",
                        threadName, groupId);
                return;
            }
        }
        Optional<String> member = memberOf(threadName, instanceId);
        if (member.isEmpty()) {
            LOG.warn("{} is not a stream thread: no static member to remove from group {}", threadName, groupId);
            return;
        }
        try {
            RemoveMembersFromConsumerGroupOptions options =
                    new RemoveMembersFromConsumerGroupOptions(List.of(new MemberToRemove(member.get())))
                            .timeoutMs((int) TIMEOUT.toMillis());
            options.reason("stream thread " + threadName + " died and is replaced");
            admin.get().removeMembersFromConsumerGroup(groupId, options)
                    .all().get(TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
            LOG.info("removed static member {} of the dying thread {} from group {}: its replacement joins without "
                    + "waiting for the session timeout", member.get(), threadName, groupId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("interrupted while removing static member {} from group {}", member.get(), groupId);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("could not remove static member {} of the dying thread {} from group {} ({}): the group waits for "
                    + "its session timeout", member.get(), threadName, groupId,
                    // as text: SLF4J takes a Throwable in the last slot as the exception and leaves the {} unfilled
                    String.valueOf(e.getCause() == null ? e : e.getCause()));
        }
    }
}
