-- ClickHouse side of the stand (CLAIMS.md, DESIGN.md). Runs on Debian's 18.16 and current servers.
-- One statement per file section, separated by lines holding only ';'.

-- Every changelog record of customer.totals, physically (MergeTree keeps duplicates; no FINAL: G4).
CREATE TABLE IF NOT EXISTS raw_totals (
    customer_id UInt32,
    orders      UInt64,
    total       Decimal(18, 2),
    version     UInt64
) ENGINE = MergeTree() ORDER BY (customer_id, version)
;
-- The same records, collapsed per customer to the highest version on merge / FINAL (G1, G2, G8).
CREATE TABLE IF NOT EXISTS customer_totals (
    customer_id UInt32,
    orders      UInt64,
    total       Decimal(18, 2),
    version     UInt64
) ENGINE = ReplacingMergeTree(version) ORDER BY customer_id
;
-- dedup-demo: +1 per order event, no dedup (G3's unprotected twin).
CREATE TABLE IF NOT EXISTS order_counts_raw (
    customer_id UInt32,
    cnt         UInt64
) ENGINE = SummingMergeTree() ORDER BY customer_id
;
-- dedup-demo: one row per order_id after merge / FINAL (G3).
CREATE TABLE IF NOT EXISTS order_dedup (
    order_id    UInt64,
    customer_id UInt32,
    amount      Decimal(18, 2),
    version     UInt64
) ENGINE = ReplacingMergeTree(version) ORDER BY order_id
;
