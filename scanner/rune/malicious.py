"""Package releases known to be malicious, from the bundled OpenSSF malicious-packages snapshot.

scanner/data/malicious_packages.json (refreshed by scripts/refresh_malicious_packages.py) lists
npm and PyPI releases by explicit version; `pins()` finds name/version pairs in prose and
commands (`x@1.2.3`, `x==1.2.3`, `"x": "1.2.3"`, "pin `x` to 1.2.3", "x 1.2.3", a table row `| x | 1.2.3 |`).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from ..document import Document
from ..matching import rx

DATA_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "malicious_packages.json")
_NAME = r"(@?[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)?)"
_VERSION = r"v?(\d+\.\d+(?:\.\d+)?(?:[-+][0-9a-z.-]+)?)"
_PIN = rx(
    _NAME + r"(?:@|\s*={2,3}\s*|\s*~=\s*|[`*]{0,2}\s+(?:(?:to|at|on|version|release|v)\s+){0,2}[`*]{0,2}|[`\"']?\s*:\s*[\"']?[\^~=]?|[\"']\s*,\s*[\"'][=~>\s]*|`?[ \t]*\|[ \t]*`?[=~]?)" + _VERSION + r"\b"
)


_PROSE_WORDS = frozenset({"version", "versions", "release", "releases", "node", "python", "from", "with", "than", "since", "before",
                          "after", "until", "above", "below", "about", "back", "pinned", "pin", "keep", "stay", "stays"})


@lru_cache(maxsize=1)
def data() -> dict:
    with open(DATA_FILE, encoding="utf-8") as fh:
        return json.load(fh)


@lru_cache(maxsize=1)
def _index() -> dict[str, dict[str, frozenset[str]]]:
    d = data()
    out: dict[str, dict[str, frozenset[str]]] = {}
    for eco in ("npm", "pypi", "rubygems", "system"):
        merged: dict[str, set[str]] = {}
        for source in (d.get(eco) or {}, (d.get("curated") or {}).get(eco) or {}):
            for name, versions in source.items():
                merged.setdefault(name, set()).update(versions)
        out[eco] = {k: frozenset(v) for k, v in merged.items()}
    return out


def _norm(name: str, eco: str) -> str:
    name = name.lower()
    return name.replace("_", "-").replace(".", "-") if eco == "pypi" else name


def known_malicious(name: str, version: str) -> str | None:
    """The ecosystem whose data lists this release, or None."""
    for eco, table in _index().items():
        versions = table.get(_norm(name, eco))
        if versions and version in versions:
            return eco
    return None


@dataclass(frozen=True)
class Pin:
    start: int
    end: int
    name: str
    version: str
    ecosystem: str


# A release named in order to keep it out: "add `x@1.2.3` to the blocked list", "pin 1.2.2, not
# `x@1.2.3`", "the compromised x@1.2.3". A plain negation is no such sign: "never bump `x@1.2.3`"
# still pins it, so the words are about listing a release as bad, and a change verb beside a
# "not"/"avoid" turns it back into a pin.
_AVOID_AFTER = frozenset({"blocked", "blocklist", "blocklisted", "blacklist", "blacklisted", "denylist", "denylisted", "banned",
                          "block list", "deny list", "ban list", "yanked", "known-bad", "quarantined", "excluded"})
_AVOID_BEFORE = frozenset({"block", "blocks", "blocked", "blocklist", "blacklist", "ban", "bans", "banned", "deny", "denylist",
                           "exclude", "excludes", "excluded", "compromised", "malicious", "known-bad", "yanked", "quarantine"})
_SOFT_BEFORE = frozenset({"not", "never", "avoid", "instead of", "rather than", "no"})
_CHANGE = ("bump", "upgrad", "updat", "chang", "mov", "touch", "replac", "revert", "past", "beyond", "above", "away", "from", "off")


# A release described, right after its name, as the bad release it is: "x 1.2.3 — hijacked in
# 2021", "x@1.2.3 (compromised)". Only the first words count, so "pin x 1.2.3 even though a
# scanner once called it compromised" stays a pin.
_BAD_RIGHT_AFTER = frozenset({"hijacked", "compromised", "malicious", "backdoored", "trojaned", "trojanized", "malware",
                              "poisoned", "blocked", "banned", "yanked", "known-bad", "denylisted", "blocklisted"})
# The section or list a release sits in says it is kept out: a heading or a label line above
# ("## Never install", "Blocked releases:", "Denylist"). A line that pins it in its own words
# ("keep x at 1.2.3") is still a pin wherever it stands.
# A heading's "never"/"do not" keeps a release out only when no change verb follows ("Never
# install" lists bad releases, "Never bump these" pins them), and a heading that keeps or pins
# without a negation ("Compromised releases we keep") lists pins.
_AVOID_SECTION = frozenset({"blocked", "blocklist", "blacklist", "denylist", "deny list", "block list", "banned", "ban",
                            "compromised", "malicious", "hijacked", "known-bad", "yanked", "forbidden", "quarantined", "excluded",
                            "backdoored", "trojaned", "malware", "refuse", "refused", "rejected", "prohibited"})
_SOFT_SECTION = frozenset({"never", "avoid", "do not", "don't", "must not", "not allowed"})
_PIN_VERBS = frozenset({"pin", "pins", "pinned", "keep", "stay", "use", "install", "lock", "hold", "require", "add", "set",
                        "downgrade", "revert", "restore", "go"})


def _section_avoids(doc: Document, line_no: int) -> bool:
    """The nearest heading above, or the label line that opens the list holding this line,
    names the releases below as ones to keep out."""
    from .negation import _words
    no, seen = line_no - 1, 0
    while no >= 1 and seen < 40:
        text = doc.line_text(no).strip()
        seen += 1
        no -= 1
        if not text:
            continue
        if text.startswith("#") or (text.endswith(":") and not text.startswith(("-", "*", "+"))):
            words = _words(text)
            soft = bool(words & _SOFT_SECTION)
            if soft and any(c in text.lower() for c in _CHANGE):
                return False
            if words & _PIN_VERBS and not soft:
                return False
            return soft or bool(words & _AVOID_SECTION)
        if not text.startswith(("-", "*", "+", "|")) and not text[:2].rstrip(".)").isdigit():
            return False  # prose between: the list, if any, ended
    return False


_AVOID_COLUMN = _AVOID_SECTION | _SOFT_SECTION | frozenset({"bad", "affected", "vulnerable", "never install", "never use", "do not install"})


def _column_avoids(doc: Document, line_no: int, col: int) -> bool:
    """The release sits in a table column whose header names releases to keep out ("never install",
    "blocked", "compromised"), as a section heading can for a list."""
    from .negation import _words
    line = doc.line_text(line_no)
    index = line[:col].count("|") - 1
    no = line_no - 1
    while no >= 2 and doc.line_text(no).lstrip().startswith("|") and line_no - no < 200:
        if set(doc.line_text(no).strip()) <= set("|-: "):  # the separator: the header is just above
            cells = [c.strip(" *_`").lower() for c in doc.line_text(no - 1).strip().strip("|").split("|")]
            return 0 <= index < len(cells) and bool(_words(cells[index]) & _AVOID_COLUMN)
        no -= 1
    return False


def _paragraph_intro_avoids(doc: Document, line_no: int) -> bool:
    """A colon-ended line opening the paragraph that holds this one names the releases after it as
    ones to keep out ("fails CI if the lockfile resolves any of these hijacked versions:"), as a
    label line opening a list does."""
    from .negation import _words
    no = line_no - 1
    while no >= 1 and line_no - no <= 6:
        text = doc.line_text(no).strip()
        if not text or text.startswith("#"):
            return False
        if text.endswith(":"):
            words = _words(text)
            return not words & _PIN_VERBS and bool(words & (_AVOID_SECTION | _SOFT_SECTION))
        no -= 1
    return False


def listed_to_avoid(doc: Document, start: int, end: int) -> bool:
    from .negation import _clause_after, _clause_before, _continues_to, _continued_from, _words
    line_no, col = doc.position(start)
    line = doc.line_text(line_no)
    end_col = min(col - 1 + (end - start), len(line))
    before = _clause_before(line, col - 1)
    if before == line[:col - 1]:
        joined = _continued_from(doc, line_no) + " " + before
        before = _clause_before(joined, len(joined))
    after = _clause_after(line, end_col)
    if len(after) < 100 and after == line[end_col:]:
        after = _clause_after(after + " " + _continues_to(doc, line_no), 0)
    bw, aw = _words(before), _words(after[:80])
    if {"not compromised", "not malicious", "isn't compromised", "never compromised"} & (bw | aw):
        return False
    if aw & _AVOID_AFTER or bw & _AVOID_BEFORE:
        return True
    if _words(" ".join(after.lower().split()[:3])) & _BAD_RIGHT_AFTER and not bw & _PIN_VERBS:
        return True
    if not bw & _PIN_VERBS and doc.line_text(line_no).lstrip()[:1] in "-*+|" and _section_avoids(doc, line_no):
        return True
    if line.lstrip().startswith("|") and _column_avoids(doc, line_no, end_col):  # the column of the version
        return True
    if not bw & _PIN_VERBS and _paragraph_intro_avoids(doc, line_no):
        return True
    tail = " ".join(before.lower().split()[-4:])
    return bool(_words(tail) & _SOFT_BEFORE) and not any(c in tail for c in _CHANGE)


def pins(doc: Document) -> Iterator[Pin]:
    for m in doc.finditer(_PIN, limit=2000):
        name, version = m.group(1) or "", m.group(2) or ""
        joint = doc.text[m.start + len(name):m.end - len(version)] if m.end - m.start < 400 else "@"
        if not any(c in joint for c in "@=:,`'\"|*") and (len(name) < 4 or name in _PROSE_WORDS):
            continue  # "the version is 5.0.0": a word followed by a number is no pin
        eco = known_malicious(name, version)
        if eco and not listed_to_avoid(doc, m.start, m.end):
            yield Pin(m.start, m.end, name, version, eco)
