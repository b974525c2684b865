#!/bin/bash
# A physical standby of the stand's PostgreSQL (claim B18, docs/source.md "Failover of the source"): a base backup of
# the primary $PRIMARY_HOST over the replication protocol into an empty PGDATA, streaming from the physical slot
# $STANDBY_SLOT (pg_basebackup -R: standby.signal, primary_conninfo with the database, which slot synchronisation
# needs), then the image's own entrypoint starts it as a hot standby that synchronises the primary's failover slots
# (PostgreSQL 17: sync_replication_slots, hot_standby_feedback). The same script serves the official image and the
# offline substitute: both keep the binaries in /usr/lib/postgresql/<major>/bin and run the server as postgres.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
export PGDATA=${PGDATA:-/var/lib/postgresql/data}
mkdir -p "$PGDATA"
chown -R postgres:postgres "$PGDATA"
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  setpriv --reuid=postgres --regid=postgres --init-groups "$PGBIN/pg_basebackup" -D "$PGDATA" -X stream \
    -S "$STANDBY_SLOT" -R \
    -d "host=$PRIMARY_HOST user=$POSTGRES_USER password=$POSTGRES_PASSWORD dbname=$POSTGRES_DB application_name=$STANDBY_SLOT"
fi
exec /usr/local/bin/docker-entrypoint.sh postgres -c hot_standby=on -c hot_standby_feedback=on \
  -c sync_replication_slots=on -c wal_level=logical "$@"
