#!/usr/bin/env bash
# Replicas behind nginx against one replica (docs/BENCHMARKS.md, table runtime-replicas): reads/s
# and per-read latency of http-load's throughput mode over HTTP (2026-07-28 stateless POSTs,
# $WINDOW in flight, every answer checked against the manifest) sent straight to one
# `http_server --stateless`, and to nginx in front of two of them (bench/runtime/replicas-front.sh:
# the configuration docs/guide/serve.md documents), the two cases interleaved round by round.
# Uses run.sh's release builds (its setup phase: $WORK/bin/ours-http-real, the real corpus
# compiled in, and the http-load client) and the system's nginx (.ci/run installs it).
#
#   ONLY=setup bash bench/runtime/run.sh && bash bench/runtime/replicas.sh && python3 bench/tables.py
#   ROUNDS=1 N=300 NO_WAIT=1 SERVER=target/debug/examples/http_server HL=target/debug/http-load \
#     OUT=/tmp/replicas-smoke bash bench/runtime/replicas.sh        # a smoke: the script works
#
# Env (defaults): WORK=/tmp/bench-runtime OUT=bench/runtime/results ROUNDS=5 N=10000 WINDOW=16
#   SERVER=$WORK/bin/ours-http-real HL=$WORK/http-target/release/http-load, and wait-quiet.sh's
#   LOAD_MAX=0.6 LOAD_HOLD=30 LOAD_TIMEOUT=900 (NO_WAIT=1 skips). Writes $OUT/replicas/tput.jsonl
#   (cases `one` and `nginx-2`) and appends the load before and after to $OUT/load.txt.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="${WORK:-/tmp/bench-runtime}"
OUT="${OUT:-$HERE/results}"
ROUNDS="${ROUNDS:-5}"; N="${N:-10000}"; WINDOW="${WINDOW:-16}"
SERVER="${SERVER:-$WORK/bin/ours-http-real}"
HL="${HL:-$WORK/http-target/release/http-load}"
for f in "$SERVER" "$HL"; do
  [ -x "$f" ] || { echo "missing $f: run \`ONLY=setup bash bench/runtime/run.sh\` first (or set SERVER, HL)" >&2; exit 1; }
done

mkdir -p "$OUT/replicas"
# The interleaved rounds are ab-http.sh's (its quiet-machine wait included).
ROUNDS="$ROUNDS" N="$N" WINDOW="$WINDOW" HL="$HL" LOAD_LOG="$OUT/load.txt" LABEL=replicas \
  bash "$HERE/ab-http.sh" "$OUT/replicas/tput.jsonl" \
  "one|$SERVER --bind 127.0.0.1:{port} --stateless" "nginx-2|bash $HERE/replicas-front.sh {port} $SERVER"
echo "wrote $OUT/replicas/tput.jsonl" >&2
