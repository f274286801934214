"""Skip a pattern over a document that lacks the words every one of its matches contains.

Each rule pattern is a full RE2 pass over a document, and most patterns
never match a benign file. From a pattern's syntax tree this module derives a necessary
condition on literal words ("atoms"), the way RE2's FilteredRE2 does: `\\bignore\\s+(?:all|any)
\\s+previous\\s+instructions` cannot match a text without "ignore", "previous" and "instructions".
One RE2 set of every pattern's atoms then runs over a document once, and a pattern whose
condition fails there is not run at all: its result is known to be empty.

Soundness is what matters (a wrong condition would hide a finding), so the derivation is
conservative: anything it does not fully understand (RE2-only syntax, classes of more than a few
characters, POSIX classes) counts as "any text", and a pattern it cannot parse is always run.
Atoms are matched without case by RE2 itself, so they over-approximate case-sensitive patterns and
fold non-ASCII letters exactly as a `(?i)` pattern does (kept as written: Python's lower() and
RE2's folding differ beyond ASCII).
If the set's pass does not finish (matching.RegexSet tells), every pattern runs. tests/test_prefilter.py checks the conditions on random texts
generated from each pattern.
"""
from __future__ import annotations

import re  # only over our own patterns' source
import re._parser as sre_parse  # the stdlib's regex syntax parser: only ever sees our own patterns
from re._constants import AT, BRANCH, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, RANGE, SUBPATTERN
from pathlib import Path
from typing import Iterable, Union

import re2

from .. import matching
from . import RegexSet, saved

MIN_ATOM = 3  # shorter words are in nearly every text: no use as a condition
MIN_WIDE_BYTES = 3  # an atom holding a non-ASCII letter, in UTF-8 bytes: one CJK letter, two Cyrillic ones
MAX_EXACT = 16  # alternatives tracked as exact strings before they become an OR of atoms
MAX_CLASS = 4  # a character class of more characters counts as "any character"
MAX_ATOMS = 12  # a condition needing more words is dropped: big word lists rarely filter anything

SAVED_PATH = saved.DATA / "prefilter_conditions.json"

# A condition: None (any text), ("atoms", frozenset of words: at least one present), or
# ("and" | "or", tuple of conditions). Index turns the words into atom ids.
Condition = Union[None, tuple]


class _Info:
    """What a piece of a pattern requires: a small set of exact strings, or a condition."""

    __slots__ = ("exact", "cond")

    def __init__(self, exact: set[str] | None = None, cond=None) -> None:
        self.exact = exact
        self.cond = cond


def _any() -> _Info:
    return _Info(None, None)


def _as_cond(info: _Info):
    """The condition of an info: an OR of its exact strings when they are all long enough."""
    if info.exact is None:
        return info.cond
    strings = _minimal(info.exact)
    if not strings or any((len(s) < MIN_ATOM if s.isascii() else len(s.encode('utf-8')) < MIN_WIDE_BYTES) for s in strings):
        return None
    return ("atoms", frozenset(strings))


def _minimal(strings: set[str]) -> set[str]:
    """Drop strings that contain another one: "ignores" requires "ignore" anyway."""
    ordered = sorted(strings, key=len)
    kept: list[str] = []
    for s in ordered:
        if not any(k in s for k in kept):
            kept.append(s)
    return set(kept)


def _and(parts: Iterable) -> object:
    items = list(dict.fromkeys(p for p in parts if p is not None))
    if not items:
        return None
    return items[0] if len(items) == 1 else ("and", tuple(items))


def _or(parts: Iterable) -> object:
    items = list(parts)
    if not items or any(p is None for p in items):
        return None
    words = frozenset().union(*(p[1] for p in items if p[0] == "atoms"))
    items = [p for p in items if p[0] != "atoms"] + ([("atoms", words)] if words else [])
    return items[0] if len(items) == 1 else ("or", tuple(items))


def _alternate(infos: list[_Info]) -> _Info:
    if all(i.exact is not None for i in infos):
        union = set().union(*(i.exact for i in infos))
        if len(union) <= MAX_EXACT:
            return _Info(union)
        return _Info(None, _as_cond(_Info(union)))
    return _Info(None, _or(_as_cond(i) for i in infos))


def _char(code: int) -> _Info:
    ch = chr(code)
    # Beyond ASCII the letter is kept as written: the atoms' RE2 set folds it as the pattern does.
    return _Info({ch.lower() if ch.isascii() else ch})


def _folded(ch: str) -> str:
    return ch.lower() if ch.isascii() else ch


def _klass(items) -> _Info:
    chars: set[str] = set()
    for op, arg in items:
        if op is LITERAL:
            chars.add(_folded(chr(arg)))
        elif op is RANGE and arg[1] - arg[0] < MAX_CLASS:
            chars.update(_folded(chr(c)) for c in range(arg[0], arg[1] + 1))
        else:  # NEGATE, CATEGORY (\s, \w, \d) or a wide range
            return _any()
        if len(chars) > MAX_CLASS:
            return _any()
    return _Info(chars) if chars else _any()


def _sequence(items) -> _Info:
    """A concatenation: exact strings grow while they stay few; what cannot grow becomes a
    condition, and the exact run starts again after it (so `a\\s+(?:ll|ny)` still yields
    nothing but `ignore\\s+previous` yields both words)."""
    done: list = []  # conditions of finished parts, all required
    run: set[str] = {""}  # the exact strings of the current run of literals
    flushed = False
    for op, arg in items:
        if op in (MAX_REPEAT, MIN_REPEAT) and arg[0] >= 1:
            # x{1,} and x{2,5} start with one x here, and what follows is unknown.
            inner = _sequence(arg[2])
            if inner.exact is not None and len(run) * len(inner.exact) <= MAX_EXACT:
                done.append(_as_cond(_Info({x + y for x in run for y in inner.exact})))
            else:
                done.extend((_as_cond(_Info(run)), _as_cond(inner)))
            run, flushed = {""}, True
            continue
        item = _node(op, arg)
        if item.exact is not None and len(run) * len(item.exact) <= MAX_EXACT:
            run = {x + y for x in run for y in item.exact}
            continue
        flushed = True
        done.append(_as_cond(_Info(run)))
        if item.exact is not None:
            run = set(item.exact)
        else:
            done.append(item.cond)
            run = {""}
    if not flushed:
        return _Info(run)
    done.append(_as_cond(_Info(run)))
    return _Info(None, _and(done))


def _node(op, arg) -> _Info:
    if op is LITERAL:
        return _char(arg)
    if op is AT:
        return _Info({""})  # \b, ^, $: zero width
    if op is SUBPATTERN:
        return _sequence(arg[-1])
    if op is BRANCH:
        return _alternate([_sequence(branch) for branch in arg[1]])
    if op is IN:
        return _klass(arg)
    if op in (MAX_REPEAT, MIN_REPEAT):
        low, high, child = arg
        inner = _sequence(child)
        if low == 0:
            if high == 1 and inner.exact is not None:  # x? is x or nothing
                return _Info(inner.exact | {""})
            return _any()
        return _Info(None, _as_cond(inner))  # present at least once
    return _any()  # ., \\s, [^x] and the like: no literal requirement


_POSIX_CLASS = re.compile(r"\[:\^?[a-z]+:\]")


def condition(pattern: str):
    """The atom condition a pattern's matches satisfy, in atom strings; None when unknown."""
    if _POSIX_CLASS.search(pattern) or "\\Q" in pattern:
        return None  # POSIX classes and quoting parse differently outside RE2
    try:
        tree = sre_parse.parse(pattern)
    except Exception:  # RE2-only syntax (\\x{...}, \\p{...}, \\z): run the pattern always
        return None
    return _as_cond(_sequence(list(tree)))


class Index:
    """The atoms of many patterns in one RE2 set: which patterns can match a text, in one pass."""

    def __init__(self, patterns: Iterable[str], max_mem: int = 64 << 20, saved: dict | None = None,
                 max_atoms: int = MAX_ATOMS) -> None:
        saved = saved or {}
        words = {p: _narrow(saved[p] if p in saved else condition(p)) for p in set(patterns)}
        words = {p: (c if len(_words(c)) <= max_atoms else None) for p, c in words.items()}
        atoms = sorted({w for c in words.values() for w in _words(c)})
        self._ids = {w: i for i, w in enumerate(atoms)}
        options = re2.Options()
        options.case_sensitive = False
        options.max_mem = max_mem
        try:
            self._set: RegexSet | None = RegexSet((_literal(a) for a in atoms), options)
        except re2.error:
            self._set = None  # too big for max_mem: every pattern runs, as without an index
        self.conditions = {p: self._to_ids(c) for p, c in words.items()}

    def present(self, data: bytes) -> frozenset[int] | None:
        """Ids of the atoms in data; None when the set could not finish (then assume all)."""
        return None if self._set is None else self._set.match(data)

    def _to_ids(self, cond):
        if cond is None:
            return None
        if cond[0] == "atoms":
            return frozenset(self._ids[w] for w in cond[1])
        return (cond[0], tuple(self._to_ids(c) for c in cond[1]))


def _literal(atom: str) -> bytes:
    """An atom as an RE2 literal: ASCII punctuation escaped by its code, letters as written (an
    escaped non-ASCII byte would no longer fold with its letter)."""
    return "".join(c if c.isalnum() or not c.isascii() else f"\\x{ord(c):02x}" for c in atom).encode("utf-8")


def holds(cond, present: frozenset[int]) -> bool:
    """Whether a condition (in atom ids) is met by the atoms present."""
    if cond is None:
        return True
    if type(cond) is frozenset:
        return not cond.isdisjoint(present)
    if cond[0] == "and":
        return all(holds(c, present) for c in cond[1])
    return any(holds(c, present) for c in cond[1])


def _narrow(cond):
    """Keep one group of each AND: every atom costs the set time on every text, and one rare
    group (the one whose shortest word is longest) filters almost as well as all of them."""
    if cond is None or cond[0] == "atoms":
        return cond
    parts = [_narrow(c) for c in cond[1]]
    if cond[0] == "or":
        return _or(parts)
    return max(parts, key=_rarity)


def _rarity(cond) -> int:
    if cond[0] == "atoms":
        return min(len(w) for w in cond[1])
    if cond[0] == "or":
        return min(_rarity(c) for c in cond[1])
    return max(_rarity(c) for c in cond[1])


def _words(cond) -> set[str]:
    if cond is None:
        return set()
    if cond[0] == "atoms":
        return set(cond[1])
    return set().union(*(_words(c) for c in cond[1]))


# Deriving the conditions of every rule pattern would cost every start, all of it before a big
# scan forks its workers: they are saved with the package (see saved.py).
def saved_conditions(path: Path = SAVED_PATH) -> dict:
    """{pattern: condition} saved for this derivation; {} when absent, unreadable or stale."""
    return saved.load(path, __file__, _from_json)


def save_conditions(patterns: Iterable[str], path: Path = SAVED_PATH) -> int:
    return saved.save(path, __file__, {p: _to_json(condition(p)) for p in set(patterns)})


def _to_json(cond):
    if cond is None:
        return None
    if cond[0] == "atoms":
        return ["atoms", sorted(cond[1])]
    return [cond[0], [_to_json(c) for c in cond[1]]]


def _from_json(item):
    if item is None:
        return None
    op, parts = item
    if op == "atoms":
        return ("atoms", frozenset(parts))
    if op not in ("and", "or"):
        raise ValueError(f"unknown condition {op!r}")
    return (op, tuple(_from_json(c) for c in parts))


_prefilter_built = False


def ensure_prefilter() -> None:
    """Build the word prefilter once per process (a few hundredths of a second from the saved
    conditions, more for patterns they lack), which pays off over a scan of many files, not over
    a pull request of three: the native engine asks for it only for big scans, before forking
    its workers."""
    global _prefilter_built
    if not _prefilter_built:
        build_prefilter()
        _prefilter_built = True


def build_prefilter() -> None:
    """Index the atoms of every pattern compiled so far; Document then skips a pattern over a
    text that lacks its words. Patterns compiled later are simply always run."""
    regexes = list(matching._REGISTRY)
    index = Index((r.pattern for r in regexes), saved=saved_conditions())
    for r in regexes:
        cond = index.conditions[r.pattern]
        r.prefilter = None if cond is None else (index, cond)
