#!/usr/bin/env bash
# A/B of the client between two commits: the sync benchmark's client (bench/client/sync-bench) built
# from BEFORE and from AFTER, syncing ../shared/corpus/real from the same server binary (AFTER's
# skills-test-server --tree corpus, and FastMCP 4.2.3's SEP provider), rounds interleaved,
# alternating which client goes first. Written for issue 19's read order (a skill's SKILL.md
# verified before its other files are asked for): BEFORE=f41d75e, AFTER=the first commit with it.
#
#   BEFORE=f41d75e AFTER=HEAD bash bench/client/ab.sh
#   ROUNDS=2 FROUNDS=1 bash bench/client/ab.sh         # smoke
#
# Output: $OUT/ab.jsonl (one row per sync: client before|after, server ours|fastmcp, round,
# wall_ms, client_cpu_ms, bytes) and a summary on stdout: medians, after ÷ before, per-round ratios.
# Env (defaults): BEFORE=f41d75e AFTER=HEAD ROUNDS=20 FROUNDS=4 WORK=/tmp/bench-client-ab
#   OUT=bench/client/results SKILLS_E2E_VENVS=<repo>/target/e2e-venvs
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CORPUS="$(cd "$REPO/../shared/corpus/real" && pwd)"
BEFORE="${BEFORE:-f41d75e}"; AFTER="${AFTER:-HEAD}"
ROUNDS="${ROUNDS:-20}"; FROUNDS="${FROUNDS:-4}"
WORK="${WORK:-/tmp/bench-client-ab}"; OUT="${OUT:-$HERE/results}"
VENVS="${SKILLS_E2E_VENVS:-$REPO/target/e2e-venvs}"
mkdir -p "$WORK" "$OUT"
# The snapshots find the corpus where a clone does: ../shared beside them.
ln -sfn "$(cd "$REPO/../shared" && pwd)" "$WORK/shared"

echo "== builds (release): client at $BEFORE and $AFTER, server at $AFTER"
bash "$REPO/tests/e2e/clients/setup.sh" >/dev/null
# shellcheck source=build-sides.sh
. "$HERE/build-sides.sh"
build_sync_bench_sides
SKILLS_CORPUS="$CORPUS" CARGO_TARGET_DIR="$WORK/server-target" \
    cargo build --release --quiet --manifest-path "$WORK/after/Cargo.toml" -p skills-e2e --bin skills-test-server
OURS=("$WORK/server-target/release/skills-test-server" --tree corpus)
FASTMCP=("$VENVS/py311/bin/python" "$REPO/tests/e2e/clients/fastmcp_server.py" sep "$CORPUS")

: >"$OUT/ab.jsonl"
run() { # run CLIENT SERVER ROUND COMMAND...
    local client=$1 server=$2 round=$3; shift 3
    rm -rf "$WORK/folder"
    "$WORK/sync-bench-$client" "$WORK/folder" -- "$@" | python3 -c "
import json, sys
row = json.loads(sys.stdin.read())
row.update(client='$client', server='$server', round=$round)
print(json.dumps(row))" >>"$OUT/ab.jsonl"
}
pair() { # pair SERVER ROUND COMMAND...: both clients, alternating which goes first
    local server=$1 round=$2; shift 2
    if (( round % 2 )); then run before "$server" "$round" "$@"; run after "$server" "$round" "$@"
    else run after "$server" "$round" "$@"; run before "$server" "$round" "$@"; fi
}
echo "== rounds (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
for round in $(seq 1 "$ROUNDS"); do pair ours "$round" "${OURS[@]}"; done
for round in $(seq 1 "$FROUNDS"); do pair fastmcp "$round" "${FASTMCP[@]}"; done
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT/ab.jsonl" "$BEFORE" "$AFTER" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
assert len({r["bytes"] for r in rows}) == 1, "every sync wrote the same bytes"
med = statistics.median
for server in ("ours", "fastmcp"):
    b = [r for r in rows if r["server"] == server and r["client"] == "before"]
    a = [r for r in rows if r["server"] == server and r["client"] == "after"]
    if not b:
        continue
    wb, wa = [r["wall_ms"] for r in b], [r["wall_ms"] for r in a]
    ratios = sorted(x["wall_ms"] / y["wall_ms"] for x in a for y in b if x["round"] == y["round"])
    print(f"{server}: {len(b)} rounds; wall median {sys.argv[2]} {med(wb):.0f} ms ({min(wb):.0f}-{max(wb):.0f}), "
          f"{sys.argv[3]} {med(wa):.0f} ms ({min(wa):.0f}-{max(wa):.0f}); after/before {med(wa)/med(wb):.3f}; "
          f"per-round median {med(ratios):.3f} (min {ratios[0]:.3f}, max {ratios[-1]:.3f}); client CPU median "
          f"{med(r['client_cpu_ms'] for r in b):.0f} -> {med(r['client_cpu_ms'] for r in a):.0f} ms")
print(f"{rows[0]['skills']} skills, {rows[0]['files']} files, {rows[0]['bytes']:,} bytes per sync")
PY
