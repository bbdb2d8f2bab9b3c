#!/usr/bin/env bash
# Client benchmark: time to sync ../shared/corpus/real (23 skills, 244 files) into an empty folder
# with skills-runtime's client, from our stdio server (skills-test-server --tree corpus: the
# corpus embedded at compile time) and from FastMCP 4.2.3's SEP-2640 provider over stdio (same
# client, same corpus, 2026-07-28 on both). Rounds interleave the two servers (alternating which
# goes first); every run verifies every file (size, sha256, frontmatter) before writing.
#
#   bash bench/client/run.sh                 # 10 rounds (~1 min)
#   ROUNDS=2 bash bench/client/run.sh        # smoke
#
# Reported (bench/client/results/summary.md, raw runs in sync.jsonl): median wall time per
# server (server start-up included: process spawn to last skill written), the per-round ratio
# FastMCP / ours (target >= 3x), and the client's own CPU per byte verified (from
# /proc/self/stat of the client process; the server's CPU is not in it).
#
# Env (defaults): ROUNDS=10 OUT=bench/client/results WORK=/tmp/bench-client
#   SKILLS_E2E_VENVS=<repo>/target/e2e-venvs (FastMCP's venv; tests/e2e/clients/setup.sh builds it)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CORPUS="$(cd "$REPO/../shared/corpus/real" && pwd)"
ROUNDS="${ROUNDS:-10}"
OUT="${OUT:-$HERE/results}"
WORK="${WORK:-/tmp/bench-client}"
VENVS="${SKILLS_E2E_VENVS:-$REPO/target/e2e-venvs}"
mkdir -p "$OUT" "$WORK"

echo "== builds (release)"
bash "$REPO/tests/e2e/clients/setup.sh" >/dev/null
SKILLS_CORPUS="$CORPUS" CARGO_TARGET_DIR="$WORK/ours-target" \
    cargo build --release --quiet --manifest-path "$REPO/Cargo.toml" -p skills-e2e --bin skills-test-server
CARGO_TARGET_DIR="$WORK/bench-target" \
    cargo build --release --quiet --locked --manifest-path "$REPO/bench/Cargo.toml" -p sync-bench
BENCH="$WORK/bench-target/release/sync-bench"
OURS=("$WORK/ours-target/release/skills-test-server" --tree corpus)
FASTMCP=("$VENVS/py311/bin/python" "$REPO/tests/e2e/clients/fastmcp_server.py" sep "$CORPUS")

run() { # run NAME ROUND COMMAND...
    local name="$1" round="$2"; shift 2
    rm -rf "$WORK/folder"
    "$BENCH" "$WORK/folder" -- "$@" | python3 -c "
import json, sys
row = json.loads(sys.stdin.read())
row.update(server='$name', round=$round)
print(json.dumps(row))" >>"$OUT/sync.jsonl"
}

: >"$OUT/sync.jsonl"
echo "== $ROUNDS interleaved rounds (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
for round in $(seq 1 "$ROUNDS"); do
    if (( round % 2 )); then
        run ours "$round" "${OURS[@]}"; run fastmcp "$round" "${FASTMCP[@]}"
    else
        run fastmcp "$round" "${FASTMCP[@]}"; run ours "$round" "${OURS[@]}"
    fi
done
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT/sync.jsonl" "$OUT/summary.md" "$(git -C "$REPO" rev-parse --short HEAD)" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
by = {}
for row in rows:
    by.setdefault(row["server"], []).append(row)
ours, fastmcp = by["ours"], by["fastmcp"]
assert {r["bytes"] for r in rows} == {ours[0]["bytes"]}, "every run wrote the same bytes"
med = lambda xs: statistics.median(xs)
ratios = [f["wall_ms"] / o["wall_ms"] for o in ours for f in fastmcp if f["round"] == o["round"]]
lines = [
    f"Sync of ../shared/corpus/real ({ours[0]['skills']} skills, {ours[0]['files']} files, "
    f"{ours[0]['bytes']:,} bytes) into an empty folder, same client (skills-runtime `client`, "
    f"release), {len(ours)} interleaved rounds, commit {sys.argv[3]}.",
    "",
    "| server | wall time, median (min-max) | client CPU, median | client CPU per byte verified |",
    "| --- | --- | --- | --- |",
]
for name, label in (("ours", "ours (skills-test-server, stdio)"), ("fastmcp", "FastMCP 4.2.3 SEP provider, stdio")):
    runs = by[name]
    wall = [r["wall_ms"] for r in runs]
    cpu = [r["client_cpu_ms"] for r in runs]
    per_byte = med([r["client_cpu_ms"] * 1e6 / r["bytes"] for r in runs])
    lines.append(
        f"| {label} | {med(wall):.0f} ms ({min(wall):.0f}-{max(wall):.0f}) | {med(cpu):.0f} ms | {per_byte:.1f} ns/byte |"
    )
lines += ["", f"Ratio FastMCP / ours, per round: median {med(ratios):.1f}x (min {min(ratios):.1f}x, max {max(ratios):.1f}x)."]
text = "\n".join(lines) + "\n"
open(sys.argv[2], "w").write(text)
print(text)
PY
