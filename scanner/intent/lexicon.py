"""The words of the instruction model, loaded from data/lexicons/*.yml (one file per language).

Each concept (an action, an object class, a destination, a modality) becomes one RE2 pattern,
the alternation of its entries in every language, matched case-insensitively. A document is
first searched for each attack's rarest concept; only concepts that can complete an attack are
then located (see reading.py).
"""
from __future__ import annotations

import heapq
import re  # only over our own lexicon terms, never over scanned text
import re._parser as sre_parse  # the stdlib's regex syntax parser: only ever sees our own terms
from re._constants import BRANCH, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader parses the lexicons 5x faster

from ..matching import Presence, Regex, rx

# Concepts the model reads; a lexicon may leave any of them empty.
CONCEPTS: tuple[str, ...] = (
    "read", "send", "put", "cred_path", "credential", "env_output", "public", "outside", "hide", "cover", "approve",
    "regardless", "disable", "control", "syscontrol", "obey", "precedence", "override", "authority", "perm",
    "negation", "negation_post", "double_negation", "refuse", "detect", "conditional", "always", "user", "run_ref", "remote_run", "self_ref", "claim", "unchecked", "proxy", "payload", "universal", "unignore",
    "session", "falsify", "unmasked",
)


# Groups of concepts absent from most documents whose patterns combine into a small automaton:
# one search tells that none of a group occurs. (Every concept in one pattern, or in one RE2 set,
# is several times slower than separate passes: the automaton over twelve languages does not stay
# small. Which concepts share a group is measured: override and env_output together cost as much
# as the rest of the rare concepts, so they are in different groups.)
GATE_GROUPS: tuple[tuple[str, ...], ...] = (
    ("perm", "override", "precedence", "claim", "universal"),
    ("proxy", "env_output"),
    ("regardless", "cred_path", "outside", "syscontrol", "cover", "unignore"),
    ("session", "falsify", "unmasked"),
)


# What each group's automaton may keep: the large groups rebuild states over and over below it
# (the "regardless" group: 0.66 s at 4 MB, 0.32 s at 16, 0.22 s at 64 over the benign corpus's
# prose); the small groups never fill it.
_GATE_MEMORY = 16 << 20


# Concepts whose one pattern over every language makes too large an automaton: held as two
# patterns (English, the others), each pass cheaper than the one combined (measured: authority
# 0.25 s combined, 0.05 + 0.09 s split, over the benign corpus's prose).
SPLIT = ("authority",)


class _Split:
    """Several patterns read as one: search/finditer/test over their union, in text order."""

    def __init__(self, pattern: str, parts: list[Regex]) -> None:
        self.pattern = pattern
        self.parts = parts
        # The parts an ASCII text cannot match (every way through them holds a non-ASCII
        # character): skipped over ASCII texts, which are most of them.
        self._ascii_parts = [p for p in parts if not _needs_non_ascii(p.pattern)]

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        found = []
        for p in self._ascii_parts if data.isascii() else self.parts:
            m = p.search(data, pos, endpos)
            if m is not None:
                if m.start() == pos:
                    return m  # no later part can start earlier (min keeps the first of a tie)
                found.append(m)
        return min(found, key=lambda m: m.start()) if found else None

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None):
        return heapq.merge(*(p.finditer(data, pos, endpos) for p in self.parts), key=lambda m: m.start())

    def test(self, text: str) -> bool:
        return any(p.test(text) for p in self.parts)


@dataclass(frozen=True)
class Lexicon:
    languages: tuple[str, ...]
    patterns: dict[str, Regex]  # concept -> pattern over the reading text
    post_negation: Regex | _Split | None  # anchored: a negation right after a verb (ja, ko, tr, en "is not allowed")
    set_concepts: tuple[str, ...]  # concepts that have entries
    gates: tuple[tuple[Presence, tuple[str, ...]], ...]  # (one pass over a GATE_GROUPS group, its concepts)
    fixtures: tuple[dict[str, Any], ...]  # {language, rule, match|clean}


def _entry(term: str, spaced: bool) -> str:
    term = str(term)
    # A word in a spaced language starts a word: "post" is not the end of "compost". CJK and
    # the other scripts RE2's ASCII \b cannot see are matched where they stand. So does a
    # leading group of words ("(?:da|otorga) ..." is not "data ..."): without the boundary
    # every "a " or "da" inside a word opened the entry's gap, the costliest part of its pass.
    if spaced and (term[:1].isascii() and term[:1].isalnum() or _starts_with_words(term)):
        return r"\b" + term
    return term


def _starts_with_words(term: str) -> bool:
    r"""The term opens with a non-optional group whose alternatives all start with an ASCII letter
    or digit: `(?:set|lower) ...`, not `(?:the )?...` or `(?:^|\s)...` (read with the stdlib's
    regex parser, as matching/prefilter.py reads our own patterns)."""
    if not term.startswith("(?:"):
        return False
    try:
        return _opens_with_word(sre_parse.parse(term))  # the parser inlines a plain (?:...) group
    except re.error:
        return False  # RE2-only syntax: left as it is


def _opens_with_word(items) -> bool:
    """Every way the pattern `items` can begin is an ASCII letter or digit."""
    if not len(items):
        return False
    op, arg = items[0]
    if op is LITERAL:
        return chr(arg).isascii() and chr(arg).isalnum()
    if op is IN:  # single-letter alternatives the parser folded into a class
        return all(o is LITERAL and chr(a).isascii() and chr(a).isalnum() for o, a in arg)
    if op is BRANCH:
        return all(_opens_with_word(alt) for alt in arg[1])
    if op is SUBPATTERN:
        return _opens_with_word(arg[3])
    return False


def _needs_non_ascii(pattern: str) -> bool:
    """Every match of the pattern holds a non-ASCII character (read with the stdlib's parser; a
    pattern it cannot read is assumed to match ASCII)."""
    try:
        return _requires_non_ascii(sre_parse.parse(pattern))
    except (re.error, RecursionError):
        return False


# Non-ASCII letters whose case folding reaches an ASCII one under (?i): long s, Kelvin sign, the
# Turkish dotted capital and dotless i.
_FOLDS_TO_ASCII = frozenset({0x17F, 0x212A, 0x130, 0x131})


def _non_ascii(code: int) -> bool:
    return code > 0x7F and code not in _FOLDS_TO_ASCII


def _requires_non_ascii(items) -> bool:
    for op, arg in items:
        if op is LITERAL and _non_ascii(arg):
            return True
        if op is IN and arg and all(o is LITERAL and _non_ascii(a) for o, a in arg):
            return True
        if op is SUBPATTERN and _requires_non_ascii(arg[3]):
            return True
        if op is BRANCH and all(_requires_non_ascii(alt) for alt in arg[1]):
            return True
        if op in (MAX_REPEAT, MIN_REPEAT) and arg[0] >= 1 and _requires_non_ascii(arg[2]):
            return True
    return False


def _files() -> list[tuple[str, str]]:
    root = resources.files("scanner").joinpath("data/lexicons")
    return sorted((p.name, p.read_text("utf-8")) for p in root.iterdir() if p.name.endswith(".yml"))


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    entries: dict[str, list[str]] = {c: [] for c in CONCEPTS}
    languages: list[str] = []
    fixtures: list[dict[str, Any]] = []
    english_entries: dict[str, list[str]] = {}
    post_by_language: dict[str, list[str]] = {}
    joined_post: dict[str, list[str]] = {}
    for name, text in _files():
        raw = yaml.load(text, Loader=_LOADER) or {}
        lang = str(raw.get("language") or name.rsplit(".", 1)[0])
        if lang == "en":
            english_entries = {c: [_entry(t, True) for t in ts or ()] for c, ts in (raw.get("terms") or {}).items()}
        languages.append(lang)
        spaced = bool(raw.get("spaced", True))
        for concept, terms in (raw.get("terms") or {}).items():
            if concept not in entries:
                raise ValueError(f"lexicon {name}: unknown concept {concept!r}")
            for term in terms or ():
                if concept == "negation_post":
                    (joined_post if raw.get("negation_post_joined") else post_by_language).setdefault(lang, []).append(str(term))
                    continue  # (joined: a suffix on the verb itself, Turkish -me/-ma)
                entries[concept].append(_entry(term, spaced))
        for fx in raw.get("fixtures") or ():
            fixtures.append({**fx, "language": lang})
    patterns: dict[str, Regex] = {}
    set_patterns: list[str] = []
    set_concepts: list[str] = []
    for concept, items in entries.items():
        if not items or concept == "negation_post":
            continue
        pattern = "(?i)(?:" + "|".join(f"(?:{e})" for e in items) + ")"
        if concept in SPLIT:
            english = set(english_entries.get(concept, ()))
            parts = [[e for e in items if e in english], [e for e in items if e not in english]]
            patterns[concept] = _Split(pattern, [rx("(?i)(?:" + "|".join(f"(?:{e})" for e in part) + ")")
                                                 for name, part in zip(("en", "other"), parts) if part])
        else:
            patterns[concept] = rx(pattern)
        set_patterns.append(pattern)
        set_concepts.append(concept)
    # A negation after the verb within a few characters of it (ja, ko, en "is not allowed"); one a
    # language writes as a suffix of the verb is looked for in the verb's own word only: Turkish
    # "gönderme" is "don't send", but "send me" and "... cuma" are no negation.
    # One anchored pattern per language: a single one over every language's gapped entries made
    # RE2 build new automaton states for nearly every short tail (independent gap counters of
    # the languages multiply), 100 us a call; apart, each stays small (docs/performance.md).
    post = [r"(?i)^[^.,;:!?。、，；：\n]{0,6}?(?:" + "|".join(f"(?:{e})" for e in terms) + ")" for terms in post_by_language.values()]
    post += [r"(?i)^[^\s.,;:!?。、，；：]{0,6}?(?:" + "|".join(f"(?:{e})" for e in terms) + ")" for terms in joined_post.values()]
    post_rx = _Split("|".join(post), [rx(p) for p in post]) if post else None
    gates = tuple((Presence("(?i)(?:" + "|".join(patterns[c].pattern[len("(?i)"):] for c in group if c in patterns) + ")", _GATE_MEMORY), group)
                  for i, group in enumerate(GATE_GROUPS) if any(c in patterns for c in group))
    return Lexicon(tuple(languages), patterns, post_rx, tuple(set_concepts), gates, tuple(fixtures))


@lru_cache(maxsize=1)
def english_patterns() -> dict[str, Regex]:
    """The English entries alone, per concept: English word-order heuristics (a subject before
    the verb makes a description) are applied only to English verbs."""
    raw = yaml.load(dict(_files())["en.yml"], Loader=_LOADER) or {}
    return {c: rx("(?i)^(?:" + "|".join(f"(?:{_entry(t, True)})" for t in terms) + ")")
            for c, terms in (raw.get("terms") or {}).items() if terms and c != "negation_post"}
