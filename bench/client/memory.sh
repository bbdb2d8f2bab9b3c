#!/usr/bin/env bash
# Peak memory of the client during a sync (issue 30): SKILLS skills of MIB MiB each (a SKILL.md
# and one binary file), synced into an empty folder by the sync benchmark's client
# (bench/client/sync-bench) built from BEFORE and from AFTER, from the same server binary
# (AFTER's skills-test-server --dir, over stdio), rounds interleaved, alternating which client
# goes first. BEFORE held every verified skill in memory until one final write; AFTER writes each
# skill once it is verified, a few in flight.
#
#   bash bench/client/memory.sh                          # 500 skills of 1 MiB, 3 rounds
#   SKILLS=50 ROUNDS=1 bash bench/client/memory.sh       # smoke
#
# Peak RSS is the client process's own VmHWM (/proc/PID/status), read every 10 ms while it runs
# (the high-water mark only grows, and the client spends well over 10 ms after its sync closing
# the server), so the server, a child of the client, is never counted.
# Output: $OUT/memory.jsonl (one row per sync: client before|after, round, peak_rss_kib,
# wall_ms, skills, bytes; then a meta row with the load) and a summary on stdout.
# Env (defaults): BEFORE=9782fc8 AFTER=HEAD SKILLS=500 MIB=1 ROUNDS=3 WORK=/tmp/bench-client-memory
#   OUT=bench/client/results
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
BEFORE="${BEFORE:-9782fc8}"; AFTER="${AFTER:-HEAD}"
SKILLS="${SKILLS:-500}"; MIB="${MIB:-1}"; ROUNDS="${ROUNDS:-3}"
WORK="${WORK:-/tmp/bench-client-memory}"; OUT="${OUT:-$HERE/results}"
mkdir -p "$WORK" "$OUT"

echo "== builds (release): client at $BEFORE and $AFTER, server at $AFTER"
# shellcheck source=build-sides.sh
. "$HERE/build-sides.sh"
build_sync_bench_sides
CARGO_TARGET_DIR="$WORK/server-target" \
    cargo build --release --quiet --manifest-path "$WORK/after/Cargo.toml" -p skills-e2e --bin skills-test-server
SERVER="$WORK/server-target/release/skills-test-server"

echo "== tree: $SKILLS skills of $MIB MiB"
python3 - "$WORK/tree" "$SKILLS" "$MIB" <<'PY'
import os, shutil, sys
root, skills, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
marker = os.path.join(root, f".made-{skills}-{mib}")
if not os.path.exists(marker):
    shutil.rmtree(root, ignore_errors=True)
    for n in range(skills):
        name = f"skill-{n:04d}"
        os.makedirs(os.path.join(root, name, "assets"))
        with open(os.path.join(root, name, "SKILL.md"), "w") as f:
            f.write(f"---\nname: {name}\ndescription: Synthetic skill {n} for the client's memory benchmark.\n---\n# {name}\n")
        # Bytes that differ per skill and do not compress (no two files share a digest).
        block = bytes((n * 7 + i * 13) % 251 for i in range(4096))
        size = mib * 1024 * 1024 - 200
        with open(os.path.join(root, name, "assets", "data.bin"), "wb") as f:
            f.write((block * (size // len(block) + 1))[:size])
    open(marker, "w").close()
PY

echo "== $ROUNDS interleaved rounds (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
load_before=$(cut -d' ' -f1 /proc/loadavg)
: >"$OUT/memory.jsonl"
run() { # run CLIENT ROUND
    rm -rf "$WORK/folder"
    python3 - "$WORK/sync-bench-$1" "$WORK/folder" "$SERVER" "$WORK/tree" "$1" "$2" >>"$OUT/memory.jsonl" <<'PY'
import json, subprocess, sys, time
bench, folder, server, tree, client, round_ = sys.argv[1:]
proc = subprocess.Popen([bench, folder, "--", server, "--dir", tree], stdout=subprocess.PIPE)
peak = 0
while proc.poll() is None:
    try:
        for line in open(f"/proc/{proc.pid}/status"):
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]))
    except OSError:
        pass
    time.sleep(0.01)
out = proc.stdout.read()
assert proc.returncode == 0, f"{client} failed: {proc.returncode}"
row = json.loads(out)
row.update(client=client, round=int(round_), peak_rss_kib=peak)
print(json.dumps(row))
PY
}
for round in $(seq 1 "$ROUNDS"); do
    if (( round % 2 )); then run before "$round"; run after "$round"
    else run after "$round"; run before "$round"; fi
done
load_after=$(cut -d' ' -f1 /proc/loadavg)
echo "== load after: $load_after"
echo "{\"meta\": {\"skills\": $SKILLS, \"mib\": $MIB, \"before\": \"$BEFORE\", \"load_before\": $load_before, \"load_after\": $load_after}}" >>"$OUT/memory.jsonl"

python3 - "$OUT/memory.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if "client" in json.loads(l)]
assert len({r["bytes"] for r in rows}) == 1, "every sync wrote the same bytes"
for client in ("before", "after"):
    rss = [r["peak_rss_kib"] / 1024 for r in rows if r["client"] == client]
    wall = [r["wall_ms"] for r in rows if r["client"] == client]
    print(f"{client}: peak RSS median {statistics.median(rss):.0f} MiB ({min(rss):.0f}-{max(rss):.0f}), "
          f"wall median {statistics.median(wall):.0f} ms over {len(rss)} syncs")
print(f"{rows[0]['skills']} skills, {rows[0]['bytes']:,} bytes per sync")
PY
