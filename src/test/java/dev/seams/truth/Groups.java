package dev.seams.truth;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumer groups as the broker's coordinator sees them (Admin API), read at the moment of the
 * call: who is a member and what it owns (claim B12: a second sink instance joined and left; claim B9:
 * whether a restarted process holds its partitions again, and how many rebalances that took), and
 * forgetting members that are gone (a restarted process then need not wait out their session).
 */
public final class Groups {

    private static final Logger LOG = LoggerFactory.getLogger(Groups.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** One member: its member id (new for every process), its static id (or null) and how many partitions it holds. */
    public record Member(String memberId, String instanceId, int partitions) {
    }

    /**
     * One look at a group.
     *
     * @param state   the group's state, e.g. {@code STABLE}, {@code PREPARING_REBALANCE}
     * @param members its members
     */
    public record Look(GroupState state, List<Member> members) {

        /**
         * @param old member ids of processes that are gone
         * @return whether the group is stable with a member not among {@code old} holding partitions: a
         *     restarted process has its partitions back
         */
        public boolean heldByNewMember(Collection<String> old) {
            return state == GroupState.STABLE
                    && members.stream().anyMatch(m -> !old.contains(m.memberId()) && m.partitions() > 0);
        }

        /** @return the members' ids */
        public List<String> memberIds() {
            return members.stream().map(Member::memberId).toList();
        }
    }

    private final Admin admin;

    private Groups(Admin admin) {
        this.admin = admin;
    }

    /**
     * @param admin an admin client of the cluster (not closed here), e.g. the stand's shared one
     * @return the cluster's consumer groups
     */
    public static Groups of(Admin admin) {
        return new Groups(admin);
    }

    /**
     * @param group a consumer group id
     * @return each member's assigned partitions, if the group is {@code Stable} (no rebalance in
     *     progress); empty while it rebalances, is empty of members or does not exist
     * @throws IllegalStateException if the broker does not answer within 30 s
     */
    public Optional<List<Set<TopicPartition>>> stableAssignments(String group) {
        return stableAssignmentsByMember(group).map(members -> List.copyOf(members.values()));
    }

    /**
     * @param group a consumer group id
     * @return while the group is STABLE, each member's assignment by its {@code group.instance.id} (its consumer id
     *     when it has none); empty while it rebalances or has no member
     * @throws IllegalStateException if the broker does not answer within 30 s
     */
    public Optional<Map<String, Set<TopicPartition>>> stableAssignmentsByMember(String group) {
        ConsumerGroupDescription description = describe(group);
        if (description.groupState() != GroupState.STABLE || description.members().isEmpty()) {
            return Optional.empty();
        }
        Map<String, Set<TopicPartition>> members = new LinkedHashMap<>();
        description.members().forEach(m -> members.put(m.groupInstanceId().orElse(m.consumerId()),
                Set.copyOf(m.assignment().topicPartitions())));
        return Optional.of(members);
    }

    /**
     * @param group a consumer group id
     * @return the group's state and members now
     * @throws IllegalStateException if the broker does not answer within 30 s
     */
    public Look look(String group) {
        ConsumerGroupDescription d = describe(group);
        List<Member> members = new ArrayList<>();
        for (MemberDescription m : d.members()) {
            members.add(new Member(m.consumerId(), m.groupInstanceId().orElse(null), m.assignment().topicPartitions().size()));
        }
        return new Look(d.groupState(), members);
    }

    /**
     * Starts a new member of the group and waits until it holds partitions: the group's members are read first (none
     * if the group does not exist yet), then {@code start} runs, then the group is looked at every 200 ms.
     *
     * @param group   a consumer group id
     * @param start   starts the new member's process
     * @param timeout the longest wait
     * @throws org.awaitility.core.ConditionTimeoutException if no new member holds partitions within the timeout
     */
    public void startHeldByNewMember(String group, Runnable start, Duration timeout) {
        List<String> old;
        try {
            old = look(group).memberIds();
        } catch (RuntimeException e) {   // the group does not exist yet
            old = List.of();
        }
        List<String> gone = old;
        start.run();
        org.awaitility.Awaitility.await("a new member of " + group + " holds its partitions").atMost(timeout)
                .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> look(group).heldByNewMember(gone));
    }

    /**
     * Removes every member of the group (Admin API {@code removeMembersFromConsumerGroup} with no
     * member named, KIP-571; {@code kafka-streams-application-reset --force} does the same). Call it
     * only when every member's process is gone — e.g. after a Kafka Streams app closed, which does
     * not leave the group (its consumers keep {@code internal.leave.group.on.close=false}; a static
     * member's close never leaves), so that the restarted app is assigned at once instead of after
     * {@code session.timeout.ms} (45 s).
     *
     * @param group a consumer group id
     * @return whether the broker removed members (false if there were none to remove)
     */
    public boolean removeAllMembers(String group) {
        var removal = admin.removeMembersFromConsumerGroup(group, new RemoveMembersFromConsumerGroupOptions()).all();
        try {
            Futures.get(removal, TIMEOUT, "no member of " + group + " removed");
            return true;
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof InterruptedException) {
                throw e;
            }
            Throwable cause = e.getCause() instanceof java.util.concurrent.ExecutionException ee && ee.getCause() != null
                    ? ee.getCause() : e.getCause();
            if (cause instanceof IllegalArgumentException) {   // the admin client's "leaving members should not be empty"
                LOG.debug("{} has no member to remove", group);
            } else {
                LOG.info(e.getMessage());
            }
            return false;
        }
    }

    /**
     * @param brokerLog the broker's log, or a part of it
     * @param group     a consumer group
     * @return the rebalances of the group it records: the group coordinator's lines
     *     {@code Stabilized group <group> generation N}, one per completed rebalance
     */
    public static long rebalances(String brokerLog, String group) {
        Matcher m = Pattern.compile("Stabilized group " + Pattern.quote(group) + " generation \\d+").matcher(brokerLog);
        long n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /**
     * The reasons the group coordinator gave for each rebalance it started, read from the broker's
     * log: its lines {@code Preparing to rebalance group <group> in state S with old generation N
     * (reason: R).} (Kafka's classic-group coordinator, 4.x; the logger name log4j appends in parentheses
     * is not part of R), in log order, as {@code "generation N: R"}.
     * They explain a change of {@link #rebalances} across versions (claim B9, B7).
     *
     * @param brokerLog the broker's log text
     * @param group     the consumer group
     * @return one entry per rebalance started, empty if none (or if the log format changed)
     */
    public static List<String> rebalanceReasons(String brokerLog, String group) {
        Matcher m = Pattern.compile("Preparing to rebalance group " + Pattern.quote(group)
                + " in state \\w+ with old generation (\\d+) (?:\\([^)]*\\) )?\\(reason: ([^\\n]*?)\\)\\.?(?: \\([\\w.$]+\\))?[ \\t]*$",
                Pattern.MULTILINE)
                .matcher(brokerLog);
        List<String> reasons = new java.util.ArrayList<>();
        while (m.find()) {
            reasons.add("generation " + m.group(1) + ": " + m.group(2));
        }
        return reasons;
    }

    private ConsumerGroupDescription describe(String group) {
        return Futures.get(admin.describeConsumerGroups(List.of(group)).all(), TIMEOUT, "cannot describe group " + group)
                .get(group);
    }
}
