"""The instruction model: what an agent file asks the agent to do, in any language.

    read_units(text) -> Reading          units (sentences, items, cells, front matter, comments,
                                         code lines) with the concepts found in each
    classify(reading) -> list[Intent]    the attacks the units form (exfiltration, concealment,
                                         delegation, approval, override-control, authority,
                                         permissions, override), each with a strength
    is_directive(text, hidden=False)     does a text order an attack? hidden=True for text a
                                         carrier decoded: any order to run a remote script, hide,
                                         drop instructions, give authority away or send outside
                                         counts (report it high; context never lowers it)
    read_document(doc) -> Reading        read_units over a Document, cached on it

The words are data: scanner/data/lexicons/<language>.yml.
"""
from __future__ import annotations

from .reading import Intent, Reading, UnitReading, classify, hiding_joined_to_action, is_directive, read_units
from .units import Unit, split_units

__all__ = ["Intent", "MAX_FRAMING_STEPS", "Reading", "conceals_action", "framing_steps", "unit_kind_at", "Unit", "UnitReading", "classify", "document_intents", "hiding_joined_to_action",
           "is_directive", "read_document", "read_units", "split_units"]


def read_document(doc, full: bool = False) -> Reading:
    store = doc.__dict__.setdefault("_rule_views", {})
    key = "intent:reading:full" if full else "intent:reading"
    if key not in store:
        store[key] = read_units(doc.text, full=full)
    return store[key]


def conceals_action(doc, offset: int) -> bool | None:
    """For a concealment phrase at an original offset of doc: is what it hides an action worth
    hiding (data moving out, an approval, a control switched off, a remote script)? None when
    the offset is in no unit the model reads (e.g. a script's string)."""
    reading = read_document(doc, full=True)
    i = reading.unit_at(reading.from_original(offset))
    if i < 0:
        return None
    return hiding_joined_to_action(reading, i)


def unit_kind_at(doc, offset: int) -> str:
    reading = read_document(doc)
    i = reading.unit_at(reading.from_original(offset))
    return reading.units[i].unit.kind if i >= 0 else ""


def document_intents(doc) -> list[Intent]:
    store = doc.__dict__.setdefault("_rule_views", {})
    if "intent:intents" not in store:
        store["intent:intents"] = classify(read_document(doc))
    return store["intent:intents"]


# What the framing can be worth at most: a caller whose own context is already worth this much
# need not ask (asking reads the whole document the first time).
MAX_FRAMING_STEPS = 2


def framing_steps(doc, start: int, end: int) -> int:
    """Severity steps the model's own framing of the unit at an original offset is worth (0-2):
    a refusal governing it, a quoted sample or detection wording (reading._lowering), or the
    phrase quoted on its own in its unit (text such as "ignore previous instructions", the quote
    and the phrase on different lines). A phrase-level rule asks this so that a quoted override
    under defensive framing reads as the model reads it. 0 when the offset is in no unit the
    model reads."""
    from .reading import _QUOTE_CHARS, _lowering

    reading = read_document(doc, full=True)
    pos, stop = reading.from_original(start), reading.from_original(end)
    i = reading.unit_at(pos)
    if i < 0:
        return 0
    steps = _lowering(reading, i)
    u = reading.units[i]
    if not steps:
        before, after = u.text[:max(0, pos - u.unit.start)], u.text[max(0, stop - u.unit.start):]
        opened = max(before.rfind(q) for q in _QUOTE_CHARS)
        closes = [k for k in (after.find(q) for q in _QUOTE_CHARS) if k >= 0]
        # Only the phrase itself is quoted: a sample, not a docstring or a quoted paragraph.
        if opened >= 0 and closes and len(before) - opened <= 3 and min(closes) <= 3 \
                and not before[max(0, opened - 2):opened + 1].endswith(('""', "''")):
            steps = 1
    return min(steps, MAX_FRAMING_STEPS)
