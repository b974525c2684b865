#!/bin/bash
# Substitute for apache/kafka's /opt/kafka/bin/kafka-run-class.sh: runs a class of the Kafka jars in
# /opt/kafka/libs (kafka-tools among them), logging WARN and above to stderr as the official tools do.
# Usage: kafka-run-class.sh CLASS [ARG]...
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 CLASS [ARG]..." >&2; exit 2; }
exec java ${KAFKA_HEAP_OPTS:--Xmx256m} -Djava.awt.headless=true \
  -Dlog4j2.configurationFile=/opt/kafka/config/tools-log4j2.xml ${KAFKA_OPTS:-} -cp '/opt/kafka/libs/*' "$@"
