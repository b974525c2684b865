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
 *                      gap was larger than the probe reads; read from the log start where it is above the committed offset
 * @param logStart      log start offset (retention and deleteRecords move it): where a group that never committed starts
 */
public record PartitionLag(String group, String topic, int partition, long committed, long logEnd,
                           long lastStable, long dataRecordsBehind, long logStart) {

    /** {@link #dataRecordsBehind()} of a gap that was not read. */
    public static final long UNKNOWN = -1;

    /** A partition whose log starts at offset 0. */
    public PartitionLag(String group, String topic, int partition, long committed, long logEnd, long lastStable, long dataRecordsBehind) {
        this(group, topic, partition, committed, logEnd, lastStable, dataRecordsBehind, 0);
    }

    /**
     * @return log end offset − committed offset: the lag kafka-consumer-groups shows; where the group never committed,
     *     log end offset − log start offset: the whole log, as much as is in it
     */
    public long lag() {
        return logEnd - from();
    }

    /** @return last stable offset − committed offset (or log start): what a read_committed consumer can still read */
    public long lagToLastStable() {
        return lastStable - from();
    }

    private long from() {
        return committed >= 0 ? committed : logStart;
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
