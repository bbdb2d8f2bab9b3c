"""FastMCP 4.2.3's SEP-2640 SkillsDirectoryProvider over streamable HTTP: the HTTP twin of
../shared/bench/peers/fastmcp_server.py (same provider, same settings), for bench/runtime/run.sh.

usage: <fastmcp venv>/bin/python fastmcp_http_server.py <skills dir> <port> [--stateless]
Serves http://127.0.0.1:<port>/mcp. --stateless passes stateless_http=True (no session state,
like our --stateless); 2026-07-28 requests carry their own protocol metadata either way.
"""
import logging
import sys
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

from fastmcp import FastMCP
from fastmcp.skills.provider import SkillsDirectoryProvider

mcp = FastMCP("fastmcp-skills-anchor")
mcp.add_provider(SkillsDirectoryProvider(sys.argv[1]))
kwargs = {"stateless_http": True} if "--stateless" in sys.argv[3:] else {}
mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False,
        log_level="critical", **kwargs)
