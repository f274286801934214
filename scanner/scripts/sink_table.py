"""The table of sinks and sources the script analyses read (scanner/data/script_sinks.yml).

One data file names, by language, the calls and commands that run code, start processes, reach
the network, write or delete files (sinks) and those that hand out downloads, decoded text,
credentials, secrets or the user's input (sources). Each analysis takes its own section through
the accessors below, and the gates in front of the costly passes (python.sink_gate) are computed
from the same entries, so a name added to the table is analysed and gated at once.

The file is read on first use and kept: every accessor returns an immutable copy built once.
"""
from __future__ import annotations

from functools import cache
from importlib import resources

import yaml

PATH = "data/script_sinks.yml"


@cache
def table() -> dict:
    text = resources.files("scanner").joinpath(PATH).read_text("utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 - a safe loader


def _at(path: tuple[str, ...]):
    node = table()
    for key in path:
        node = node[key]
    return node


@cache
def names(*path: str) -> frozenset[str]:
    """A list of the table as a set (membership tests)."""
    return frozenset(_at(path))


@cache
def ordered(*path: str) -> tuple[str, ...]:
    """A list of the table in its order (prefix tests, lists read in order)."""
    return tuple(_at(path))


def mapping(*path: str) -> dict[str, str]:
    return dict(_at(path))


def pattern(*path: str) -> str:
    """An RE2 pattern's text (compiled by the caller with matching.rx)."""
    return str(_at(path))
