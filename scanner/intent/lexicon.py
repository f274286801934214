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
from re._constants import BRANCH, IN, LITERAL, SUBPATTERN
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader parses the lexicons 5x faster

from ..matching import Regex, rx

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


# Concepts whose one pattern over every language makes too large an automaton: held as two
# patterns (English, the others), each pass cheaper than the one combined (measured: authority
# 0.25 s combined, 0.05 + 0.09 s split, over the benign corpus's prose).
SPLIT = ("authority",)


class _Split:
    """Several patterns read as one: search/finditer/test over their union, in text order."""

    def __init__(self, pattern: str, parts: list[Regex]) -> None:
        self.pattern = pattern
        self.parts = parts

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        found = [m for m in (p.search(data, pos, endpos) for p in self.parts) if m is not None]
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
    gates: tuple[tuple[Regex, tuple[str, ...]], ...]  # (one pass over a GATE_GROUPS group, its concepts)
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


def _files() -> list[tuple[str, str]]:
    root = resources.files("scanner").joinpath("data/lexicons")
    return sorted((p.name, p.read_text("utf-8")) for p in root.iterdir() if p.name.endswith(".yml"))


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    entries: dict[str, list[str]] = {c: [] for c in CONCEPTS}
    languages: list[str] = []
    fixtures: list[dict[str, Any]] = []
    english_entries: dict[str, list[str]] = {}
    joined_post: list[str] = []
    post_by_language: dict[str, list[str]] = {}  # each language's negation_post entries, kept apart (see post_rx)
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
                if concept == "negation_post" and raw.get("negation_post_joined"):
                    joined_post.append(str(term))  # a suffix on the verb itself (Turkish -me/-ma)
                    continue
                entries[concept].append(_entry(term, spaced) if concept != "negation_post" else str(term))
                if concept == "negation_post":
                    post_by_language.setdefault(lang, []).append(str(term))
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
    post = [r"[^.,;:!?。、，；：\n]{0,6}?(?:" + "|".join(f"(?:{e})" for e in entries["negation_post"]) + ")"] if entries["negation_post"] else []
    if joined_post:
        post.append(r"[^\s.,;:!?。、，；：]{0,6}?(?:" + "|".join(f"(?:{e})" for e in joined_post) + ")")
    # One anchored pattern per language, read as their union: the languages' gaps ("[^,;!?]{0,45}?" in German,
    # "{0,25}?" in English, ...) in one automaton multiplied into more states than its budget kept, and each
    # short tail rebuilt them (about 80 us a search over the benign corpus against 1-2 us for the parts).
    parts = [rx(r"(?i)^[^.,;:!?。、，；：\n]{0,6}?(?:" + "|".join(f"(?:{e})" for e in terms) + ")") for _, terms in sorted(post_by_language.items())]
    if joined_post:
        parts.append(rx(r"(?i)^" + post[-1]))
    post_rx = _Split(r"(?i)^(?:" + "|".join(post) + ")", parts) if post else None
    gates = tuple((rx("(?i)(?:" + "|".join(patterns[c].pattern[len("(?i)"):] for c in group if c in patterns) + ")"), group)
                  for i, group in enumerate(GATE_GROUPS) if any(c in patterns for c in group))
    return Lexicon(tuple(languages), patterns, post_rx, tuple(set_concepts), gates, tuple(fixtures))


@lru_cache(maxsize=1)
def english_patterns() -> dict[str, Regex]:
    """The English entries alone, per concept: English word-order heuristics (a subject before
    the verb makes a description) are applied only to English verbs."""
    raw = yaml.load(dict(_files())["en.yml"], Loader=_LOADER) or {}
    return {c: rx("(?i)^(?:" + "|".join(f"(?:{_entry(t, True)})" for t in terms) + ")")
            for c, terms in (raw.get("terms") or {}).items() if terms and c != "negation_post"}
