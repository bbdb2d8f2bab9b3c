"""What the three client scripts share: the command line, a time limit, and the report.

Every script is run as

    python <script>.py [--mode M] [--expect-protocol V] [--timeout S] [--header "Name: value"]...
                       [script options] (URL | -- server-cmd args...)

URL is a streamable-HTTP endpoint (http://127.0.0.1:PORT/mcp); after `--` comes a
command that serves MCP on stdio, which the client spawns. `--header` (repeatable, HTTP
only) adds a header to every request, e.g. `--header "Authorization: Bearer TOKEN"` for a
server behind OAuth: the token is sent as it is, no OAuth flow runs. The script prints ONE JSON
document on stdout, always with "ok" (bool), "problems" (list of strings), "protocol"
and "counts" (numbers the Rust tests compare with the served tree), and exits 0 iff
"ok" is true. Library logging is silenced; nothing else goes to stdout.
"""
import asyncio
import json
import sys
from typing import Any, Awaitable, Callable

USAGE = ("usage: {prog} [--mode M] [--expect-protocol V] [--timeout S] [--header 'Name: value']... "
         "{extra}(URL | -- server-cmd args...)")


class Target:
    """The server to talk to: a URL (with headers for every request), or a stdio command line."""

    def __init__(self, url: str | None, command: list[str] | None, headers: dict[str, str] | None = None):
        self.url, self.command, self.headers = url, command, headers or {}

    def describe(self) -> str:
        return self.url or " ".join(self.command or [])

    def server(self):
        """What the `mcp` SDK's `Client` (and fast-agent's connection) takes: the URL, a
        streamable-HTTP transport whose HTTP client sends the headers, or stdio parameters."""
        if self.url and self.headers:
            from mcp.client.streamable_http import streamable_http_client
            from mcp.shared._httpx_utils import create_mcp_http_client
            return streamable_http_client(self.url, http_client=create_mcp_http_client(headers=self.headers))
        if self.url:
            return self.url
        from mcp.client.stdio import StdioServerParameters
        return StdioServerParameters(command=self.command[0], args=self.command[1:])


def parse_args(argv: list[str], extra: dict[str, str], usage_extra: str = "") -> tuple[dict[str, str], Target]:
    """`extra` maps the script's own options to their defaults."""
    opts = {"--mode": "auto", "--expect-protocol": "", "--timeout": "120", **extra}
    headers: dict[str, str] = {}
    while argv[:1] and (argv[0] in opts or argv[0] == "--header") and len(argv) >= 2:
        if argv[0] == "--header":
            name, sep, value = argv[1].partition(":")
            if not sep or not name.strip():
                sys.exit(f"--header takes 'Name: value', got {argv[1]!r}")
            headers[name.strip()] = value.strip()
        else:
            opts[argv[0]] = argv[1]
        argv = argv[2:]
    if argv[:1] == ["--"] and len(argv) >= 2:
        if headers:
            sys.exit("--header is for a URL, not a stdio server")
        return opts, Target(None, argv[1:])
    if len(argv) == 1 and argv[0].startswith(("http://", "https://")):
        return opts, Target(argv[0], None, headers)
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
