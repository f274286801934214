"""Look-alike package names (slopsquatting) against a bundled list of popular packages.

The list (scanner/data/popular_packages.json, rebuilt by scripts/refresh_popular_packages.py)
has, per ecosystem, `popular` names that a look-alike imitates and `known` real names that are
never reported themselves. A name is a look-alike when it is not known, keeps a popular name's
first letter and lies within edit distance 2 of it (1 for names shorter than eight characters;
names shorter than five are not judged). Real packages close to each other (numba and numpy)
are both known, so neither is reported.

Distance is optimal-string-alignment (a swap of neighbours is one edit), computed in a band of
width 2k+1 with early exit, over names capped at MAX_NAME characters: bounded time per pair.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
import os

DATA_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "popular_packages.json")
MAX_NAME = 64
MAX_DISTANCE = 2
MIN_LENGTH = 5  # shorter names (and targets) sit one edit from too many real packages to say anything
LONG_NAME = 8  # distance 2 only between names this long; shorter ones must be one edit apart

_PEP503 = re.compile(r"[-_.]+")  # runs over a name already capped at MAX_NAME characters


def normalize(name: str, ecosystem: str) -> str:
    name = name.strip().lower()[:MAX_NAME]
    return _PEP503.sub("-", name) if ecosystem == "pypi" else name


@dataclass(frozen=True)
class Lists:
    popular: dict[str, tuple[str, ...]]  # ecosystem -> names, most downloaded first
    known: dict[str, frozenset[str]]  # ecosystem -> every real name (popular included)
    by_length: dict[str, dict[int, tuple[str, ...]]]  # ecosystem -> length -> popular names
    sources: dict


@lru_cache(maxsize=1)
def lists() -> Lists:
    with open(DATA_FILE, encoding="utf-8") as fh:
        raw = json.load(fh)
    popular, known, by_length = {}, {}, {}
    for eco in ("pypi", "npm"):
        pop = tuple(raw[eco]["popular"])
        popular[eco] = pop
        known[eco] = frozenset(pop) | frozenset(raw[eco]["known"])
        buckets: dict[int, list[str]] = {}
        for n in pop:
            buckets.setdefault(len(n), []).append(n)
        by_length[eco] = {k: tuple(v) for k, v in buckets.items()}
    return Lists(popular, known, by_length, raw.get("sources", {}))


@lru_cache(maxsize=None)
def _buckets(ecosystem: str, length: int) -> dict[str, tuple[tuple[str, frozenset[str]], ...]]:
    """Popular names of one length by first letter, with their character sets, built on first
    use: an imitation keeps the first letter (_imitates), so no other name can be the answer."""
    out: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for n in lists().by_length[ecosystem].get(length, ()):
        out.setdefault(n[:1], []).append((n, frozenset(n)))
    return {k: tuple(v) for k, v in out.items()}


def preload() -> None:
    """The lists and every bucket, built now: a scan that forks workers builds them before the
    fork, so the workers share them instead of building their own."""
    data = lists()
    for eco, by_length in data.by_length.items():
        for length in by_length:
            _buckets(eco, length)


def _bucket(ecosystem: str, length: int, first: str) -> tuple[tuple[str, frozenset[str]], ...]:
    return _buckets(ecosystem, length).get(first, ())


def osa_distance(a: str, b: str, limit: int = MAX_DISTANCE) -> int:
    """Optimal string alignment distance, or limit+1 as soon as it must exceed `limit`."""
    a, b = a[:MAX_NAME], b[:MAX_NAME]
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    if a == b:
        return 0
    big = limit + 1
    n, m = len(a), len(b)
    prev2: list[int] | None = None
    prev = [j if j <= limit else big for j in range(m + 1)]
    for i in range(1, n + 1):
        lo, hi = max(1, i - limit), min(m, i + limit)
        cur = [big] * (m + 1)
        cur[0] = i if i <= limit else big
        best = cur[0]
        ai = a[i - 1]
        for j in range(lo, hi + 1):
            cost = 0 if ai == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and ai == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v if v <= limit else big
            if cur[j] < best:
                best = cur[j]
        if best > limit:
            return big
        prev2, prev = prev, cur
    return prev[m] if prev[m] <= limit else big


@dataclass(frozen=True)
class LookAlike:
    name: str
    ecosystem: str
    target: str
    distance: int


def allowed_distance(name: str) -> int:
    return MAX_DISTANCE if len(name) >= LONG_NAME else 1


def _imitates(name: str, target: str, distance: int) -> bool:
    """Shapes of imitation, not mere closeness: the first letter kept (typosquats keep it so the
    name reads right at a glance), and at distance 2 not just a longer or shorter name
    (`matchms` is its own project, not a typo of `match`)."""
    if name[0] != target[0]:
        return False
    if distance == 2 and (name.startswith(target) or target.startswith(name) or name.endswith(target) or target.endswith(name)):
        return False
    return True


@lru_cache(maxsize=4096)
def look_alike(raw_name: str, ecosystems: tuple[str, ...] = ("pypi", "npm")) -> LookAlike | None:
    """The popular package `raw_name` imitates, or None (known, too short, or nothing close)."""
    data = lists()
    names = {eco: normalize(raw_name, eco) for eco in ecosystems}
    # A name real in any ecosystem asked about is not reported: it is somebody's package.
    if any(names[eco] in data.known[eco] for eco in ecosystems):
        return None
    best: LookAlike | None = None
    for eco in ecosystems:
        name = names[eco]
        if len(name) < MIN_LENGTH or len(name) >= MAX_NAME:
            continue
        limit = allowed_distance(name)
        chars = frozenset(name)
        for length in range(max(len(name) - limit, MIN_LENGTH), len(name) + limit + 1):
            for target, target_chars in _bucket(eco, length, name[0]):
                # One edit changes at most two members of the character set.
                if len(chars ^ target_chars) > 2 * limit:
                    continue
                d = osa_distance(name, target, limit)
                if d <= limit and _imitates(name, target, d) and (best is None or d < best.distance):
                    best = LookAlike(name, eco, target, d)
                    if d == 1:
                        return best
    return best
