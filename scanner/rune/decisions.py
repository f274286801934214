"""The shape of `.rune/decisions.md`: a `# ` title, then entries headed
`## [YYYY-MM-DD] Decision: <title>` (Rune also writes a time, `[YYYY-MM-DD HH:MM]`).

A level-two heading that is not such an entry, an impossible date, or an empty title is
reported, so an edit that breaks the log's structure (a planted section, a pasted block) is
visible. Headings inside code blocks are examples, not entries.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Iterator

from ..document import Document

DECISION_FILES = frozenset({"decisions.md"})
PREFIX = "## "


@dataclass(frozen=True)
class Malformed:
    line: int
    problem: str


def _parse_stamp(stamp: str) -> str | None:
    """None when `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` is a real moment, else the problem."""
    date, _, time = stamp.partition(" ")
    if len(date) != 10 or date[4] != "-" or date[7] != "-" or not (date[:4] + date[5:7] + date[8:]).isdigit():
        return f"date {stamp!r} is not YYYY-MM-DD"
    try:
        dt.date.fromisoformat(date)
    except ValueError:
        return f"date {date!r} does not exist"
    if time:
        if len(time) != 5 or time[2] != ":" or not (time[:2] + time[3:]).isdigit() or int(time[:2]) > 23 or int(time[3:]) > 59:
            return f"time {time!r} is not HH:MM"
    return None


def check_heading(text: str) -> str | None:
    """The problem with one `## ` heading line, or None when it is a well-formed entry."""
    rest = text[len(PREFIX):].strip()
    if not rest.startswith("["):
        return "heading is not a decision entry: expected '## [YYYY-MM-DD] Decision: <title>'"
    close = rest.find("]", 0, 40)
    if close < 0:
        return "entry date is not closed with ']'"
    problem = _parse_stamp(rest[1:close].strip())
    if problem:
        return problem
    tail = rest[close + 1:]
    if not tail.startswith(" Decision:"):
        return "entry is not labelled 'Decision:' after its date"
    if not tail[len(" Decision:"):].strip():
        return "decision entry has no title"
    return None


def malformed_entries(doc: Document) -> Iterator[Malformed]:
    code = doc.code_block_lines
    for no, line in enumerate(doc.lines, 1):
        if no in code or not line.startswith(PREFIX):
            continue
        problem = check_heading(line.rstrip())
        if problem:
            yield Malformed(no, problem)
