#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the content API tests and prints its URL:
#   TEST_DATABASE_URL=$(bash .ci/postgres.sh [port]) npx vitest run tests/integration/content
# Run as root on Debian with the `postgresql` package installed (the server runs as the
# `postgres` user), or as any user who owns the data folder. Running it again while the
# cluster is up only prints the URL. Only the URL goes to stdout; progress goes to stderr.
set -euo pipefail

port="${1:-${PORTAL_PG_PORT:-55432}}"
if ! [[ "$port" =~ ^[0-9]+$ ]] || ((port < 1 || port > 65535)); then
  echo "usage: $0 [port]  (port from 1 to 65535, default 55432)" >&2
  exit 2
fi
# One folder per port, so a second run finds the cluster the first one started.
dir="${PORTAL_PG_DIR:-${TMPDIR:-/tmp}/portal-pg-$port}"
url="postgres://portal:portal@127.0.0.1:$port/portal_test"

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
  echo "postgres.sh: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)" >&2
  exit 1
fi

# As root, the server must run as `postgres` (it refuses to run as root).
as_owner() {
  if [[ "$(id -u)" == 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

psql_admin() {
  as_owner "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres -d postgres "$@"
}

ensure_database() {
  psql_admin -c "DO \$\$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal') THEN
        CREATE ROLE portal LOGIN PASSWORD 'portal';
      END IF;
    END \$\$;" >&2
  if [[ "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = 'portal_test'")" != 1 ]]; then
    psql_admin -c "CREATE DATABASE portal_test OWNER portal" >&2
  fi
}

if as_owner "$bin/pg_isready" -q -h "$dir" -p "$port" 2>/dev/null; then
  ensure_database
  echo "$url"
  exit 0
fi

if [[ -f "$dir/data/PG_VERSION" ]]; then
  # A cluster from an earlier run that is not up (e.g. after a reboot): start it again.
  echo "postgres.sh: restarting the cluster in $dir" >&2
else
  echo "postgres.sh: initialising a cluster in $dir" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  [[ "$(id -u)" == 0 ]] && chown postgres:postgres "$dir"
  chmod 700 "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres -E UTF8 --locale=C --no-sync \
    --auth-local=trust --auth-host=scram-sha-256 >&2
fi

# Durability off: the cluster is thrown away, and tests should be fast.
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o \
  "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >&2 || {
  echo "postgres.sh: the server did not start; its log follows" >&2
  tail -n 20 "$dir/server.log" >&2 || true
  exit 1
}
ensure_database
echo "$url"
