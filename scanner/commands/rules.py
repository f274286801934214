"""`instruction-guard rules`: list the catalog; `--docs DIR` writes one page per rule."""
from __future__ import annotations

import json
import os
import sys

from ..rules import catalog
from ..rules.docs import index_page, rule_page


def register(sub) -> None:
    p = sub.add_parser("rules", help="list the rule catalog, or write its documentation")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--docs", metavar="DIR", help="write docs/rules pages generated from each rule's metadata and fixtures")
    p.set_defaults(func=run)


def run(args) -> int:
    rules = catalog()
    if args.docs:
        os.makedirs(args.docs, exist_ok=True)
        for r in rules:
            with open(os.path.join(args.docs, f"{r.id}.md"), "w", encoding="utf-8") as fh:
                fh.write(rule_page(r))
        with open(os.path.join(args.docs, "README.md"), "w", encoding="utf-8") as fh:
            fh.write(index_page(rules))
        print(f"wrote {len(rules)} rule pages to {args.docs}")
        return 0
    if args.format == "json":
        json.dump([
            {"id": r.id, "name": r.name, "title": r.title, "category": r.category.value,
             "severity": r.severity.label, "confidence": r.confidence.label, "applies_to": sorted(r.applies_to)}
            for r in rules
        ], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for r in rules:
        print(f"{r.id}  {r.severity.label:<8} {r.category.value:<20} {r.name}: {r.title}")
    return 0
