"""Making attacker-written text inert wherever the tool echoes it.

- visible(): invisible and control characters become <U+XXXX>, length is bounded.
- markdown(): for job summaries and PR comments: no HTML, no live links or images, no
  @-mentions, no markdown structure from the scanned file.
- workflow_command(): escapes for GitHub workflow commands (::error ...::).
- terminal(): no escape sequences reach the terminal.
"""
from __future__ import annotations

import unicodedata

from .normalize import is_invisible

MAX_EXCERPT = 160


def _needs_escape(ch: str) -> bool:
    cp = ord(ch)
    if cp < 0x20 and ch != "\t" or cp == 0x7F or 0x80 <= cp < 0xA0:
        return True
    if is_invisible(ch):
        return True
    cat = unicodedata.category(ch)
    return cat in ("Cf", "Co", "Cs", "Cn", "Zl", "Zp")


def visible(text: str, limit: int = MAX_EXCERPT) -> str:
    """Show every invisible or control character as <U+XXXX>; cut at `limit` characters."""
    out: list[str] = []
    length = 0
    for ch in text:
        piece = f"<U+{ord(ch):04X}>" if _needs_escape(ch) else ("  " if ch == "\t" else ch)
        out.append(piece)
        length += len(piece)
        if length >= limit:
            out.append("…")
            break
    return "".join(out)


_MD_SPECIAL = set("\\`*_{}[]()<>#+!|~&@:")


def markdown(text: str, limit: int = MAX_EXCERPT) -> str:
    """Inert inline markdown: escaped specials, no autolinks, no mentions, no HTML."""
    shown = visible(text, limit)
    out: list[str] = []
    for ch in shown:
        if ch in _MD_SPECIAL:
            out.append(f"&#{ord(ch)};")
        else:
            out.append(ch)
    # Break URL schemes and domains so GitHub does not autolink them.
    result = "".join(out).replace("://", "&#58;//").replace(".", "&#46;")
    return result


def code_span(text: str, limit: int = MAX_EXCERPT) -> str:
    """Inert text inside a markdown code span: backticks cannot close it early."""
    shown = visible(text, limit).replace("`", "ˋ")
    return f"`{shown}`" if shown.strip() else "` `"


def workflow_command_data(text: str) -> str:
    return visible(text, 400).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_command_property(text: str) -> str:
    return workflow_command_data(text).replace(":", "%3A").replace(",", "%2C")


def path(text: str) -> str:
    """A file path as shown to people: visible, unbounded but escaped."""
    return visible(text, 1000)
