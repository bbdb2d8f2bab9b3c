#!/usr/bin/env bash
# A server on the internet (issue 29): what a hostile network and a noisy learner cost everyone
# else. Release builds; the load client is bench/runtime/http-load (modes `hostile`, `platform`).
#
#   bash bench/internet/run.sh                  # everything (~15 min on 2 cores, plus load waits)
#   ONLY="hostile" bash bench/internet/run.sh   # a subset: hostile, sqlite, postgres
#   QUICK=1 NO_WAIT=1 bash bench/internet/run.sh  # a smoke: small numbers, no waiting
#
# Series:
#   hostile   examples/http_server with its default limits (header timeout 10 s, 1,024
#             connections): an honest client's stateless skills/list, one at a time, idle and
#             while $TRICKLERS connections trickle their request heads (a byte a second,
#             reconnecting when cut) and $FLOODERS clients flood `initialize`, $ROUNDS
#             alternations; and how long each trickling connection stayed open
#             -> $OUT/hostile.jsonl
#   sqlite    the course platform on SQLite, --max-sessions-per-learner $SESSIONS: learner-b's
#   postgres  `initialize` and `skills/list` idle and while learner-a holds $SESSIONS sessions and
#             $ORDER_FLOODERS clients post orders without pause, $ROUNDS alternations; then
#             $GRANTS grants and revokes to learner-b, each timed from the `grant`/`revoke`
#             command's return to `list_changed` on learner-b's event stream, with $LISTENERS
#             sessions of learner-a's open -> $OUT/platform-{sqlite,postgres}.jsonl. PostgreSQL
#             runs on a throwaway cluster (initdb in a temporary folder, loopback; as the
#             `postgres` user when run as root), like the tests'.
# Before each series the script waits until the 1-minute load average has stayed below
# $LOAD_MAX for $LOAD_HOLD s (at most $LOAD_TIMEOUT s; NO_WAIT=1 skips); the load before and after
# each series goes to $OUT/load.txt.
#
# Env (defaults): OUT=bench/internet/results TARGET=<repo>/target TRICKLERS=1000 FLOODERS=1
#   REQUESTS=1000 ROUNDS=4 SESSIONS=2000 ORDER_FLOODERS=4 PLATFORM_REQUESTS=300 LISTENERS=1000
#   GRANTS=100 LOAD_MAX=0.6 LOAD_HOLD=30 LOAD_TIMEOUT=900
# Needs: `ulimit -n` of at least 4096 (raised here when the hard limit allows), PostgreSQL's
# initdb and pg_ctl (Debian's `postgresql` package) for the postgres series.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-$HERE/results}"
TARGET="${TARGET:-$REPO/target}"
ONLY="${ONLY:-hostile sqlite postgres}"
if [ -n "${QUICK:-}" ]; then
  TRICKLERS="${TRICKLERS:-200}"; FLOODERS="${FLOODERS:-1}"; REQUESTS="${REQUESTS:-200}"; ROUNDS="${ROUNDS:-1}"
  SESSIONS="${SESSIONS:-300}"; ORDER_FLOODERS="${ORDER_FLOODERS:-4}"; PLATFORM_REQUESTS="${PLATFORM_REQUESTS:-50}"
  LISTENERS="${LISTENERS:-100}"; GRANTS="${GRANTS:-10}"
fi
TRICKLERS="${TRICKLERS:-1000}"; FLOODERS="${FLOODERS:-1}"; REQUESTS="${REQUESTS:-1000}"; ROUNDS="${ROUNDS:-4}"
SESSIONS="${SESSIONS:-2000}"; ORDER_FLOODERS="${ORDER_FLOODERS:-4}"; PLATFORM_REQUESTS="${PLATFORM_REQUESTS:-300}"
LISTENERS="${LISTENERS:-1000}"; GRANTS="${GRANTS:-100}"
LOAD_MAX="${LOAD_MAX:-0.6}"; LOAD_HOLD="${LOAD_HOLD:-30}"; LOAD_TIMEOUT="${LOAD_TIMEOUT:-900}"
# shellcheck source=../runtime/wait-quiet.sh
source "$REPO/bench/runtime/wait-quiet.sh"

mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if (( $(ulimit -n) < 4096 )); then
  echo "ulimit -n is $(ulimit -n); $TRICKLERS connections on each side need more (raise the hard limit)" >&2
  exit 2
fi

echo "building (release)…" >&2
(cd "$REPO" && CARGO_TARGET_DIR="$TARGET" cargo build -q --release -p course-platform -p http-load \
  && CARGO_TARGET_DIR="$TARGET" cargo build -q --release --example http_server --features http)
LOAD_CLIENT="$TARGET/release/http-load"
PLATFORM="$TARGET/release/course-platform"
HTTP_SERVER="$TARGET/release/examples/http_server"

series() { # series <name>: waits for a quiet machine and records the load around "$@"
  local name="$1"; shift
  wait_quiet
  echo "$(date -u +%FT%TZ) before $name: $(cut -d' ' -f1-3 /proc/loadavg) (waited ${WAITED}s)" >> "$OUT/load.txt"
  "$@"
  echo "$(date -u +%FT%TZ) after  $name: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/load.txt"
}

if [[ " $ONLY " == *" hostile "* ]]; then
  series hostile sh -c '"$0" hostile --tricklers "$1" --flooders "$2" --requests "$3" --rounds "$4" \
    -- "$5" --bind "127.0.0.1:{port}" > "$6"' \
    "$LOAD_CLIENT" "$TRICKLERS" "$FLOODERS" "$REQUESTS" "$ROUNDS" "$HTTP_SERVER" "$OUT/hostile.jsonl"
fi

platform() { # platform <store> <db>
  series "platform-$1" sh -c '"$0" platform --cli "$1" --db "$2" --store "$3" --sessions "$4" \
    --flooders "$5" --requests "$6" --rounds "$7" --listeners "$8" --grants "$9" \
    -- "$1" --db "{db}" serve --bind "127.0.0.1:{port}" --max-sessions-per-learner "$4" > "${10}"' \
    "$LOAD_CLIENT" "$PLATFORM" "$2" "$1" "$SESSIONS" "$ORDER_FLOODERS" "$PLATFORM_REQUESTS" "$ROUNDS" \
    "$LISTENERS" "$GRANTS" "$OUT/platform-$1.jsonl"
}

SCRATCH="$(mktemp -d -t bench-internet-XXXXXX)"
PGDIR=""
cleanup() {
  if [ -n "$PGDIR" ] && [ -f "$PGDIR/data/postmaster.pid" ]; then
    as_owner pg_ctl --pgdata "$PGDIR/data" --mode immediate --wait stop > /dev/null || true
  fi
  [ -n "$PGDIR" ] && rm -rf "$PGDIR"
  rm -rf "$SCRATCH"
}
trap cleanup EXIT

if [[ " $ONLY " == *" sqlite "* ]]; then
  platform sqlite "$SCRATCH/platform.db"
fi

as_owner() { # runs "$@" as the cluster's owner: the postgres user when root, else oneself
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [[ " $ONLY " == *" postgres "* ]]; then
  PATH="$PATH:$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)"
  if [ "$(id -u)" = 0 ]; then PGDIR="$(runuser -u postgres -- mktemp -d -t bench-pg-XXXXXX)"; else PGDIR="$(mktemp -d -t bench-pg-XXXXXX)"; fi
  PGPORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  PGPASSWORD_FILE="$PGDIR/password"
  as_owner sh -c "printf %s bench-secret > '$PGPASSWORD_FILE'"
  as_owner initdb --pgdata "$PGDIR/data" --username postgres --pwfile "$PGPASSWORD_FILE" \
    --auth-host scram-sha-256 --auth-local trust --encoding UTF8 --no-instructions > /dev/null
  as_owner pg_ctl --pgdata "$PGDIR/data" --log "$PGDIR/server.log" --wait start \
    --options "-c listen_addresses=127.0.0.1 -c port=$PGPORT -c unix_socket_directories='$PGDIR' -c max_connections=200" > /dev/null
  platform postgres "postgres://postgres:bench-secret@127.0.0.1:$PGPORT/postgres"
fi
echo "results in $OUT" >&2
