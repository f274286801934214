"""The instruction model: what an agent file asks the agent to do, in any language.

    read_units(text) -> Reading          units (sentences, items, cells, front matter, comments,
                                         code lines) with the concepts found in each
    classify(reading) -> list[Intent]    the attacks the units form (exfiltration, concealment,
                                         delegation, approval, override-control, authority,
                                         permissions, override), each with a strength
    is_directive(text) -> bool           does a (decoded, hidden) text order an attack?
    read_document(doc) -> Reading        read_units over a Document, cached on it

The words are data: scanner/data/lexicons/<language>.yml.
"""
from __future__ import annotations

from .reading import Intent, Reading, UnitReading, classify, hiding_joined_to_action, is_directive, read_units
from .units import Unit, split_units

__all__ = ["Intent", "Reading", "Unit", "UnitReading", "classify", "document_intents", "hiding_joined_to_action",
           "is_directive", "read_document", "read_units", "split_units"]


def read_document(doc) -> Reading:
    store = doc.__dict__.setdefault("_rule_views", {})
    if "intent:reading" not in store:
        store["intent:reading"] = read_units(doc.text)
    return store["intent:reading"]


def document_intents(doc) -> list[Intent]:
    store = doc.__dict__.setdefault("_rule_views", {})
    if "intent:intents" not in store:
        store["intent:intents"] = classify(read_document(doc))
    return store["intent:intents"]
