#!/bin/sh
# ds-sink's side of the sink contract's environment (docs/sinks.md "A sink of your own: image:<ref>"): runs
# `seams sink --run-until-stopped` with the settings the suite passes; SIGTERM ends it gracefully (the batch in hand
# written and committed, exit 143 as every JVM after its shutdown hooks), SIGKILL is a crash. Exit status 2: the environment asks for what ds-sink cannot do.
set -eu
for v in SEAMS_BOOTSTRAP_SERVERS SEAMS_TOPIC SEAMS_GROUP SEAMS_CLICKHOUSE_URL SEAMS_CLICKHOUSE_DATABASE \
         SEAMS_CLICKHOUSE_USER SEAMS_CLICKHOUSE_PASSWORD_FILE; do
  eval "set_=\${$v:-}"
  [ -n "$set_" ] || { echo "ds-sink: $v is not set (docs/sinks.md)" >&2; exit 2; }
done
if [ "${SEAMS_RAW_TABLE:-raw_totals}" != raw_totals ] || [ "${SEAMS_TOTALS_TABLE:-customer_totals}" != customer_totals ]; then
  echo "ds-sink: writes raw_totals and customer_totals only, not ${SEAMS_RAW_TABLE:-} and ${SEAMS_TOTALS_TABLE:-}" >&2
  exit 2
fi
jar=$(ls /opt/seams/seams-*.jar | head -1)
set -- sink --run-until-stopped --mode totals --bootstrap-servers "$SEAMS_BOOTSTRAP_SERVERS" --topic "$SEAMS_TOPIC" \
  --group "$SEAMS_GROUP" --clickhouse "$SEAMS_CLICKHOUSE_URL" --clickhouse-database "$SEAMS_CLICKHOUSE_DATABASE" \
  --clickhouse-user "$SEAMS_CLICKHOUSE_USER" --clickhouse-password-file "$SEAMS_CLICKHOUSE_PASSWORD_FILE"
if [ -n "${SEAMS_DLQ_TOPIC:-}" ]; then set -- "$@" --dlq-topic "$SEAMS_DLQ_TOPIC"; fi
if [ -n "${SEAMS_KAFKA_CONFIG_FILE:-}" ]; then set -- "$@" --kafka-config "$SEAMS_KAFKA_CONFIG_FILE"; fi
if [ -n "${SEAMS_ISOLATION:-}" ]; then set -- "$@" --isolation "$SEAMS_ISOLATION"; fi
if [ "${SEAMS_FROM_START:-false}" = true ]; then set -- "$@" --from-start; fi
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} -jar "$jar" "$@"
