"""Normalisation so that spacing, case and look-alike tricks do not evade a rule.

The normalised view keeps a map back to the original characters, so a match found in the
normalised text is reported at its real line and column.
"""
from __future__ import annotations

import bisect
import unicodedata
from functools import lru_cache

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


@lru_cache(maxsize=16384)
def _map_char(ch: str) -> str:
    """What one character becomes in the normalised view ("" for invisible characters)."""
    cp = ord(ch)
    if cp < 128:
        return ch.lower()
    if cp in _INVISIBLE_SET:
        return ""
    mapped = CONFUSABLES.get(ch)
    if mapped is None:
        if cp in (0x00A0, 0x2007, 0x202F, 0x3000) or unicodedata.category(ch) == "Zs":
            return " "
        mapped = unicodedata.normalize("NFKC", ch).casefold()
        mapped = "".join(CONFUSABLES.get(c, c) for c in mapped)
    return mapped


_ASCII_CHARS = frozenset(map(chr, range(128)))
_ASCII_UPPER = {cp: chr(cp).lower() for cp in range(ord("A"), ord("Z") + 1)}


class OffsetMap:
    """Normalised offset -> original offset, stored sparsely: one segment per character that
    normalisation removed or expanded, identity stretches in between (ordinary text has few)."""

    __slots__ = ("_norm_starts", "_segments", "_length")

    def __init__(self, odd: list[tuple[int, int]], length: int) -> None:
        # odd: (original position, mapped length) in increasing position order.
        norm_starts: list[int] = [0]
        segments: list[tuple[int, bool]] = [(0, False)]  # (original start, is expansion)
        norm = orig = 0
        for pos, size in odd:
            norm += pos - orig
            if size:
                norm_starts.append(norm)
                segments.append((pos, True))
                norm += size
            norm_starts.append(norm)
            segments.append((pos + 1, False))
            orig = pos + 1
        self._norm_starts = norm_starts
        self._segments = segments
        self._length = length

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, offset: int) -> int:
        k = bisect.bisect_right(self._norm_starts, offset) - 1
        start, expansion = self._segments[k]
        return start if expansion else start + (offset - self._norm_starts[k])


ASCII_BYTES = bytes(range(128))
MAX_REPLACED_CHARS = 16  # ordinary files change at most a handful of distinct characters


def normalize_line(line: str) -> tuple[str, OffsetMap | None]:
    """Return (normalised text, map from normalised index to original index).

    Works on a line or a whole text. The map is None when indexes are the identity (ASCII
    text, and text where every character maps to exactly one character).
    """
    if line.isascii():
        return line.lower(), None
    return _normalize_by_replacing(line) or _normalize_by_lines(line)


def _normalize_by_replacing(text: str) -> tuple[str, OffsetMap | None] | None:
    """The common case at C speed: lower the ASCII bytes, then one str.replace per distinct
    non-ASCII character that normalisation changes (a text has few). None when a replacement
    would produce a character another replacement changes (the result would then depend on
    the order), or when so many distinct characters change that one pass per character would
    cost more than the per-character path (a text built to be expensive)."""
    data = text.encode("utf-8", "surrogatepass")
    distinct = set(data.translate(None, ASCII_BYTES).decode("utf-8", "surrogatepass"))
    changed = {ch: mapped for ch in distinct if (mapped := _map_char(ch)) != ch}
    if len(changed) > MAX_REPLACED_CHARS:
        return None
    out = data.lower().decode("utf-8", "surrogatepass")
    odd: list[tuple[int, int]] = []
    for ch, mapped in changed.items():
        if not mapped.isascii() and any(c in changed for c in mapped):
            return None
        out = out.replace(ch, mapped)
        if len(mapped) != 1:
            size = len(mapped)
            pos = text.find(ch)
            while pos >= 0:
                odd.append((pos, size))
                pos = text.find(ch, pos + 1)
    if not odd:
        return out, None
    odd.sort()
    return out, OffsetMap(odd, len(out))


def _normalize_by_lines(line: str) -> tuple[str, OffsetMap | None]:
    table: dict[int, str] = dict(_ASCII_UPPER)
    odd_chars: set[str] = set()  # characters normalisation removes or expands
    pieces: list[str] = []
    odd: list[tuple[int, int]] = []  # (position, mapped length) of removed/expanded characters
    offset = 0
    for part in line.split("\n"):
        if part.isascii():  # C-speed check; most lines of most files
            pieces.append(part.lower())
        else:
            chars = set(part)
            chars -= _ASCII_CHARS
            for ch in chars:
                if ord(ch) not in table:
                    mapped = table[ord(ch)] = _map_char(ch)
                    if len(mapped) != 1:
                        odd_chars.add(ch)
            pieces.append(part.translate(table))
            if not odd_chars.isdisjoint(chars):
                odd.extend((offset + i, len(table[ord(ch)])) for i, ch in enumerate(part) if ch in odd_chars)
        offset += len(part) + 1
    text = "\n".join(pieces)
    if not odd:
        return text, None
    return text, OffsetMap(odd, len(text))


def strip_invisible(text: str) -> str:
    if text.isascii():
        return text
    return "".join(ch for ch in text if ord(ch) not in _INVISIBLE_SET)
