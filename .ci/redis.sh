#!/usr/bin/env bash
# Starts a throwaway Redis on loopback for the shared-tier tests and prints its URL:
#   TEST_REDIS_URL=$(bash .ci/redis.sh [port]) npx vitest run tests/integration/shared-tier.test.ts
# Needs Debian's `redis-server` package. No persistence: nothing is written to disk.
# Running it again while that server is up only prints the URL. Only the URL goes to
# stdout; progress goes to stderr.
set -euo pipefail

port="${1:-${PORTAL_REDIS_PORT:-56379}}"
if ! [[ "$port" =~ ^[0-9]+$ ]] || ((port < 1 || port > 65535)); then
  echo "usage: $0 [port]  (port from 1 to 65535, default 56379)" >&2
  exit 2
fi
url="redis://127.0.0.1:$port"

if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis.sh: no redis-server on the PATH (apt-get install redis-server)" >&2
  exit 1
fi

if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
  echo "$url"
  exit 0
fi

dir="${TMPDIR:-/tmp}/portal-redis-$port"
mkdir -p "$dir"
echo "redis.sh: starting redis-server on 127.0.0.1:$port" >&2
redis-server --bind 127.0.0.1 --port "$port" --daemonize yes --save "" --appendonly no \
  --dir "$dir" --logfile "$dir/server.log" --pidfile "$dir/redis.pid" >&2

for _ in $(seq 1 50); do
  if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
    echo "$url"
    exit 0
  fi
  sleep 0.1
done
echo "redis.sh: the server did not answer; its log follows" >&2
tail -n 20 "$dir/server.log" >&2 || true
exit 1
