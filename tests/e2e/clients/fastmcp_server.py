"""FastMCP 4.2.3 serving a skills folder over stdio, for the client tests
(tests/e2e/tests/client_peers.rs) and the sync benchmark (bench/client/).

usage: <py311 venv>/bin/python fastmcp_server.py sep|legacy <skills dir>

- sep: the SEP-2640 provider (fastmcp.skills.provider.SkillsDirectoryProvider);
  skills/* are bound only at protocol 2026-07-28.
- legacy: the pre-SEP provider (fastmcp.server.providers.skills, deprecated in
  4.2): skill://<dir>/SKILL.md in resources/list, _manifest, {path*} template.
"""
import logging
import sys
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

from fastmcp import FastMCP

kind, root = sys.argv[1], sys.argv[2]
mcp = FastMCP("fastmcp-" + kind)
if kind == "sep":
    from fastmcp.skills.provider import SkillsDirectoryProvider
else:
    from fastmcp.server.providers.skills import SkillsDirectoryProvider
mcp.add_provider(SkillsDirectoryProvider(root))
mcp.run(transport="stdio", show_banner=False)
