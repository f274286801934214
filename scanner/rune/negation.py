"""Is a phrase negated where it stands? ("Never disable CSRF", "verify=False is forbidden").

Looks at the clause around a match on its own line (bounded windows, plain string scanning),
and, for a match inside a code block, at the prose just above the block ("Bad:", "Avoid:").
"""
from __future__ import annotations

from ..document import Document

WINDOW = 100  # characters of the clause looked at on each side
BEFORE = frozenset({
    "never", "not", "no", "don't", "dont", "do not", "doesn't", "mustn't", "shouldn't", "cannot", "can't", "won't",
    "avoid", "avoiding", "forbid", "forbidden", "forbids", "prohibit", "prohibited", "ban", "banned", "reject",
    "rejected", "against", "stop", "instead", "nor", "neither", "refuse", "refused", "disallow", "disallowed",
})
AFTER = frozenset({
    "forbidden", "prohibited", "banned", "rejected", "never", "not", "disallowed", "unacceptable", "dangerous",
    "insecure", "unsafe", "vulnerable", "bad",
})
MARKS = ("❌", "✗", "✘", "🚫", "⛔")
ABOVE_BLOCK = frozenset({"bad", "don't", "dont", "avoid", "never", "wrong", "anti-pattern", "antipattern", "insecure",
                         "not", "forbidden", "vulnerable", "unsafe", "incorrect"})
CLAUSE_BREAKS = (". ", "; ", "! ", "? ", " | ", " — ")


def _words(text: str) -> set[str]:
    out = []
    for raw in text.lower().replace("’", "'").split():
        w = raw.strip(".,;:!?()[]{}\"*_`>#|")
        if w:
            out.append(w)
    joined = set(out)
    joined.update(f"{a} {b}" for a, b in zip(out, out[1:]))
    return joined


def _clause_before(line: str, col: int) -> str:
    head = line[max(0, col - WINDOW):col]
    cut = max(head.rfind(b) for b in CLAUSE_BREAKS)
    return head[cut + 1:] if cut >= 0 else head


def _clause_after(line: str, col: int) -> str:
    tail = line[col:col + WINDOW]
    cuts = [i for i in (tail.find(b) for b in (". ", "; ", "! ", "? ", " | ")) if i >= 0]
    return tail[:min(cuts)] if cuts else tail


def negated(doc: Document, start: int, end: int) -> bool:
    line_no, col = doc.position(start)
    line = doc.line_text(line_no)
    end_col = min(col - 1 + (end - start), len(line))
    if any(m in line for m in MARKS):
        return True
    if _words(_clause_before(line, col - 1)) & BEFORE:
        return True
    if _words(_clause_after(line, end_col)) & AFTER:
        return True
    if line_no in doc.code_block_lines:
        return _negated_above_block(doc, line_no)
    return False


def _negated_above_block(doc: Document, line_no: int) -> bool:
    """The prose line(s) just above the code block holding line_no say it is a bad example."""
    no = line_no
    blocks = doc.code_block_lines
    while no > 1 and no - 1 in blocks:
        no -= 1
    seen = 0
    no -= 1
    while no >= 1 and seen < 2:
        text = doc.line_text(no).strip()
        if text:
            if any(m in text for m in MARKS) or _words(text) & ABOVE_BLOCK:
                return True
            seen += 1
        no -= 1
    return False
