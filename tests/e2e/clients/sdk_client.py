"""SEP-2640 host check with the bare `mcp` 2.3.0 Python SDK (which has no skills helpers).

Connects (`--mode legacy` = initialize at 2025-11-25; `auto` = server/discover at 2026-07-28
with fallback), then:
  - resources/list, every page (informational: hosts must not rely on it);
  - skills/list, every page (a repeated cursor is a problem); at 2026-07-28 each page must
    carry resultType "complete", ttlMs and cacheScope;
  - skills/get for each entry: must equal the listed entry;
  - resources/read of every listed file: one content echoing the requested URI, byte length
    == size, sha256 == digest;
  - SKILL.md frontmatter, re-parsed with PyYAML (safe_load, as both Python hosts do), must
    equal the entry's frontmatter with JSON type fidelity (1000.0 != 1000, true != "yes").

counts: skills, pages, files_listed (sum of entry resources), files_verified (reads that
matched size and digest), frontmatter_verified, get_verified, resources_list.
The report also names every skill URI listed (`skill_uris`) and every resource
(`resource_uris`), for a server whose answer depends on the caller.

With --prompts (a server serving skills as prompts): the `prompts` capability must be
declared (and must not be without it); prompts/list, every page, must name exactly the listed
skills, each described by its frontmatter description; prompts/get of each must return the
SKILL.md bytes read above as its first message's text (counts.prompts, counts.prompts_verified),
and prompts/get of a name no skill has must be refused with -32602 (counts.prompt_refused).

For a caller who owns only some skills (a learner with `--header "Authorization: …"`):
  --refused URI,URI,...  skills/get and resources/read of each (skills the caller does not
                         own) must fail exactly as a skill that does not exist fails, once
                         the URI is replaced (counts.refused_alike);
  --then "CMD ARGS"      after the checks, runs CMD (a purchase), waits up to 20 s for
                         notifications/resources/list_changed (counts.list_changed), lists
                         the skills again (`skill_uris_after`) and reads each new one's files.

usage: sdk_client.py [--mode auto|legacy] [--expect-protocol V] [--header H]... [--refused U,...]
                     [--then CMD] [--prompts yes] (URL | -- server-cmd args...)
"""
import anyio
import base64
import hashlib
import json
import re
import shlex
import subprocess
import sys
from typing import Any, Literal

import mcp_types as T
import yaml
from mcp import Client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

import common

EXT = "io.modelcontextprotocol/skills"
RAW = TypeAdapter(dict[str, Any])  # keep results as plain JSON objects
DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")
FRONTMATTER = re.compile(r"\A---\r?\n(.*?)\r?\n---(?:\r?\n|\Z)", re.DOTALL)


class ListSkills(T.Request[T.PaginatedRequestParams, Literal["skills/list"]]):
    method: Literal["skills/list"] = "skills/list"
    params: T.PaginatedRequestParams


class GetSkillParams(T.RequestParams):
    uri: str


class GetSkill(T.Request[GetSkillParams, Literal["skills/get"]]):
    method: Literal["skills/get"] = "skills/get"
    params: GetSkillParams


def frontmatter_of(text: str):
    m = FRONTMATTER.match(text.lstrip("\ufeff"))
    return yaml.safe_load(m.group(1)) if m else None


def same_json(a, b) -> bool:
    # A value JSON has no type for (a PyYAML date, say) is tagged with its type, so
    # `2024-01-01` read as a date never equals the string "2024-01-01".
    def tagged(o):
        return f"<{type(o).__name__}:{o}>"
    return json.dumps(a, sort_keys=True, default=tagged) == json.dumps(b, sort_keys=True, default=tagged)


def content_bytes(item) -> bytes:
    if isinstance(item, T.TextResourceContents):
        return item.text.encode("utf-8")
    return base64.b64decode(item.blob, validate=True)


NOWHERE = "skill://courses/no-such-course/SKILL.md"


async def failure(c: Client, method: str, uri: str) -> str:
    """How `method` of `uri` fails, with the URI replaced: or `succeeded`."""
    try:
        if method == "skills/get":
            await c.session.send_request(GetSkill(params=GetSkillParams(uri=uri)), RAW)
        else:
            await c.read_resource(uri, cache_mode="bypass")
    except MCPError as e:
        error = e.error.model_dump(exclude_none=True, mode="json")
        return json.dumps(error, sort_keys=True).replace(uri, "URI")
    return "succeeded"


async def list_skill_uris(c: Client) -> list[str]:
    uris, cursor = [], None
    while True:
        res = await c.session.send_request(ListSkills(params=T.PaginatedRequestParams(cursor=cursor)), RAW)
        uris += [entry["uri"] for entry in res["skills"]]
        if (cursor := res.get("nextCursor")) is None:
            return uris


async def check_prompts(c: Client, entries: list[dict[str, Any]], skill_md: dict[str, bytes],
                        out: dict[str, Any]) -> None:
    """prompts/list names the listed skills; prompts/get of each is its SKILL.md, byte for byte."""
    bad, counts = out["problems"].append, out["counts"]
    if c.server_capabilities.prompts is None:
        bad("server does not declare the prompts capability")
    prompts, cursor, seen = [], None, set()
    while True:
        page = await c.list_prompts(cursor=cursor, cache_mode="bypass")
        prompts += page.prompts
        if (cursor := page.next_cursor) is None:
            break
        if cursor in seen:
            bad(f"prompts/list repeated cursor {cursor!r}")
            break
        seen.add(cursor)
    counts["prompts"] = len(prompts)
    by_name = {(e.get("frontmatter") or {}).get("name"): e for e in entries}
    if [p.name for p in prompts] != list(by_name):
        bad(f"prompts/list names {[p.name for p in prompts]}, skills/list {list(by_name)}")
    for prompt in prompts:
        entry = by_name.get(prompt.name)
        if entry is None:
            continue
        if prompt.description != entry["frontmatter"].get("description"):
            bad(f"prompt {prompt.name}: description {prompt.description!r} is not the frontmatter's")
        got = await c.get_prompt(prompt.name)
        first = got.messages[0] if got.messages else None
        text = getattr(first.content, "text", None) if first else None
        if first is None or first.role != "user" or text is None:
            bad(f"prompts/get {prompt.name}: the first message is not a user text: {first!r:.300}")
        elif text.encode("utf-8") != skill_md.get(entry["uri"]):
            bad(f"prompts/get {prompt.name}: the text differs from the SKILL.md bytes read")
        else:
            others = [f["uri"] for f in entry.get("resources", []) if f["uri"] != entry["uri"]]
            where = getattr(got.messages[-1].content, "text", "") if len(got.messages) > 1 else ""
            missing = [uri for uri in others if uri not in where]
            if missing:
                bad(f"prompts/get {prompt.name}: the files message does not name {missing[:3]}")
            else:
                counts["prompts_verified"] += 1
    try:
        await c.get_prompt("no-such-skill-anywhere")
        bad("prompts/get of a name no skill has succeeded")
    except MCPError as e:
        if e.error.code == -32602:
            counts["prompt_refused"] += 1
        else:
            bad(f"prompts/get of a name no skill has: {e.error.code} {e.error.message}, not -32602")


async def check(target: common.Target, mode: str, out: dict[str, Any], refused: list[str], then: str,
                prompts: bool = False) -> None:
    out.update({"client": "mcp 2.3.0", "mode": mode})
    bad = out["problems"].append
    counts = out["counts"] = dict.fromkeys(
        ["skills", "pages", "files_listed", "files_verified", "frontmatter_verified", "get_verified", "resources_list",
         "refused_alike", "list_changed", "prompts", "prompts_verified", "prompt_refused"], 0)
    skill_md: dict[str, bytes] = {}  # SKILL.md URI -> the bytes read and verified
    changed = anyio.Event()

    async def on_message(message) -> None:
        root = getattr(message, "root", message)
        if isinstance(root, T.ResourceListChangedNotification):
            counts["list_changed"] += 1
            changed.set()

    async with Client(target.server(), mode=mode, message_handler=on_message) as c:
        out["protocol"] = c.protocol_version
        modern = c.protocol_version >= "2026-07-28"
        out["server_info"] = c.server_info.model_dump(exclude_none=True) if c.server_info else None
        caps = c.server_capabilities
        out["extension_settings"] = (caps.extensions or {}).get(EXT)
        if out["extension_settings"] is None:
            bad("server does not advertise " + EXT)
        if caps.resources is None:
            bad("server does not declare the resources capability")

        cursor, out["resource_uris"] = None, []
        while True:
            page = await c.list_resources(cursor=cursor, cache_mode="bypass")
            counts["resources_list"] += len(page.resources)
            out["resource_uris"] += [str(r.uri) for r in page.resources]
            if (cursor := page.next_cursor) is None:
                break

        entries, cursor, seen = [], None, set()
        try:
            while True:
                res = await c.session.send_request(ListSkills(params=T.PaginatedRequestParams(cursor=cursor)), RAW)
                counts["pages"] += 1
                if modern and not (res.get("resultType") == "complete" and "ttlMs" in res and "cacheScope" in res):
                    bad(f"skills/list page {counts['pages']} lacks resultType/ttlMs/cacheScope at {c.protocol_version}")
                if not modern and {"ttlMs", "cacheScope"} & res.keys():
                    bad(f"skills/list page {counts['pages']} carries ttlMs/cacheScope at {c.protocol_version}")
                entries += res["skills"]
                if (cursor := res.get("nextCursor")) is None:
                    break
                if cursor in seen:
                    bad(f"repeated cursor {cursor!r}")
                    break
                seen.add(cursor)
        except MCPError as e:
            bad(f"skills/list failed: {e.error.code} {e.error.message}")
        counts["skills"] = len(entries)
        out["skill_uris"] = [entry.get("uri") for entry in entries]
        if not entries:
            bad("skills/list returned no skills")

        for uri in refused:
            alike = True
            for method in ("skills/get", "resources/read"):
                got, nowhere = await failure(c, method, uri), await failure(c, method, NOWHERE)
                if got != nowhere:
                    alike = False
                    bad(f"{method} {uri}: {got} differs from a skill that does not exist: {nowhere}")
            counts["refused_alike"] += alike

        out["skills"] = []
        for entry in entries:
            rep: dict[str, Any] = {"uri": entry.get("uri"), "name": (entry.get("frontmatter") or {}).get("name")}
            out["skills"].append(rep)
            p: list[str] = []
            try:
                got = await c.session.send_request(GetSkill(params=GetSkillParams(uri=entry["uri"])), RAW)
                if got.get("skill") == entry:
                    counts["get_verified"] += 1
                else:
                    p.append("skills/get entry differs from skills/list entry")
            except MCPError as e:
                p.append(f"skills/get failed: {e.error.code} {e.error.message}")
            files = entry.get("resources")
            if not isinstance(files, list):
                p.append(f"resources is {files!r}, not a list of files")
                files = []
            rep["files"] = len(files)
            counts["files_listed"] += len(files)
            for f in files:
                uri, size, digest = f.get("uri"), f.get("size"), f.get("digest")
                if type(size) is not int or not DIGEST.match(str(digest)):
                    p.append(f"{uri}: size {size!r} / digest {digest!r} malformed")
                try:
                    r = await c.read_resource(uri, cache_mode="bypass")
                except MCPError as e:
                    p.append(f"read {uri}: {e.error.code} {e.error.message}")
                    continue
                if len(r.contents) != 1 or r.contents[0].uri != uri:
                    p.append(f"read {uri}: expected one content echoing the URI, got "
                             f"{[str(x.uri) for x in r.contents]}")
                    continue
                data = content_bytes(r.contents[0])
                ok = True
                if len(data) != size:
                    ok = False
                    p.append(f"read {uri}: {len(data)} bytes, entry says {size}")
                if "sha256:" + hashlib.sha256(data).hexdigest() != digest:
                    ok = False
                    p.append(f"read {uri}: sha256 differs from the entry's digest")
                counts["files_verified"] += ok
                if ok and uri == entry["uri"]:
                    skill_md[uri] = data
                if uri == entry["uri"]:
                    parsed = frontmatter_of(data.decode("utf-8"))
                    if same_json(parsed, entry.get("frontmatter")):
                        counts["frontmatter_verified"] += 1
                    else:
                        p.append(f"SKILL.md frontmatter (PyYAML) {json.dumps(parsed, default=str)[:300]} "
                                 f"!= entry frontmatter {json.dumps(entry.get('frontmatter'))[:300]}")
            out["problems"] += [f"{rep['uri']}: {x}" for x in p]

        if prompts:
            await check_prompts(c, entries, skill_md, out)
        elif caps.prompts is not None:
            bad("server declares the prompts capability, which it must not without --prompts")

        if then:
            done = subprocess.run(shlex.split(then), capture_output=True, text=True)
            if done.returncode != 0:
                bad(f"{then!r} exited {done.returncode}: {done.stderr.strip()[:300]}")
            with anyio.move_on_after(20):
                await changed.wait()
            if not changed.is_set():
                bad(f"no notifications/resources/list_changed within 20 s of {then!r}")
            out["skill_uris_after"] = await list_skill_uris(c)
            for uri in set(out["skill_uris_after"]) - set(out["skill_uris"]):
                got = await c.session.send_request(GetSkill(params=GetSkillParams(uri=uri)), RAW)
                for f in got["skill"]["resources"]:
                    r = await c.read_resource(f["uri"], cache_mode="bypass")
                    data = content_bytes(r.contents[0])
                    if "sha256:" + hashlib.sha256(data).hexdigest() != f["digest"]:
                        bad(f"read {f['uri']} after the purchase: sha256 differs from the entry's digest")


if __name__ == "__main__":
    opts, target = common.parse_args(sys.argv[1:], {"--refused": "", "--then": "", "--prompts": ""},
                                     "[--refused URI,...] [--then CMD] [--prompts yes] ")
    refused = [uri for uri in opts["--refused"].split(",") if uri]
    common.run(lambda out: check(target, opts["--mode"], out, refused, opts["--then"],
                                 opts["--prompts"] == "yes"), opts)
