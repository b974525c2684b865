#!/bin/bash
# Substitute for quay.io/debezium/connect's entrypoint: the same env contract.
#   BOOTSTRAP_SERVERS (required), GROUP_ID, CONFIG_STORAGE_TOPIC, OFFSET_STORAGE_TOPIC,
#   STATUS_STORAGE_TOPIC, KEY_CONVERTER, VALUE_CONVERTER, HOST_NAME, ADVERTISED_HOST_NAME,
#   ADVERTISED_PORT, REST_PORT, HEAP_OPTS; every CONNECT_FOO_BAR becomes foo.bar.
# Runs a Kafka Connect distributed worker with the Debezium PostgreSQL connector on plugin.path.
set -euo pipefail
KAFKA_HOME=/opt/kafka
: "${BOOTSTRAP_SERVERS:?BOOTSTRAP_SERVERS must be set (host:port of the Kafka broker)}"
props=$KAFKA_HOME/config/connect-distributed.properties
{
  echo "bootstrap.servers=$BOOTSTRAP_SERVERS"
  echo "group.id=${GROUP_ID:-1}"
  echo "config.storage.topic=${CONFIG_STORAGE_TOPIC:-connect_configs}"
  echo "offset.storage.topic=${OFFSET_STORAGE_TOPIC:-connect_offsets}"
  echo "status.storage.topic=${STATUS_STORAGE_TOPIC:-connect_statuses}"
  echo "config.storage.replication.factor=${CONFIG_STORAGE_REPLICATION_FACTOR:-1}"
  echo "offset.storage.replication.factor=${OFFSET_STORAGE_REPLICATION_FACTOR:-1}"
  echo "status.storage.replication.factor=${STATUS_STORAGE_REPLICATION_FACTOR:-1}"
  echo "key.converter=${KEY_CONVERTER:-org.apache.kafka.connect.json.JsonConverter}"
  echo "value.converter=${VALUE_CONVERTER:-org.apache.kafka.connect.json.JsonConverter}"
  echo "offset.flush.interval.ms=${OFFSET_FLUSH_INTERVAL_MS:-5000}"
  echo "listeners=http://${HOST_NAME:-0.0.0.0}:${REST_PORT:-8083}"
  echo "rest.advertised.host.name=${ADVERTISED_HOST_NAME:-$(hostname -i | cut -d' ' -f1)}"
  echo "rest.advertised.port=${ADVERTISED_PORT:-8083}"
  echo "plugin.path=/kafka/connect"
} > "$props"
for var in $(compgen -e); do
  case "$var" in
    CONNECT_*)
      name=$(printf '%s' "${var#CONNECT_}" | tr 'A-Z' 'a-z' | tr '_' '.')
      sed -i "/^${name//./\\.}=/d" "$props"
      printf '%s=%s\n' "$name" "${!var}" >> "$props" ;;
  esac
done
echo "--- connect-distributed.properties"; cat "$props"; echo "---"

case "${1:-start}" in
  start)
    export CLASSPATH="$KAFKA_HOME/libs/*"
    exec java ${HEAP_OPTS:--Xms256m -Xmx1g} -XX:+UseG1GC -Djava.awt.headless=true \
      "-Dlog4j2.configurationFile=$KAFKA_HOME/config/log4j2.xml" ${KAFKA_OPTS:-} \
      org.apache.kafka.connect.cli.ConnectDistributed "$props" ;;
  *) exec "$@" ;;
esac
