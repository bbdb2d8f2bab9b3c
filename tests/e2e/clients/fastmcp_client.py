"""FastMCP 4.2.3's client as a skills consumer, with one of two readers:

  --reader sep     Client(extensions=[SkillsClientExtension()]), which needs 2026-07-28:
                   list_skills() (every page), get_skill(uri) (must equal the listed entry) and
                   read_skill(uri) for each entry. FastMCP validates the wire models strictly
                   (extra keys forbidden) and verifies size, sha256, frontmatter and name itself.
  --reader legacy  Client without the extension (FastMCP <= 4.1 conventions, used here at
                   2025-11-25): list_skill_resources() (SKILL.md resources in resources/list),
                   read_skill(uri), which falls back to skill://<path>/_manifest and verifies
                   like above; then the deprecated fastmcp.utilities.skills helpers list_skills /
                   get_skill_manifest / download_skill. download_skill verifies nothing, so this
                   script checks every downloaded file against the manifest's size and hash.

counts: skills, files_verified (files read and verified by read_skill), and for the legacy
reader helper_skills and helper_files (downloaded files matching the manifest).

usage: fastmcp_client.py [--mode auto|legacy] [--reader sep|legacy] [--expect-protocol V]
                         (URL | -- server-cmd args...)
"""
import hashlib
import logging
import sys
import tempfile
import warnings
from typing import Any

from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from fastmcp.skills import SkillsClientExtension
from fastmcp.utilities import skills as legacy

import common

warnings.simplefilter("ignore")  # after the imports: fastmcp installs its own filters
logging.disable(logging.CRITICAL)


async def sep_reader(client, out: dict[str, Any]) -> None:
    counts, bad = out["counts"], out["problems"].append
    entries = await client.list_skills()
    counts["skills"] = len(entries)
    if not entries:
        bad("list_skills returned no skills")
    for entry in entries:
        try:
            if await client.get_skill(entry.uri) != entry:
                bad(f"{entry.uri}: get_skill differs from the list_skills entry")
            skill = await client.read_skill(entry.uri)
            counts["files_verified"] += len(skill.files)
            if len(skill.files) != len(entry.resources):
                bad(f"{entry.uri}: read_skill gave {len(skill.files)} files, entry lists {len(entry.resources)}")
        except Exception as e:
            bad(f"{entry.uri}: {common.first_error(e)}")


async def legacy_reader(client, out: dict[str, Any]) -> None:
    counts, bad = out["counts"], out["problems"].append
    found = await client.list_skill_resources()
    counts["skills"] = len(found)
    if not found:
        bad("list_skill_resources found no skill://.../SKILL.md resource")
    for resource in found:
        uri = str(resource.uri)
        try:
            counts["files_verified"] += len((await client.read_skill(uri)).files)
        except Exception as e:
            bad(f"read_skill {uri}: {common.first_error(e)}")
    with tempfile.TemporaryDirectory(prefix="fm-legacy-") as dest:
        for summary in await legacy.list_skills(client):
            name = summary.name
            try:
                manifest = await legacy.get_skill_manifest(client, name)
                folder = await legacy.download_skill(client, name, dest)
                counts["helper_skills"] += 1
                for f in manifest.files:
                    data = (folder / f.path).read_bytes()
                    if len(data) == f.size and "sha256:" + hashlib.sha256(data).hexdigest() == f.hash:
                        counts["helper_files"] += 1
                    else:
                        bad(f"download_skill {name}: {f.path} does not match its manifest entry")
            except Exception as e:
                bad(f"helpers {name}: {common.first_error(e)}")


async def check(target: common.Target, mode: str, reader: str, out: dict[str, Any]) -> None:
    out.update({"client": "fastmcp 4.2.3", "mode": mode, "reader": reader})
    out["counts"] = {"skills": 0, "files_verified": 0}
    if reader == "legacy":
        out["counts"].update(helper_skills=0, helper_files=0)
    transport = target.url or StdioTransport(command=target.command[0], args=target.command[1:])
    extensions = [SkillsClientExtension()] if reader == "sep" else None
    async with Client(transport, mode=mode, extensions=extensions) as client:
        out["protocol"] = client.protocol_version
        await (sep_reader if reader == "sep" else legacy_reader)(client, out)


if __name__ == "__main__":
    opts, target = common.parse_args(sys.argv[1:], {"--reader": "sep"}, "[--reader sep|legacy] ")
    if opts["--reader"] not in ("sep", "legacy"):
        sys.exit("--reader is sep or legacy")
    common.run(lambda out: check(target, opts["--mode"], opts["--reader"], out), opts)
