"""Repository files that a setting runs: a hook's script, a status line or helper command, a
task, a dev container's lifecycle command, a local MCP server, a file every terminal sources.

The agent map (data/agent_files.yml, `runs`) names the settings files and the keys whose strings
are commands. Each word of such a command that names a file of the repository is an agent file
too: the agent runs it whenever the setting fires, so its content matters as much as the
setting's. Settings are parsed as JSON (never executed); a file that does not parse names nothing
here (the settings rules report what it holds).
"""
from __future__ import annotations

import json
import posixpath
import re
from functools import lru_cache
from typing import Iterable, Iterator

from .catalog import GlobSet, _raw

# `$CLAUDE_PROJECT_DIR/`, `${CLAUDE_PLUGIN_ROOT:-.}/`, `${workspaceFolder}/`, `%CD%\`: a variable
# that stands for a folder at the start of a word. Bounded pattern over one short word.
_LEADING_VAR = re.compile(r"^(?:\$\{[A-Za-z_][A-Za-z0-9_]{0,60}(?::-[^}]{0,20})?\}|\$[A-Za-z_][A-Za-z0-9_]{0,60}|%[A-Za-z_]{1,30}%)[\\/]")
_QUOTES = "\"'`()[];&|<>"
MAX_WORDS = 2000  # per settings file


@lru_cache(maxsize=1)
def _spec() -> tuple[GlobSet, frozenset[str], int]:
    runs = _raw().get("runs") or {}
    return GlobSet(runs.get("configs") or ()), frozenset(runs.get("keys") or ()), int(runs.get("max_files", 200))


def is_runner(path: str) -> bool:
    """A settings file whose commands may run repository files."""
    return _spec()[0].matches(path)


def max_files() -> int:
    return _spec()[2]


def _strings(value, keys: frozenset[str], taken: bool = False) -> Iterator[str]:
    stack = [(value, taken)]
    while stack:
        v, t = stack.pop()
        if isinstance(v, str):
            if t:
                yield v
        elif isinstance(v, dict):
            stack.extend((x, t or k in keys) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, t) for x in v)


def _parse(text: str):
    try:
        return json.loads(text)
    except ValueError:
        pass
    # JSON with comments (VS Code's and Kiro's files): drop whole-line comments and retry.
    lines = [ln for ln in text.split("\n") if not ln.lstrip().startswith("//")]
    try:
        return json.loads("\n".join(lines))
    except ValueError:
        return None


def words(text: str) -> list[str]:
    """Path-like words of every command string in a settings file's text."""
    data = _parse(text)
    if data is None:
        return []
    out: list[str] = []
    for s in _strings(data, _spec()[1]):
        for w in s.replace("=", " ").split():
            w = w.strip(_QUOTES)
            w = _LEADING_VAR.sub("./", w)
            if not w or w.startswith("-") or "://" in w or "$" in w or "*" in w:
                continue
            if "/" in w or "\\" in w or "." in w.lstrip("."):
                out.append(w.replace("\\", "/"))
            if len(out) >= MAX_WORDS:
                return out
    return out


def named_files(config: str, text: str, files: set[str]) -> list[str]:
    """Repository files (from `files`) that the settings file `config` names in its commands:
    each word tried relative to the settings file's folder and to every folder above it."""
    found: list[str] = []
    bases = []
    d = posixpath.dirname(config)
    while True:
        bases.append(d)
        if not d:
            break
        d = posixpath.dirname(d)
    for w in words(text):
        if w.startswith("/"):
            continue
        for base in bases:
            p = posixpath.normpath(posixpath.join(base, w))
            if p.startswith("../") or p == "..":
                break
            if p in files and p != config:
                if p not in found:
                    found.append(p)
                break
    return found


def referenced(configs: Iterable[tuple[str, str]], files: set[str]) -> list[tuple[str, str]]:
    """(file, settings file that runs it) for every (settings path, text) in `configs`."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for config, text in configs:
        for p in named_files(config, text, files):
            if p not in seen:
                seen.add(p)
                out.append((p, config))
    return out
