#!/bin/sh
# The scale profile's streaming replica (deploy/compose.yaml; docs/operating.md, "Production topology").
# First start, empty volume: a copy of the primary made with pg_basebackup -R, which writes
# standby.signal and primary_conninfo, so PostgreSQL starts as a hot standby that follows the primary.
# Every later start: the image's own entrypoint on the existing data, nothing cloned again.
# To make it again (it fell further behind than the primary's wal_keep_size): remove its volume.
set -eu
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready --quiet --host="$PRIMARY_HOST" --port="${PRIMARY_PORT:-5432}"; do
    echo "replica: waiting for the primary at $PRIMARY_HOST"
    sleep 2
  done
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 0700 "$PGDATA"
  # PGUSER and PGPASSWORD come from the service's environment; -R records them in primary_conninfo.
  gosu postgres pg_basebackup --host="$PRIMARY_HOST" --port="${PRIMARY_PORT:-5432}" --pgdata="$PGDATA" \
    --write-recovery-conf --wal-method=stream --checkpoint=fast --no-password
  echo "replica: cloned from $PRIMARY_HOST; starting as a standby"
fi
exec docker-entrypoint.sh "$@"
