"""Linear-time matching of hostile text: every rule pattern is compiled by RE2.

RE2 guarantees time linear in the input whatever the pattern, so an attacker cannot make a
rule backtrack. Patterns run over UTF-8 bytes of a document, encoded once per document
(google-re2 would otherwise re-encode the whole text for every call).
"""
from __future__ import annotations

from typing import Iterator

import re2

from .prefilter import LiteralIndex, required_literals

_OPTIONS = re2.Options()
_OPTIONS.max_mem = 64 << 20
PREFILTER_MIN_BYTES = 2048  # below this one RE2 pass is as cheap as the literal-set pass


class Regex:
    """A compiled RE2 pattern over UTF-8 bytes."""

    __slots__ = ("pattern", "_re", "_needs", "_ids")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._needs = required_literals(pattern)
        self._ids: frozenset[int] | None = None  # this pattern's literals in the shared index
        try:
            self._re = re2.compile(pattern.encode("utf-8"), _OPTIONS)
        except re2.error as exc:  # a rule author's mistake: fail loudly at load time
            raise ValueError(f"pattern does not compile under RE2: {pattern!r}: {exc}") from exc

    def may_match(self, data) -> bool:
        """False only when data lacks every literal a match needs (see scanner/prefilter.py)."""
        if self._needs is None or len(data) < PREFILTER_MIN_BYTES or not isinstance(data, bytes):
            return True
        present = _literals_in(data)
        if present is None:
            return True
        if self._ids is None:
            _index()  # this pattern was compiled after the index was built
        return not self._ids.isdisjoint(present)

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        if not self.may_match(data):
            return None
        if endpos is None:
            return self._re.search(data, pos)
        return self._re.search(data, pos, endpos)

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None) -> Iterator:
        if not self.may_match(data):
            return iter(())
        if endpos is None:
            return self._re.finditer(data, pos)
        return self._re.finditer(data, pos, endpos)

    def test(self, text: str) -> bool:
        """Convenience for short strings (fixtures, excerpts): any match?"""
        return self._re.search(text.encode("utf-8", "surrogatepass")) is not None

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


# Every pattern the scanner compiled: the shared literal index covers them all, and a test
# proves each one's prefilter sound (tests/test_prefilter.py).
COMPILED: list[Regex] = []
_state: dict = {"index": None, "size": 0, "recent": {}}


def rx(pattern: str) -> Regex:
    compiled = Regex(pattern)
    COMPILED.append(compiled)
    return compiled


def _index() -> LiteralIndex:
    if _state["index"] is None or _state["size"] != len(COMPILED):
        filtered = [r for r in COMPILED if r._needs is not None]
        index = LiteralIndex([r._needs for r in filtered])
        for r, ids in zip(filtered, index.ids_per_pattern):
            r._ids = ids
        _state.update(index=index, size=len(COMPILED), recent={})
    return _state["index"]


def _literals_in(data: bytes) -> frozenset[int] | None:
    """Literal ids present in data, remembered for the few texts being scanned right now."""
    recent = _state["recent"]
    hit = recent.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    index = _index()
    recent = _state["recent"]
    if len(recent) >= 8:
        recent.clear()
    present = index.present(data)
    recent[id(data)] = (data, present)  # holding data keeps its id from being reused
    return present
