-- The Kafka table engine as the sink of customer.totals (docs/sinks.md): ClickHouse reads the changelog itself and a
-- materialized view per table writes each block into the tables ds-sink writes (001-tables.sql). Run with
-- -Dseams.sink=kafka-engine; a user who picks the engine instead of a sink of their own runs these with their names.
-- {database}, {broker}, {topic} and {group} are filled in per run; statements are separated by lines holding only ';'.
-- Written for ClickHouse 18.16 and current servers alike:
--   * one engine table, and consumer group, per target table: an engine table starts streaming when its first view is
--     attached and writes that block to the views attached then, so a second view created a moment later can miss up to
--     a block (kafka_max_block_size rows or stream_flush_interval_ms, 7.5 s) that the first view got;
--   * customer_totals' group is {group}.customer_totals: "caught up" is both groups caught up;
--   * total is read as a String: 18.16 does not parse a quoted decimal in JSONEachRow; toDecimal64(total, 2) converts it;
--   * a view names every column of its target, and 18.16's engine has no virtual columns for the record's position,
--     so kafka_partition and kafka_offset are -1;
--   * unknown fields are skipped: the engine always reads with input_format_skip_unknown_fields = 1.
-- Dropped view first, then its engine table (18.16 can abort when an engine table is dropped with a view attached).
CREATE TABLE {database}.seams_kafka_raw_totals (
    customer_id Int64,
    orders      UInt64,
    total       String,
    version     UInt64
) ENGINE = Kafka('{broker}', '{topic}', '{group}', 'JSONEachRow')
;
CREATE MATERIALIZED VIEW {database}.seams_kafka_raw_totals_mv TO {database}.raw_totals
AS SELECT customer_id, orders, toDecimal64(total, 2) AS total, version, toInt32(-1) AS kafka_partition,
          toInt64(-1) AS kafka_offset FROM {database}.seams_kafka_raw_totals
;
CREATE TABLE {database}.seams_kafka_customer_totals AS {database}.seams_kafka_raw_totals
ENGINE = Kafka('{broker}', '{topic}', '{group}.customer_totals', 'JSONEachRow')
;
CREATE MATERIALIZED VIEW {database}.seams_kafka_customer_totals_mv TO {database}.customer_totals
AS SELECT customer_id, orders, toDecimal64(total, 2) AS total, version FROM {database}.seams_kafka_customer_totals
