"""Step outputs through `$GITHUB_OUTPUT`, using the multiline form with a random delimiter.

`name<<DELIM\nvalue\nDELIM`: a value can never end the block early because the delimiter is
random and checked not to occur in it (GitHub's own toolkit does the same).
"""
from __future__ import annotations

import os
import secrets
from typing import Mapping


def format_output(name: str, value: str) -> str:
    if not name or any(c in name for c in "\r\n=<"):
        raise ValueError(f"bad output name {name!r}")
    while True:
        delimiter = f"ghadelimiter_{secrets.token_hex(16)}"
        if delimiter not in value and delimiter not in name:
            break
    return f"{name}<<{delimiter}\n{value}\n{delimiter}\n"


def write_outputs(values: Mapping[str, str], env: Mapping[str, str] | None = None) -> str | None:
    """Append the outputs to $GITHUB_OUTPUT; returns the file used, or None when unset."""
    env = os.environ if env is None else env
    path = env.get("GITHUB_OUTPUT")
    body = "".join(format_output(k, str(v)) for k, v in values.items())
    if not path:
        return None
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(body)
    return path


def parse_outputs(text: str) -> dict[str, str]:
    """Read a $GITHUB_OUTPUT file back (both the name=value and the multiline forms); for tests."""
    out: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            j = lines.index(delimiter, i + 1)
            out[name] = "\n".join(lines[i + 1:j])
            i = j + 1
            continue
        if "=" in line:
            name, value = line.split("=", 1)
            out[name] = value
        i += 1
    return out
