"""Instruction files a setting names (OpenCode's `instructions`, Aider's `read`, Gemini CLI's
`contextFileName`, Codex's `project_doc_fallback_filenames`): agents load them whatever their
name or place, so they are scanned as instruction files. Which settings and keys is data
(data/agent_files.yml, `named_by_settings`). Settings are parsed (JSON, YAML, TOML), never run.
"""
from __future__ import annotations

import posixpath
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import yaml

from .agent_map import GlobSet, _raw
from .runs import _parse as parse_json

AGENT_DOT_FOLDERS = (".gemini", ".qwen", ".codex", ".claude", ".cursor", ".vscode")
MAX_VALUES = 200  # per settings file


@dataclass(frozen=True)
class Spec:
    config: GlobSet
    keys: frozenset[str]
    form: str  # "paths" or "names"


@lru_cache(maxsize=1)
def specs() -> tuple[Spec, ...]:
    return tuple(Spec(GlobSet([s["config"]]), frozenset(s["keys"]), s.get("form", "paths"))
                 for s in _raw().get("named_by_settings") or ())


def spec_of(path: str) -> Spec | None:
    return next((s for s in specs() if s.config.matches(path)), None)


def _load(path: str, text: str):
    low = path.lower()
    try:
        if low.endswith((".yml", ".yaml")):
            return yaml.safe_load(text)
        if low.endswith(".toml"):
            return tomllib.loads(text)
    except (yaml.YAMLError, tomllib.TOMLDecodeError, ValueError):
        return None
    return parse_json(text)


def values(path: str, text: str, keys: frozenset[str]) -> list[str]:
    """Strings under `keys` anywhere in the settings file (a string or a list of strings)."""
    data = _load(path, text)
    out: list[str] = []
    stack = [data]
    while stack and len(out) < MAX_VALUES:
        v = stack.pop()
        if isinstance(v, dict):
            for k, x in v.items():
                if k in keys:
                    out.extend(s for s in (x if isinstance(x, list) else [x]) if isinstance(s, str))
                else:
                    stack.append(x)
        elif isinstance(v, list):
            stack.extend(v)
    return out[:MAX_VALUES]


def project_of(config: str) -> str:
    """The folder a settings file speaks for: its own, or the one above an agent's dot-folder."""
    d = posixpath.dirname(config)
    if posixpath.basename(d).lower() in AGENT_DOT_FOLDERS:
        d = posixpath.dirname(d)
    return d


def named(configs: Iterable[tuple[str, str]], files: list[str]) -> list[tuple[str, str]]:
    """(file, settings file naming it) for every (settings path, text) in `configs`."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for config, text in configs:
        spec = spec_of(config)
        if spec is None:
            continue
        project = project_of(config)
        prefix = project + "/" if project else ""
        vals = [v for v in values(config, text, spec.keys) if v and "://" not in v]
        if not vals:
            continue
        if spec.form == "names":
            names = {posixpath.basename(v).lower() for v in vals}
            chosen = [f for f in files if f.startswith(prefix) and posixpath.basename(f).lower() in names]
        else:
            globs = []
            for v in vals:
                rel = posixpath.normpath(posixpath.join(project, v))
                if rel == ".." or rel.startswith("../") or v.startswith(("/", "~")):
                    continue
                globs.append(rel)
            if not globs:
                continue
            matcher = GlobSet(globs)
            chosen = [f for f in files if f.startswith(prefix) and matcher.matches(f)]
        for f in chosen:
            if f not in seen and f != config:
                seen.add(f)
                out.append((f, config))
    return out
