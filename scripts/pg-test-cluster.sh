#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the server tests.
#
#   scripts/pg-test-cluster.sh start   initdb (once) + start, then a streaming replica of it;
#                                      prints TEST_DATABASE_URL=postgres://… and
#                                      TEST_DATABASE_REPLICA_URL=postgres://…
#   scripts/pg-test-cluster.sh url     prints the URL of the running cluster
#   scripts/pg-test-cluster.sh stop    stops it and deletes its folder
#
# Needs Debian's `postgresql` package (initdb, pg_ctl under /usr/lib/postgresql/<version>/bin,
# or on PATH). Works as root (the cluster then runs as the `postgres` user, which initdb requires)
# and as any other user (the cluster runs as that user). It listens on 127.0.0.1 at a free port
# and on a Unix socket in its folder, trusts local connections (test data only, never production)
# and trades durability for speed (fsync off). The folder is PG_TEST_DIR, default
# ${TMPDIR:-/tmp}/mg-pgtest-<uid>-<checksum of this checkout's path>, so each checkout has its own.
#
# The replica (hot standby, read-only) is a pg_basebackup of the primary that streams its WAL
# (wal_level=replica, PostgreSQL's default, and initdb's trust rules for replication connections
# suffice). It replays the whole cluster, so a database created on the primary appears on it
# shortly after; the read-replica tests (server/db/replica.test.ts) wait for that.
set -euo pipefail

cmd="${1:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"
sum="$(printf '%s' "$root" | cksum | cut -d' ' -f1)"
dir="${PG_TEST_DIR:-${TMPDIR:-/tmp}/mg-pgtest-$(id -u)-$sum}"
data="$dir/data"
replica="$dir/replica"

find_bin() {
  local name="$1" candidate
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/$name" ]; then
    echo "$(pg_config --bindir)/$name"
    return
  fi
  # Debian keeps the server programs out of PATH, one folder per major version: take the newest.
  candidate="$(ls -d /usr/lib/postgresql/*/bin/"$name" 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$candidate" ]; then
    echo "$candidate"
    return
  fi
  if command -v "$name" >/dev/null 2>&1; then
    command -v "$name"
    return
  fi
  echo "pg-test-cluster: $name not found. Install PostgreSQL (Debian: apt-get install -y postgresql)." >&2
  exit 3
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    if command -v runuser >/dev/null 2>&1; then
      runuser -u postgres -- "$@"
    else
      su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
    fi
  else
    "$@"
  fi
}

url() {
  local port
  port="$(cat "$dir/port")"
  echo "postgres://postgres@127.0.0.1:$port/postgres"
}

replica_url() {
  echo "postgres://postgres@127.0.0.1:$(cat "$dir/replica-port")/postgres"
}

# Settings of both servers (the standby needs max_connections ≥ the primary's).
server_options() {
  echo "-p $1 -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=128MB"
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

case "$cmd" in
  start)
    initdb="$(find_bin initdb)"
    pg_ctl="$(find_bin pg_ctl)"
    pg_basebackup="$(find_bin pg_basebackup)"
    if [ -f "$data/postmaster.pid" ] && as_owner "$pg_ctl" -D "$data" status >/dev/null 2>&1 &&
      [ -f "$replica/postmaster.pid" ] && as_owner "$pg_ctl" -D "$replica" status >/dev/null 2>&1; then
      echo "TEST_DATABASE_URL=$(url)"
      echo "TEST_DATABASE_REPLICA_URL=$(replica_url)"
      exit 0
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      id postgres >/dev/null 2>&1 || {
        echo "pg-test-cluster: running as root needs the postgres user (apt-get install -y postgresql)" >&2
        exit 3
      }
      chown postgres: "$dir"
      chmod 700 "$dir"
    fi
    if [ ! -f "$data/PG_VERSION" ]; then
      as_owner "$initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
        >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
      }
    fi
    if ! as_owner "$pg_ctl" -D "$data" status >/dev/null 2>&1; then
      free_port >"$dir/port"
      [ "$(id -u)" = 0 ] && chown postgres: "$dir/port"
      as_owner "$pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 start \
        -o "$(server_options "$(cat "$dir/port")")" >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
      }
    fi
    # The streaming replica: a fresh base backup each time (-R writes standby.signal and
    # primary_conninfo, -X stream copies the WAL the backup needs).
    if [ -f "$replica/PG_VERSION" ]; then
      as_owner "$pg_ctl" -D "$replica" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$replica"
    as_owner "$pg_basebackup" -h 127.0.0.1 -p "$(cat "$dir/port")" -U postgres -D "$replica" -R \
      -X stream >"$dir/basebackup.log" 2>&1 || {
      cat "$dir/basebackup.log" >&2
      exit 1
    }
    free_port >"$dir/replica-port"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir/replica-port"
    as_owner "$pg_ctl" -D "$replica" -l "$dir/replica.log" -w -t 60 start \
      -o "$(server_options "$(cat "$dir/replica-port")") -c hot_standby=on" >/dev/null || {
      cat "$dir/replica.log" >&2
      exit 1
    }
    echo "TEST_DATABASE_URL=$(url)"
    echo "TEST_DATABASE_REPLICA_URL=$(replica_url)"
    ;;
  url)
    [ -f "$dir/port" ] || {
      echo "pg-test-cluster: no cluster in $dir (run start first)" >&2
      exit 1
    }
    url
    ;;
  stop)
    if [ -f "$data/PG_VERSION" ]; then
      pg_ctl="$(find_bin pg_ctl)"
      if [ -f "$replica/PG_VERSION" ]; then
        as_owner "$pg_ctl" -D "$replica" -m immediate -w stop >/dev/null 2>&1 || true
      fi
      as_owner "$pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|url|stop" >&2
    exit 2
    ;;
esac
