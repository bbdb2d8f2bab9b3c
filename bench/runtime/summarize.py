"""Summarize bench/runtime/run.sh output as markdown (also written to <OUT>/summary.md).

usage: python3 bench/runtime/summarize.py <OUT dir>
Reads <OUT>/<phase>/{startup,tput,lat}.jsonl for every phase folder (stdio, http, scale-s*),
in the row format of ../shared/bench/peers/load-client (http-load writes the same keys).
Cells: median (min–max). "a ÷ b": median of per-round ratios of case a to case b (rounds
interleave the servers, so pairing cancels slow drift). Then the targets of the issue.
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

md = []  # the summary being written (main)


def load(path):
    if not path.exists():
        return []
    return [json.loads(l) for l in path.read_text().splitlines() if l.strip()]


def cell(vals, nd):
    return f"{statistics.median(vals):,.{nd}f} ({min(vals):,.{nd}f}–{max(vals):,.{nd}f})"


def per_round(rows, f):
    by = defaultdict(dict)
    for r in rows:
        by[r["round"]][r["case"]] = f(r)
    return by


def ratio_vals(rows, f, a, b):
    return [d[a] / d[b] for d in per_round(rows, f).values() if a in d and b in d and d[b]]


def ratio(rows, f, a, b):
    rs = ratio_vals(rows, f, a, b)
    return f"{statistics.median(rs):,.2f} ({min(rs):,.2f}–{max(rs):,.2f})" if rs else "–"


def med(rows, case, f):
    v = [f(r) for r in rows if r["case"] == case]
    return statistics.median(v) if v else None


def table(rows, title, cols, ratios):
    if not rows:
        return
    cases = list(dict.fromkeys(r["case"] for r in rows))
    head = ["case", "runs"] + [c[0] for c in cols]
    md.append(f"#### {title}\n")
    md.append("| " + " | ".join(head) + " |")
    md.append("|" + "---|" * len(head))
    for case in cases:
        rs = [r for r in rows if r["case"] == case]
        md.append("| " + " | ".join([case, str(len(rs))] + [cell([c[2](r) for r in rs], c[1]) for c in cols]) + " |")
    md.append("")
    lines = []
    for label, f, a, b in ratios:
        if any(r["case"] == a for r in rows) and any(r["case"] == b for r in rows):
            lines.append(f"| {label} | {a} ÷ {b} | {ratio(rows, f, a, b)} |")
    if lines:
        md.append("| ratio | cases | median of per-round ratios (min–max) |")
        md.append("|---|---|---|")
        md.extend(lines)
        md.append("")


def base_for(ours, rows):
    """The SkillCatalog case run the same way: ours-stateless -> rmcp-stateless; ours (HTTP, whose
    example sets TCP_NODELAY) -> rmcp-nodelay when present; else rmcp."""
    for twin in (("rmcp" + ours[len("ours"):]) if ours != "ours" else "rmcp-nodelay", "rmcp"):
        if any(r["case"] == twin for r in rows):
            return twin
    return "rmcp"


def WINDOW_OF(rows):
    return "/".join(str(w) for w in sorted({r["window"] for r in rows})) or "–"


def percentile_rows(tp, lt):
    """Per-request latency for every case (ours and the peers): p50/p90/p99/max, medians over
    rounds, at 1 in flight (lat.jsonl) and at the throughput window (tput.jsonl), with the p99 as a
    median of per-round ratios to SkillCatalog (the twin base_for picks for ours, rmcp for the
    peers). Returns (header, rows), or None without latency rows; bench/tables.py prints the same."""
    series = [(rows, WINDOW_OF(rows)) for rows in (lt, tp) if any("lat_ms" in r for r in rows)]
    if not series:
        return None
    cases = list(dict.fromkeys(r["case"] for rows, _ in series for r in rows if "lat_ms" in r))
    head = ["case"]
    for _, w in series:
        head += [f"{w} in flight: p50", "p90", "p99", "max", "p99 ÷ SkillCatalog"]
    out = []
    for case in cases:
        row = [case]
        for rows, _ in series:
            timed = [r for r in rows if "lat_ms" in r]
            mine = [r["lat_ms"] for r in timed if r["case"] == case]
            if not mine:
                row += ["–"] * 5
                continue
            row += [f"{statistics.median(l[q] for l in mine):,.2f}" for q in ("p50", "p90", "p99", "max")]
            base = base_for(case, timed) if case.startswith("ours") else "rmcp"
            row.append("–" if case == base else f"{ratio(timed, lambda r: r['lat_ms']['p99'], case, base)} ({base})")
        out.append(row)
    return head, out


def percentiles(tp, lt):
    got = percentile_rows(tp, lt)
    if not got:
        return
    head, rows = got
    md.append("#### resources/read latency per request, ms (median over rounds)\n")
    md.append("| " + " | ".join(head) + " |")
    md.append("|" + "---|" * len(head))
    md.extend("| " + " | ".join(row) + " |" for row in rows)
    md.append("")


first = lambda r: r["first_ms"]
ready = lambda r: r["ready_ms"]
rss = lambda r: r["server_peak_rss_kb"] / 1024
rps = lambda r: r["req_per_s"]
cpu = lambda r: r["server_cpu_ms_per_1k_req"]


def main(out):
    targets = []

    for phase in sorted(p for p in out.iterdir() if p.is_dir()):
        st, tp, lt = (load(phase / f) for f in ("startup.jsonl", "tput.jsonl", "lat.jsonl"))
        if not (st or tp or lt):
            continue
        md.append(f"### {phase.name}\n")
        # Every variant of ours (ours-blob-cache, ours-rmcp-patched, ...) but the handshake-era start-up.
        ours = [c for c in dict.fromkeys(r["case"] for r in st + tp)
                if c.startswith("ours") and c != "ours-handshake"]
        sr = []
        for o in ours:
            base = base_for(o, st + tp)
            sr += [("first list", first, o, "rmcp-empty-dir"), ("first list", first, o, base),
                   ("ready", ready, o, "rmcp-empty-dir"), ("peak RSS", rss, o, base)]
        sr += [("first list", first, "ours-handshake", "rmcp-handshake"), ("first list", first, "fastmcp", "rmcp"),
               ("first list", first, "rmcp", "rmcp-empty-dir")]
        table(st, "Start → first response, ms; server peak RSS after the first skills/list, MiB", [
            ("ready ms", 1, ready), ("first list ms", 1, first), ("items", 0, lambda r: r["items"]),
            ("list bytes", 0, lambda r: r["response_bytes"]), ("peak RSS MiB", 1, rss)], sr)
        tr = []
        for o in ours:
            base = base_for(o, tp)
            tr += [("req/s", rps, o, base), ("req/s", rps, o, "fastmcp"), ("server CPU/1k req", cpu, o, base),
                   ("peak RSS", rss, o, base)]
        table(tp, f"resources/read throughput, {sorted({r['window'] for r in tp})} in flight", [
            ("req/s", 0, rps), ("payload MB/s", 1, lambda r: r["payload_mb_per_s"]),
            ("server CPU ms/1k req", 0, cpu), ("client CPU s", 2, lambda r: r["client_cpu_s"]),
            ("peak RSS MiB", 1, rss)], tr)
        table(lt, "resources/read, one in flight", [("req/s", 0, rps), ("µs/req", 0, lambda r: 1e6 / r["req_per_s"])],
              [("req/s", rps, "ours", "rmcp"), ("req/s", rps, "ours", "fastmcp")])
        for name, rows in (("tput", tp), ("lat", lt)):
            timed = [r for r in rows if "lat_ms" in r]
            if timed:
                p = lambda q: (lambda r: r["lat_ms"][q])
                inflight = sorted({r["window"] for r in timed})
                table(timed, f"resources/read latency per request, ms, {inflight} in flight", [
                    ("p50", 2, p("p50")), ("p90", 2, p("p90")), ("p99", 2, p("p99")), ("max", 2, p("max"))],
                    [("p99", p("p99"), o, base_for(o, timed)) for o in ours])
        percentiles(tp, lt)
        # bench/runtime/callgrind-reads.sh (stdio: instructions per read from two run lengths);
        # the HTTP rows are whole runs (one length), listed as such.
        allcg = load(phase / "callgrind.jsonl")
        cg = [r for r in allcg if "instructions_per_read" in r]
        whole = [r for r in allcg if "whole_run_ir" in r]
        if whole:
            md.append("#### Instructions of a whole run (callgrind, server stopped by a signal)\n")
            md.append("| case | reads | whole run | of which start-up SHA-256 |")
            md.append("|---|---|---|---|")
            md.extend(f"| {r['case']} | {r['reads']} | {r['whole_run_ir']:,} | {r['startup_sha256_ir']:,} |" for r in whole)
            md.append("")
        if cg:
            base = next((r["instructions_per_read"] for r in cg if r["case"] == "rmcp"), None)
            md.append("#### Instructions per resources/read (callgrind, 16 in flight; callgrind-reads.sh)\n")
            md.append("| case | reads counted | instructions per read | ÷ rmcp |")
            md.append("|---|---|---|---|")
            for r in cg:
                rel = f"{r['instructions_per_read'] / base:.3f}" if base else "–"
                md.append(f"| {r['case']} | {r['reads']} | {r['instructions_per_read']:,} | {rel} |")
            md.append("")
        for name, rows in (("tput", tp), ("lat", lt)):
            if rows:
                fps = sorted({(r["case"], r.get("manifest_fp"), r["files"], r["corpus_bytes"]) for r in rows})
                bad = sum(r.get("verify_mismatches", 0) for r in rows)
                errs = sum(r["errors"] for r in rows)
                md.append(f"{name}: n={sorted({r['n'] for r in rows})}; request universe per case (case, fingerprint, files, "
                          f"bytes): {fps}; verify mismatches: {bad}; error responses: {errs}\n")
        # Targets (the issue): first list ≤ 1.5× the no-skills floor; reads/s ≥ SkillCatalog and ≥ 10×
        # FastMCP; RSS after start-up below SkillCatalog.
        for o in ours:
            base = base_for(o, st + tp)
            p99 = lambda r: r["lat_ms"]["p99"]
            timed = lambda rows: [r for r in rows if "lat_ms" in r]
            checks = [
                ("first skills/list ÷ no-skills floor", st, first, o, "rmcp-empty-dir", lambda x: x <= 1.5, "≤ 1.5"),
                (f"reads/s ÷ {base}", tp, rps, o, base, lambda x: x >= 1.0, "≥ 1"),
                ("reads/s ÷ fastmcp", tp, rps, o, "fastmcp", lambda x: x >= 10, "≥ 10"),
                (f"RSS after start-up ÷ {base}", st, rss, o, base, lambda x: x < 1.0, "< 1"),
                # Issue 11's targets 2-4.
                (f"server CPU per read ÷ {base}", tp, cpu, o, base, lambda x: x <= 0.8, "≤ 0.8"),
                (f"peak RSS after the reads ÷ {base}", tp, rss, o, base, lambda x: x <= 1.0, "≤ 1"),
                (f"p99 latency, {WINDOW_OF(tp)} in flight ÷ {base}", timed(tp), p99, o, base, lambda x: x <= 1.0, "≤ 1"),
                (f"p99 latency, 1 in flight ÷ {base}", timed(lt), p99, o, base, lambda x: x <= 1.0, "≤ 1"),
            ]
            for label, rows, f, a, b, ok, want in checks:
                rs = ratio_vals(rows, f, a, b)
                if rs:
                    m = statistics.median(rs)
                    targets.append(f"| {phase.name} | {a}: {label} | {want} | {m:,.2f} ({min(rs):,.2f}–{max(rs):,.2f}) | "
                                   f"{'met' if ok(m) else 'MISSED'} |")

    soak = out / "soak" / "summary.json"
    if soak.exists():
        d = json.loads(soak.read_text())
        md.append(f"### soak\n\n{d['sessions']} sessions + {d['stateless']} stateless clients, {d['secs']:.0f} s, "
                  f"{d['requests']:,} requests ({d['req_per_s']:,.0f}/s), errors {d['errors']}, "
                  f"mismatches {d['mismatches']}; server RSS {d['rss_kb']['first'] / 1024:.1f} → "
                  f"max {d['rss_kb']['max'] / 1024:.1f} → {d['rss_kb']['last'] / 1024:.1f} MiB "
                  f"({d['rss_kb']['samples']} samples, rss.jsonl)\n")
        md.append("| method | client | requests | p50 ms | p90 ms | p99 ms | max ms |")
        md.append("|---|---|---|---|---|---|---|")
        for method, kinds in d["by_op"].items():
            for kind, t in kinds.items():
                l = t["lat_ms"]
                md.append(f"| {method} | {kind} | {t['requests']:,} | {l['p50']:.2f} | {l['p90']:.2f} | "
                          f"{l['p99']:.2f} | {l['max']:.2f} |")
        md.append("")

    if targets:
        md.append("### Targets\n")
        md.append("| phase | figure | target | measured (median of per-round ratios, min–max) | |")
        md.append("|---|---|---|---|---|")
        md.extend(targets)
        md.append("")
    load_txt = out / "load.txt"
    if load_txt.exists():
        md.append("### Load before and after each series\n\n```\n" + load_txt.read_text().strip() + "\n```\n")
    text = "\n".join(md)
    print(text)
    (out / "summary.md").write_text(text + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
