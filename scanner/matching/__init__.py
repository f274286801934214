"""Linear-time matching of hostile text: every rule pattern is compiled by RE2.

RE2 guarantees time linear in the input whatever the pattern, so an attacker cannot make a
rule backtrack. Patterns run over UTF-8 bytes of a document, encoded once per document
(google-re2 would otherwise re-encode the whole text for every call).
"""
from __future__ import annotations

import re as _stdlib_re  # only over our own patterns' source, never over scanned text
import weakref
from typing import Iterable, Iterator

import re2

from . import budgets

_OPTIONS = re2.Options()
_OPTIONS.max_mem = budgets.DEFAULT

_REGISTRY: "weakref.WeakSet[Regex]" = weakref.WeakSet()  # every live pattern, for prefilter.build_prefilter


class Regex:
    """A compiled RE2 pattern over UTF-8 bytes."""

    __slots__ = ("pattern", "_re", "prefilter", "gate", "_anchored", "__weakref__")

    def __init__(self, pattern: str, max_mem: int | None = None) -> None:
        self.pattern = pattern
        # (prefilter.Index, condition) once prefilter.build_prefilter has seen this pattern;
        # None: always run it. (Set from above: this module knows nothing of the prefilter.)
        self.prefilter: tuple[object, object] | None = None
        # The gates.Family whose set pass decides first whether this pattern runs over a
        # document (it registers itself); None: no set gate.
        self.gate = None
        try:
            if max_mem is None:
                max_mem = budgets.budget_for(pattern)
            self._re = re2.compile(pattern.encode("utf-8"), _OPTIONS if max_mem == budgets.DEFAULT else _options(max_mem))
        except re2.error as exc:  # a rule author's mistake: fail loudly at load time
            raise ValueError(f"pattern does not compile under RE2: {pattern!r}: {exc}") from exc
        self._anchored = anchored_at_start(pattern)
        _REGISTRY.add(self)

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        if self._anchored and pos == 0:
            # Same answer as a search (the pattern can only match at the text's start), but RE2's
            # unanchored search over a pattern led by `^` and long gaps builds automaton states
            # on every call: 20-60x slower on short texts (docs/performance.md).
            return self._re.match(data, 0, len(data) if endpos is None else endpos)
        if endpos is None:
            return self._re.search(data, pos)
        return self._re.search(data, pos, endpos)

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None) -> Iterator:
        if endpos is None:
            return self._re.finditer(data, pos)
        return self._re.finditer(data, pos, endpos)

    def test(self, text: str) -> bool:
        """Convenience for short strings (fixtures, excerpts): any match?"""
        return self.search(text.encode("utf-8", "surrogatepass")) is not None

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


def anchored_at_start(pattern: str) -> bool:
    """The whole pattern starts with `^` or `\\A` (single-line): flags, then the anchor, and no
    alternation outside every group, so no branch can match past the text's start."""
    head = _LEADING_FLAGS.match(pattern)
    if head is None or "m" in (head.group(1) or ""):
        return False
    depth, i, n = 0, head.end(), len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "]" or pattern[i + 1:i + 3] == "^]":
                i += 2 if pattern[i + 1] == "]" else 3  # a leading `]` is a literal
                continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            return False
        i += 1
    return True


_LEADING_FLAGS = _stdlib_re.compile(r"(?:\(\?([a-zA-Z]*)\))?(?:\^|\\A)")  # our own patterns only


def rx(pattern: str, max_mem: int | None = None) -> Regex:
    """A pattern; max_mem bounds what RE2 keeps for it (program and automaton states, in this
    process): the measured budget of budgets.py unless told. A smaller budget changes no match,
    only memory and speed: a pass that fills it drops the states built so far and builds them
    again as it goes."""
    return Regex(pattern, max_mem)


def text_rx(pattern: str):
    """RE2 over short str slices (a unit's text, a line, a URL's value): the str interface of `re`
    (match, search, finditer, sub, split), linear-time like every pattern here. Whole documents
    are searched through Document with rx."""
    try:
        return re2.compile(pattern)
    except re2.error as exc:
        raise ValueError(f"pattern does not compile under RE2: {pattern!r}: {exc}") from exc


def _options(max_mem: int) -> re2.Options:
    options = re2.Options()
    options.max_mem = max_mem
    return options


class RegexSet:
    """Several patterns in one RE2 pass that names the ones matching somewhere in a text.

    RE2's set answers the same empty list when nothing matched and when its automaton ran out
    of memory. A start-of-text pattern matches every text, so a finished pass always names it:
    `match` returns None for a pass that did not finish, and each caller then falls back to
    assuming every pattern may match. (An empty pattern would do too, but it matches at every
    position, which slows every pass.)"""

    def __init__(self, patterns: Iterable[str | bytes], options: re2.Options = _OPTIONS) -> None:
        self._set = re2.Set.SearchSet(options)
        for p in patterns:
            self._set.Add(p.encode("utf-8") if isinstance(p, str) else p)
        self._sentinel = self._set.Add(rb"\A")
        self._set.Compile()  # raises re2.error when the patterns do not fit in options.max_mem

    def match(self, data: bytes) -> frozenset[int] | None:
        """Indexes (in the order added) of the patterns matching data; None: the pass failed."""
        found = self._set.Match(data) or ()
        if self._sentinel not in found:
            return None
        return frozenset(i for i in found if i != self._sentinel)
