"""Is a phrase negated where it stands? ("Never disable CSRF", "verify=False is forbidden").

Looks at the clause around a match on its own line (bounded windows, plain string scanning),
and, for a match inside a code block, at the prose just above the block ("Bad:", "Avoid:").
"""
from __future__ import annotations

from ..document import Document
from ..matching import text_rx

WINDOW = 100  # characters of the clause looked at on each side
BEFORE = frozenset({
    "never", "not", "no", "don't", "dont", "do not", "doesn't", "mustn't", "shouldn't", "cannot", "can't", "won't",
    "avoid", "avoiding", "forbid", "forbidden", "forbids", "prohibit", "prohibited", "ban", "banned", "reject",
    "rejected", "against", "stop", "instead", "nor", "neither", "refuse", "refused", "disallow", "disallowed",
    # Describing or detecting the shape rather than prescribing it: "values that skip validation",
    # "flag eval(user_input)", "scan for allow-all origins".
    "that", "which", "whether", "detect", "detects", "detecting", "detection", "flag", "flags", "find", "finds",
    "scan", "scans", "audit", "audits", "report", "reports", "prevent", "prevents", "catch", "catches", "look for",
    "check for", "checks for", "vulnerable", "vulnerability", "dangerous", "risk", "risks", "could", "might",
})
AFTER = frozenset({
    "forbidden", "prohibited", "banned", "rejected", "never", "not", "disallowed", "unacceptable", "dangerous",
    "insecure", "unsafe", "vulnerable", "bad", "vulnerability", "arbitrary", "exploit", "exploitable", "attack",
    "risk", "risky", "injection", "rce", "flagged", "flag",
    # "`verify=False` and `VERIFY_NONE` fail review": named in order to be refused.
    "fail review", "fails review", "fail code", "fails code", "blocked", "blocks review", "not allowed",
})
MARKS = ("❌", "✗", "✘", "🚫", "⛔")
ABOVE_BLOCK = frozenset({"bad", "don't", "dont", "avoid", "never", "wrong", "anti-pattern", "antipattern", "insecure",
                         "not", "forbidden", "vulnerable", "unsafe", "incorrect", "vulnerability", "flag", "detect",
                         "detection", "dangerous", "exploit", "attack", "critical", "risky", "sinks", "sink"})
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
    head = line[max(0, col - 2 * WINDOW):col]
    cut = max(head.rfind(b) for b in CLAUSE_BREAKS)
    return head[cut + 1:] if cut >= 0 else head


_PURPOSES = ("to stop ", "to avoid ", "to prevent ", "so that ", "in order that ")


def _past_purpose(before: str) -> str:
    """The clause after a purpose phrase that a comma closes: in "to stop drift between staging and
    production, the keys live in settings.py" the "stop" governs the drift, not the order."""
    low = before.lower()
    for p in _PURPOSES:
        k = low.rfind(p)
        if k >= 0 and (k == 0 or not low[k - 1].isalpha()):
            c = low.find(",", k)
            if c >= 0:
                return _past_purpose(before[c + 1:])
    return before


def _clause_after(line: str, col: int) -> str:
    tail = line[col:col + WINDOW]
    cuts = [i for i in (tail.find(b) for b in (". ", "; ", "! ", "? ", " | ")) if i >= 0]
    return tail[:min(cuts)] if cuts else tail


def _continues_to(doc: Document, line_no: int) -> str:
    """The start of the next line when the current sentence wraps onto it (wrapped prose)."""
    if line_no >= len(doc.lines) or line_no in doc.code_block_lines or line_no + 1 in doc.code_block_lines:
        return ""
    here = doc.line_text(line_no).rstrip()
    nxt = doc.line_text(line_no + 1).strip()
    if not here or not nxt or nxt[0] in "-*+#>|" or nxt[:2].rstrip(".)").isdigit() or here.endswith((".", "!", "?", ":", "|")):
        return ""
    return nxt[:WINDOW]


def _continued_from(doc: Document, line_no: int) -> str:
    """The previous line when the current one continues its sentence (wrapped prose)."""
    if line_no <= 1 or line_no in doc.code_block_lines:
        return ""
    here = doc.line_text(line_no).lstrip()
    prev = doc.line_text(line_no - 1).rstrip()
    if not prev or not here or here[0] in "-*+#>|" or here[:2].rstrip(".)").isdigit() or prev.endswith((".", "!", "?", ":", "|")):
        return ""
    return prev[-WINDOW:]


# A line that opens with a verdict label ("Bad — `x`", "**Wrong:** `x`", "- Avoid – `x`") shows
# what it labels as the example to reject, as the same label above a code block does.
LABELS = frozenset({"bad", "wrong", "avoid", "don't", "dont", "never", "incorrect", "insecure", "unsafe", "vulnerable",
                    "anti-pattern", "antipattern", "bad example", "do not", "not this", "forbidden", "rejected"})
_LABEL_ENDS = (":", " —", " –", " - ", "—", "–")


def _labelled_bad(line: str, col: int) -> bool:
    head = line[:col].lstrip(" \t-*+>")
    for mark in _LABEL_ENDS:
        i = head.find(mark)
        if 0 < i <= 24:
            label = head[:i].strip(" *_`").lower().replace("’", "'")
            rest = head[i + len(mark):]
            if label in LABELS and not any(b in rest for b in (". ", "; ", "! ", "? ", " | ")):
                return True
    return False


def counter_example(doc: Document, start: int) -> bool:
    """The line is labelled a bad example ("Bad:", "**Wrong:**"), or the code block holding it
    is framed as one: for entries whose own words carry a negation ("don't verify the
    signature"), where the clause-level negation check cannot be used."""
    line_no, col = doc.position(start)
    if line_no in doc.code_block_lines:
        return _negated_above_block(doc, line_no)
    return _labelled_bad(doc.line_text(line_no), col - 1)


def negated(doc: Document, start: int, end: int) -> bool:
    line_no, col = doc.position(start)
    line = doc.line_text(line_no)
    end_col = min(col - 1 + (end - start), len(line))
    if any(m in line for m in MARKS):
        return True
    if line_no not in doc.code_block_lines and _labelled_bad(line, col - 1):
        return True
    before = _clause_before(line, col - 1)
    if before == line[:col - 1]:
        joined = _continued_from(doc, line_no) + " " + before
        before = _clause_before(joined, len(joined))
    if _words(_past_purpose(before)) & BEFORE:
        return True
    after = _clause_after(line, end_col)
    if after == line[end_col:end_col + WINDOW] and len(after) < WINDOW:
        after = _clause_after(after + " " + _continues_to(doc, line_no), 0)
    if _words(after) & AFTER:
        return True
    if _REMOVED_SINCE.match(_next_clause(line, end_col, after).lstrip(" ;.,\u2014-")) is not None:
        return True  # "used `verify=False` against the sandbox; that was removed": a record of what is gone
    if _SUBJECT_REMOVED.match(after) is not None and _SUBJECT_LEAD.search(before) is not None:
        return True  # "the `verify=False` call in `client.py` was removed": the match is what was taken out
    if _GATED.search(before) is not None:
        return True  # "CI now fails on any new `verify=False`": named to be refused by a check
    if _narrated(doc, line_no, col - 1):
        return True  # "Context: with requests < 2.32, a Session that made one request with verify=False ...": what happened
    if line_no in doc.code_block_lines:
        return _negated_above_block(doc, line_no)
    return False


def _next_clause(line: str, end_col: int, after: str) -> str:
    """The text after the clause holding the match. A clause longer than the window ("someone set
    `verify=False` in the client to get past a certificate error, and it reached production for two
    days. It was reverted") ends at its own break, looked for a bounded way further on."""
    if len(after) < WINDOW:
        return line[end_col + len(after):]
    tail = line[end_col:end_col + 4 * WINDOW]
    cuts = [i for i in (tail.find(b) for b in (". ", "; ", "! ", "? ", " | ")) if i >= 0]
    return tail[min(cuts):] if cuts else ""


_REMOVED_SINCE = text_rx(r"(?i)^(?:and |but )?(?:that|this|it|which|both|they|those)\s+(?:was|were|has been|have been|got|is now|are now)\s+"
                         r"(?:removed|dropped|reverted|deleted|replaced|taken out|ripped out)\b")


def _negated_above_block(doc: Document, line_no: int) -> bool:
    """A comment line just above inside the block, or the prose just above the block, says it
    is a bad example ("# VULNERABLE:", "**Bad:**", "Always flag:")."""
    blocks = doc.code_block_lines
    for no in (line_no - 1, line_no - 2):
        if no in blocks:
            text = doc.line_text(no).strip()
            if text.startswith(("#", "//", "--", "/*", "*", "<!--")) and _words(text) & ABOVE_BLOCK:
                return True
    no = line_no
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


# An advisory named where it is fixed: "CVE-2024-0001 (tokens logged in full) is fixed in 3.1",
# "GHSA-xxxx-xxxx-xxxx (certificate checks skipped on redirect), patched by the upgrade". The
# words in the parentheses are the advisory's title, the vulnerability the entry removes; they
# mandate nothing. An identifier alone fixes nothing: "Per CVE-2024-0001, keep verification off"
# still reads as the convention it is.
_ADVISORY_ID = text_rx(r"(?i)(?:\bcve-\d{4}-\d{3,}|\bghsa(?:-[0-9a-z]{4}){3}|\b(?:rustsec|pysec|go|osv)-\d{4}-\d+|\bsnyk-[a-z]+-[\w-]+)"
                       r"[\s,]*$")
_FIXED = text_rx(r"(?i)^[^.;!?]{0,80}?\b(?:is|was|are|were|been|got|gets|get)?\s*(?:fixed|patched|resolved|addressed|remediated|mitigated|"
                 r"closed)\b|^[^.;!?]{0,40}?\b(?:affects?|affected|applies to)\s+(?:versions?\s+)?(?:<|before|below|up to|prior)")


# The fix named first, inside the parentheses: "(fixes CVE-2024-0001, tokens logged in full)",
# "(patches GHSA-xxxx-xxxx-xxxx: certificate checks skipped on redirect)". The match must follow the
# identifier directly, as its title; an order after it ("fixes CVE-2024-0001; now use verify=False")
# is a new clause and is read as one.
_FIX_THEN_ADVISORY = text_rx(r"(?i)^\s*(?:fix|fixes|fixed|patch|patches|patched|resolves|resolved|addresses|addressed|mitigates|mitigated|"
                             r"closes|closed|remediates|remediated)\s+(?:for\s+)?(?:the\s+)?"
                             r"(?:cve-\d{4}-\d{3,}|ghsa(?:-[0-9a-z]{4}){3}|(?:rustsec|pysec|go|osv)-\d{4}-\d+|snyk-[a-z]+-[\w-]+)"
                             r"\s*(?:[,:]|\s[—–-])?\s*[`'\"“]?$")


def names_advisory(doc: Document, start: int, end: int) -> bool:
    """The match is the title of a security advisory the sentence says is fixed."""
    text = doc.text
    lo = max(0, start - 200)
    open_at = text.rfind("(", lo, start)
    if open_at < 0 or ")" in text[open_at:start] or "\n\n" in text[open_at:start]:
        return False
    close = text.find(")", end, end + 200)
    if close < 0 or "\n\n" in text[end:close]:
        return False
    if _FIX_THEN_ADVISORY.search(text[open_at + 1:start]) is not None:
        return True
    if _ADVISORY_ID.search(text[max(0, open_at - 60):open_at]) is None:
        return False
    return _FIXED.search(text[close + 1:close + 160]) is not None


# The match as the subject of its own removal: "the `verify=False` call in `x.py` was removed".
_SUBJECT_LEAD = text_rx(r"(?i)\b(?:the|that|this|our|its|their|one|a)\s+[`'\"]?$")
_SUBJECT_REMOVED = text_rx(r"(?i)^[`'\"]?\s*(?:[\w-]+\s+){0,2}(?:in|from|on|at|of)?\s*(?:[`'\"][^`'\"\n]{1,80}[`'\"]|[\w./-]+)?\s*"
                           r"(?:was|were|has been|have been|got|is now|are now)\s+(?:removed|dropped|reverted|deleted|taken out|ripped out)\b")
# A check that refuses the shape from now on: "ruff rule S501 now fails CI on any new ...", "the hook blocks any ...".
_GATED = text_rx(r"(?i)\b(?:fails?|break|breaks|block|blocks|reject|rejects)\s+(?:the\s+)?(?:ci|build|check|checks|lint|pipeline|merge|commit|push)?\s*(?:on|for)?\s*(?:any|every|each)\s+(?:new\s+)?[`'\"]?$")
# Fields of a decision record that tell what happened, not what to do.
_NARRATIVE = frozenset({"context", "background", "problem", "root cause", "what happened", "incident", "symptom", "symptoms", "timeline"})
# A field label of a record: "Context:", "**Decision:**", "- Root cause:" (at a line's start or after a sentence's end).
_FIELD_IN_LINE = text_rx(r"(?i)(?:^|[.;]\s+|\*\*\s*)[-*+]?\s*[*_]{0,2}(context|background|problem|root cause|what happened|incident|symptoms?|timeline|"
                         r"decision|pattern|rule|convention|policy|consequences?|resolution|fix|action|lesson|status)[*_]{0,2}\s*:")


def _narrated(doc: Document, line_no: int, col: int) -> bool:
    """The match sits in a decision record's narrative field (Context:, Background:, Root cause:):
    the nearest field label before it, on its line ("**Context:** ... **Decision:** ...") or a few
    lines up within its paragraph, is a narrative one."""
    head = doc.line_text(line_no)[:col]
    labels = list(_FIELD_IN_LINE.finditer(head))
    if labels:
        return labels[-1].group(1).lower() in _NARRATIVE
    for k in range(line_no - 1, max(0, line_no - 4), -1):
        text = doc.line_text(k)
        if not text.strip() or text.lstrip().startswith("#"):
            return False
        labels = list(_FIELD_IN_LINE.finditer(text))
        if labels:
            return labels[-1].group(1).lower() in _NARRATIVE
    return False
