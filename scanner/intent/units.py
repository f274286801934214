"""Split an agent file into the units an agent reads as instructions.

A unit is a sentence of a paragraph or list item, a table cell, a front-matter value, a
comment body's sentence, a heading, or one line of a fenced code block (a command). Units are
spans of the text (no copies), found in one pass over its lines; each knows its block (the
paragraph, list item, table, code block or comment it came from) so a rule can read a unit with
its neighbours ("send X to Y. Do not tell the user.").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# Sentence ends: Latin and Cyrillic punctuation before a space, and the CJK, Arabic and
# Devanagari full stops anywhere.
_WIDE_ENDS = "。！？؟।\u06d4\u2028\u2029\u0085"  # and the Unicode line/paragraph separators
_ENDS = ".!?"
MAX_UNIT = 1200  # a longer run without a sentence end is cut: a unit is one thought


@dataclass(frozen=True)
class Unit:
    start: int  # character offsets into the text the units were split from
    end: int
    kind: str  # sentence, item, cell, frontmatter, comment, heading, code, quote
    block: int  # units of one paragraph, item, table row, code block or comment share it
    line: int  # 1-based line of the unit's start


def _is_item(s: str) -> bool:
    if s[:2] in ("- ", "* ", "+ "):
        return True
    head = s.split(" ", 1)[0]
    return len(head) > 1 and head[-1] in ".)" and head[:-1].isdigit()


_CUT = re.compile(r"[" + _WIDE_ENDS + r"]|[" + _ENDS + r"](?=[ \t\n]|$)")


def _sentences(text: str, start: int, end: int, kind: str, block: int, line: int, out: list[Unit]) -> None:
    """Cut text[start:end] into sentences (one regex scan, then slices)."""
    s = start
    for m in _CUT.finditer(text, start, end):
        cut = m.end()
        _emit(text, s, cut, kind, block, line, start, out)
        s = cut
    _emit(text, s, end, kind, block, line, start, out)


def _emit(text: str, s: int, e: int, kind: str, block: int, line: int, origin: int, out: list[Unit]) -> None:
    while s < e and text[s] in " \t\n":
        s += 1
    while e > s and text[e - 1] in " \t\n":
        e -= 1
    while e - s > MAX_UNIT:  # a run without a sentence end is cut: a unit is one thought
        out.append(Unit(s, s + MAX_UNIT, kind, block, line + text.count("\n", origin, s)))
        s += MAX_UNIT
    if e > s:
        out.append(Unit(s, e, kind, block, line + text.count("\n", origin, s)))


def split_units(text: str) -> list[Unit]:
    """Units of a markdown (or plain text) agent file, in order and without overlap."""
    out: list[Unit] = []
    lines = text.split("\n")
    pos = 0
    block = 0
    para_start = -1  # offset where the open paragraph or item begins
    para_kind = "sentence"
    para_line = 0
    fence: str | None = None
    front = text.startswith("---\n") or text.startswith("---\r\n")
    comment = False

    def flush(at: int) -> None:
        nonlocal para_start
        if para_start >= 0:
            _sentences(text, para_start, at, para_kind, block, para_line, out)
            para_start = -1

    for no, raw in enumerate(lines, 1):
        line_start = pos
        pos += len(raw) + 1
        stripped = raw.strip()
        body = raw.lstrip(" \t")
        if front:
            if no == 1:
                continue
            if stripped in ("---", "..."):
                front = False
                block += 1
                continue
            key, sep, value = raw.partition(":")
            if sep and value.strip() and not key.startswith((" ", "\t", "-")):
                vstart = line_start + len(key) + 1
                block += 1
                _sentences(text, vstart, line_start + len(raw), "frontmatter", block, no, out)
            elif stripped:
                _sentences(text, line_start, line_start + len(raw), "frontmatter", block, no, out)
            continue
        if fence is not None:
            if body.startswith(fence) and not body.strip(fence[0]).strip():
                fence = None
                block += 1
            elif stripped:
                out.append(Unit(line_start + (len(raw) - len(body)), line_start + len(raw.rstrip()), "code", block, no))
            continue
        if comment:
            end = raw.find("-->")
            stop = line_start + (end if end >= 0 else len(raw))
            _sentences(text, line_start, stop, "comment", block, no, out)
            if end >= 0:
                comment = False
                block += 1
            continue
        if body.startswith(("```", "~~~")) and len(raw) - len(body) <= 3:
            flush(line_start)
            marker = body[0]
            fence = marker * (len(body) - len(body.lstrip(marker)))
            block += 1
            continue
        if not stripped:
            flush(line_start)
            block += 1
            continue
        if body.startswith("<!--"):
            flush(line_start)
            block += 1
            cstart = line_start + (len(raw) - len(body)) + 4
            end = raw.find("-->", len(raw) - len(body) + 4)
            if end >= 0:
                _sentences(text, cstart, line_start + end, "comment", block, no, out)
                block += 1
                rest = line_start + end + 3
                if raw[end + 3:].strip():
                    para_start, para_kind, para_line = rest, "sentence", no
            else:
                comment = True
                _sentences(text, cstart, line_start + len(raw), "comment", block, no, out)
            continue
        if body.startswith("#"):
            flush(line_start)
            block += 1
            out.append(Unit(line_start + (len(raw) - len(body)), line_start + len(raw.rstrip()), "heading", block, no))
            block += 1
            continue
        if body.startswith("|"):
            flush(line_start)
            block += 1
            if set(stripped) <= set("|-: "):
                continue
            off = line_start + (len(raw) - len(body))
            cells = _table_cells(body.rstrip())
            cur = off
            for cell in cells:
                if cell.strip():
                    _sentences(text, cur, cur + len(cell), "cell", block, no, out)
                cur += len(cell) + 1
            continue
        quote = body.startswith(">")
        if quote:
            inner = body.lstrip("> ")
            offset = line_start + (len(raw) - len(inner))
        else:
            inner = body
            offset = line_start + (len(raw) - len(body))
        if _is_item(inner):
            flush(line_start)
            block += 1
            para_start, para_kind, para_line = offset, "quote" if quote else "item", no
            continue
        if para_start < 0:
            block += 1
            para_start, para_kind, para_line = offset, "quote" if quote else "sentence", no
    flush(len(text))
    return out


def _table_cells(row: str) -> list[str]:
    """A table row's cells, split on its unescaped pipes: in GitHub's tables `\\|` is a pipe inside a
    cell (in code spans too), so `grep 'a\\|b'` stays one cell, as a reader sees it. Lengths add up
    to the row's, separators included, as str.split's do."""
    cells, start, i = [], 0, 0
    while True:
        j = row.find("|", i)
        if j < 0:
            cells.append(row[start:])
            return cells
        if j > 0 and row[j - 1] == "\\":
            i = j + 1
            continue
        cells.append(row[start:j])
        start = i = j + 1

