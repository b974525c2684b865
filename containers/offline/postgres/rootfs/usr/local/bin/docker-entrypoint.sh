#!/bin/bash
# Substitute for the official postgres image's entrypoint: the same env contract
# (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA) and the same start-up sequence:
# initdb, a temporary socket-only server that creates the database (first "database system is
# ready to accept connections"), then the real server (second one) with the command's -c options.
set -euo pipefail
# the one PostgreSQL major the base installed (15 on bookworm, 17 on trixie)
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
export PGDATA=${PGDATA:-/var/lib/postgresql/data}
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

if [ "${1:-}" = postgres ]; then shift; fi   # the official image takes "postgres -c ..." as its command
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}" > "$pwfile"
  chown postgres "$pwfile"
  as_postgres "$PGBIN/initdb" -D "$PGDATA" --username="$user" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [ "$db" != postgres ]; then
    as_postgres "$PGBIN/psql" -v ON_ERROR_STOP=1 --username "$user" --dbname postgres \
      -c "CREATE DATABASE \"$db\""
  fi
  as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w stop
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups "$PGBIN/postgres" -D "$PGDATA" -c listen_addresses='*' "$@"
