#!/usr/bin/env bash
# Lists every name on the stand `seams stand up` runs (docs/stand.md "An existing stand"): Kafka topics, consumer groups
# and transactional ids, Kafka Connect connectors, PostgreSQL databases and replication slots, ClickHouse databases,
# one per line as `<kind> <name>`, sorted. .ci/run lists them before and after the external mode's run: the run must
# leave nothing new (transactional ids aside, which Kafka cannot delete: those must carry the run's prefix) and take
# nothing away.
#   containers/offline/stand-names.sh
# Exit status: 0 listed; 3 the stand's containers were not found; another a server did not answer.
set -euo pipefail
ids=$(docker ps --filter label=dev.seams.stand=true --format '{{.ID}} {{.Image}}')
kafka=$(awk '$2 ~ /(^|\/)kafka:/ {print $1; exit}' <<<"$ids")
connect=$(awk '$2 ~ /connect/ {print $1; exit}' <<<"$ids")
postgres=$(awk '$2 ~ /postgres/ {print $1; exit}' <<<"$ids")
clickhouse=$(awk '$2 ~ /clickhouse/ {print $1; exit}' <<<"$ids")
[ -n "$kafka" ] && [ -n "$connect" ] && [ -n "$postgres" ] && [ -n "$clickhouse" ] || { echo "stand-names.sh: no stand running" >&2; exit 3; }
bin=/opt/kafka/bin
{
  docker exec "$kafka" $bin/kafka-topics.sh --bootstrap-server kafka:19092 --list | sed 's/^/kafka-topic /'
  docker exec "$kafka" $bin/kafka-consumer-groups.sh --bootstrap-server kafka:19092 --list | sed 's/^/kafka-group /'
  docker exec "$kafka" $bin/kafka-run-class.sh org.apache.kafka.tools.TransactionsCommand --bootstrap-server kafka:19092 list \
    | awk 'NR > 1 {print "kafka-transaction " $1}'
  { docker exec "$connect" curl -sf localhost:8083/connectors; echo; } | tr -d '[]"' | tr , '\n' | sed '/^$/d; s/^/connector /'
  docker exec "$postgres" psql -U test -d postgres -Atc "SELECT datname FROM pg_database" | sed 's/^/postgres-database /'
  docker exec "$postgres" psql -U test -d postgres -Atc "SELECT slot_name FROM pg_replication_slots" | sed 's/^/postgres-slot /'
  docker exec "$clickhouse" clickhouse-client --user test --password test -q "SHOW DATABASES" | sed 's/^/clickhouse-database /'
} | grep -v '^kafka-group $' | sort
