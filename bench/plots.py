#!/usr/bin/env python3
"""The plots of docs/BENCHMARKS.md, drawn from the committed result files.

usage: target/run-all/venv/bin/python bench/plots.py   (bench/run-all makes the venv with the
       pinned packages of bench/plots-requirements.txt and runs this)

Writes docs/bench-*.png; a plot whose result files are missing is skipped (said on stderr).
Each plot is one function registered with @plot("file name"), like the tables of bench/tables.py,
and reads its data through the same helpers.
"""
import statistics
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tables  # noqa: E402
from tables import Missing, jsonf, jsonl, of  # noqa: E402

DOCS = tables.REPO / "docs"  # where the PNG files go (argument 2 changes it)
PLOTS = {}
# No software version or date in the files: the same results give the same bytes.
METADATA = {"Software": None}


def plot(name):
    def register(f):
        PLOTS[name] = f
        return f
    return register


def save(fig, name):
    fig.tight_layout()
    fig.savefig(DOCS / name, dpi=110, metadata=METADATA)
    plt.close(fig)


@plot("bench-build-time.png")
def _(name):
    rows = of(jsonl(tables.BUILD), profile="override")
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=False)
    trees = [("s10", 100), ("s100", 1000), ("s1000", 10000)]
    for ax, mode in zip(axes, ("touch", "clean")):
        for crate, style in (("embed", "o-"), ("include-dir", "s--"), ("include-bytes", "^:")):
            ys = [statistics.median(r["rustc_s"] for r in of(rows, tree=t, mode=mode, crate=crate)) for t, _ in trees]
            ax.plot([n for _, n in trees], ys, style, label=crate if crate != "include-bytes" else "include_bytes (floor)")
        ax.set(xscale="log", yscale="log", xlabel="files in the tree", ylabel="crate's own rustc time, s",
               title=f"after a {mode}" if mode == "touch" else "clean build of the crate")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle("Build time against files (10 files per skill, with the build-override)")
    save(fig, name)


SERVERS = [("ours", "ours"), ("ours-stateless", "ours, stateless"), ("rmcp-nodelay", "SkillCatalog + NODELAY"),
           ("rmcp", "SkillCatalog"), ("rmcp-stateless", "SkillCatalog, stateless"), ("fastmcp", "FastMCP"),
           ("agentskills", "agentskills")]


@plot("bench-servers.png")
def _(name):
    fig, axes = plt.subplots(2, 2, figsize=(11, 7))
    for col, phase in enumerate(("stdio", "http")):
        st = jsonl(f"{tables.RT}/{phase}/startup.jsonl")
        tp = jsonl(f"{tables.RT}/{phase}/tput.jsonl")
        for row, (rows, f, label) in enumerate(((st, tables.first, "first skills/list, ms (log)"),
                                                (tp, tables.rps, "resources/read per s, 16 in flight"))):
            ax = axes[row][col]
            cases = [(c, l) for c, l in SERVERS if of(rows, case=c)]
            vals = [statistics.median(f(r) for r in of(rows, case=c)) for c, _ in cases]
            bars = ax.bar(range(len(cases)), vals, color=["tab:blue" if c.startswith("ours") else "tab:gray" for c, _ in cases])
            ax.bar_label(bars, labels=[f"{v:,.1f}" if v < 100 else f"{v:,.0f}" for v in vals], fontsize=7)
            ax.set_xticks(range(len(cases)), [l for _, l in cases], rotation=30, ha="right", fontsize=8)
            ax.set_title(f"{phase}: {label}", fontsize=10)
            if row == 0:
                ax.set_yscale("log")
    fig.suptitle("First skills/list and reads/s per server and transport (real corpus, medians)")
    save(fig, name)


# The latency series (issue 11's reads, bench/run-all's `reads`) also runs ours with the blob cache.
LATENCY_SERVERS = SERVERS[:1] + [("ours-blob-cache", "ours, blob cache")] + SERVERS[1:]


@plot("bench-latency.png")
def _(name):
    panels = []
    for phase in ("stdio", "http"):
        for kind in ("lat", "tput"):
            try:
                rows = [r for r in jsonl(f"{tables.READS}/{phase}/{kind}.jsonl") if "lat_ms" in r]
            except Missing:
                continue
            if rows:
                panels.append((phase, rows))
    if not panels:
        raise Missing(f"{tables.READS}/*/lat.jsonl with lat_ms")
    cols = min(2, len(panels))  # one row per transport: 1 in flight, then 16
    rows_n = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(6 * cols, 4 * rows_n), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, (phase, rows) in zip(axes.flat, panels):
        window = "/".join(str(w) for w in sorted({r["window"] for r in rows}))
        cases = [(c, l) for c, l in LATENCY_SERVERS if of(rows, case=c)]
        qs = ["p50", "p90", "p99", "max"]
        width = 0.8 / len(qs)
        for i, q in enumerate(qs):
            vals = [statistics.median(r["lat_ms"][q] for r in of(rows, case=c)) for c, _ in cases]
            ax.bar([x + i * width for x in range(len(cases))], vals, width, label=q)
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(cases))], [l for _, l in cases], rotation=30, ha="right", fontsize=8)
        ax.set(yscale="log", ylabel="ms per request (log)", title=f"{phase}, {window} in flight")
        ax.legend(fontsize=8)
    fig.suptitle("resources/read latency percentiles (medians over rounds)")
    save(fig, name)


@plot("bench-soak-memory.png")
def _(name):
    d = jsonf(f"{tables.RT}/soak/summary.json")
    samples = jsonl(f"{tables.RT}/soak/rss.jsonl")
    fig, ax = plt.subplots(figsize=(8, 3.5))
    ax.plot([s["t_s"] for s in samples], [s["rss_kb"] / 1024 for s in samples], ".-")
    ax.set(xlabel="seconds since the server started", ylabel="server RSS, MiB", ylim=(0, None),
           title=f"Soak: {d['sessions']} sessions + {d['stateless']} stateless clients, {d['secs']:.0f} s, "
                 f"{d['requests']:,} requests, {d['errors']} errors")
    ax.grid(True, alpha=0.3)
    save(fig, name)


@plot("bench-cold-build.png")
def _(name):
    series = tables.cold_series()
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    labels, walls, cpus = [], [], []
    for tag, s in series.items():
        for v in dict.fromkeys(r["variant"] for r in s["rows"]):
            rs = of(s["rows"], variant=v)
            labels.append(f"{tag}\n{v}")
            walls.append(statistics.median(r["wall_s"] for r in rs))
            cpus.append(statistics.median(r["cpu_s"] for r in rs))
    for ax, vals, what in ((axes[0], walls, "wall, s"), (axes[1], cpus, "CPU (user + system), s")):
        bars = ax.barh(range(len(labels)), vals, color=["tab:gray" if "hello" in l else "tab:blue" for l in labels])
        ax.bar_label(bars, labels=[f"{v:.0f}" for v in vals], fontsize=8)
        ax.set_yticks(range(len(labels)), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel(what)
    fig.suptitle("Cold build of a user's crate (medians)")
    save(fig, name)


def main():
    """usage: plots.py [RESULTS_ROOT [OUT_DIR]] (default: the repository and its docs/)"""
    global DOCS
    if len(sys.argv) > 1:
        tables.ROOT = Path(sys.argv[1]).resolve()
    if len(sys.argv) > 2:
        DOCS = Path(sys.argv[2]).resolve()
        DOCS.mkdir(parents=True, exist_ok=True)
    for name, f in PLOTS.items():
        try:
            f(name)
            print(DOCS / name)
        except Missing as e:
            print(f"{DOCS / name}: skipped, {e.args[0]} is missing", file=sys.stderr)


if __name__ == "__main__":
    main()
