-- Source of truth (docs/claims.md): one row per order, money exact to the cent.
CREATE TABLE IF NOT EXISTS orders (
    order_id    bigserial      PRIMARY KEY,
    customer_id integer        NOT NULL,
    amount      numeric(12, 2) NOT NULL,
    created_at  timestamptz    NOT NULL DEFAULT now()
);
-- A DELETE's change event then carries the whole old row (customer_id, amount), not only the key.
ALTER TABLE orders REPLICA IDENTITY FULL;
