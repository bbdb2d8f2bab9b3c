#!/usr/bin/env bash
# Creates the Python virtual environments the end-to-end tests run their
# clients in (tests/e2e/tests/python_clients.rs):
#
#   $VENVS/py311  fastmcp==4.2.3 (+ mcp 2.3.0)  from requirements-py311.txt  (Python 3.11+)
#   $VENVS/py313  fast-agent-mcp==0.10.48       from requirements-py313.txt  (Python 3.12+, pinned on 3.13)
#   $VENVS/skills-ref  skills-ref==0.1.1 (`agentskills`)  from requirements-skills-ref.txt  (Python 3.11+),
#                 the reference validator skills-cli's parity test and bench/cli compare with
#
# VENVS is $SKILLS_E2E_VENVS, default <repo>/target/e2e-venvs. Separate venvs because
# fast-agent pins fastmcp-slim 4.1.3 and fastmcp 4.2.3 needs 4.2.3, and the
# reference validator keeps its own pins.
#
# Idempotent: a venv is rebuilt only when its pins file or its Python changed
# (a hash of both is stored in the venv). Installs exactly the pinned versions
# from PyPI (--no-deps, then `pip check`); nothing else is downloaded.
#
# Interpreters: PY311=/path and PY313=/path override the search.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
venvs="${SKILLS_E2E_VENVS:-$repo/target/e2e-venvs}"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

# True when $1 runs and is Python >= $2.$3.
python_at_least() {
    [ -n "$1" ] && "$1" -c "import sys; sys.exit(0 if sys.version_info >= ($2, $3) else 1)" >/dev/null 2>&1
}

# Prints the first candidate that is Python >= $1.$2.
find_python() {
    local major="$1" minor="$2" candidate
    shift 2
    for candidate in "$@"; do
        if python_at_least "$candidate" "$major" "$minor"; then
            command -v "$candidate" 2>/dev/null || echo "$candidate"
            return 0
        fi
    done
    return 1
}

pyenv_root="$(pyenv root 2>/dev/null || true)"

if [ -n "${PY311:-}" ]; then
    python_at_least "$PY311" 3 11 || { echo "setup.sh: PY311=$PY311 is not Python 3.11+" >&2; exit 1; }
    py311="$PY311"
else
    # shellcheck disable=SC2046 # the globs are meant to expand to several paths
    py311="$(find_python 3 11 python3.11 python3 \
        $(ls -d /root/.pyenv/versions/3.1[1-9]*/bin/python3 2>/dev/null) \
        $( [ -n "$pyenv_root" ] && ls -d "$pyenv_root"/versions/3.1[1-9]*/bin/python3 2>/dev/null))" || {
        echo "setup.sh: FastMCP needs Python 3.11+; install it or set PY311=/path" >&2
        exit 1
    }
fi

if [ -n "${PY313:-}" ]; then
    python_at_least "$PY313" 3 12 || { echo "setup.sh: fast-agent needs Python 3.12+; PY313=$PY313 is not" >&2; exit 1; }
    py313="$PY313"
else
    # The pyenv shim `python3.13` fails unless 3.13 is the selected version, so
    # the interpreters under the pyenv root are tried directly too.
    # shellcheck disable=SC2046
    py313="$(find_python 3 13 python3.13 \
        $(ls -d /root/.pyenv/versions/3.13*/bin/python3.13 2>/dev/null) \
        $( [ -n "$pyenv_root" ] && ls -d "$pyenv_root"/versions/3.13*/bin/python3.13 2>/dev/null))" || {
        echo "setup.sh: fast-agent needs Python 3.12+; install it or set PY313=/path" >&2
        echo "          (looked for python3.13 on PATH and under ${pyenv_root:-/root/.pyenv}/versions/)" >&2
        exit 1
    }
fi

# make_venv NAME PYTHON PINS: (re)creates $venvs/NAME unless its stamp matches.
make_venv() {
    local name="$1" python="$2" pins="$3" dir="$venvs/$1" stamp wanted
    wanted="$( { sha256sum "$pins" | cut -d' ' -f1; "$python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"
    stamp="$dir/.skills-e2e-stamp"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && [ -x "$dir/bin/python" ]; then
        echo "$name: up to date ($dir)"
        return 0
    fi
    echo "$name: creating with $python ($("$python" -V 2>&1)) from $(basename "$pins")"
    rm -rf "$dir"
    "$python" -m venv "$dir"
    "$dir/bin/python" -m pip install --no-input --quiet --no-deps -r "$pins"
    "$dir/bin/python" -m pip check
    echo "$wanted" >"$stamp"
    echo "$name: ready"
}

mkdir -p "$venvs"
started=$SECONDS
# The two installs are independent; run them side by side, each logging to a file.
make_venv py311 "$py311" "$here/requirements-py311.txt" >"$venvs/py311.log" 2>&1 &
pid311=$!
make_venv py313 "$py313" "$here/requirements-py313.txt" >"$venvs/py313.log" 2>&1 &
pid313=$!
make_venv skills-ref "$py311" "$here/requirements-skills-ref.txt" >"$venvs/skills-ref.log" 2>&1 &
pidref=$!
status=0
for job in "py311:$pid311" "py313:$pid313" "skills-ref:$pidref"; do
    if ! wait "${job#*:}"; then
        echo "setup.sh: ${job%%:*} failed; log follows ($venvs/${job%%:*}.log)" >&2
        tail -n 40 "$venvs/${job%%:*}.log" >&2
        status=1
    else
        cat "$venvs/${job%%:*}.log"
    fi
done
[ "$status" -eq 0 ] || exit "$status"
echo "venvs ready under $venvs in $((SECONDS - started)) s"
