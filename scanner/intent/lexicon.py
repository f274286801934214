"""The words of the instruction model, loaded from data/lexicons/*.yml (one file per language).

Each concept (an action, an object class, a destination, a modality) becomes one RE2 pattern,
the alternation of its entries in every language, matched case-insensitively. A document is
first searched for each attack's rarest concept; only concepts that can complete an attack are
then located (see reading.py).
"""
from __future__ import annotations

import heapq
import json
import re  # only over our own lexicon terms, never over scanned text
import re._parser as sre_parse  # the stdlib's regex syntax parser: only ever sees our own terms
from re._constants import BRANCH, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..matching import Regex, rx
from ..matching import prefilter
from ..packaged import parse_yaml

# Concepts the model reads; a lexicon may leave any of them empty.
CONCEPTS: tuple[str, ...] = (
    "read", "send", "put", "cred_path", "credential", "env_output", "public", "outside", "hide", "cover", "approve",
    "regardless", "disable", "control", "syscontrol", "obey", "precedence", "override", "authority", "perm",
    "negation", "negation_post", "double_negation", "refuse", "detect", "conditional", "always", "user", "run_ref", "remote_run", "self_ref", "claim", "unchecked", "proxy", "payload", "universal", "unignore",
    "session", "falsify", "unmasked",
)


# Concepts whose one pattern is costly enough to search in two parts (see ConceptPattern): the
# authority concept, the alternation of many gapped phrases, took 1.3 s of a 14 s scan; every other
# concept's pass over the benign corpus's prose takes 0.15 s or less, and a second part would only
# add an automaton.
TIERED = ("authority",)



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


class ConceptPattern:
    """A concept's entries as one pattern, searched in parts where that is cheaper: the entries
    whose words few texts hold, each a part of its own searched only in a text holding one of its
    words (atom ids of ConceptWords), and the others (`common`) in one part. The rare entries made
    a concept's costliest automaton (the authority concept's took 1.3 s of a 14 s scan) and their
    words are missing from nearly every text; alone, each is a small automaton.

    The answers are the whole pattern's: a part a text cannot match (its words, or the non-ASCII
    letters it needs, are absent) changes no match of the whole, and the leftmost of the live
    parts' matches is the whole pattern's (the alternatives that match there are all of one part);
    only a tie at the same start asks the whole pattern, compiled then."""

    def __init__(self, entries: list[str], rare: dict[str, frozenset[int]]) -> None:
        self.pattern = _union(entries)
        common = [e for e in entries if e not in rare]
        self.common = rx(_union(common)) if common else None
        # The union needs a non-ASCII letter only if every entry does: asked entry by entry, it
        # stops at the first entry written in ASCII (parsing the whole union took 0.3 s of start-up).
        self._common_ascii = bool(common) and not all(not e.isascii() and _needs_non_ascii(e) for e in common)
        self._by_atom: dict[int, list[Regex]] = {}
        for e in entries:
            if e in rare:
                part = rx(_union([e]))
                for atom in rare[e]:
                    self._by_atom.setdefault(atom, []).append(part)
        self._whole: Regex | None = None
        self._last: tuple[frozenset[int] | None, bool, list[Regex]] | None = None

    def parts(self, data: bytes, present: frozenset[int] | None) -> list[Regex]:
        """The parts that may match data, given the atoms it holds (None: unknown, all)."""
        ascii_text = data.isascii()
        last = self._last
        if last is not None and last[0] is present and last[1] == ascii_text and present is not None:
            return last[2]  # the same text's atoms as the call before (a document's windows)
        out = [self.common] if self.common is not None and (self._common_ascii or not ascii_text) else []
        rare = self._by_atom.keys() if present is None else (a for a in present if a in self._by_atom)
        seen = set()
        for atom in rare:
            for part in self._by_atom[atom]:
                if id(part) not in seen:
                    seen.add(id(part))
                    out.append(part)
        self._last = (present, ascii_text, out)  # held, so that its identity is not reused
        return out

    def _first(self, parts: list[Regex], data: bytes, pos: int, endpos: int | None):
        if len(parts) == 1:
            return parts[0].search(data, pos, endpos)
        found = sorted((m for m in (p.search(data, pos, endpos) for p in parts) if m is not None), key=lambda m: m.start())
        if len(found) < 2 or found[0].start() < found[1].start():
            return found[0] if found else None
        if self._whole is None:
            self._whole = rx(self.pattern)
        return self._whole.search(data, pos, endpos)  # a tie: the whole pattern's choice

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None, present: frozenset[int] | None = None):
        return self._first(self.parts(data, present), data, pos, endpos)

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None, present: frozenset[int] | None = None):
        parts = self.parts(data, present)
        if len(parts) < 2:
            return iter(()) if not parts else parts[0].finditer(data, pos, endpos)
        return self._iterate(parts, data, pos, len(data) if endpos is None else min(endpos, len(data)))

    def _iterate(self, parts: list[Regex], data: bytes, pos: int, endpos: int):
        # As RE2's own finditer steps: the next search starts where a match ended (one byte on
        # after an empty match).
        while pos <= endpos:
            m = self._first(parts, data, pos, endpos)
            if m is None:
                return
            yield m
            pos = m.end() if m.end() > pos else pos + 1

    def test(self, text: str) -> bool:
        return self.search(text.encode("utf-8", "surrogatepass")) is not None


def _union(entries: list[str]) -> str:
    return "(?i)(?:" + "|".join(f"(?:{e})" for e in entries) + ")"


@dataclass(frozen=True)
class Lexicon:
    languages: tuple[str, ...]
    patterns: dict[str, ConceptPattern]  # concept -> pattern over the reading text
    post_negation: Regex | _Split | None  # anchored: a negation right after a verb (ja, ko, tr, en "is not allowed")
    set_concepts: tuple[str, ...]  # concepts that have entries
    fixtures: tuple[dict[str, Any], ...]  # {language, rule, match|clean}
    entries: dict[str, tuple[str, ...]]  # concept -> its entries, each a pattern of its own
    words: "ConceptWords"

    def present(self, data: bytes) -> frozenset[int] | None:
        """The atoms of every concept's words in data (None: unknown, search everything)."""
        return self.words.present(data)

    def absent(self, data: bytes, present: frozenset[int] | None) -> frozenset[str]:
        """Concepts that cannot match the text: no part of theirs may match it."""
        return frozenset(c for c, p in self.patterns.items() if not p.parts(data, present))


class ConceptWords:
    """The words of the concepts' rare entries (matching/prefilter.py derives from each entry a
    list of words one of which every match holds), found in one RE2 set pass over a text."""

    def __init__(self, entries: list[str]) -> None:
        # No cap on an entry's words: an entry of many alternatives is still rare.
        self._index = prefilter.Index(entries, saved=prefilter.saved_conditions(), max_atoms=1 << 16)

    def present(self, data: bytes) -> frozenset[int] | None:
        return self._index.present(data)

    def words_of(self, entries: list[str]) -> frozenset[int] | None:
        """Atoms one of which is in every match of any of these entries; None if one names none."""
        conds = [self._index.conditions.get(e) for e in entries]
        if not conds or any(type(c) is not frozenset for c in conds):
            return None
        return frozenset().union(*conds)


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
    post_by_language: dict[str, list[str]] = {}
    joined_post: dict[str, list[str]] = {}
    for name, text in _files():
        raw = parse_yaml(text) or {}
        lang = str(raw.get("language") or name.rsplit(".", 1)[0])
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
    # Each concept's rare entries: those that name words (an OR of words, as matching/prefilter.py
    # derives it) and are not measured common (scripts/measure_common_entries.py).
    common = _common_entries()
    rare = {c: [e for e in entries[c] if f"(?i){e}" not in common] for c in TIERED if entries.get(c)}
    words = ConceptWords([f"(?i){e}" for items in rare.values() for e in items])
    rare_words = {c: {e: w for e in items if (w := words.words_of([f"(?i){e}"])) is not None} for c, items in rare.items()}
    patterns: dict[str, ConceptPattern] = {}
    set_concepts: list[str] = []
    for concept, items in entries.items():
        if not items or concept == "negation_post":
            continue
        patterns[concept] = ConceptPattern(items, rare_words.get(concept, {}))
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
    entry_patterns = {c: tuple(f"(?i){e}" for e in items) for c, items in entries.items() if items and c != "negation_post"}
    return Lexicon(tuple(languages), patterns, post_rx, tuple(set_concepts), tuple(fixtures),
                   entry_patterns, words)


# Entries of the TIERED concepts whose words are in many prose files (measured over the benign
# corpus by scripts/measure_common_entries.py): searched whenever their concept is.
COMMON_ENTRIES = "common_entries.json"


def _common_entries() -> frozenset[str]:
    """Entry patterns measured common (scripts/measure_common_entries.py); none when the file is
    missing, which only costs time: a gated entry is still searched wherever its words are."""
    try:
        raw = json.loads(resources.files("scanner").joinpath("data", COMMON_ENTRIES).read_text("utf-8"))
        return frozenset(p for ps in raw["entries"].values() for p in ps)
    except (OSError, ValueError, KeyError, TypeError):
        return frozenset()


@lru_cache(maxsize=1)
def english_patterns() -> dict[str, Regex]:
    """The English entries alone, per concept: English word-order heuristics (a subject before
    the verb makes a description) are applied only to English verbs."""
    raw = parse_yaml(dict(_files())["en.yml"]) or {}
    return {c: rx("(?i)^(?:" + "|".join(f"(?:{_entry(t, True)})" for t in terms) + ")")
            for c, terms in (raw.get("terms") or {}).items() if terms and c != "negation_post"}
