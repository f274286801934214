"""Required literals of a pattern: one shared pass tells which RE2 passes can be skipped.

Most rule patterns cannot match a document that lacks every one of a few words ("ignore",
"curl", "base64"). `required_literals` derives such a set from the pattern's syntax tree:
every match of the pattern contains at least one of the returned strings. `LiteralIndex`
puts the literals of every pattern into one RE2 set, so a single linear pass over a
document says which literals occur, and each pattern none of whose literals occur is not
run at all. (A per-pattern `bytes in bytes` test was tried first: with twenty literals it
cost as much as the RE2 pass it meant to save.)

Soundness over reach: whatever the analysis does not understand yields None (no filter,
the pattern always runs). The pattern is parsed with Python's own regex parser; RE2-only
syntax such as `\\pL` fails that parse and simply goes unfiltered.
"""
from __future__ import annotations

from typing import Iterable

try:  # Python 3.11+
    from re import _constants as _c, _parser as _p
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

MIN_LITERAL = 3  # shorter literals occur in nearly every text: not worth a test
MAX_LITERALS = 64  # a bigger alternation is rarely selective enough to pay for its place

Literals = frozenset[str]


def required_literals(pattern: str) -> tuple[frozenset[str], bool] | None:
    """(literals, case-insensitive?) such that every match holds one literal; None if unknown."""
    if "[:" in pattern:  # POSIX classes: RE2 syntax that Python reads as a class plus literals
        return None
    try:
        parsed = _p.parse(pattern)
    except Exception:  # noqa: BLE001 - RE2 syntax Python's parser rejects: no filter
        return None
    fold = bool(parsed.state.flags & _c.SRE_FLAG_IGNORECASE) or _has_local_ignorecase(parsed)
    try:
        found = _sequence(list(parsed))
    except RecursionError:
        return None
    if not found or min(map(len, found)) < MIN_LITERAL or len(found) > MAX_LITERALS:
        return None
    return frozenset(found), fold


def _has_local_ignorecase(items: Iterable) -> bool:
    for op, av in items:
        if op is _c.SUBPATTERN:
            if av[1] & _c.SRE_FLAG_IGNORECASE or _has_local_ignorecase(av[3]):
                return True
        elif op is _c.BRANCH:
            if any(_has_local_ignorecase(alt) for alt in av[1]):
                return True
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and _has_local_ignorecase(av[2]):
            return True
    return False


def _better(a: Literals | None, b: Literals | None) -> Literals | None:
    """The more selective of two requirements: longer shortest literal, then fewer literals."""
    if not b:
        return a
    if not a:
        return b
    return b if (min(map(len, b)), -len(b)) > (min(map(len, a)), -len(a)) else a


def _sequence(items: list) -> Literals | None:
    best: Literals | None = None
    run: list[str] = []
    for op, av in items:
        if op is _c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            best = _better(best, frozenset(["".join(run)]))
            run = []
        best = _better(best, _item(op, av))
    if run:
        best = _better(best, frozenset(["".join(run)]))
    return best


def _item(op, av) -> Literals | None:
    if op is _c.SUBPATTERN:
        return _sequence(list(av[3]))
    if op is _c.BRANCH:
        union: set[str] = set()
        for alt in av[1]:
            req = _sequence(list(alt))
            if not req:
                return None  # one alternative without a requirement: the branch has none
            union |= req
            if len(union) > MAX_LITERALS:
                return None
        return frozenset(union)
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        low, _high, sub = av
        return _sequence(list(sub)) if low >= 1 else None
    return None  # classes, anchors, any-char, categories: no literal, and they end a run



class LiteralIndex:
    """The literals of many patterns in one RE2 set: which of them does a text contain?"""

    def __init__(self, needs: list[tuple[frozenset[str], bool]]) -> None:
        import re2

        options = re2.Options()
        options.max_mem = 32 << 20
        self._set = re2.Set.SearchSet(options)
        ids: dict[tuple[str, bool], int] = {}
        self.ids_per_pattern: list[frozenset[int]] = []
        for literals, fold in needs:
            mine = set()
            for literal in literals:
                key = (literal, fold)
                if key not in ids:
                    # RE2 matches each literal itself, so its case folding is RE2's own.
                    ids[key] = self._set.Add(("(?i)" if fold else "") + re2.escape(literal))
                mine.add(ids[key])
            self.ids_per_pattern.append(frozenset(mine))
        # An always-matching member: if RE2 ever gives up (memory), its absence says so.
        self._sentinel = self._set.Add("")
        self._set.Compile()

    def present(self, data: bytes) -> frozenset[int] | None:
        """Ids of the literals found in data; None when the set could not run (then run everything)."""
        found = self._set.Match(data)
        return frozenset(found) if self._sentinel in found else None
