"""One RE2 pass per family of rule patterns: which of them can match a document at all.

Most documents match none of a family's patterns (override phrasing, fake system blocks,
piped installers): one RE2 set over the text answers for all of them at once, and only the
patterns it names run their own pass. A set reports every pattern that matches anywhere in
the text, so a skipped pass is one that would have found nothing: findings stay identical.

This complements the word prefilter (scanner/prefilter.py): phrasing patterns with long word
lists (override verbs, secret names, sinks) have no short word condition, so the prefilter runs
them everywhere, while a set decides them exactly. Measured as pairs of one-process scans of
the benign corpus run side by side (this machine is shared and noisy), the families save 0.6 to
1.4 s of CPU over the word prefilter alone. A set of every module's patterns at once is slower
than separate passes (its automaton grows too large), so each module keeps its own family, of
the patterns that run over every file.

A set pass that did not finish (RE2 out of memory; matching.RegexSet tells it from an empty
answer) lets every pattern run, as it would without the gate.
"""
from __future__ import annotations

from typing import Iterator

import re2

from ..document import Document, Match
from ..matching import Regex, RegexSet

# A set's automaton states are built as texts need them and kept up to this budget, in every
# process. Over the benign corpus in one process, the three families' sets at the 64 MB single
# patterns get grew the peak by 30 MB; at 16 MB by 22 MB at the same speed; at 8 MB by 12 MB, but
# the automaton was rebuilt so often that the scan took 2 s more.
_SET_OPTIONS = re2.Options()
_SET_OPTIONS.max_mem = 16 << 20


class Family:
    """Patterns a group of rules runs over whole documents, gated by one shared set pass."""

    def __init__(self, name: str, *regexes: Regex, normalized: bool = True) -> None:
        self.name = name
        self.normalized = normalized
        self.regexes = regexes
        self._index = {id(r): i for i, r in enumerate(regexes)}
        self._set = RegexSet((r.pattern for r in regexes), _SET_OPTIONS)
        self._all = frozenset(range(len(regexes)))
        self._key = f"gate:{name}:{id(self)}"

    def present(self, doc: Document) -> frozenset[int]:
        """Indexes of the family's patterns that match somewhere in the document (one pass, cached)."""
        store = doc.__dict__.setdefault("_rule_views", {})
        found = store.get(self._key)
        if found is None:
            data = doc.normalized_bytes if self.normalized else doc.raw_bytes
            matched = self._set.match(data)
            found = self._all if matched is None else matched  # a failed pass: every pattern runs
            store[self._key] = found
        return found

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
