"""What the three client scripts share: the command line, a time limit, and the report.

Every script is run as

    python <script>.py [--mode M] [--expect-protocol V] [--timeout S] [script options]
                       (URL | -- server-cmd args...)

URL is a streamable-HTTP endpoint (http://127.0.0.1:PORT/mcp); after `--` comes a
command that serves MCP on stdio, which the client spawns. The script prints ONE JSON
document on stdout, always with "ok" (bool), "problems" (list of strings), "protocol"
and "counts" (numbers the Rust tests compare with the served tree), and exits 0 iff
"ok" is true. Library logging is silenced; nothing else goes to stdout.
"""
import asyncio
import json
import sys
from typing import Any, Awaitable, Callable

USAGE = "usage: {prog} [--mode M] [--expect-protocol V] [--timeout S] {extra}(URL | -- server-cmd args...)"


class Target:
    """The server to talk to: a URL, or a stdio command line."""

    def __init__(self, url: str | None, command: list[str] | None):
        self.url, self.command = url, command

    def describe(self) -> str:
        return self.url or " ".join(self.command or [])


def parse_args(argv: list[str], extra: dict[str, str], usage_extra: str = "") -> tuple[dict[str, str], Target]:
    """`extra` maps the script's own options to their defaults."""
    opts = {"--mode": "auto", "--expect-protocol": "", "--timeout": "120", **extra}
    while argv[:1] and argv[0] in opts and len(argv) >= 2:
        opts[argv[0]], argv = argv[1], argv[2:]
    if argv[:1] == ["--"] and len(argv) >= 2:
        return opts, Target(None, argv[1:])
    if len(argv) == 1 and argv[0].startswith(("http://", "https://")):
        return opts, Target(argv[0], None)
    sys.exit(USAGE.format(prog=sys.argv[0], extra=usage_extra))


def first_error(e: BaseException, lines: int = 6) -> str:
    """The innermost first exception of an (anyio) exception group, its first lines joined."""
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    text = " | ".join(line.strip() for line in str(e).splitlines()[:lines])
    return f"{type(e).__name__}: {text}"


def run(main: Callable[[dict[str, Any]], Awaitable[None]], opts: dict[str, str]) -> None:
    """Runs `main(result)` under the time limit, checks the protocol, prints the report, exits.

    `main` fills the report as it goes, so what it learnt before a failure is kept."""
    timeout = float(opts["--timeout"])
    result: dict[str, Any] = {"problems": [], "protocol": None, "counts": {}}
    try:
        asyncio.run(asyncio.wait_for(main(result), timeout))
    except TimeoutError:
        result["problems"].append(f"timed out after {timeout:g} s")
    except Exception as e:  # connection, handshake or validation failure outside the per-item checks
        result["problems"].append(f"exception: {first_error(e)}")
    expected = opts["--expect-protocol"]
    if expected and result["protocol"] != expected:
        result["problems"].append(f"negotiated protocol {result['protocol']!r}, expected {expected!r}")
    result["ok"] = not result["problems"]
    print(json.dumps(result, indent=2, default=str))
    sys.exit(0 if result["ok"] else 1)
