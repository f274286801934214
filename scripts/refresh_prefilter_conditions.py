#!/usr/bin/env python3
"""Rewrite scanner/data/prefilter_conditions.json: the word conditions of every rule pattern,
derived ahead of time so that a big scan does not spend 0.25 s deriving them before it forks
(see scanner/prefilter.py). Run it after changing a rule pattern or prefilter.py; the test suite
says when it is due.

  python scripts/refresh_prefilter_conditions.py
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from scanner import matching, prefilter  # noqa: E402
from scanner.engines import native  # noqa: E402,F401  (compiles the patterns a scan indexes)
from scanner.rules import catalog  # noqa: E402


def main() -> int:
    catalog()
    count = prefilter.save_conditions(r.pattern for r in list(matching._REGISTRY))
    print(f"{prefilter.SAVED_PATH}: {count} patterns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
