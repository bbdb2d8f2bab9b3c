#!/usr/bin/env bash
# The cost of a realistic access policy (a set lookup in the request extensions) on skills/list
# (first page) and resources/read (a SKILL.md) at 1,000 skills, against no policy; target <= 1.2x.
# In process, over rmcp's client and an in-memory pipe; rounds interleave the two servers.
#
#   bash bench/runtime/policy-cost/run.sh                       # SKILLS=1000 ROUNDS=7 REQUESTS=2000
#   SKILLS=100 ROUNDS=1 REQUESTS=50 bash bench/runtime/policy-cost/run.sh   # smoke
#
# Results: $OUT/policy-cost.jsonl (one line per round and method, then one summary line per
# method with the median, min and max of the per-round ratios policy / none). Run it in a quiet
# period: it waits until the 1-minute load average is below $LOAD_MAX (NO_WAIT=1 skips).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$HERE/../results}"
TARGET="${TARGET:-/tmp/bench-runtime/policy-target}"
SKILLS="${SKILLS:-1000}"; ROUNDS="${ROUNDS:-7}"; REQUESTS="${REQUESTS:-2000}"
LOAD_MAX="${LOAD_MAX:-0.6}"

CARGO_TARGET_DIR="$TARGET" cargo build --release --quiet --locked --manifest-path "$HERE/../../Cargo.toml" -p policy-cost
if [ -z "${NO_WAIT:-}" ]; then
    for _ in $(seq 1 90); do
        load=$(cut -d' ' -f1 /proc/loadavg)
        awk -v l="$load" -v m="$LOAD_MAX" 'BEGIN { exit !(l < m) }' && break
        sleep 10
    done
fi
mkdir -p "$OUT"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$TARGET/release/policy-cost" --skills "$SKILLS" --rounds "$ROUNDS" --requests "$REQUESTS" \
    | tee "$OUT/policy-cost.jsonl"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
