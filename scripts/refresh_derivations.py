#!/usr/bin/env python3
"""Rewrite what is derived from the rule patterns ahead of time and saved with the package (see
scanner/matching/saved.py): the word prefilter's conditions (scanner/data/prefilter_conditions.json) and
the gates' relaxed patterns (scanner/data/relaxed_patterns.json), and it drops the memory budgets
of patterns that are gone (scanner/data/pattern_budgets.json). Run it after changing a rule
pattern, prefilter.py or relax.py; the test suite says when it is due.

  python scripts/refresh_derivations.py
"""
from __future__ import annotations

import gc
import importlib
import os
import sys

# The registry holds live patterns only: verify every rule's fixtures (whatever the cache says)
# and collect before saving, so the saved set does not depend on this machine's cache or on
# when the collector last ran.
os.environ["INSTRUCTION_GUARD_VERIFY_FIXTURES"] = "always"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from scanner import matching  # noqa: E402
from scanner.matching import budgets, prefilter, relax  # noqa: E402
from scanner.engines import native  # noqa: E402,F401  (compiles the patterns a scan indexes)
from scanner.matching import gates  # noqa: E402
from scanner.rules import RULE_MODULES, catalog  # noqa: E402


def family_patterns() -> list[str]:
    """The patterns of every gate family of the rule modules (and of carriers.py's hints)."""
    catalog()
    return [r.pattern for name in (*RULE_MODULES, "scanner.carriers") for value in vars(importlib.import_module(name)).values()
            if isinstance(value, gates.Family) for r in value.regexes]


def main() -> int:
    catalog()
    # Every module's patterns, not only those a catalog load compiles: the script engines compile
    # theirs at import, and a pattern missing from the saved file is derived again at every start.
    import pkgutil

    import scanner

    for info in pkgutil.walk_packages(scanner.__path__, "scanner."):
        if not info.name.endswith("__main__"):  # importing it would run the command line
            importlib.import_module(info.name)
    # Patterns compiled on first use (cached) are measured by a scan like any other: compile them
    # here too, so their conditions are saved and their budgets are not pruned as stale.
    from scanner.intent.lexicon import TIERED, english_patterns, lexicon
    from scanner.scripts import anylang

    english_patterns()
    anylang._tables()
    gc.collect()
    # The entries of the lexicon's two-part concepts too: a rare part's words are its entries'.
    entries = [e for c in TIERED for e in lexicon().entries.get(c, ())]
    count = prefilter.save_conditions([r.pattern for r in list(matching._REGISTRY)] + entries)
    print(f"{prefilter.SAVED_PATH}: {count} patterns")
    count = relax.save_relaxed(family_patterns())
    print(f"{relax.SAVED_PATH}: {count} relaxed forms")
    # Measured budgets (scripts/measure_budgets.py) of patterns that no longer exist are dropped;
    # a changed pattern gets the default until it is measured again.
    dropped = budgets.prune({r.pattern for r in list(matching._REGISTRY)})
    print(f"{budgets.PATH}: {dropped} stale budgets dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
