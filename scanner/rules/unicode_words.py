"""Words disguised with look-alike letters, and the words attackers disguise.

A word is suspect when it mixes Latin letters with Cyrillic/Greek/Armenian letters that all
look Latin (the attacker swapped a few letters), or when a word written wholly in look-alike
letters reads as a sensitive word ("ѕуѕtем"). Words wholly in another script are ordinary
text in that language and stay quiet.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..document import Document
from ..matching import rx
from ..normalize import CONFUSABLES
from .unicode_chars import documents_trick, non_ascii_chars, script_of

# Words filters look for and attackers therefore disguise (split or spelt with look-alikes).
TRIGGER_WORDS = frozenset("""
ignore ignoring disregard forget override overrides bypass previous prior above earlier instructions instruction
rules system prompt prompts admin administrator root sudo execute exec eval run curl wget bash powershell
secret secrets password passwords passwd token tokens credential credentials apikey exfiltrate exfiltration
upload send delete ssh env jailbreak developer assistant hidden hide conceal reveal important urgent private
key keys shell download install webhook base64 decode approve authorized confidential user
""".split())

# Words holding at least one Cyrillic, Greek or Armenian letter (the scripts with Latin look-alikes).
_FOREIGN_WORD = rx(r"[\p{L}\p{M}\p{Nd}_]*[\p{Cyrillic}\p{Greek}\p{Armenian}][\p{L}\p{M}\p{Nd}_]*")
MAX_WORDS_READ = 20000  # words with such letters read per document
MAX_WORDS = 200  # per document
_CONFUSABLE_CHARS = frozenset(c for c in CONFUSABLES if not c.isascii())
# Lower-case Greek letters written as mathematical notation (alpha, kappa, nu, rho, tau, upsilon,
# chi, epsilon, iota): each has its own shape in any font, unlike the capitals and omicron, which
# draw exactly as Latin letters. `z_α`, `ρ_xy`, `σ2_τ` name a statistic, not a disguised word.
_NOTATION_GREEK = frozenset("ακνρτυχϵι")
MAX_NOTATION_LETTERS = 2  # letters in one such segment (z_αβ at most; a longer run spells a word)


@dataclass(frozen=True)
class DisguisedWord:
    start: int
    end: int
    latin: str  # how the word reads once look-alikes are mapped
    scripts: str  # the foreign scripts used, e.g. "CYRILLIC"
    documented: bool


def _judge(word: str) -> tuple[str, str] | None:
    """(reading, foreign scripts) when the word is disguised; None otherwise."""
    latin_letters = 0
    foreign: set[str] = set()
    reading: list[str] = []
    for ch in word:
        if ch.isascii():
            if ch.isalpha():
                latin_letters += 1
            reading.append(ch.lower())
            continue
        script = script_of(ch)
        if script == "LATIN":
            latin_letters += 1
            reading.append(ch.lower())
            continue
        if not ch.isalpha():
            reading.append(ch)
            continue
        mapped = CONFUSABLES.get(ch)
        if mapped is None:
            return None  # a genuine letter of another script: ordinary foreign text
        foreign.add(script)
        reading.append(mapped)
    if not foreign:
        return None
    latin = "".join(reading)
    if latin_letters:
        return latin, "/".join(sorted(foreign))
    # Wholly look-alike letters: only suspect when it reads as a word filters look for.
    return (latin, "/".join(sorted(foreign))) if latin in TRIGGER_WORDS else None


def _notation(word: str) -> bool:
    """Every look-alike letter sits in an underscore-separated segment of its own, made of at most
    two lower-case notation Greek letters (digits aside), beside Latin segments: `z_α`, `Z_α2`,
    `delta_ρ`. A letter swapped into a Latin segment (`is_аdmin`, `zα`), a Cyrillic or capital
    look-alike, or a segment spelling a word (`get_τοκεν`) is no notation."""
    foreign = False
    for seg in word.split("_"):
        letters = [c for c in seg if c.isalpha()]
        alien = [c for c in letters if not c.isascii() and script_of(c) != "LATIN"]
        if not alien:
            continue
        if len(alien) != len(letters) or len(letters) > MAX_NOTATION_LETTERS or not set(alien) <= _NOTATION_GREEK:
            return False
        foreign = True
    return foreign


def _named_alike(doc: Document, reading: str) -> bool:
    """The document also writes the word's Latin reading as a word of its own: two names that
    look the same and name different things (`z_a` beside `z_α`), the homoglyph-identifier trick."""
    low = doc.memo("confusable:lower", lambda: doc.text.lower())
    at = low.find(reading)
    while at >= 0:
        end = at + len(reading)
        if not (at and (low[at - 1].isalnum() or low[at - 1] == "_")) and not (
                end < len(low) and (low[end].isalnum() or low[end] == "_")):
            return True
        at = low.find(reading, end)
    return False


def confusable_words(doc: Document) -> list[DisguisedWord]:
    def build() -> list[DisguisedWord]:
        out: list[DisguisedWord] = []
        if doc.text.isascii() or non_ascii_chars(doc).isdisjoint(_CONFUSABLE_CHARS):
            return out
        for m in doc.finditer(_FOREIGN_WORD, normalized=False, limit=MAX_WORDS_READ):
            word = doc.text[m.start:m.end]
            judged = _judge(word)
            if judged is None or (_notation(word) and not _named_alike(doc, judged[0])):
                continue
            documented = doc.kind == "prose" and documents_trick(doc, m.start)
            out.append(DisguisedWord(m.start, m.end, judged[0], judged[1], documented))
            if len(out) >= MAX_WORDS:
                break
        return out
    return doc.memo("confusable_words", build)
