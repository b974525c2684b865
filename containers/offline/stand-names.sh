#!/usr/bin/env bash
# Lists what carries a name prefix on the stand `seams stand up` runs (docs/stand.md "An existing stand"): Kafka topics
# and consumer groups, Kafka Connect connectors, PostgreSQL databases and replication slots, ClickHouse databases, one
# per line as `<server> <name>`; nothing when none does. .ci/run uses it after the external mode's run, which must have
# removed everything it created.
#   containers/offline/stand-names.sh PREFIX
# Exit status: 0 listed (maybe nothing); 2 no prefix given; 3 the stand's containers were not found.
set -euo pipefail
prefix=${1:?usage: stand-names.sh PREFIX}
[ -n "$prefix" ] || exit 2
ids=$(docker ps --filter label=dev.seams.stand=true --format '{{.ID}} {{.Image}}')
kafka=$(awk '$2 ~ /(^|\/)kafka:/ {print $1; exit}' <<<"$ids")
connect=$(awk '$2 ~ /connect/ {print $1; exit}' <<<"$ids")
postgres=$(awk '$2 ~ /postgres/ {print $1; exit}' <<<"$ids")
clickhouse=$(awk '$2 ~ /clickhouse/ {print $1; exit}' <<<"$ids")
[ -n "$kafka" ] && [ -n "$connect" ] && [ -n "$postgres" ] && [ -n "$clickhouse" ] || { echo "stand-names.sh: no stand running" >&2; exit 3; }
{
  docker exec "$kafka" /opt/kafka/bin/kafka-topics.sh --bootstrap-server kafka:19092 --list 2>/dev/null | sed 's/^/kafka-topic /'
  docker exec "$kafka" /opt/kafka/bin/kafka-consumer-groups.sh --bootstrap-server kafka:19092 --list 2>/dev/null | sed 's/^/kafka-group /'
  { docker exec "$connect" curl -s localhost:8083/connectors; echo; } | tr -d '[]"' | tr , '\n' | sed '/^$/d; s/^/connector /'
  docker exec "$postgres" psql -U test -d postgres -Atc "SELECT datname FROM pg_database" | sed 's/^/postgres-database /'
  docker exec "$postgres" psql -U test -d postgres -Atc "SELECT slot_name FROM pg_replication_slots" | sed 's/^/postgres-slot /'
  docker exec "$clickhouse" clickhouse-client --user test --password test -q "SHOW DATABASES" | sed 's/^/clickhouse-database /'
} | awk -v p="$prefix" '{ n = $2; sub(/^__debezium-heartbeat\./, "", n) } index(n, p) == 1'
