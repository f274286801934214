"""One RE2 pass per family of rule patterns: which of them can match a document at all.

Most documents match none of a family's patterns (override phrasing, fake system blocks,
piped installers): one RE2 set over the text answers for all of them at once, and only the
patterns it names run their own pass. A set reports every pattern that matches anywhere in
the text, so a skipped pass is one that would have found nothing: findings stay identical.

This complements the word prefilter (scanner/matching/prefilter.py): phrasing patterns with long word
lists (override verbs, secret names, sinks) have no short word condition, so the prefilter runs
them everywhere, while a set decides them exactly, and the families save CPU over the word
prefilter alone (docs/performance.md). A set of every module's patterns at once is slower
than separate passes (its automaton grows too large), so each module keeps its own family, of
the patterns that run over every file.

The set holds each pattern's relaxed form (scanner/matching/relax.py), a superset that is much cheaper
for RE2 to build an automaton for: bounded repeats widened, and read as Latin-1 bytes where that
is provably a superset of UTF-8 matching. It halves what the families' first passes cost each
process, and names the same documents for each pattern. A pattern relax.py cannot translate to
Latin-1 sits in a second, UTF-8 set.

A set pass that did not finish (RE2 out of memory; matching.RegexSet tells it from an empty
answer) lets every pattern run, as it would without the gate.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

import re2

from . import Regex, RegexSet
from .relax import relaxed_saved

if TYPE_CHECKING:  # documents come from above: this module only reads their bytes
    from ..document import Document, Match

# A set's automaton states are built as texts need them and kept up to this budget, in every
# process: smaller than a single pattern's, since a larger one only grows the peak memory at the
# same speed, while a much smaller one makes RE2 rebuild the automaton over and over (figures:
# docs/performance.md).
def _set_options(encoding: re2.Options.Encoding) -> re2.Options:
    options = re2.Options()
    options.max_mem = 16 << 20
    options.encoding = encoding
    return options


_SET_OPTIONS = _set_options(re2.Options.Encoding.UTF8)
_LATIN1_OPTIONS = _set_options(re2.Options.Encoding.LATIN1)


class Family:
    """Patterns a group of rules runs over whole documents, gated by one shared set pass."""

    def __init__(self, name: str, *regexes: Regex, normalized: bool = True) -> None:
        self.name = name
        self.normalized = normalized
        self.regexes = regexes
        self._index = {id(r): i for i, r in enumerate(regexes)}
        # Each pattern's gate is its relaxed form (relax.py): a Latin-1 one where the translation
        # is sound, else a UTF-8 one with its repeats widened, else the pattern itself.
        latin1: list[tuple[int, bytes]] = []
        utf8: list[tuple[int, bytes]] = []
        for i, r in enumerate(regexes):
            gate = relaxed_saved(r.pattern, latin1=True)
            if gate is not None:
                latin1.append((i, gate.encode("latin-1")))
            else:
                utf8.append((i, (relaxed_saved(r.pattern, latin1=False) or r.pattern).encode("utf-8")))
        self._set = RegexSet((p for _, p in latin1), _LATIN1_OPTIONS) if latin1 else None
        self._latin1_ids = tuple(i for i, _ in latin1)
        self._utf8_set = RegexSet((p for _, p in utf8), _SET_OPTIONS) if utf8 else None
        self._utf8_ids = tuple(i for i, _ in utf8)
        self._all = frozenset(range(len(regexes)))
        self._key = f"gate:{name}:{id(self)}"
        # Registered with each pattern, so Document.finditer/search/may_match consult this
        # family's set pass before the pattern's own (a pattern keeps its first family).
        for r in regexes:
            if r.gate is None:
                r.gate = self

    def present(self, doc: Document) -> frozenset[int]:
        """Indexes of the family's patterns that match somewhere in the document (one pass, cached)."""
        return doc.memo(self._key, lambda: self.scan(doc.normalized_bytes if self.normalized else doc.raw_bytes))

    def scan(self, data: bytes) -> frozenset[int]:
        """Indexes of the patterns whose gates match data; all of them if a pass did not finish."""
        found: set[int] = set()
        for regex_set, ids in ((self._set, self._latin1_ids), (self._utf8_set, self._utf8_ids)):
            if regex_set is None:
                continue
            matched = regex_set.match(data)
            if matched is None:
                return self._all  # a failed pass: every pattern runs
            found.update(ids[i] for i in matched)
        return frozenset(found)

    def indexes(self, *regexes: Regex) -> frozenset[int]:
        """The family indexes of some of its patterns, to test against present()."""
        return frozenset(self._index[id(r)] for r in regexes)

    def may_match(self, doc: Document, regex: Regex) -> bool:
        return self._index[id(regex)] in self.present(doc)

    def finditer(self, doc: Document, regex: Regex, limit: int = 200) -> Iterator[Match]:
        if not self.may_match(doc, regex):
            return iter(())
        return doc.finditer(regex, normalized=self.normalized, limit=limit)

    def search(self, doc: Document, regex: Regex) -> Match | None:
        if not self.may_match(doc, regex):
            return None
        return doc.search(regex, normalized=self.normalized)
