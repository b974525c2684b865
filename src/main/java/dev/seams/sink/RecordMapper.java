package dev.seams.sink;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Turns one consumed record into rows for the mode's tables. */
interface RecordMapper {

    /** @return the tables this mapper writes, in insert order */
    List<String> tables();

    /**
     * Adds the record's rows to {@code rowsByTable} (one body per table of {@link #tables()}).
     *
     * @param target the target's columns: every money value is checked to fit its column exactly
     * @return {@code false} if the record is a tombstone that carries no row (logged, not bad)
     * @throws BadRecordException        with the precise reason if the record is invalid; nothing is added then
     * @throws TargetTooNarrowException  if a legitimate value does not fit its column (claim B15): the run stops
     */
    boolean map(ConsumerRecord<byte[], byte[]> record, Map<String, RowsBody> rowsByTable, TargetColumns target)
            throws BadRecordException;
}
