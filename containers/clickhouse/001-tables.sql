-- ClickHouse side of the stand (docs/claims.md). Runs on Debian's 18.16 and current servers.
-- One statement per file section, separated by lines holding only ';'.
-- Types mirror PostgreSQL's so that the sink carries everything the source can hold (B11):
-- customer_id integer (or bigint, B15) -> Int64, order_id bigint -> Int64, numeric(12,2) -> Decimal(18,2) (signed).

-- Every changelog record of customer.totals, physically (MergeTree keeps duplicates; no FINAL: G4),
-- with the record's position in customer.totals (which records reached ClickHouse: G14, B5).
CREATE TABLE IF NOT EXISTS raw_totals (
    customer_id     Int64,
    orders          UInt64,
    total           Decimal(18, 2),
    version         UInt64,
    kafka_partition Int32,
    kafka_offset    Int64
) ENGINE = MergeTree() ORDER BY (customer_id, version)
;
-- The same records, collapsed per customer to the highest version on merge / FINAL (G1, G2, G8).
-- version = the per-customer sequence ds-streams writes in each record, never the Kafka offset (B10).
CREATE TABLE IF NOT EXISTS customer_totals (
    customer_id Int64,
    orders      UInt64,
    total       Decimal(18, 2),
    version     UInt64
) ENGINE = ReplacingMergeTree(version) ORDER BY customer_id
;
-- dedup-demo: +1 per order change event (insert, update, delete), no dedup (G3's unprotected twin).
CREATE TABLE IF NOT EXISTS order_counts_raw (
    customer_id Int64,
    cnt         UInt64
) ENGINE = SummingMergeTree() ORDER BY customer_id
;
-- dedup-demo: one row per order_id after merge / FINAL (G3); version = the change's source LSN
-- (__lsn, monotonic per order), is_deleted = 1 for a DELETE (the old row). PostgreSQL's orders are
--   SELECT order_id, customer_id, amount FROM order_dedup FINAL WHERE is_deleted = 0
-- On servers before 20.x send it with the setting optimize_move_to_prewhere = 0: they move such a
-- WHERE to PREWHERE, which runs BEFORE FINAL (ClickHouse#8684) and would bring deleted orders back.
-- (A plain column, not the is_deleted engine parameter of 23.2+, which 18.16 does not have.)
CREATE TABLE IF NOT EXISTS order_dedup (
    order_id    Int64,
    customer_id Int64,
    amount      Decimal(18, 2),
    version     UInt64,
    is_deleted  UInt8
) ENGINE = ReplacingMergeTree(version) ORDER BY order_id
