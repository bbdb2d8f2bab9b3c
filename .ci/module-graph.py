#!/usr/bin/env python3
"""Fails when two modules of a crate import each other.

    python3 .ci/module-graph.py                      # every crate of the workspace
    python3 .ci/module-graph.py --crate skills-core  # one package (repeatable)
    python3 .ci/module-graph.py --edges              # also print every edge
    python3 .ci/module-graph.py --self-test          # the check on small made-up crates

A crate is every target of a workspace package (its library, binaries,
tests, examples, benches); a node is a module, in its own file (`mod name;`)
or inline (`mod tests { ... }`: a unit test module that calls `crate::load`
makes the test module, not its parent, import the loader). Module A imports B when A's code names an item of B: a `use`, or a path
in code starting with `crate::`, `$crate::`, `super::`, `self::`, a child
module's name or a name A imported. Paths through re-exports (`pub use` in a
parent) are followed to the module that defines the item, and a parent's
`pub use child::Item` (the facade listing what its children export) is not
an edge, nor is `mod child;`.

Every cycle fails the check (the graph must be one way); the report lists
each pair of modules that import each other, with where, and each longer
cycle. Standard library only (Python 3.11+ for tomllib).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

# --- Lexing ---------------------------------------------------------------

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RAW_IDENT = re.compile(r"r#([A-Za-z_][A-Za-z0-9_]*)")
RAW_STRING = re.compile(r'(?:b|c)?r(#*)"')
PUNCT2 = ("::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||")


@dataclass
class Tok:
    kind: str  # "id", "str", "p" (punctuation), "lit" (number, char)
    text: str
    line: int


def lex(src: str) -> list[Tok]:
    """Tokens of Rust source, without comments; strings keep their text."""
    toks: list[Tok] = []
    i, n, line = 0, len(src), 1
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += src.count("\n", i, j)
            i = j
        elif (m := RAW_STRING.match(src, i)) and (c in "bcr"):
            end = '"' + m.group(1)
            j = src.find(end, m.end())
            j = n if j < 0 else j + len(end)
            toks.append(Tok("str", src[m.end() : j - len(end)], line))
            line += src.count("\n", i, j)
            i = j
        elif c == '"' or (c in "bc" and src.startswith('"', i + 1)):
            j = i + (1 if c == '"' else 2)
            start = j
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            toks.append(Tok("str", src[start:j], line))
            line += src.count("\n", i, j)
            i = j + 1
        elif c == "'" or (c == "b" and src.startswith("'", i + 1)):
            # A char literal ('a', '\n', '\u{1F600}', b'x') or a lifetime ('a).
            j = i + (1 if c == "'" else 2)
            if j < n and src[j] == "\\":
                k = src.find("'", j + 2)
                i = (k + 1) if k >= 0 else n
                toks.append(Tok("lit", "'c'", line))
            elif j + 1 < n and src[j + 1] == "'":
                i = j + 2
                toks.append(Tok("lit", "'c'", line))
            else:
                m = IDENT.match(src, j)
                if m:  # a lifetime or label
                    i = m.end()
                    toks.append(Tok("lit", "'" + m.group(0), line))
                else:  # a non-ASCII char literal ('é')
                    k = src.find("'", j + 1)
                    i = (k + 1) if k >= 0 else n
                    toks.append(Tok("lit", "'c'", line))
        elif m := RAW_IDENT.match(src, i):
            toks.append(Tok("id", m.group(1), line))
            i = m.end()
        elif m := IDENT.match(src, i):
            toks.append(Tok("id", m.group(0), line))
            i = m.end()
        elif c.isdigit():
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_" or (src[j] == "." and j + 1 < n and src[j + 1].isdigit())):
                j += 1
            toks.append(Tok("lit", src[i:j], line))
            i = j
        else:
            two = src[i : i + 2]
            if two in PUNCT2:
                toks.append(Tok("p", two, line))
                i += 2
            else:
                toks.append(Tok("p", c, line))
                i += 1
    return toks


# --- Parsing one file -----------------------------------------------------


@dataclass
class UseEntry:
    path: list[str]  # as written, e.g. ["crate", "load", "Loaded"] or [..., "*"]
    visible: bool  # `pub`, `pub(crate)`, `pub(super)` ...: a re-export
    line: int


@dataclass
class Scope:
    """One module: a file, or an inline `mod name { ... }` inside one."""

    path: tuple[str, ...]
    file: Path
    children: dict[str, tuple[str, ...]] = field(default_factory=dict)
    uses: dict[str, list[UseEntry]] = field(default_factory=dict)  # name -> entries
    globs: list[UseEntry] = field(default_factory=list)
    items: set[str] = field(default_factory=set)
    # Paths named in code (not in `use`): (segments, line).
    refs: list[tuple[list[str], int]] = field(default_factory=list)
    # `use` entries, in order, to turn into edges.
    use_list: list[UseEntry] = field(default_factory=list)


ITEM_KEYWORDS = {"fn", "struct", "enum", "trait", "type", "const", "static", "union", "macro_rules"}
PATH_STARTS = {"crate", "super", "self"}


def parse_use_tree(toks: list[Tok], i: int, prefix: list[str], out: list[tuple[list[str], str | None]]) -> int:
    """Parses a use tree at toks[i]; appends (path, alias) pairs; returns the index after it."""
    path = list(prefix)
    if toks[i].text == "::":  # `use ::std::x`
        i += 1
        path.append("::")
    while i < len(toks):
        t = toks[i]
        if t.text == "{":
            i += 1
            while i < len(toks) and toks[i].text != "}":
                i = parse_use_tree(toks, i, path, out)
                if i < len(toks) and toks[i].text == ",":
                    i += 1
            return i + 1
        if t.text == "*":
            out.append((path + ["*"], None))
            return i + 1
        if t.kind == "id":
            path.append(t.text)
            i += 1
            if i < len(toks) and toks[i].text == "::":
                i += 1
                continue
            alias = None
            if i + 1 < len(toks) and toks[i].text == "as":
                alias = toks[i + 1].text
                i += 2
            out.append((path, alias))
            return i
        if t.text == "$" and i + 1 < len(toks) and toks[i + 1].text == "crate":
            path.append("crate")
            i += 2
            if i < len(toks) and toks[i].text == "::":
                i += 1
            continue
        return i + 1  # something unexpected: skip it
    return i


def parse_file(file: Path, modpath: tuple[str, ...], scopes: dict[tuple[str, ...], Scope], decls: list) -> None:
    """Reads one module file; records its scopes, and the `mod x;` it declares (in decls)."""
    toks = lex(file.read_text(encoding="utf-8"))
    root = scopes.setdefault(modpath, Scope(modpath, file))
    stack: list[tuple[Scope, int]] = [(root, 0)]  # (scope, brace depth at which it closes)
    depth = 0
    pending_path_attr: str | None = None
    i, n = 0, len(toks)

    def visibility_before(k: int) -> bool:
        # `pub use`, `pub(crate) use`, `pub(in path) use`
        if k >= 1 and toks[k - 1].text == "pub":
            return True
        if k >= 1 and toks[k - 1].text == ")":
            j = k - 1
            while j >= 0 and toks[j].text != "(":
                j -= 1
            return j >= 1 and toks[j - 1].text == "pub"
        return False

    while i < n:
        t = toks[i]
        scope = stack[-1][0]
        if t.text == "#" and i + 1 < n and toks[i + 1].text in ("[", "!"):
            # An attribute: remember #[path = "..."], skip the rest.
            j = i + 1 + (toks[i + 1].text == "!")
            if j + 3 < n and toks[j + 1].text == "path" and toks[j + 2].text == "=" and toks[j + 3].kind == "str":
                pending_path_attr = toks[j + 3].text
            d = 0
            while j < n:
                if toks[j].text == "[":
                    d += 1
                elif toks[j].text == "]":
                    d -= 1
                    if d == 0:
                        break
                j += 1
            # Paths inside attributes (`#[cfg_attr(..., path = ...)]`, derives) are not imports.
            i = j + 1
            continue
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
            if len(stack) > 1 and depth < stack[-1][1]:
                stack.pop()
        elif t.kind == "id" and t.text == "mod" and i + 1 < n and toks[i + 1].kind == "id":
            name = toks[i + 1].text
            child = scope.path + (name,)
            scope.children[name] = child
            scope.items.add(name)
            if i + 2 < n and toks[i + 2].text == ";":
                decls.append((scope, name, pending_path_attr, file))
                i += 3
            elif i + 2 < n and toks[i + 2].text == "{":
                depth += 1
                inner = scopes.setdefault(child, Scope(child, file))
                stack.append((inner, depth))
                i += 3
            else:
                i += 2
            pending_path_attr = None
            continue
        elif (
            t.kind == "id"
            and t.text == "use"
            and (i == 0 or toks[i - 1].text not in (".", "::", "+"))
            and i + 1 < n
            and (toks[i + 1].kind == "id" or toks[i + 1].text in ("::", "{", "$", "*"))
        ):
            visible = visibility_before(i)
            out: list[tuple[list[str], str | None]] = []
            j = parse_use_tree(toks, i + 1, [], out)
            for path, alias in out:
                entry = UseEntry(path, visible, t.line)
                scope.use_list.append(entry)
                if path[-1] == "*":
                    scope.globs.append(entry)
                    continue
                name = alias or (path[-1] if path[-1] != "self" else path[-2] if len(path) > 1 else "self")
                if path[-1] == "self":
                    entry.path = path[:-1]
                if name != "_":
                    scope.uses.setdefault(name, []).append(entry)
            while j < n and toks[j].text != ";":
                j += 1
            i = j + 1
            pending_path_attr = None
            continue
        elif t.kind == "id" and t.text in ITEM_KEYWORDS and i + 1 < n:
            nxt = toks[i + 1]
            if t.text == "macro_rules" and nxt.text == "!" and i + 2 < n:
                scope.items.add(toks[i + 2].text)
                # A macro's body is pasted where it is called (`$crate::…` in
                # an exported macro names this crate from the caller's): its
                # paths are not this module's imports. Skip the body.
                j = i + 3
                if j < n and toks[j].text in ("{", "(", "["):
                    close = {"{": "}", "(": ")", "[": "]"}[toks[j].text]
                    opener, d = toks[j].text, 0
                    while j < n:
                        if toks[j].text == opener:
                            d += 1
                        elif toks[j].text == close:
                            d -= 1
                            if d == 0:
                                break
                        j += 1
                    i = j + 1
                    continue
            elif nxt.kind == "id" and (i == 0 or toks[i - 1].text != "::"):
                scope.items.add(nxt.text)
        elif (t.kind == "id" or t.text == "$") and (i == 0 or toks[i - 1].text != "::"):
            # A path in code: ident (:: ident)*, or $crate::...
            segs: list[str] = []
            j = i
            if t.text == "$":
                if i + 1 < n and toks[i + 1].text == "crate":
                    segs.append("crate")
                    j = i + 2
                else:
                    i += 1
                    continue
            else:
                segs.append(t.text)
                j = i + 1
            while j + 1 < n and toks[j].text == "::" and toks[j + 1].kind == "id":
                segs.append(toks[j + 1].text)
                j += 2
            if len(segs) > 1 and (i == 0 or toks[i - 1].text != "."):
                scope.refs.append((segs, t.line))
            i = j
            continue
        i += 1


# --- A crate: its module tree and its edges ---------------------------------


class Crate:
    def __init__(self, package: str, target: str, root_file: Path):
        self.package = package
        self.target = target
        self.root_file = root_file
        self.scopes: dict[tuple[str, ...], Scope] = {}
        self.file_mod: dict[Path, tuple[str, ...]] = {}
        self.missing: list[str] = []
        self._load(root_file, ())
        # edges[(a, b)] = (file, line) of the first place a names b
        self.edges: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[Path, int]] = {}
        self._edges()

    def _load(self, file: Path, modpath: tuple[str, ...]) -> None:
        if file in self.file_mod:
            return  # the same file declared twice (#[path]): read once
        self.file_mod[file] = modpath
        decls: list = []
        parse_file(file, modpath, self.scopes, decls)
        for scope, name, path_attr, declaring in decls:
            child = scope.path + (name,)
            candidates = []
            if path_attr:
                candidates.append(declaring.parent / path_attr)
            else:
                # The folder of the declaring module: its own folder for a
                # crate root or mod.rs, else a folder named after it.
                if declaring == self.root_file or declaring.name == "mod.rs":
                    base = declaring.parent
                else:
                    base = declaring.parent / declaring.stem
                # Inline modules add their names below the file's folder.
                for part in scope.path[len(self.file_mod[declaring]) :]:
                    base = base / part
                candidates += [base / f"{name}.rs", base / name / "mod.rs"]
            found = next((c for c in candidates if c.is_file()), None)
            if found is None:
                self.missing.append(f"{declaring}: mod {name}; (no file among {', '.join(map(str, candidates))})")
                continue
            self._load(found, child)

    def node(self, modpath: tuple[str, ...]) -> tuple[str, ...]:
        """The node of a module: the module itself (a file, or inline as `mod tests { ... }`)."""
        return modpath

    # Resolution. Each returns (module, whole): the module the path names an
    # item of, and whether the whole path named that module itself.
    def resolve(self, scope_path: tuple[str, ...], segs: list[str], seen: set) -> tuple[tuple[str, ...], bool] | None:
        key = (scope_path, tuple(segs))
        if key in seen or len(seen) > 64:
            return None
        seen.add(key)
        first = segs[0]
        if first == "crate":
            return self.walk((), segs[1:], seen)
        if first in ("super", "self"):
            base = scope_path
            k = 0
            while k < len(segs) and segs[k] in ("super", "self"):
                if segs[k] == "super":
                    if not base:
                        return None
                    base = base[:-1]
                k += 1
            return self.walk(base, segs[k:], seen)
        if first == "::":
            return None  # an external crate
        scope = self.scopes.get(scope_path)
        if scope is None:
            return None
        # A name in scope: a child module, or a name this module imported
        # (Rust does not pass imports down to child modules).
        if first in scope.children:
            return self.walk(scope.children[first], segs[1:], seen)
        return self.through_import(scope, first, segs[1:], seen)

    def through_import(self, scope: Scope, name: str, rest: list[str], seen: set):
        for entry in scope.uses.get(name, []):
            found = self.resolve(scope.path, entry.path, seen)
            if found is not None:
                mod, whole = found
                return self.walk(mod, rest, seen) if whole else (mod, False)
        return None

    def walk(self, mod: tuple[str, ...], rest: list[str], seen: set) -> tuple[tuple[str, ...], bool] | None:
        """From module `mod`, follow `rest`: child modules, then re-exports (None: out of the crate)."""
        for k, seg in enumerate(rest):
            scope = self.scopes.get(mod)
            if scope is None:
                return mod, False
            if seg in scope.children:
                mod = scope.children[seg]
                continue
            if seg == "super" and mod:
                mod = mod[:-1]
                continue
            if seg == "self":
                continue
            if seg in scope.items:
                return mod, False
            if seg in scope.uses:  # a re-export: follow it to where the item lives
                found = self.through_import(scope, seg, rest[k + 1 :], seen)
                # None: a re-export of another crate's item (`pub use skills_core::Report`).
                return found
            for entry in scope.globs:
                found = self.resolve(mod, entry.path[:-1], seen) if len(entry.path) > 1 else None
                if found is not None and found[1] and found[0] in self.scopes:
                    target = found[0]
                    inner = self.walk(target, [seg], seen)
                    if inner is not None and inner[0] != target or seg in self.scopes[target].items or seg in self.scopes[target].uses:
                        return inner[0], False
            return mod, False
        return mod, True

    def _edges(self) -> None:
        for path, scope in self.scopes.items():
            src = self.node(path)
            for entry in scope.use_list:
                glob = entry.path[-1] == "*"
                segs = entry.path[:-1] if glob else entry.path
                if not segs:
                    continue
                found = self.resolve(path, segs, set())
                if found is None:
                    continue
                target, whole = found
                dst = self.node(target)
                # A parent's re-export of what a descendant defines is its facade, not an import.
                if entry.visible and dst[: len(src)] == src:
                    continue
                # `use crate::a;` names module a: the code that then names `a::x` is the import.
                if whole and not glob:
                    continue
                self._add(src, dst, scope.file, entry.line)
            for segs, line in scope.refs:
                found = self.resolve(path, segs, set())
                if found is None:
                    continue
                self._add(src, self.node(found[0]), scope.file, line)

    def _add(self, a, b, file: Path, line: int) -> None:
        if a == b:
            return
        self.edges.setdefault((a, b), (file, line))


# --- Cycles ---------------------------------------------------------------


def sccs(nodes, edges) -> list[list]:
    """Tarjan's strongly connected components (iterative)."""
    graph: dict = {v: [] for v in nodes}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict = {}
    low: dict = {}
    on: set = set()
    stack: list = []
    out: list = []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def shortest_cycle(through, comp: list, edges) -> list:
    """A shortest cycle through `through` inside the component (breadth first)."""
    members = set(comp)
    adj: dict = {}
    for a, b in edges:
        if a in members and b in members:
            adj.setdefault(a, []).append(b)
    prev = {through: None}
    queue = [through]
    while queue:
        v = queue.pop(0)
        for w in sorted(adj.get(v, [])):
            if w == through:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [through]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return [through]


# --- The workspace --------------------------------------------------------


def name(modpath: tuple[str, ...]) -> str:
    return "::".join(modpath) if modpath else "crate"


def targets(pkg_dir: Path, manifest: dict) -> list[tuple[str, Path]]:
    """(target, root file) of every target of a package, as Cargo finds them."""
    found: dict[Path, str] = {}
    lib = manifest.get("lib", {}).get("path")
    if lib or (pkg_dir / "src/lib.rs").is_file():
        found[pkg_dir / (lib or "src/lib.rs")] = "lib"
    if (pkg_dir / "src/main.rs").is_file():
        found[pkg_dir / "src/main.rs"] = "bin"
    for kind, folder in (("bin", "src/bin"), ("test", "tests"), ("example", "examples"), ("bench", "benches")):
        d = pkg_dir / folder
        if d.is_dir():
            for f in sorted(d.glob("*.rs")):
                found[f] = f"{kind} {f.stem}"
            for f in sorted(d.glob("*/main.rs")):
                found[f] = f"{kind} {f.parent.name}"
    for kind in ("bin", "test", "example", "bench"):
        for t in manifest.get(kind, []):
            if "path" in t:
                found[pkg_dir / t["path"]] = f"{kind} {t.get('name', Path(t['path']).stem)}"
    return [(t, f) for f, t in found.items() if f.is_file()]


# --- Self-test: the check can fail ----------------------------------------

SELF_TEST_CASES = [
    # (name, files, expected set of cycles as sorted module-name tuples)
    (
        "two siblings through use and a path in code",
        {
            "lib.rs": "mod a;\nmod b;\n",
            "a.rs": "use crate::b::Thing;\npub fn f() {}\n",
            "b.rs": "pub struct Thing;\nfn g() { crate::a::f(); }\n",
        },
        {("a", "b")},
    ),
    (
        "through a re-export at the root, super:: and a nested folder",
        {
            "lib.rs": "mod x;\nmod y;\npub use y::Item;\n",
            "x/mod.rs": "mod inner;\n",
            "x/inner.rs": "use crate::Item;\npub fn h() {}\n",
            "y.rs": "pub struct Item;\nfn k() { super::x::inner::h() }\n",
        },
        {("x::inner", "y")},
    ),
    (
        "a parent defining what its child uses while calling the child",
        {
            "main.rs": "mod check;\npub enum Outcome { Done }\nfn main() { check::run(); }\n",
            "check.rs": "use crate::Outcome;\npub fn run() -> Outcome { Outcome::Done }\n",
        },
        {("check", "crate")},
    ),
    (
        "one way: a facade, a test module, a module imported then named",
        {
            "lib.rs": "mod a;\nmod b;\npub use a::A;\npub use b::B;\n",
            "a.rs": "use crate::b;\npub struct A;\nfn f() -> b::B { b::B }\n",
            "b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { let _ = crate::a::A; }\n}\n",
        },
        set(),
    ),
    (
        "an exported macro's $crate paths and a re-export of another crate's item",
        {
            "lib.rs": "mod server;\npub use other::Report;\npub use server::Server;\n#[macro_export]\nmacro_rules! serve { () => { $crate::server::Server::new() }; }\n",
            "server.rs": "use crate::Report;\npub struct Server;\nfn r() -> Report { todo!() }\n",
        },
        set(),
    ),
]


def self_test() -> int:
    import tempfile

    failures = 0
    for title, files, expected in SELF_TEST_CASES:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "src"
            for rel, text in files.items():
                (src / rel).parent.mkdir(parents=True, exist_ok=True)
                (src / rel).write_text(text)
            root = src / ("main.rs" if "main.rs" in files else "lib.rs")
            crate = Crate("self-test", "lib", root)
            found = set()
            for comp in sccs({crate.node(p) for p in crate.scopes}, crate.edges):
                found.add(tuple(sorted(name(m) for m in comp)))
            ok = found == expected
            failures += not ok
            print(f"module-graph self-test: {'ok' if ok else 'FAILED'}: {title}" + ("" if ok else f" (found {sorted(found)}, expected {sorted(expected)})"))
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--crate", action="append", default=[], help="check only this package (repeatable)")
    ap.add_argument("--edges", action="store_true", help="print every edge too")
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("--self-test", action="store_true", help="check the checker on small made-up crates, then stop")
    args = ap.parse_args()
    if args.self_test:
        return self_test()

    ws = tomllib.loads((args.root / "Cargo.toml").read_text())
    dirs = [args.root] if "package" in ws else []
    dirs += [args.root / m for m in ws.get("workspace", {}).get("members", [])]
    packages = []
    for d in dirs:
        manifest = tomllib.loads((d / "Cargo.toml").read_text())
        packages.append((manifest["package"]["name"], d, manifest))
    known = {p for p, _, _ in packages}
    for c in args.crate:
        if c not in known:
            print(f"module-graph: no package named {c!r} in the workspace (there are: {', '.join(sorted(known))})", file=sys.stderr)
            return 2
    if args.crate:
        packages = [p for p in packages if p[0] in args.crate]

    failed = False
    checked = 0
    for pkg, d, manifest in packages:
        for target, root_file in targets(d, manifest):
            crate = Crate(pkg, target, root_file)
            checked += 1
            label = f"{pkg} ({target})"
            for m in crate.missing:
                print(f"{label}: warning: {m}")
            nodes = {crate.node(p) for p in crate.scopes}
            if args.edges:
                for (a, b), (file, line) in sorted(crate.edges.items()):
                    print(f"{label}: {name(a)} -> {name(b)}  ({os.path.relpath(file, args.root)}:{line})")
            comps = sccs(nodes, crate.edges)
            if not comps:
                continue
            failed = True
            print(f"\n{label}: modules that import each other:")
            for comp in comps:
                pairs = [
                    (a, b)
                    for a in comp
                    for b in comp
                    if a < b and (a, b) in crate.edges and (b, a) in crate.edges
                ]
                for a, b in pairs:
                    fa, la = crate.edges[(a, b)]
                    fb, lb = crate.edges[(b, a)]
                    print(
                        f"  {name(a)} <-> {name(b)}: "
                        f"{os.path.relpath(fa, args.root)}:{la} names {name(b)}, "
                        f"{os.path.relpath(fb, args.root)}:{lb} names {name(a)}"
                    )
                # A module in the cycle but in no pair: a longer cycle through it.
                in_pairs = {m for pair in pairs for m in pair}
                shown: set = set()
                for m in comp:
                    if m in in_pairs or m in shown:
                        continue
                    cycle = shortest_cycle(m, comp, crate.edges)
                    shown.update(cycle)
                    steps = []
                    for a, b in zip(cycle, cycle[1:]):
                        f, l = crate.edges[(a, b)]
                        steps.append(f"{name(a)} -> {name(b)} ({os.path.relpath(f, args.root)}:{l})")
                    print(f"  {' -> '.join(map(name, cycle))}:")
                    for s in steps:
                        print(f"    {s}")
    if failed:
        print("\nmodule-graph: FAILED: move what both modules need into one of them or into a module both import,")
        print("so that the imports go one way (python3 .ci/module-graph.py --edges lists every import).")
        return 1
    print(f"module-graph: {checked} crates of {len(packages)} packages, no module imports another that imports it back")
    return 0


if __name__ == "__main__":
    sys.exit(main())
