#!/usr/bin/env python3
"""Print a variance table for a Larder stock count.

Reads a CSV with one row per SKU and at least the columns `sku`,
`expected` and `counted`. Optional columns: `item`, `unit`, `unit_cost`,
`location` and `code`; anything else (such as `notes`) is ignored. Header
names are case-insensitive. The layout of assets/count-sheet-template.csv
works as-is. An empty `counted` cell means "not counted"; an empty
`expected` cell means the item is not in the system (expected 0).

Exit status: 0 on success, 1 if --fail-on-flag is given and any line is
flagged, 2 on bad input or bad arguments.
"""

import argparse
import csv
import io
import json
import os
import sys
from decimal import Decimal, InvalidOperation

ALIASES = {
    "sku": ("sku", "item_code"),
    "expected": ("expected", "expected_qty", "on_hand", "system_qty"),
    "counted": ("counted", "counted_qty", "count", "actual"),
    "item": ("item", "name", "description"),
    "unit": ("unit", "uom"),
    "unit_cost": ("unit_cost", "cost", "unit_price"),
    "location": ("location", "area"),
    "code": ("code", "reason", "reason_code"),
}
REQUIRED = ("sku", "expected", "counted")
SORT_KEYS = ("file", "sku", "percent", "value")


class InputError(Exception):
    pass


def parse_args(argv):
    p = argparse.ArgumentParser(
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Compare expected and counted stock quantities and print a\n"
        "variance table. Reads CSV from PATH, or from stdin when PATH is '-'\n"
        "or omitted. Required columns: sku, expected, counted. Optional:\n"
        "item, unit, unit_cost, location, code. An empty counted cell means\n"
        "the line was not counted.",
        epilog="exit status: 0 ok, 1 flagged lines with --fail-on-flag, 2 bad input\n"
        "example: variance_report.py --only-flagged --sort value count.csv",
    )
    p.add_argument("path", nargs="?", default="-", help="CSV file (default: stdin)")
    p.add_argument("--threshold", type=float, default=5.0, metavar="PCT",
                   help="flag lines whose variance is at least PCT percent "
                   "of expected (default: 5)")
    p.add_argument("--value-threshold", type=float, default=50.0, metavar="AMOUNT",
                   help="flag lines whose variance is worth at least AMOUNT "
                   "(needs unit_cost; default: 50)")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table",
                   help="output format (default: table)")
    p.add_argument("--sort", choices=SORT_KEYS, default="file",
                   help="row order: file order, SKU, or largest absolute "
                   "percent/value variance first (default: file)")
    p.add_argument("--only-flagged", action="store_true",
                   help="show only lines marked RECOUNT or NOT COUNTED")
    p.add_argument("--delimiter", default=",", help="CSV delimiter (default: ,)")
    p.add_argument("--fail-on-flag", action="store_true",
                   help="exit with status 1 if any line is flagged")
    return p.parse_args(argv)


def to_decimal(raw, column, line):
    text = (raw or "").strip().lstrip("$\u00a3\u20ac").replace(" ", "")
    if text == "":
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise InputError(f"line {line}: {column} value {raw!r} is not a number")
    if not value.is_finite():
        raise InputError(f"line {line}: {column} value {raw!r} is not a number")
    if value < 0:
        raise InputError(f"line {line}: {column} must not be negative (got {raw})")
    return value


def map_columns(header):
    normalised = [(h or "").strip().lower().replace(" ", "_") for h in header]
    mapping = {}
    for field, names in ALIASES.items():
        for name in names:
            if name in normalised:
                mapping[field] = normalised.index(name)
                break
    missing = [f for f in REQUIRED if f not in mapping]
    if missing:
        raise InputError("missing required column(s): " + ", ".join(missing)
                         + "; header was: " + ", ".join(header))
    return mapping


def read_rows(stream, delimiter, pct_limit, value_limit):
    reader = csv.reader(stream, delimiter=delimiter)
    header = next(reader, None)
    if header is None:
        raise InputError("input is empty")
    cols = map_columns(header)
    rows = []
    for line, record in enumerate(reader, start=2):
        if not any(cell.strip() for cell in record):
            continue

        def cell(field):
            i = cols.get(field)
            return record[i].strip() if i is not None and i < len(record) else ""

        sku = cell("sku")
        if not sku:
            raise InputError(f"line {line}: sku is empty")
        expected = to_decimal(cell("expected"), "expected", line)
        counted = to_decimal(cell("counted"), "counted", line)
        cost = to_decimal(cell("unit_cost"), "unit_cost", line)
        row = {
            "line": line, "sku": sku, "item": cell("item"), "unit": cell("unit"),
            "location": cell("location"), "code": cell("code"),
            "expected": expected, "counted": counted, "unit_cost": cost,
            "variance": None, "percent": None, "value": None,
        }
        if counted is None:
            row["status"] = "NOT COUNTED"
        else:
            base = expected if expected is not None else Decimal(0)
            row["variance"] = counted - base
            if base != 0:
                row["percent"] = row["variance"] / base * 100
            if cost is not None:
                row["value"] = row["variance"] * cost
            flagged = row["variance"] != 0 and (
                row["percent"] is None
                or abs(row["percent"]) >= Decimal(str(pct_limit))
                or (row["value"] is not None
                    and abs(row["value"]) >= Decimal(str(value_limit)))
            )
            row["status"] = "RECOUNT" if flagged else "OK"
        rows.append(row)
    return rows


def qty(d, signed=False):
    if d is None:
        return ""
    text = format(d.quantize(Decimal("0.001")).normalize(), "f")
    if text in ("-0", "0"):
        text = "0"
    return ("+" + text) if signed and d > 0 else text


def money(d, signed=False):
    if d is None:
        return ""
    return format(d, "+.2f" if signed and d != 0 else ".2f")


def pct(d):
    if d is None:
        return ""
    return format(d, "+.1f" if d != 0 else ".1f") + "%"


def sort_rows(rows, key):
    if key == "sku":
        return sorted(rows, key=lambda r: r["sku"])
    if key in ("percent", "value"):
        def k(r):
            v = r[key]
            return (v is None, -abs(v) if v is not None else 0, r["line"])
        return sorted(rows, key=k)
    return rows


def summary(rows):
    counted = [r for r in rows if r["status"] != "NOT COUNTED"]
    values = [r["value"] for r in counted if r["value"] is not None]
    return {
        "lines": len(rows),
        "counted": len(counted),
        "recount": sum(r["status"] == "RECOUNT" for r in rows),
        "not_counted": len(rows) - len(counted),
        "net_value": sum(values, Decimal(0)),
        "gross_value": sum((abs(v) for v in values), Decimal(0)),
        "loss_value": sum((v for v in values if v < 0), Decimal(0)),
    }


COLUMNS = (
    ("SKU", "sku", "l"), ("Item", "item", "l"), ("Unit", "unit", "l"),
    ("Expected", "expected", "r"), ("Counted", "counted", "r"),
    ("Var", "variance", "r"), ("Var %", "percent", "r"),
    ("Value", "value", "r"), ("Code", "code", "l"), ("Status", "status", "l"),
)


def cells(r):
    return {
        "sku": r["sku"], "item": r["item"][:28], "unit": r["unit"],
        "expected": qty(r["expected"]), "counted": qty(r["counted"]),
        "variance": qty(r["variance"], signed=True), "percent": pct(r["percent"]),
        "value": money(r["value"], signed=True), "code": r["code"],
        "status": r["status"],
    }


def print_table(rows, totals, out):
    body = [cells(r) for r in rows]
    widths = [max([len(title)] + [len(b[key]) for b in body])
              for title, key, _ in COLUMNS]

    def fmt(values):
        parts = []
        for (_, _, align), w, v in zip(COLUMNS, widths, values):
            parts.append(v.rjust(w) if align == "r" else v.ljust(w))
        return "  ".join(parts).rstrip()

    out.write(fmt([c[0] for c in COLUMNS]) + "\n")
    out.write(fmt(["-" * w for w in widths]) + "\n")
    for b in body:
        out.write(fmt([b[key] for _, key, _ in COLUMNS]) + "\n")
    out.write("\n")
    out.write("Lines: {lines}  counted: {counted}  recount: {recount}  "
              "not counted: {not_counted}\n".format(**totals))
    out.write("Value variance: net {}  gross {}  losses {}\n".format(
        money(totals["net_value"], True), money(totals["gross_value"]),
        money(totals["loss_value"])))


def print_csv(rows, out):
    writer = csv.writer(out, lineterminator="\n")
    keys = [key for _, key, _ in COLUMNS]
    writer.writerow(["line"] + keys)
    for r in rows:
        c = cells(r)
        c["item"] = r["item"]
        writer.writerow([r["line"]] + [c[k] for k in keys])


def print_json(rows, totals, out):
    places = {"percent": "0.1", "value": "0.01", "net_value": "0.01",
              "gross_value": "0.01", "loss_value": "0.01"}

    def plain(key, v):
        if not isinstance(v, Decimal):
            return v
        return float(v.quantize(Decimal(places.get(key, "0.001"))))
    data = {
        "rows": [{k: plain(k, v) for k, v in r.items()} for r in rows],
        "summary": {k: plain(k, v) for k, v in totals.items()},
    }
    json.dump(data, out, indent=2)
    out.write("\n")


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.path == "-":
            if sys.stdin.isatty():
                raise InputError("no PATH given and stdin is a terminal; "
                                 "pass a CSV file or pipe one in (see --help)")
            stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig",
                                      newline="")
            rows = read_rows(stream, args.delimiter, args.threshold,
                             args.value_threshold)
        else:
            try:
                with open(args.path, encoding="utf-8-sig", newline="") as fh:
                    rows = read_rows(fh, args.delimiter, args.threshold,
                                     args.value_threshold)
            except OSError as exc:
                raise InputError(f"cannot read {args.path}: {exc.strerror}")
    except (InputError, UnicodeDecodeError, csv.Error) as exc:
        sys.stderr.write(f"variance_report: error: {exc}\n")
        return 2

    totals = summary(rows)
    shown = [r for r in rows if r["status"] != "OK"] if args.only_flagged else rows
    shown = sort_rows(shown, args.sort)
    try:
        if args.format == "json":
            print_json(shown, totals, sys.stdout)
        elif args.format == "csv":
            print_csv(shown, sys.stdout)
        else:
            print_table(shown, totals, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        # Output was cut short by the reader (e.g. `| head`); not an error.
        sys.stdout = open(os.devnull, "w")
    flagged = totals["recount"] + totals["not_counted"]
    return 1 if args.fail_on_flag and flagged else 0


if __name__ == "__main__":
    sys.exit(main())
