#!/usr/bin/env bash
# Run-time benchmark: our SkillsServer (embedded skills) next to rmcp's SkillCatalog, FastMCP 4.2.3
# and agentskills-mcp-server 0.7.0, over stdio and streamable HTTP, on the same tree, servers
# interleaved round by round. Start-up over stdio is timed by ../shared/bench/peers/load-client;
# everything else by bench/runtime/http-load (same request mix and row keys, plus per-request
# latency, `lat_ms`: p50/p90/p99/max).
#
#   bash bench/runtime/run.sh                      # everything (~30 min on 2 cores, plus load waits)
#   ONLY="setup stdio" bash bench/runtime/run.sh   # a subset of phases
#   ONLY="setup soak" bash bench/runtime/run.sh    # the soak alone (64 sessions + 16 stateless, 30 s)
#   STARTUP_ROUNDS=2 TPUT_ROUNDS=1 N=2000 LAT_ROUNDS=1 NO_WAIT=1 bash bench/runtime/run.sh  # smoke
#
# Phases (ONLY, default "setup stdio http scale"):
#   setup  ../shared/bench/peers/setup.sh (venvs, peers, load-client, the valid corpus copy
#          $VCORPUS/skills of ../shared/corpus/real), then release builds of our stdio_server and
#          http_server examples with SKILLS_DIR=$VCORPUS/skills (separate CARGO_TARGET_DIR), the
#          http-load client (the repository's workspace, -p http-load) and the
#          rmcp-skillcatalog-http peer (the benchmark tools' workspace, bench/Cargo.toml, -p
#          rmcp-skillcatalog-http), and the synthetic scale trees (gen-synthetic.py, N skills x
#          $SCALE_FILES files x $SCALE_BYTES B, seed 1) with one build of ours per tree.
#          Our binaries are copied to $WORK/bin/ours-{stdio,http}-<tree> (the tree is compiled in).
#          Unless RMCP_PATCHED=0, also ours-rmcp-patched-{stdio,http}-real: the same examples built
#          from a copy of the sources against rmcp with bench/runtime/rmcp-patch/*.patch applied
#          (bench-only, `--config patch.crates-io...`; the repository's Cargo.lock is untouched).
#   stdio  run_runtime.sh's loops with our rows added: startup (15 rounds), throughput (5 rounds,
#          N=20000, 16 in flight), one-in-flight latency (3 rounds) -> $OUT/stdio/*.jsonl; every
#          throughput and latency row carries lat_ms (per-request p50/p90/p99/max). Throughput
#          and latency cases: ours (default: no blob cache), ours-blob-cache (--blob-cache-bytes
#          64 MiB, the default before issue 11), ours-rmcp-patched (when built), rmcp (stdio()),
#          rmcp-pipes (stdio_pipes(), as ours), fastmcp, agentskills. STARTUP_ROUNDS=0 skips the start-up series.
#   http   the same over streamable HTTP (2026-07-28 stateless POSTs): ours --stateless and default
#          (examples/http_server.rs), rmcp SkillCatalog (http-load/rmcp-skillcatalog-http)
#          --stateless, default with TCP_NODELAY (as our example sets it: the fair twin of ours),
#          and default without it (as axum::serve leaves it), its empty-dir floor, and FastMCP 4.2.3
#          (fastmcp_http_server.py, transport="http"): startup, throughput (16 in flight) and
#          one-in-flight latency (HTTP_LAT_ROUNDS x HTTP_LAT_N) -> $OUT/http/*.jsonl
#   scale  stdio startup + throughput for the synthetic trees, ours vs rmcp SkillCatalog
#          -> $OUT/scale-s<N>/*.jsonl
#   soak   (not in the default ONLY) our http_server with sessions on the real corpus, skills
#          page size 5: $SOAK_SESSIONS sessions + $SOAK_STATELESS stateless 2026-07-28 clients for
#          $SOAK_SECS s of mixed skills/list (every page), skills/get, resources/read and
#          directory reads, every answer checked; server RSS each second
#          -> $OUT/soak/summary.json, $OUT/soak/rss.jsonl
# Before each measurement series the script waits until the 1-minute load average has stayed
# below $LOAD_MAX for $LOAD_HOLD s (give up after $LOAD_TIMEOUT s; NO_WAIT=1 skips); the load
# before/after each series is appended to $OUT/load.txt. Summaries: $OUT/summary.md
# (bench/runtime/summarize.py: medians, min-max, per-round ratios against several bases, the
# latency percentiles of every case, and callgrind.jsonl when callgrind-reads.sh wrote one).
# Idempotent: setup reuses venvs, builds and trees; each measured phase rewrites its own JSONL.
#
# Env (defaults): WORK=/tmp/bench-runtime TARGET=/tmp/anchors-target VCORPUS=/tmp/anchors-corpus
#   FASTMCP_VENV=/tmp/venv-fastmcp ASK_VENV=/tmp/venv-ask OUT=bench/runtime/results
#   STARTUP_ROUNDS=15 TPUT_ROUNDS=5 N=20000 WINDOW=16 LAT_ROUNDS=3 LAT_N=3000
#   HTTP_N=10000 HTTP_TPUT_ROUNDS=3 (the cases without TCP_NODELAY run at ~700 req/s, hence fewer)
#   HTTP_LAT_N=1000 HTTP_LAT_ROUNDS=$LAT_ROUNDS SOAK_SECS=30 SOAK_SESSIONS=64 SOAK_STATELESS=16
#   SCALE_TREES="10 100 1000" SCALE_FILES=10 SCALE_BYTES=2048 SCALE_STARTUP_ROUNDS=10 SCALE_TPUT_ROUNDS=3
#   LOAD_MAX=0.6 LOAD_HOLD=30 LOAD_TIMEOUT=900 PY311/PY312 (else found under ~/.pyenv)
#   CRATES_REPO=<repo copy> (default: this repository; see below) RMCP_PATCHED=1
# Instructions per read (callgrind, noise-free): bash bench/runtime/callgrind-reads.sh after setup.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
SHARED="$(cd "$REPO/../shared" && pwd)"
PEERS="$SHARED/bench/peers"
WORK="${WORK:-/tmp/bench-runtime}"
export TARGET="${TARGET:-/tmp/anchors-target}"
export VCORPUS="${VCORPUS:-/tmp/anchors-corpus}"
export FASTMCP_VENV="${FASTMCP_VENV:-/tmp/venv-fastmcp}"
export ASK_VENV="${ASK_VENV:-/tmp/venv-ask}"
OUT="${OUT:-$HERE/results}"
STARTUP_ROUNDS="${STARTUP_ROUNDS:-15}"; TPUT_ROUNDS="${TPUT_ROUNDS:-5}"
HTTP_LAT_N="${HTTP_LAT_N:-1000}"; SOAK_SECS="${SOAK_SECS:-30}"; SOAK_SESSIONS="${SOAK_SESSIONS:-64}"; SOAK_STATELESS="${SOAK_STATELESS:-16}"
N="${N:-20000}"; HTTP_N="${HTTP_N:-10000}"; HTTP_TPUT_ROUNDS="${HTTP_TPUT_ROUNDS:-3}"; WINDOW="${WINDOW:-16}"; LAT_ROUNDS="${LAT_ROUNDS:-3}"; LAT_N="${LAT_N:-3000}"
HTTP_LAT_ROUNDS="${HTTP_LAT_ROUNDS:-$LAT_ROUNDS}"
SCALE_TREES="${SCALE_TREES:-10 100 1000}"; SCALE_FILES="${SCALE_FILES:-10}"; SCALE_BYTES="${SCALE_BYTES:-2048}"
SCALE_STARTUP_ROUNDS="${SCALE_STARTUP_ROUNDS:-10}"; SCALE_TPUT_ROUNDS="${SCALE_TPUT_ROUNDS:-3}"
RMCP_PATCHED="${RMCP_PATCHED:-1}"
LOAD_MAX="${LOAD_MAX:-0.6}"; LOAD_HOLD="${LOAD_HOLD:-30}"; LOAD_TIMEOUT="${LOAD_TIMEOUT:-900}"
ONLY="${ONLY:-setup stdio http scale}"
# CRATES_REPO: build our examples from this copy of the repository instead (a `git archive`
# snapshot), so that commits landing during a run do not change what is measured.
CRATES_REPO="${CRATES_REPO:-$REPO}"
BIN="$WORK/bin"
OURS_TARGET="$WORK/ours-target"
HTTP_TARGET="$WORK/http-target"
mkdir -p "$OUT" "$BIN"

pick_python() { # $1 = 3.11 | 3.12
  local v="$1" p
  # A pyenv shim exists for every version but fails for those not selected: try each one.
  for p in "python$v" "$HOME"/.pyenv/versions/"$v".*/bin/"python$v"; do
    "$p" -c '' >/dev/null 2>&1 && { command -v "$p" || echo "$p"; return; }
  done
  echo "python$v"
}

# Waits for a quiet machine; logs the load before the series.
# shellcheck source=wait-quiet.sh
. "$HERE/wait-quiet.sh"
quiet() { # $1 = series name
  wait_quiet
  echo "$(date -u +%FT%TZ) before $1 (ours from $CRATES_REPO at $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null)): loadavg $(cut -d' ' -f1-3 /proc/loadavg) (waited $WAITED s)" | tee -a "$OUT/load.txt" >&2
}
after() { echo "$(date -u +%FT%TZ) after  $1: loadavg $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt" >&2; }

LC="$TARGET/release/load-client"
HL="$HTTP_TARGET/release/http-load"
RMCP="$TARGET/release/rmcp-skillcatalog-server"
RMCP_HTTP="$HTTP_TARGET/release/rmcp-skillcatalog-http"
FM="$FASTMCP_VENV/bin/python $PEERS/fastmcp_server.py"
FM_HTTP="$FASTMCP_VENV/bin/python $HERE/fastmcp_http_server.py"
ASK="$ASK_VENV/bin/python $PEERS/agentskills_server.py"
S="$VCORPUS/skills"; E="$VCORPUS/empty"

build_ours() { # $1 = tree name, $2 = skills dir
  SKILLS_DIR="$2" CARGO_TARGET_DIR="$OURS_TARGET" cargo build --release --quiet --manifest-path "$CRATES_REPO/Cargo.toml" \
    --features http --example stdio_server --example http_server
  cp "$OURS_TARGET/release/examples/stdio_server" "$BIN/ours-stdio-$1"
  cp "$OURS_TARGET/release/examples/http_server" "$BIN/ours-http-$1"
}

# The bench-only variant of ours against rmcp with bench/runtime/rmcp-patch/*.patch applied
# (`TextResourceContents::text` as `Cow<'static, str>`): a copy of the sources, so that the
# `[patch.crates-io]` (given on the command line) never touches the repository's Cargo.lock.
build_ours_rmcp_patched() { # $1 = tree name, $2 = skills dir
  local version registry src="$WORK/ours-rmcp-patched-src" rmcp_src="$WORK/rmcp-patched"
  version=$(awk '/^name = "rmcp"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$CRATES_REPO/Cargo.lock")
  (cd "$CRATES_REPO" && cargo fetch --locked --quiet)
  registry=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"rmcp-$version" | head -1)
  rm -rf "$rmcp_src" "$src"; mkdir -p "$src"
  cp -r "$registry" "$rmcp_src"
  for p in "$HERE"/rmcp-patch/*.patch; do patch -s -d "$rmcp_src" -p1 < "$p"; done
  tar -C "$CRATES_REPO" --exclude=./target --exclude=./.git --exclude=./fuzz -cf - . | tar -C "$src" -xf -
  # Our target dir: only rmcp and what depends on it compile again.
  SKILLS_DIR="$2" CARGO_TARGET_DIR="$OURS_TARGET" cargo build --release --quiet \
    --manifest-path "$src/Cargo.toml" --config "patch.crates-io.rmcp.path=\"$rmcp_src\"" \
    --features http --example stdio_server --example http_server
  cp "$OURS_TARGET/release/examples/stdio_server" "$BIN/ours-rmcp-patched-stdio-$1"
  cp "$OURS_TARGET/release/examples/http_server" "$BIN/ours-rmcp-patched-http-$1"
}

if [[ " $ONLY " == *" setup "* ]]; then
  # setup.sh wants a folder that holds skills/; ../shared/corpus/real is the skills root itself.
  mkdir -p "$WORK/corpus-src"
  ln -sfn "$SHARED/corpus/real" "$WORK/corpus-src/skills"
  CORPUS="$WORK/corpus-src" PY311="${PY311:-$(pick_python 3.11)}" PY312="${PY312:-$(pick_python 3.12)}" \
    bash "$PEERS/setup.sh"
  build_ours real "$S"
  CARGO_TARGET_DIR="$HTTP_TARGET" cargo build --release --quiet --manifest-path "$REPO/Cargo.toml" -p http-load
  CARGO_TARGET_DIR="$HTTP_TARGET" cargo build --release --quiet --locked --manifest-path "$REPO/bench/Cargo.toml" -p rmcp-skillcatalog-http
  if [ "$RMCP_PATCHED" = 1 ]; then build_ours_rmcp_patched real "$S"; fi
  for n in $SCALE_TREES; do
    t="$WORK/trees/s$n"
    args="--skills $n --files-per-skill $SCALE_FILES --bytes-per-file $SCALE_BYTES --seed 1"
    if [ ! -f "$t.args" ] || [ "$(cat "$t.args")" != "$args" ]; then
      rm -rf "$t"; mkdir -p "$(dirname "$t")"
      # shellcheck disable=SC2086
      python3 "$SHARED/corpus/gen-synthetic.py" "$t" $args --quiet
      echo "$args" > "$t.args"
    fi
    build_ours "s$n" "$t"
  done
fi

# run_cases <jsonl> <rounds> <tool> <mode> <extra flags> -- case lines "name|flags|command"
# Each round starts one case further down the list, so that no case always runs in the same
# place (the first of a round follows the previous round's last, a Python peer: an order effect
# would otherwise fall on one case every round).
run_cases() {
  local out="$1" rounds="$2" tool="$3" mode="$4" extra="$5"; shift 5
  : > "$out"
  local cases=("$@") r i c name flags cmd
  for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < ${#cases[@]}; i++)); do
      c="${cases[$(((i + r) % ${#cases[@]}))]}"
      IFS='|' read -r name flags cmd <<<"$c"
      # shellcheck disable=SC2086
      "$tool" "$mode" --runs 1 $extra $flags -- $cmd \
        | grep -v '"summary"' | sed "s|^{|{\"case\":\"$name\",\"round\":$r,|" >> "$out"
    done
  done
}

if [[ " $ONLY " == *" stdio "* ]]; then
  OURS="$BIN/ours-stdio-real"
  mkdir -p "$OUT/stdio"
  STARTUP_CASES=(
    "ours|--proto modern --first skills/list|$OURS"
    "ours-handshake|--proto handshake --first skills/list|$OURS"
    "rmcp|--proto modern --first skills/list|$RMCP $S"
    "rmcp-pipes|--proto modern --first skills/list|$RMCP --pipes $S"
    "rmcp-handshake|--proto handshake --first skills/list|$RMCP $S"
    "rmcp-empty-dir|--proto modern --first skills/list|$RMCP $E"
    "fastmcp|--proto modern --first skills/list|$FM $S"
    "fastmcp-handshake|--proto handshake --first resources/list|$FM $S"
    "fastmcp-empty-dir|--proto modern --first skills/list|$FM $E"
    "agentskills|--proto modern --first skills/list|$ASK $S"
  )
  TPUT_CASES=("ours||$OURS" "ours-blob-cache||$OURS --blob-cache-bytes $((64 << 20))")
  [ -x "$BIN/ours-rmcp-patched-stdio-real" ] && TPUT_CASES+=("ours-rmcp-patched||$BIN/ours-rmcp-patched-stdio-real")
  # SkillCatalog as rmcp's example serves it (stdio()) and as ours is served (--pipes: stdio_pipes()).
  TPUT_CASES+=("rmcp||$RMCP $S" "rmcp-pipes||$RMCP --pipes $S" "fastmcp||$FM $S" "agentskills||$ASK $S")
  quiet stdio-startup
  run_cases "$OUT/stdio/startup.jsonl" "$STARTUP_ROUNDS" "$LC" startup "" "${STARTUP_CASES[@]}"
  after stdio-startup; quiet stdio-tput
  run_cases "$OUT/stdio/tput.jsonl" "$TPUT_ROUNDS" "$HL" throughput "--transport stdio --n $N --window $WINDOW" "${TPUT_CASES[@]}"
  after stdio-tput; quiet stdio-lat
  run_cases "$OUT/stdio/lat.jsonl" "$LAT_ROUNDS" "$HL" throughput "--transport stdio --n $LAT_N --window 1 --no-verify" "${TPUT_CASES[@]}"
  after stdio-lat
fi

if [[ " $ONLY " == *" http "* ]]; then
  OURS="$BIN/ours-http-real"
  mkdir -p "$OUT/http"
  HTTP_CASES=(
    "ours-stateless||$OURS --bind 127.0.0.1:{port} --stateless"
    "ours||$OURS --bind 127.0.0.1:{port}"
    "rmcp-stateless||$RMCP_HTTP $S --port {port} --stateless"
    "rmcp||$RMCP_HTTP $S --port {port}"
    "rmcp-nodelay||$RMCP_HTTP $S --port {port} --nodelay"
    "fastmcp||$FM_HTTP $S {port}"
  )
  STARTUP_CASES=("${HTTP_CASES[@]}" "rmcp-empty-dir||$RMCP_HTTP $E --port {port} --stateless")
  quiet http-startup
  run_cases "$OUT/http/startup.jsonl" "$STARTUP_ROUNDS" "$HL" startup "" "${STARTUP_CASES[@]}"
  after http-startup; quiet http-tput
  run_cases "$OUT/http/tput.jsonl" "$HTTP_TPUT_ROUNDS" "$HL" throughput "--n $HTTP_N --window $WINDOW" "${HTTP_CASES[@]}"
  after http-tput; quiet http-lat
  run_cases "$OUT/http/lat.jsonl" "$HTTP_LAT_ROUNDS" "$HL" throughput "--n $HTTP_LAT_N --window 1 --no-verify" "${HTTP_CASES[@]}"
  after http-lat
fi

if [[ " $ONLY " == *" soak "* ]]; then
  mkdir -p "$OUT/soak"
  quiet soak
  # Exits 1 (and stops this script) if any request failed or any answer differed from the manifest.
  "$HL" soak --secs "$SOAK_SECS" --sessions "$SOAK_SESSIONS" --stateless "$SOAK_STATELESS" \
    --rss-out "$OUT/soak/rss.jsonl" -- "$BIN/ours-http-real" --bind 127.0.0.1:{port} --skills-page-size 5 \
    > "$OUT/soak/summary.json"
  after soak
fi

if [[ " $ONLY " == *" scale "* ]]; then
  for n in $SCALE_TREES; do
    t="$WORK/trees/s$n"
    mkdir -p "$OUT/scale-s$n"
    CASES=("ours||$BIN/ours-stdio-s$n" "rmcp||$RMCP $t")
    quiet "scale-s$n"
    run_cases "$OUT/scale-s$n/startup.jsonl" "$SCALE_STARTUP_ROUNDS" "$LC" startup "--proto modern --first skills/list" "${CASES[@]}"
    run_cases "$OUT/scale-s$n/tput.jsonl" "$SCALE_TPUT_ROUNDS" "$HL" throughput "--transport stdio --n $N --window $WINDOW" "${CASES[@]}"
    after "scale-s$n"
  done
fi

python3 "$HERE/summarize.py" "$OUT"
