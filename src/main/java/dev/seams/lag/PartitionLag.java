package dev.seams.lag;

/**
 * One partition's position of a consumer group, in offsets (G12).
 *
 * @param group         consumer group
 * @param topic         topic
 * @param partition     partition
 * @param committed     the group's committed offset (the next offset it will read); -1 if none
 * @param logEnd        log end offset (high watermark)
 * @param lastStable    last stable offset (what a read_committed consumer may read up to)
 * @param dataRecordsBehind data records (not transaction control markers) at offsets in
 *                      [committed, logEnd), counted by reading them read_uncommitted; {@link #UNKNOWN} where the
 *                      gap was larger than the probe reads
 */
public record PartitionLag(String group, String topic, int partition, long committed, long logEnd,
                           long lastStable, long dataRecordsBehind) {

    /** {@link #dataRecordsBehind()} of a gap that was not read. */
    public static final long UNKNOWN = -1;

    /** @return log end offset − committed offset: the lag kafka-consumer-groups shows */
    public long lag() {
        return logEnd - Math.max(committed, 0);
    }

    /** @return last stable offset − committed offset: what a read_committed consumer can still read */
    public long lagToLastStable() {
        return lastStable - Math.max(committed, 0);
    }

    /**
     * @return whether the whole lag is made of transaction control markers (commit/abort) and
     *     aborted-transaction records invisible to read_committed — e.g. the source's LAG=1 at rest
     *     when a consumer commits last offset + 1 instead of its position
     */
    public boolean onlyMarkersBehind() {
        return lag() > 0 && dataRecordsBehind == 0;   // UNKNOWN (a gap not read) is not 0
    }
}
