#!/usr/bin/env bash
# Instructions per `resources/read` over stdio, counted by callgrind: the noise-free twin of
# run.sh's "server CPU per 1k reads" (which a loaded 2-core machine blurs by ±10%). Each server
# runs twice under `valgrind --tool=callgrind`, driven by http-load (16 in flight, no verify pass,
# the same file order): once for $SHORT reads and once for $LONG; the difference divided by
# LONG - SHORT is the cost of one read without start-up and shutdown. The long run's profile is
# kept ($OUT_DIR/<case>.callgrind) with its top functions in $OUT_DIR/<case>.top.txt, copied to
# $OUT/callgrind/<case>.top.txt.
#
#   bash bench/runtime/callgrind-reads.sh     # after `ONLY=setup bash bench/runtime/run.sh`
#
# Cases: ours (default build), ours-blob-cache (--blob-cache-bytes 64 MiB, the old default),
# ours-rmcp-patched (when setup built it), rmcp (SkillCatalog). Rows -> $OUT/stdio/callgrind.jsonl:
# {"case", "reads", "instructions_per_read", "short": {n, ir}, "long": {n, ir}}.
# TRANSPORT=http: the same over streamable HTTP (2026-07-28 POSTs), cases ours, ours-stateless,
# rmcp-nodelay, rmcp-stateless -> $OUT/http/callgrind-reads.jsonl, tops as callgrind/http-<case>.top.txt.
# Env (defaults): WORK=/tmp/bench-runtime TARGET=/tmp/anchors-target VCORPUS=/tmp/anchors-corpus
#   OUT=bench/runtime/results SHORT=244 LONG=1220 (the real corpus has 244 files: whole cycles)
#   EXTRA_CASES="name|command;..." (more servers, e.g. a build of an earlier commit) TRANSPORT=stdio
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="${WORK:-/tmp/bench-runtime}"
TARGET="${TARGET:-/tmp/anchors-target}"
VCORPUS="${VCORPUS:-/tmp/anchors-corpus}"
OUT="${OUT:-$HERE/results}"
SHORT="${SHORT:-244}"; LONG="${LONG:-1220}"
TRANSPORT="${TRANSPORT:-stdio}"
OUT_DIR="$WORK/callgrind/$TRANSPORT"
HL="$WORK/http-target/release/http-load"
BIN="$WORK/bin"
S="$VCORPUS/skills"
mkdir -p "$OUT/$TRANSPORT" "$OUT_DIR"
command -v valgrind >/dev/null || { echo "callgrind-reads.sh: valgrind is not installed" >&2; exit 2; }

if [ "$TRANSPORT" = http ]; then
  # Streamable HTTP, 2026-07-28 POSTs: ours with sessions and stateless against SkillCatalog's
  # twins (TCP_NODELAY, as ours sets it; stateless). Servers stop on SIGTERM from http-load.
  RMCP_HTTP="$WORK/http-target/release/rmcp-skillcatalog-http"
  CASES=("ours|$BIN/ours-http-real --bind 127.0.0.1:{port}"
         "ours-stateless|$BIN/ours-http-real --bind 127.0.0.1:{port} --stateless"
         "rmcp-nodelay|$RMCP_HTTP $S --port {port} --nodelay"
         "rmcp-stateless|$RMCP_HTTP $S --port {port} --stateless")
else
  CASES=("ours|$BIN/ours-stdio-real" "ours-blob-cache|$BIN/ours-stdio-real --blob-cache-bytes $((64 << 20))")
  [ -x "$BIN/ours-rmcp-patched-stdio-real" ] && CASES+=("ours-rmcp-patched|$BIN/ours-rmcp-patched-stdio-real")
  CASES+=("rmcp|$TARGET/release/rmcp-skillcatalog-server $S")
fi
# More cases, `name|command` separated by `;` (a build of another commit, for a before/after).
if [ -n "${EXTRA_CASES:-}" ]; then
  IFS=';' read -r -a extra <<<"$EXTRA_CASES"
  CASES+=("${extra[@]}")
fi

instructions() { # $1 = callgrind file: total Ir of the run
  grep -m1 '^summary:' "$1" | awk '{print $2}'
}

ROWS="$OUT/stdio/callgrind.jsonl"
[ "$TRANSPORT" = http ] && ROWS="$OUT/http/callgrind-reads.jsonl"
: > "$ROWS"
for c in "${CASES[@]}"; do
  IFS='|' read -r name cmd <<<"$c"
  declare -A ir=()
  for n in "$SHORT" "$LONG"; do
    file="$OUT_DIR/$name.$n.callgrind"
    rm -f "$file"
    # shellcheck disable=SC2086
    "$HL" throughput --transport "$TRANSPORT" --runs 1 --n "$n" --window 16 --no-verify -- \
      valgrind --tool=callgrind --callgrind-out-file="$file" $cmd 2>/dev/null >/dev/null
    ir[$n]=$(instructions "$file")
  done
  per=$(( (ir[$LONG] - ir[$SHORT]) / (LONG - SHORT) ))
  mv "$OUT_DIR/$name.$LONG.callgrind" "$OUT_DIR/$name.callgrind"
  # Whole output, then cut (`| head` would end callgrind_annotate by SIGPIPE, and pipefail the script).
  callgrind_annotate --inclusive=no "$OUT_DIR/$name.callgrind" > "$OUT_DIR/$name.annotate.txt" 2>/dev/null
  sed -n 1,40p "$OUT_DIR/$name.annotate.txt" > "$OUT_DIR/$name.top.txt"
  # The top functions are kept beside the rows: docs/BENCHMARKS.md's "where" column reads them.
  top="$OUT/callgrind/$name.top.txt"; [ "$TRANSPORT" = http ] && top="$OUT/callgrind/http-$name.top.txt"
  mkdir -p "$OUT/callgrind" && cp "$OUT_DIR/$name.top.txt" "$top"
  printf '{"case":"%s","reads":%d,"instructions_per_read":%d,"short":{"n":%d,"ir":%d},"long":{"n":%d,"ir":%d}}\n' \
    "$name" $((LONG - SHORT)) "$per" "$SHORT" "${ir[$SHORT]}" "$LONG" "${ir[$LONG]}" | tee -a "$ROWS"
  unset ir
done
