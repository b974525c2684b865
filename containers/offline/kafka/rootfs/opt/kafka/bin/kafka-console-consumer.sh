#!/bin/bash
# Substitute for apache/kafka's /opt/kafka/bin/kafka-console-consumer.sh (the same class, the same arguments).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.consumer.ConsoleConsumer "$@"
