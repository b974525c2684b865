package dev.seams.check;

import dev.seams.report.ClaimEvidence;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;

/**
 * Debezium's re-sends (B5, B17, B18: a restarted or repointed connector resumes from its last committed source offset):
 * the {@code orders.events} records of a run whose change — order key, {@code __lsn}, {@code __op} — was already
 * written once, counted per change.
 */
public final class ResentChanges {

    private static final Pattern LSN = Pattern.compile("\"__lsn\":(\\d+)");
    private static final Pattern OP = Pattern.compile("\"__op\":\"(\\w)\"");

    private ResentChanges() {
    }

    /**
     * Records the re-sends of {@code orders.events} from {@code from} to its end: figures
     * {@code orders_events_records_of_the_run}, {@code orders_events_changes_resent}, and the check that the distinct
     * changes are at least the load's.
     *
     * @param e       the claim entry
     * @param topics  the stand's topics
     * @param from    the run's first offset per partition of {@code orders.events}
     * @param changes the changes the run's load applied in PostgreSQL
     */
    public static void record(ClaimEvidence e, Topics topics, Map<TopicPartition, Long> from, long changes) {
        Map<String, Long> seen = new HashMap<>();
        long[] records = {0};
        topics.readFrom(RunNames.ORDERS_EVENTS, "read_committed", from, r -> {
            records[0]++;
            String value = r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8);
            Matcher lsn = LSN.matcher(value);
            Matcher op = OP.matcher(value);
            String key = (r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8))
                    + "@" + (lsn.find() ? lsn.group(1) : r.partition() + "/" + r.offset()) + ":" + (op.find() ? op.group(1) : "?");
            seen.merge(key, 1L, Long::sum);
        });
        e.figure("orders_events_records_of_the_run", records[0]);
        e.figure("orders_events_changes_resent", seen.values().stream().mapToLong(n -> n - 1).sum());
        e.check("orders_events_changes_of_the_run", (long) seen.size()).isAtLeast(changes,
                "distinct changes (order, LSN, op) in orders.events during the run: at least the load's changes");
    }
}
