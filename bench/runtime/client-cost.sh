#!/usr/bin/env bash
# Where the load client's CPU goes per read, for each server: ../shared/bench/peers/load-client
# (stdio, 16 in flight) is started against each server in turn, and after a second of reads perf
# attaches to the client's threads only (never the server's) for WINDOW_S seconds, twice at once:
#   perf stat:   task-clock, context switches, and read/write/futex system calls;
#   perf record: cpu-clock samples at 2,999 Hz, summed per symbol.
# The client's writer thread writes one request per write(2), so the write count in the window is
# the number of requests, and every figure is divided by it: µs of client CPU per read, context
# switches per read, and µs per read in three groups of symbols (scheduling: finish_task_switch and
# the interrupt-restore points where a VM's cpu-clock samples land after a wake-up; copying: the
# kernel's pipe copy and the client's memcpy; parsing: serde_json's scan). Rounds interleave the
# servers. One JSON row per server and round -> $OUT/stdio/client-cost.jsonl.
#
#   bash bench/runtime/client-cost.sh                    # after `ONLY=setup bash bench/runtime/run.sh`
#   BEFORE=2e14fca^ bash bench/runtime/client-cost.sh    # adds ours built from an earlier commit
#
# Env (defaults): WORK=/tmp/bench-runtime TARGET=/tmp/anchors-target VCORPUS=/tmp/anchors-corpus
#   OUT=bench/runtime/results ROUNDS=3 WINDOW_S=2 BEFORE=(unset) GIT_REPO=(this repository: where
#   BEFORE is looked up) LOAD_MAX=0.6 LOAD_HOLD=30 LOAD_TIMEOUT=900 NO_WAIT=(unset). Needs perf (root,
#   or perf_event_paranoid <= 1); run.sh's setup builds the servers and the client this uses.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
WORK="${WORK:-/tmp/bench-runtime}"
TARGET="${TARGET:-/tmp/anchors-target}"
VCORPUS="${VCORPUS:-/tmp/anchors-corpus}"
OUT="${OUT:-$HERE/results}"
ROUNDS="${ROUNDS:-3}"; WINDOW_S="${WINDOW_S:-2}"; GIT_REPO="${GIT_REPO:-$REPO}"
LOAD_MAX="${LOAD_MAX:-0.6}"; LOAD_HOLD="${LOAD_HOLD:-30}"; LOAD_TIMEOUT="${LOAD_TIMEOUT:-900}"
# shellcheck source=wait-quiet.sh
. "$HERE/wait-quiet.sh"
LC="$TARGET/release/load-client"
S="$VCORPUS/skills"
command -v perf >/dev/null || { echo "client-cost.sh: needs perf" >&2; exit 2; }
[ -x "$LC" ] && [ -x "$WORK/bin/ours-stdio-real" ] || { echo "client-cost.sh: run ONLY=setup bash bench/runtime/run.sh first" >&2; exit 2; }

CASES=("ours|$WORK/bin/ours-stdio-real")
if [ -n "${BEFORE:-}" ]; then
  rev=$(git -C "$GIT_REPO" rev-parse --short "$BEFORE")
  src="$WORK/before-$rev"
  if [ ! -x "$WORK/bin/ours-stdio-$rev" ]; then
    rm -rf "$src"; mkdir -p "$src"
    git -C "$GIT_REPO" archive "$rev" | tar -x -C "$src"
    SKILLS_DIR="$S" CARGO_TARGET_DIR="$WORK/ours-target" cargo build --release --quiet \
      --manifest-path "$src/Cargo.toml" --example stdio_server
    cp "$WORK/ours-target/release/examples/stdio_server" "$WORK/bin/ours-stdio-$rev"
  fi
  CASES+=("ours-$rev|$WORK/bin/ours-stdio-$rev")
fi
# SkillCatalog as rmcp's example serves it (stdio()) and as ours is served (stdio_pipes()).
CASES+=("rmcp|$TARGET/release/rmcp-skillcatalog-server $S" "rmcp-pipes|$TARGET/release/rmcp-skillcatalog-server --pipes $S")

mkdir -p "$OUT/stdio"
rows="$OUT/stdio/client-cost.jsonl"
: > "$rows"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wait_quiet
echo "$(date -u +%FT%TZ) before client-cost: loadavg $(cut -d' ' -f1-3 /proc/loadavg) (waited $WAITED s)" | tee -a "$OUT/load.txt" >&2
for ((r = 0; r < ROUNDS; r++)); do
  for c in "${CASES[@]}"; do
    IFS='|' read -r name cmd <<<"$c"
    # More reads than the window needs, so the client is still reading when perf detaches.
    # shellcheck disable=SC2086
    "$LC" throughput --runs 1 --n 200000 --window 16 --no-verify -- $cmd > "$tmp/run.json" 2>/dev/null &
    client=$!
    sleep 1
    perf stat -x, -p "$client" -o "$tmp/stat.csv" \
      -e task-clock,context-switches,syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_futex \
      -- sleep "$WINDOW_S" &
    stat=$!
    perf record -q -F 2999 -e cpu-clock -p "$client" -o "$tmp/perf.data" -- sleep "$WINDOW_S" >/dev/null 2>&1
    wait "$stat"
    kill "$client" 2>/dev/null; wait "$client" 2>/dev/null || true
    perf report -i "$tmp/perf.data" --sort sym --stdio -n 2>/dev/null > "$tmp/report.txt"
    python3 - "$name" "$r" "$tmp/stat.csv" "$tmp/report.txt" "$WINDOW_S" >> "$rows" <<'EOF'
import json, re, sys
name, rnd, stat, report, window = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], float(sys.argv[5])
counts = {}
for line in open(stat):
    f = line.strip().split(",")
    if len(f) > 2 and not line.startswith("#") and f[0].replace(".", "").isdigit():
        counts[f[2]] = float(f[0])
requests = counts["syscalls:sys_enter_write"]
samples = {m.group(2): int(m.group(1)) for m in
           re.finditer(r"^\s+[\d.]+%\s+(\d+)\s+\[[k.]\]\s+(\S+)", open(report).read(), re.M)}
us = lambda n: n / 2999 / requests * 1e6
groups = {
    "scheduling": ("finish_task_switch.isra.0", "_raw_spin_unlock_irqrestore", "irqentry_exit_to_user_mode"),
    "copying": ("_copy_to_iter", "__memmove_avx_unaligned_erms"),
    "parsing": ("serde_json::read::SliceRead::skip_to_escape", "core::slice::memchr::memchr_aligned",
                "<serde_json::read::SliceRead"),
}
row = {"case": name, "round": rnd, "window_s": window, "requests": int(requests),
       "req_per_s": requests / window,
       "client_cpu_us_per_req": counts["task-clock"] * 1e3 / requests,
       "context_switches_per_req": counts["context-switches"] / requests,
       "read_calls_per_req": counts["syscalls:sys_enter_read"] / requests,
       "futex_calls_per_req": counts["syscalls:sys_enter_futex"] / requests,
       "sampled_us_per_req": us(sum(samples.values()))}
for group, names in groups.items():
    row[f"{group}_us_per_req"] = us(sum(n for s, n in samples.items() if s.startswith(names)))
row["top_symbols_us_per_req"] = {s: round(us(n), 2) for s, n in sorted(samples.items(), key=lambda x: -x[1])[:8]}
print(json.dumps(row))
EOF
  done
done
echo "client-cost.sh: $(wc -l < "$rows") rows in $rows" >&2
