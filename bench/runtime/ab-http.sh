#!/usr/bin/env bash
# Interleaved A/B of HTTP servers that bench/runtime/run.sh's cases do not cover (two builds of
# ours, say): ROUNDS rounds, each case once per round in the order given, http-load throughput
# (N reads, WINDOW in flight) -> one JSONL row per run, with "case" and "round" added.
#
#   bash bench/runtime/ab-http.sh OUT.jsonl "name|command with {port}" "name|command" ...
#
# Env (defaults): ROUNDS=10 N=4000 WINDOW=16 HTTP_TARGET=/tmp/bench-runtime/http-target
#   (run.sh's setup builds http-load there); LOAD_MAX=0.6 LOAD_HOLD=30 LOAD_TIMEOUT=900: as
#   run.sh, it first waits until the 1-minute load stays under LOAD_MAX for LOAD_HOLD s (NO_WAIT=1
#   skips the wait); the loads before and after go to stderr, and are appended to LOAD_LOG too when
#   it is set (named by LABEL: bench/runtime/replicas.sh runs its cases through this script).
set -euo pipefail
out="$1"; shift
ROUNDS="${ROUNDS:-10}"; N="${N:-4000}"; WINDOW="${WINDOW:-16}"
LOAD_MAX="${LOAD_MAX:-0.6}"; LOAD_HOLD="${LOAD_HOLD:-30}"; LOAD_TIMEOUT="${LOAD_TIMEOUT:-900}"
HL="${HL:-${HTTP_TARGET:-/tmp/bench-runtime/http-target}/release/http-load}"
LOAD_LOG="${LOAD_LOG:-/dev/null}"; LABEL="${LABEL:+ $LABEL}"
[ -x "$HL" ] || { echo "ab-http.sh: $HL is missing: run \`ONLY=setup bash bench/runtime/run.sh\` first" >&2; exit 2; }
# shellcheck source=wait-quiet.sh
. "$(dirname "$0")/wait-quiet.sh"
wait_quiet
: > "$out"
echo "$(date -u +%FT%TZ) before$LABEL: loadavg $(cut -d' ' -f1-3 /proc/loadavg) (waited $WAITED s)" | tee -a "$LOAD_LOG" >&2
for ((r = 0; r < ROUNDS; r++)); do
  for c in "$@"; do
    IFS='|' read -r name cmd <<<"$c"
    # shellcheck disable=SC2086
    "$HL" throughput --runs 1 --n "$N" --window "$WINDOW" -- $cmd \
      | grep -v '"summary"' | sed "s|^{|{\"case\":\"$name\",\"round\":$r,|" >> "$out"
  done
done
echo "$(date -u +%FT%TZ) after $LABEL: loadavg $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$LOAD_LOG" >&2
