"""fast-agent 0.10.48 as an SEP-2640 host: scan the skills registry, install every skill.

Uses fast-agent's own connection (fast_agent.mcp.client_connection.MCPClientConnection) and
its registry and installer (fast_agent.skills.mcp_registry), which verify size, sha256 and the
frontmatter (python-frontmatter + PyYAML) of every file. `Adapter` stands in for
MCPAggregator and keeps the two checks it adds (mcp_aggregator.py): the server must declare
the `resources` capability, and URIs go through str(pydantic.AnyUrl(uri)) before
resources/read.

fast-agent swallows listing errors into an empty registry, so the counts matter. After each
install this script checks the installed folder itself: exactly the entry's files plus
fast-agent's `.skill-source.json`, each byte-equal to its digest, except a SKILL.md from which
fast-agent stripped `allowed-tools`/`hooks`; that one must parse to the entry's frontmatter
minus those keys.

counts: skills (in the registry), installed, files_listed, files_matched (installed files
byte-equal to the entry), skill_md_rewritten (SKILL.md legitimately rewritten by fast-agent).

With `--header "Authorization: Bearer TOKEN"` the connection sends the token on every
request and fast-agent's OAuth flow never runs (the connection is given a transport, not a
server config with `auth`): what a host configured with a static bearer header does.

usage: fastagent_client.py [--mode auto|modern|legacy] [--expect-protocol V] [--header H]...
                           (URL | -- server-cmd args...)
"""
import hashlib
import logging
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import unquote

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

import frontmatter  # noqa: E402  (python-frontmatter, fast-agent's own parser)
from fast_agent.mcp.client_callback_runtime import MCPClientCallbackRuntime  # noqa: E402
from fast_agent.mcp.client_connection import MCPClientConnection  # noqa: E402
from fast_agent.skills.mcp_registry import install_mcp_registry_skill, scan_mcp_skill_registry  # noqa: E402
from pydantic import AnyUrl  # noqa: E402

import common  # noqa: E402

SERVER = "srv"
SIDECAR = ".skill-source.json"
STRIPPED = ("allowed-tools", "hooks")  # fast_agent.skills.mcp_registry._PERMISSION_WIDENING_FRONTMATTER


class Adapter:
    """McpSkillInstallClient over one MCPClientConnection (what MCPAggregator provides)."""

    def __init__(self, conn: MCPClientConnection):
        self.conn = conn

    def _need_resources(self):
        if self.conn.client.server_capabilities.resources is None:
            raise ValueError(f"Server '{SERVER}' does not support resources")

    async def get_capabilities(self, server_name):
        return self.conn.client.server_capabilities

    async def list_skills(self, server_name, cursor):
        return await self.conn.list_skills(cursor=cursor)

    async def get_skill(self, uri, server_name):
        self._need_resources()
        return await self.conn.get_skill(uri)

    async def get_resource(self, resource_uri, *, server_name=None, cache_mode="use"):
        self._need_resources()
        return await self.conn.read_resource(str(AnyUrl(resource_uri)), cache_mode=cache_mode)


def check_folder(skill, folder: Path, counts: dict[str, int]) -> list[str]:
    """Compares an installed folder with the registry entry it came from."""
    problems = []
    root = skill.uri[: -len("SKILL.md")]
    expected = {unquote(r.uri[len(root):]): r for r in skill.resources}
    found = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    if found != set(expected) | {SIDECAR}:
        problems.append(f"installed files differ: missing {sorted(set(expected) - found)}, "
                        f"extra {sorted(found - set(expected) - {SIDECAR})}")
    for path, resource in sorted(expected.items()):
        if path not in found:
            continue
        data = (folder / path).read_bytes()
        if len(data) == resource.size and "sha256:" + hashlib.sha256(data).hexdigest() == resource.digest:
            counts["files_matched"] += 1
        elif path == "SKILL.md" and any(key in skill.frontmatter for key in STRIPPED):
            wanted = {k: v for k, v in skill.frontmatter.items() if k not in STRIPPED}
            if frontmatter.loads(data.decode("utf-8")).metadata == wanted:
                counts["skill_md_rewritten"] += 1
            else:
                problems.append("installed SKILL.md is not the entry's frontmatter minus allowed-tools/hooks")
        else:
            problems.append(f"installed {path} does not match its size/digest")
    return problems


async def check(target: common.Target, mode: str, out: dict[str, Any]) -> None:
    out.update({"client": "fast-agent-mcp 0.10.48", "mode": mode})
    counts = out["counts"] = dict.fromkeys(
        ["skills", "installed", "files_listed", "files_matched", "skill_md_rewritten"], 0)
    server = target.server()
    callbacks = MCPClientCallbackRuntime(server_name=SERVER, server_config=None)
    async with MCPClientConnection(server, callbacks, protocol_mode=mode, cache=False) as conn:
        out["protocol"] = conn.client.protocol_version
        registry = await scan_mcp_skill_registry(Adapter(conn), SERVER)
        if registry is None:
            out["problems"].append("registry is None: skills extension not advertised")
            return
        counts["skills"] = len(registry.skills)
        if not registry.skills:
            out["problems"].append("registry is empty (no skills, or skills/list failed fast-agent's validation)")
        out["skills"] = []
        with tempfile.TemporaryDirectory(prefix="fa-install-") as tmp:
            for skill in registry.skills:
                rep: dict[str, Any] = {"name": skill.name, "uri": skill.uri, "revision": skill.revision}
                out["skills"].append(rep)
                if skill.resources == "dynamic":
                    out["problems"].append(f"{skill.uri}: resources is \"dynamic\"")
                    continue
                rep["files"] = len(skill.resources)
                counts["files_listed"] += len(skill.resources)
                try:
                    folder = await install_mcp_registry_skill(Adapter(conn), skill, destination_root=Path(tmp))
                except Exception as e:
                    out["problems"].append(f"install {skill.uri}: {common.first_error(e)}")
                    continue
                counts["installed"] += 1
                out["problems"] += [f"{skill.uri}: {x}" for x in check_folder(skill, folder, counts)]


if __name__ == "__main__":
    opts, target = common.parse_args(sys.argv[1:], {})
    common.run(lambda out: check(target, opts["--mode"], out), opts)
