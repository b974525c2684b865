#!/bin/bash
# Substitute for clickhouse/clickhouse-server's entrypoint: the same env contract
# (CLICKHOUSE_USER, CLICKHOUSE_PASSWORD, CLICKHOUSE_DB), HTTP on 8123 and native on 9000.
set -euo pipefail
conf=/etc/clickhouse-server
user=${CLICKHOUSE_USER:-default}
password=${CLICKHOUSE_PASSWORD:-}
db=${CLICKHOUSE_DB:-default}

# Debian's config listens on localhost only; config.d/seams.xml adds 0.0.0.0 instead.
sed -i -e '\#<listen_host>::1</listen_host>#d' -e '\#<listen_host>127.0.0.1</listen_host>#d' "$conf/config.xml"
if [ "$user" != default ] || [ -n "$password" ]; then
  mkdir -p "$conf/users.d"
  esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' <<<"$1"; }
  cat > "$conf/users.d/seams-user.xml" <<XML
<?xml version="1.0"?>
<yandex><users><$user>
  <password>$(esc "$password")</password>
  <networks><ip>::/0</ip></networks>
  <profile>default</profile>
  <quota>default</quota>
</$user></users></yandex>
XML
fi
mkdir -p /var/lib/clickhouse /var/log/clickhouse-server
chown -R clickhouse:clickhouse /var/lib/clickhouse /var/log/clickhouse-server "$conf"

setpriv --reuid=clickhouse --regid=clickhouse --init-groups \
  /usr/sbin/clickhouse-server --config-file="$conf/config.xml" &
server=$!
trap 'kill -TERM $server; wait $server' TERM INT
if [ "$db" != default ]; then
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:8123/ping" >/dev/null 2>&1 && break
    kill -0 $server 2>/dev/null || exit 1
    sleep 0.5
  done
  curl -fsS --user "$user:$password" --data-binary "CREATE DATABASE IF NOT EXISTS \`$db\`" "http://127.0.0.1:8123/"
fi
wait $server
