"""Character facts for the invisible-Unicode rules: classes, scripts, runs and decoders.

One RE2 pass per document finds every run of invisible or deceptive characters; the rules
then judge each run by its neighbours (an emoji on both sides of a ZWJ, Arabic letters around
a ZWNJ, a Latin word around a zero-width space). ASCII documents cost one isascii() call.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache

from ..document import Document
from ..matching import rx
from ..normalize import ASCII_BYTES

ZERO_WIDTH = frozenset({
    0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF, 0x180E, 0x034F,
    0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5,
    # Other default-ignorable format characters: deprecated format controls (inhibit/activate
    # symmetric swapping, Arabic form shaping, national/nominal digit shapes), interlinear
    # annotation, shorthand format and musical formatting controls. Nothing in ordinary text uses
    # them; inside words they split keywords, in runs they carry bits.
    *range(0x206A, 0x2070), 0xFFF9, 0xFFFA, 0xFFFB, *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B),
})
BIDI_CONTROLS = frozenset({0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069})
BIDI_MARKS = frozenset({0x200E, 0x200F, 0x061C})
SOFT_HYPHEN = 0x00AD


def is_variation_selector(cp: int) -> bool:
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def is_tag(cp: int) -> bool:
    return 0xE0000 <= cp <= 0xE007F


# Every character any of the rules below looks at, as one RE2 class (runs of them).
_SUSPECT_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0100, 0xE01EF),
)
_SUSPECT_RUN = rx("[" + "".join(f"\\x{{{lo:04X}}}-\\x{{{hi:04X}}}" for lo, hi in _SUSPECT_RANGES) + "]+")
SUSPECT_CHARS = frozenset(chr(cp) for lo, hi in _SUSPECT_RANGES for cp in range(lo, hi + 1))


def non_ascii_chars(doc: Document) -> frozenset[str]:
    """The distinct non-ASCII characters of a document (cached): whether a document holds any
    character a rule looks for is a set test, not a pass over the text. Built at C speed from
    the UTF-8 bytes with the ASCII bytes deleted."""
    def build() -> frozenset[str]:
        if doc.text.isascii():
            return frozenset()
        return frozenset(doc.raw_bytes.translate(None, ASCII_BYTES).decode("utf-8", "surrogatepass"))
    return doc.memo("non_ascii_chars", build)
MAX_RUNS = 5000  # per document; beyond this the file is plainly hostile and already reported
MAX_DECODE = 16384  # characters of one run decoded: enough to show what is hidden


@dataclass(frozen=True)
class Run:
    start: int
    end: int
    text: str
    before: str  # the visible character just before the run ("" at a line start)
    after: str  # the visible character just after it

    @cached_property
    def codepoints(self) -> frozenset[int]:
        return frozenset(map(ord, set(self.text)))

    def count(self, cps: frozenset[int] | set[int]) -> int:
        """How many characters of the run are among `cps` (str.count runs in C)."""
        return sum(self.text.count(chr(cp)) for cp in self.codepoints & cps)


def suspect_runs(doc: Document) -> list[Run]:
    """Runs of invisible/deceptive characters, in order (cached per document)."""
    def build() -> list[Run]:
        if doc.text.isascii() or non_ascii_chars(doc).isdisjoint(SUSPECT_CHARS):
            return []
        text = doc.text
        out: list[Run] = []
        for m in doc.finditer(_SUSPECT_RUN, normalized=False, limit=MAX_RUNS):
            before = text[m.start - 1] if m.start > 0 else ""
            after = text[m.end] if m.end < len(text) else ""
            out.append(Run(m.start, m.end, text[m.start:m.end], before, after))
        return out
    return doc.memo("unicode_runs", build)


@lru_cache(maxsize=4096)
def script_of(ch: str) -> str:
    """The script word of a character's Unicode name: LATIN, CYRILLIC, ARABIC, ..."""
    if ch.isascii():
        return "LATIN" if ch.isalpha() else "COMMON"
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


# Scripts whose orthography uses ZWNJ/ZWJ inside words (Persian, Arabic, Indic, ...).
JOINER_SCRIPTS = frozenset({
    "ARABIC", "HEBREW", "SYRIAC", "THAANA", "NKO", "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI",
    "ORIYA", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM", "SINHALA", "THAI", "LAO", "TIBETAN", "MYANMAR",
    "KHMER", "MONGOLIAN", "ETHIOPIC",
})
# Scripts written without spaces between words, where a single zero-width space marks a word
# break for line wrapping (Thai, Lao, Khmer, Myanmar, Tibetan).
WORD_BREAK_SCRIPTS = frozenset({"THAI", "LAO", "KHMER", "MYANMAR", "TIBETAN"})
RTL_SCRIPTS = frozenset({"ARABIC", "HEBREW", "SYRIAC", "THAANA", "NKO", "SAMARITAN", "MANDAIC"})


def is_emoji(ch: str) -> bool:
    if not ch:
        return False
    cp = ord(ch)
    if 0x1F000 <= cp <= 0x1FAFF or 0x1F3FB <= cp <= 0x1F3FF:
        return True
    return not ch.isascii() and unicodedata.category(ch) == "So"


def is_letter(ch: str) -> bool:
    return bool(ch) and (ch.isalnum() or ch == "_")


def line_has_rtl(line: str) -> bool:
    line = line[:MAX_LINE_CONTEXT]
    return not line.isascii() and any(script_of(c) in RTL_SCRIPTS for c in line if c.isalpha())


def word_around(doc: Document, start: int, end: int, reach: int = 48) -> tuple[int, int]:
    """Span of the word (letters, digits, underscores and invisible characters) around a run."""
    text = doc.text
    lo = start
    while lo > 0 and start - lo < reach and (is_letter(text[lo - 1]) or _invisible_in_word(text[lo - 1])):
        lo -= 1
    hi = end
    while hi < len(text) and hi - end < reach and (is_letter(text[hi]) or _invisible_in_word(text[hi])):
        hi += 1
    return lo, hi


def _invisible_in_word(ch: str) -> bool:
    cp = ord(ch)
    return cp in ZERO_WIDTH or cp == SOFT_HYPHEN or cp in BIDI_MARKS


def strip_invisible_word(word: str) -> str:
    return "".join(c for c in word if not _invisible_in_word(c))


def decode_zero_width_bits(run: str) -> str:
    """Decode a zero-width binary channel (two characters as 0/1, eight bits a character).

    Both assignments are tried; the one that yields more printable text wins. Returns ""
    when neither yields mostly printable text.
    """
    run = run[:MAX_DECODE]
    counts = {c: run.count(c) for c in "\u200b\u200c\u200d\u2060\u2062\u2063\u2064\u206a\u206b\u206c\u206d\u206e\u206f" if c in run}
    if len(counts) < 2:
        return ""
    zero, one = sorted(counts, key=lambda c: -counts[c])[:2]
    best = ""
    for z, o in ((zero, one), (one, zero)):
        bits = "".join("0" if c == z else "1" for c in run if c in (z, o))
        data = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits) - 7, 8))
        text = data.decode("utf-8", "replace")
        if printable_share(text) > printable_share(best):
            best = text
    return best if printable_share(best) >= 0.85 else ""


def decode_variation_selectors(run: str) -> str:
    """Decode the variation-selector byte channel: U+FE00..FE0F are 0..15, U+E0100.. are 16..255."""
    data = bytearray()
    for c in run[:MAX_DECODE]:
        cp = ord(c)
        if 0xFE00 <= cp <= 0xFE0F:
            data.append(cp - 0xFE00)
        elif 0xE0100 <= cp <= 0xE01EF:
            data.append(cp - 0xE0100 + 16)
    text = bytes(data).decode("utf-8", "replace")
    return text if printable_share(text) >= 0.85 else ""


def printable_share(text: str) -> float:
    if not text:
        return 0.0
    good = sum(1 for c in text if c.isprintable() or c in "\n\t")
    return good / len(text)


# A line that talks about the character it carries is documentation of the trick.
_DOCUMENTS_TRICK = rx(
    r"(?i)(?:u\+(?:00ad|200[b-f]|202[a-e]|206[0-9]|feff|fe0[0-9a-f]|e01[0-9a-f]{2})|zero[\s-]?width|zwsp|zwnj|zwj|"
    r"soft[\s-]hyphen|invisible\s+(?:char|unicode|text)|bidi|right[\s-]to[\s-]left\s+override|rtl\s+override|"
    r"trojan[\s-]source|homoglyph|confusable|variation\s+selector)"
)


def documents_trick(doc: Document, offset: int) -> bool:
    """Does the line holding `offset` name the trick it shows? (one regex test a line, cached)"""
    line_no, _ = doc.position(offset)
    verdicts: dict[int, bool] = doc.memo("documents_trick", dict)
    if line_no not in verdicts:
        verdicts[line_no] = _DOCUMENTS_TRICK.test(doc.line_text(line_no)[:MAX_LINE_CONTEXT])
    return verdicts[line_no]


MAX_LINE_CONTEXT = 4000  # characters of a line read for context (bounded on hostile one-line files)


def line_excerpt(doc: Document, offset: int, reach: int = 80) -> str:
    """A bounded piece of the line around `offset`."""
    line_no, col = doc.position(offset)
    line = doc.line_text(line_no)
    lo = max(0, col - 1 - reach)
    return line[lo:col - 1 + reach]
