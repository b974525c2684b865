#!/usr/bin/env bash
# Smoke test of one profile's substitute images (containers/images.properties): each starts with the
# official image's env contract on a private network, answers its version, and that version is the
# one its label seams.version.<component> declares (the check B7 makes on the full stand). Kafka
# Connect runs against the profile's broker and must list the Debezium PostgreSQL connector.
# Removes what it started. Run it under the stand lock: flock /tmp/seams-stand.lock smoke.sh PROFILE
# Usage: smoke.sh [PROFILE]   (default offline); exit status 1 on any failure.
set -euo pipefail
profile=${1:-offline}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
props=$here/../images.properties
run=seams-smoke-$$
failures=0
log() { printf '[smoke %s] %s\n' "$(date +%T)" "$*" >&2; }
image() { sed -n "s#^$profile\.$1=##p" "$props"; }
label() { docker image inspect --format "{{index .Config.Labels \"seams.version.$2\"}}" "$1"; }
cleanup() { docker rm -f "$run-pg" "$run-kafka" "$run-connect" "$run-ch" >/dev/null 2>&1 || true; docker network rm "$run" >/dev/null 2>&1 || true; }
trap cleanup EXIT

# waits up to $2 seconds until command $3... succeeds; on time-out prints container $1's log tail
wait_for() {
  local name=$1 seconds=$2; shift 2
  local start=$SECONDS
  until "$@" >/dev/null 2>&1; do
    if [ $((SECONDS - start)) -ge "$seconds" ] || [ "$(docker inspect -f '{{.State.Running}}' "$name")" != true ]; then
      docker logs --tail 30 "$name" >&2; return 1
    fi
    sleep 1
  done
}
# compares the live version $3 of component $2 with image $1's label
verdict() {
  local declared; declared=$(label "$1" "$2")
  if [ -n "$3" ] && [ "$3" = "$declared" ]; then log "OK   $2: live '$3', declared $declared ($1)"
  else log "FAIL $2: live '$3', declared '$declared' ($1)"; failures=$((failures + 1)); fi
}

docker network create "$run" >/dev/null
pg=$(image postgres) kafka=$(image kafka) connect=$(image connect) ch=$(image clickhouse)
log "profile $profile: $pg $kafka $connect $ch"
t0=$SECONDS
docker run -d --name "$run-pg" --network "$run" -e POSTGRES_PASSWORD=smoke "$pg" postgres -c wal_level=logical >/dev/null
docker run -d --name "$run-ch" --network "$run" -e CLICKHOUSE_USER=smoke -e CLICKHOUSE_PASSWORD=smoke -e CLICKHOUSE_DB=smoke "$ch" >/dev/null
docker run -d --name "$run-kafka" --network "$run" --network-alias kafka \
  -e KAFKA_NODE_ID=1 -e KAFKA_PROCESS_ROLES=broker,controller \
  -e KAFKA_LISTENERS=PLAINTEXT://:9092,CONTROLLER://:9093 -e KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://kafka:9092 \
  -e KAFKA_CONTROLLER_LISTENER_NAMES=CONTROLLER -e KAFKA_LISTENER_SECURITY_PROTOCOL_MAP=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT \
  -e KAFKA_CONTROLLER_QUORUM_VOTERS=1@localhost:9093 -e KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR=1 \
  -e KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR=1 -e KAFKA_TRANSACTION_STATE_LOG_MIN_ISR=1 "$kafka" >/dev/null

# PostgreSQL: the module waits for the second "ready to accept connections" (init server, then the real one)
wait_for "$run-pg" 120 bash -c "[ \$(docker logs $run-pg 2>&1 | grep -c 'ready to accept connections') -ge 2 ]" \
  && verdict "$pg" postgresql "$(docker exec "$run-pg" psql -U postgres -tAc 'SHOW server_version' | cut -d' ' -f1)" \
  || { log "FAIL postgresql did not start"; failures=$((failures + 1)); }
# Kafka: the module waits for this line; the version is AppInfoParser's start-up line
wait_for "$run-kafka" 180 bash -c "docker logs $run-kafka 2>&1 | grep -q 'Transitioning from RECOVERY to RUNNING'" \
  && verdict "$kafka" kafka "$(docker logs "$run-kafka" 2>&1 | sed -n 's/.*Kafka version: \([^ ]*\).*/\1/p' | head -1)" \
  || { log "FAIL kafka did not reach RUNNING"; failures=$((failures + 1)); }
# Connect against that broker: GET / and GET /connector-plugins, as Stand reads them
docker run -d --name "$run-connect" --network "$run" -e BOOTSTRAP_SERVERS=kafka:9092 -e GROUP_ID=1 \
  -e CONFIG_STORAGE_TOPIC=smoke_configs -e OFFSET_STORAGE_TOPIC=smoke_offsets -e STATUS_STORAGE_TOPIC=smoke_statuses "$connect" >/dev/null
if wait_for "$run-connect" 240 docker exec "$run-connect" curl -fsS localhost:8083/connector-plugins; then
  verdict "$connect" kafka_connect "$(docker exec "$run-connect" curl -fsS localhost:8083/ | sed -n 's/.*"version":"\([^"]*\)".*/\1/p')"
  verdict "$connect" debezium "$(docker exec "$run-connect" curl -fsS localhost:8083/connector-plugins \
    | grep -o '"class":"io.debezium.connector.postgresql.PostgresConnector"[^}]*' | sed -n 's/.*"version":"\([^"]*\)".*/\1/p')"
else log "FAIL connect did not answer"; failures=$((failures + 1)); fi
# ClickHouse: SELECT version() over HTTP with the user the entrypoint made
wait_for "$run-ch" 120 docker exec "$run-ch" curl -fsS localhost:8123/ping \
  && verdict "$ch" clickhouse "$(docker exec "$run-ch" curl -fsS --user smoke:smoke --data-binary 'SELECT version()' localhost:8123/)" \
  || { log "FAIL clickhouse did not answer"; failures=$((failures + 1)); }
log "profile $profile: $failures failure(s) in $((SECONDS - t0)) s"
[ "$failures" = 0 ]
