-- Source of truth (docs/claims.md): one row per order, money exact to the cent.
CREATE TABLE IF NOT EXISTS orders (
    order_id    bigserial      PRIMARY KEY,
    customer_id integer        NOT NULL,
    amount      numeric(12, 2) NOT NULL,
    created_at  timestamptz    NOT NULL DEFAULT now()
);
-- numeric accepts 'NaN', which is no amount of money: ds-streams could only dead-letter it, and a customer's sum
-- would become NaN. The domain refuses it here (B15; PostgreSQL refuses 'Infinity' in a numeric(p,s) by itself).
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_amount_is_a_number;
ALTER TABLE orders ADD CONSTRAINT orders_amount_is_a_number CHECK (amount <> 'NaN');
-- A DELETE's change event then carries the whole old row (customer_id, amount), not only the key.
ALTER TABLE orders REPLICA IDENTITY FULL;
-- B13 (docs/source.md "TRUNCATE"): Debezium does not carry a TRUNCATE. The connector skips truncate messages by
-- default (skipped.operations=t), and with them let through ExtractNewRecordState drops them, with no error: every
-- customer would keep its old totals for good. So a TRUNCATE of orders first deletes every row, in the same
-- transaction: each deletion is an ordinary delete event (REPLICA IDENTITY FULL: the old row), which ds-streams and
-- the sink carry; the truncate itself then finds the table empty.
CREATE OR REPLACE FUNCTION orders_truncate_as_deletes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM orders;
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS orders_truncate_as_deletes ON orders;
CREATE TRIGGER orders_truncate_as_deletes BEFORE TRUNCATE ON orders
    FOR EACH STATEMENT EXECUTE FUNCTION orders_truncate_as_deletes();
