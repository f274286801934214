"""Linear-time matching of hostile text: every rule pattern is compiled by RE2.

RE2 guarantees time linear in the input whatever the pattern, so an attacker cannot make a
rule backtrack. Patterns run over UTF-8 bytes of a document, encoded once per document
(google-re2 would otherwise re-encode the whole text for every call).
"""
from __future__ import annotations

from typing import Iterator

import re2

_OPTIONS = re2.Options()
_OPTIONS.max_mem = 64 << 20


class Regex:
    """A compiled RE2 pattern over UTF-8 bytes."""

    __slots__ = ("pattern", "_re")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        try:
            self._re = re2.compile(pattern.encode("utf-8"), _OPTIONS)
        except re2.error as exc:  # a rule author's mistake: fail loudly at load time
            raise ValueError(f"pattern does not compile under RE2: {pattern!r}: {exc}") from exc

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        if endpos is None:
            return self._re.search(data, pos)
        return self._re.search(data, pos, endpos)

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None) -> Iterator:
        if endpos is None:
            return self._re.finditer(data, pos)
        return self._re.finditer(data, pos, endpos)

    def test(self, text: str) -> bool:
        """Convenience for short strings (fixtures, excerpts): any match?"""
        return self._re.search(text.encode("utf-8", "surrogatepass")) is not None

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


def rx(pattern: str) -> Regex:
    return Regex(pattern)
