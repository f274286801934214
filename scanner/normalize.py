"""Normalisation so that spacing, case and look-alike tricks do not evade a rule.

The normalised view keeps a map back to the original characters, so a match found in the
normalised text is reported at its real line and column.
"""
from __future__ import annotations

import unicodedata

# Characters that render as nothing (or nearly nothing) and are removed before matching.
INVISIBLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # arabic letter mark
    (0x115F, 0x1160),  # hangul fillers
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),  # mongolian free variation selectors, vowel separator
    (0x200B, 0x200F),  # zero-width space/non-joiner/joiner, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated formats
    (0x3164, 0x3164),  # hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # zero-width no-break space / BOM
    (0xFFA0, 0xFFA0),  # halfwidth hangul filler
    (0xFFF9, 0xFFFB),  # interlinear annotation controls
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol formatting
    (0xE0000, 0xE007F),  # tags
    (0xE0100, 0xE01EF),  # variation selectors supplement
)

# Latin look-alikes from Cyrillic, Greek and other scripts (a focused subset of Unicode's
# confusables.txt: the letters attackers actually use to dodge keyword filters).
CONFUSABLES: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "һ": "h", "ɡ": "g", "ӏ": "l", "ո": "n", "ս": "u", "օ": "o",
    "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p", "С": "c",
    "Т": "t", "Х": "x", "Ѕ": "s", "І": "i", "Ј": "j", "Ү": "y",
    # Greek
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x",
    "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m", "Ν": "n",
    "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x",
    "ϲ": "c", "ϳ": "j", "ϵ": "e", "Ϲ": "c", "ϒ": "y", "г": "r",
    # More Cyrillic and Armenian look-alikes
    "ԍ": "g", "ѵ": "v", "Ѵ": "v", "ѡ": "w", "Ԝ": "w", "Ԛ": "q", "Һ": "h", "Ӏ": "l", "ӓ": "a", "ӧ": "o",
    "հ": "h", "ց": "g", "զ": "q", "ա": "w", "Ս": "u", "Օ": "o",
    # Latin extensions, small capitals and symbols
    "ı": "i", "ȷ": "j", "ℓ": "l", "ꓲ": "i", "ǀ": "l", "ɑ": "a", "ɩ": "i", "ʋ": "u",
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k",
    "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v",
    "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
}

_INVISIBLE_SET = frozenset(
    cp for lo, hi in INVISIBLE_RANGES for cp in range(lo, hi + 1)
)


def is_invisible(ch: str) -> bool:
    return ord(ch) in _INVISIBLE_SET


def normalize_line(line: str) -> tuple[str, list[int] | None]:
    """Return (normalised line, map from normalised index to original index).

    The map is None when the line is ASCII, where normalising is lower-casing and the
    indexes are the identity (the common case, kept cheap).
    """
    if line.isascii():
        return line.lower(), None
    out: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(line):
        cp = ord(ch)
        if cp < 128:
            out.append(ch.lower())
            index.append(i)
            continue
        if cp in _INVISIBLE_SET:
            continue
        mapped = CONFUSABLES.get(ch)
        if mapped is None:
            mapped = unicodedata.normalize("NFKC", ch).casefold()
            mapped = "".join(CONFUSABLES.get(c, c) for c in mapped)
            if cp in (0x00A0, 0x2007, 0x202F, 0x3000) or unicodedata.category(ch) == "Zs":
                mapped = " "
        for c in mapped:
            out.append(c)
            index.append(i)
    return "".join(out), index


def strip_invisible(text: str) -> str:
    if text.isascii():
        return text
    return "".join(ch for ch in text if ord(ch) not in _INVISIBLE_SET)
