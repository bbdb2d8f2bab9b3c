#!/usr/bin/env python3
"""Prints each item whose counted quantity differs from the expected one."""
import csv
import sys

for row in csv.DictReader(open(sys.argv[1], newline="")):
    variance = float(row["counted"]) - float(row["expected"])
    if variance:
        print(f"{row['sku']}: {variance:+g}")
