"""The package's own data files (scanner/data/...): read as text, or parsed as YAML.

Only the package's data goes through here, never scanned text. PyYAML's C loader parses the
agent map and the lexicons about five times faster than the pure-Python one, and start-up
(serial, before a big scan forks its workers; every pre-commit run) reads a dozen of them.
"""
from __future__ import annotations

from importlib import resources
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def data_text(*parts: str) -> str:
    return resources.files("scanner").joinpath("data", *parts).read_text("utf-8")


def data_yaml(*parts: str) -> Any:
    return parse_yaml(data_text(*parts))


def parse_yaml(text: str) -> Any:
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader (C or Python)
