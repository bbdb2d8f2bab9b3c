#!/usr/bin/env python3
"""Counts a crate's public names and public methods per module, from rustdoc's JSON.

    cargo +nightly rustdoc -p skills-runtime --all-features -- -Z unstable-options --output-format json
    python3 .ci/public-api.py target/doc/skills_runtime.json [--list]

A *name* is an item a user can write as a path: a module, type, trait, function, constant,
static or macro declared in a module, or re-exported there with `pub use` (an item reachable at
two paths counts twice: that is what the count is for). A *method* is a public associated
function or constant of a type's inherent impl, or a provided or required item of a public trait,
counted once, in the module that defines the type. Enum variants and fields are not counted.
`--list` prints every path, so that two counts can be compared with `diff`. Both end with the
items a user can reach at more than one path (a second way to name one thing).
"""

import json
import sys
from collections import defaultdict

NAMED = {"module", "struct", "enum", "union", "trait", "trait_alias", "function", "constant",
         "static", "type_alias", "macro", "proc_macro"}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    listing = "--list" in sys.argv
    doc = json.load(open(args[0]))
    index = doc["index"]
    paths = doc["paths"]
    names = defaultdict(list)    # module path -> [name]
    methods = defaultdict(list)  # module path -> [Type::method]
    defined = set()              # ids whose methods were counted
    reached = defaultdict(set)   # item id -> every public path that names it

    def kind(item):
        return next(iter(item["inner"]))

    def count_methods(module, item):
        if item["id"] in defined:
            return
        defined.add(item["id"])
        k = kind(item)
        inner = item["inner"][k]
        if k == "trait":
            members = inner["items"]
        elif k in ("struct", "enum", "union"):
            members = []
            for impl_id in inner.get("impls", []):
                impl = index.get(str(impl_id))
                if impl is None or impl["inner"]["impl"]["trait"] is not None:
                    continue
                if impl["inner"]["impl"].get("is_synthetic") or impl["inner"]["impl"].get("blanket_impl"):
                    continue
                members += impl["inner"]["impl"]["items"]
        else:
            return
        for member_id in members:
            member = index.get(str(member_id))
            if member is None:
                continue
            if k != "trait" and member["visibility"] != "public":
                continue
            if kind(member) in ("function", "assoc_const"):
                methods[module].append(f"{item['name']}::{member['name']}")

    def walk(module_id, path, seen):
        if module_id in seen:
            return
        seen = seen | {module_id}
        module = index[str(module_id)]
        for item_id in module["inner"]["module"]["items"]:
            item = index.get(str(item_id))
            if item is None:
                continue
            k = kind(item)
            if k == "use":
                use = item["inner"]["use"]
                target = index.get(str(use["id"])) if use["id"] is not None else None
                if use["is_glob"]:
                    if target is not None and kind(target) == "module":
                        for sub_id in target["inner"]["module"]["items"]:
                            sub = index.get(str(sub_id))
                            if sub is not None and kind(sub) in NAMED:
                                names[path].append(sub["name"])
                                reached[sub["id"]].add(f"{path}::{sub['name']}")
                    else:
                        names[path].append(use["source"] + "::*")
                    continue
                names[path].append(use["name"])
                if use["id"] is not None:
                    reached[use["id"]].add(f"{path}::{use['name']}")
                if target is not None and kind(target) == "module":
                    walk(target["id"], f"{path}::{use['name']}", seen)
                elif target is not None:
                    count_methods(path, target)
                continue
            if k not in NAMED:
                continue
            names[path].append(item["name"])
            reached[item["id"]].add(f"{path}::{item['name']}")
            if k == "module":
                walk(item_id, f"{path}::{item['name']}", seen)
            else:
                count_methods(path, item)

    root = index[str(doc["root"])]
    walk(doc["root"], root["name"], frozenset())
    modules = sorted(set(names) | set(methods))
    twice = sorted(sorted(p) for p in reached.values() if len(p) > 1)
    if listing:
        for m in modules:
            for n in sorted(names[m]):
                print(f"name   {m}::{n}")
            for n in sorted(methods[m]):
                print(f"method {m}::{n}")
        for p in twice:
            print("twice  " + " = ".join(p))
        return
    width = max(len(m) for m in modules)
    print(f"| {'module'.ljust(width)} | names | methods |")
    print(f"| {'-' * width} | ----: | ------: |")
    for m in modules:
        print(f"| {m.ljust(width)} | {len(names[m]):5} | {len(methods[m]):7} |")
    total_names = sum(len(v) for v in names.values())
    total_methods = sum(len(v) for v in methods.values())
    print(f"| {'total'.ljust(width)} | {total_names:5} | {total_methods:7} |")
    print()
    print(f"items at more than one public path: {len(twice)}")
    for p in twice:
        print("- " + " = ".join(p))


if __name__ == "__main__":
    main()
