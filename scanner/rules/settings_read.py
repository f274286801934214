"""Agent settings read by meaning: which file is which agent's settings and its parse (JSON,
JSONC, YAML, TOML; never evaluated), and where a value sits in the text.

Commands found in settings are graded by the one command grader, scanner/scripts/command_grader
(through mcp_supply.grade_launch, which adds the package names a launcher fetches).
"""
from __future__ import annotations

import json
import posixpath
import shlex
from functools import lru_cache
from typing import Any, Iterator

import yaml

from ..document import Document
from ..matching import rx
from ..packaged import data_yaml


# -- data -----------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def data(name: str) -> dict:
    return data_yaml(name) or {}


def keys() -> dict:
    return data("settings_keys.yml")


# -- which file is this ---------------------------------------------------------------------
def settings_role(path: str) -> str:
    """The settings format a path holds ('' when none these rules read)."""
    p = path.replace("\\", "/").lower()
    name = posixpath.basename(p)
    parent = posixpath.basename(posixpath.dirname(p))
    grand = posixpath.basename(posixpath.dirname(posixpath.dirname(p)))
    if parent in (".claude", ".factory") and name.startswith("settings") and name.endswith(".json"):
        return "claude"
    if parent == ".vscode" and name == "settings.json":
        return "vscode"
    if parent == ".vscode" and name == "tasks.json":
        return "vscode-tasks"
    if parent == ".vscode" and name == "launch.json":
        return "vscode-launch"
    if parent in (".gemini", ".qwen", ".iflow") and name == "settings.json":
        return "gemini"
    if name.endswith(".toml") and "/.gemini/commands/" in "/" + p:
        return "gemini-command"
    if name == "environment.json" and parent == ".cursor":
        return "cursor-env"
    if name in ("cli.json", "cli-config.json") and parent == ".cursor":
        return "cursor-cli"
    if name == "plugin.json" and parent == ".claude-plugin":
        return "claude-plugin"
    if name == "marketplace.json" and parent == ".claude-plugin":
        return "claude-marketplace"
    if name == "gemini-extension.json":
        return "gemini-extension"
    if parent == ".continue" and name in ("config.yaml", "config.yml", "config.json") or grand == ".continue" and name.endswith((".yaml", ".yml", ".json")):
        return "continue"
    if name in ("copilot-setup-steps.yml", "copilot-setup-steps.yaml") and parent == "workflows":
        return "copilot-setup"
    if (name == "hooks.json" and parent in (".cursor", ".windsurf", ".codeium", ".openhands", "hooks")) or (parent == "hooks" and name.endswith(".json") and grand in (".github", ".copilot", ".windsurf", ".cursor")):
        return "hooks"
    if name.endswith(".kiro.hook") or (parent == "hooks" and grand == ".kiro" and name.endswith((".json", ".hook"))):
        return "kiro-hook"
    if name == "devcontainer.json" or name == ".devcontainer.json":
        return "devcontainer"
    if name == "package.json" and "/node_modules/" not in "/" + p:
        return "package"
    if name == "config.toml" and parent == ".codex":
        return "codex"
    if name == "settings.json" and parent == ".zed":
        return "zed"
    if name in ("opencode.json", "opencode.jsonc"):
        return "opencode"
    if name in (".mcp.json", "mcp.json", "claude_desktop_config.json", "mcp_config.json", "mcp_settings.json", "cline_mcp_settings.json"):
        return "mcp"
    return ""


def load(doc: Document) -> tuple[Any, str | None]:
    """(data, error) for a settings file: JSON/JSONC through agent_config's parser, TOML
    through tomllib, a Kiro hook as JSON. Never evaluated."""
    name = doc.path.lower()
    if name.endswith((".yaml", ".yml")):
        def parse_yaml() -> tuple[Any, str | None]:
            try:
                return yaml.safe_load(doc.text), None
            except (yaml.YAMLError, ValueError, RecursionError) as exc:
                return None, str(exc)[:200]
        return doc.memo("yaml", parse_yaml)
    if name.endswith(".toml"):
        def parse_toml() -> tuple[Any, str | None]:
            import tomllib
            try:
                return tomllib.loads(doc.text), None
            except (ValueError, RecursionError) as exc:
                return None, str(exc)[:200]
        return doc.memo("toml", parse_toml)
    return parsed(doc)


def locate(doc: Document, *needles: str, after: int = -1) -> tuple[int, int]:
    """Offsets of the first needle found in the text (as written, or JSON-escaped), whole before
    its first 200 characters: hooks that share a long prefix each get their own line. `after`:
    an occurrence past that offset is preferred (the same command written twice), else the first."""
    text = doc.text
    for needle in needles:
        if not needle:
            continue
        forms = (needle, json.dumps(needle, ensure_ascii=False)[1:-1], json.dumps(needle)[1:-1])
        for probe in [f for f in forms] + [f[:200] for f in forms if len(f) > 200]:
            i = text.find(probe, after + 1) if after >= 0 else -1
            if i < 0:
                i = text.find(probe)
            if i >= 0:
                return i, i + min(len(probe), 200)
    return 0, 0


_STRING = rx(r'"((?:[^"\\\n]|\\.){8,})"')


def string_literals(doc: Document, limit: int = 2000) -> Iterator[tuple[int, int, str]]:
    """(start, end, value) of the quoted strings of a file that did not parse: a lenient reader
    (VS Code's JSONC parser recovers from errors) may still run what they hold. Byte offsets."""
    for n, m in enumerate(_STRING.finditer(doc.raw_bytes)):
        if n >= limit:
            break
        raw = m.group(1).decode("utf-8", "replace")
        try:
            value = json.loads('"' + raw + '"')
        except ValueError:
            value = raw
        yield m.start(), m.end(), value


def commands_of(value: Any) -> list[str]:
    """Command lines in a settings value: a string, an argv list, or an object of named
    commands (devcontainer lifecycle form)."""
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        parts = [v for v in value if isinstance(v, (str, int, float))]
        return [" ".join(shlex.quote(str(p)) if " " in str(p) and i == 0 else str(p) for i, p in enumerate(parts))] if parts else []
    if isinstance(value, dict):
        out: list[str] = []
        for v in list(value.values())[:50]:
            out.extend(commands_of(v))
        return out
    return []


# -- JSONC -----------------------------------------------------------------------------
_JSONC_TOKEN = rx(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*(?:[^*]|\*+[^*/])*\*+/|,\s*[}\]]')


def strip_jsonc(text: str) -> str:
    """Remove // and /* */ comments outside strings and trailing commas (RE2, linear).

    Removed characters become spaces (newlines kept), so the JSON parser's error positions
    still point into the original text.
    """
    data = text.encode("utf-8", "surrogatepass")
    out: list[bytes] = []
    last = 0
    for m in _JSONC_TOKEN.finditer(data):
        token = m.group(0)
        if token.startswith(b'"'):
            continue  # strings are kept whole: "//" inside a string is not a comment
        out.append(data[last:m.start()])
        if token.startswith(b","):
            out.append(b" " + token[1:])
        else:
            out.append(bytes(b if b == 10 else 32 for b in token))
        last = m.end()
    out.append(data[last:])
    return b"".join(out).decode("utf-8", "surrogatepass")


def parsed(doc: Document) -> tuple[Any, str | None]:
    """(data, error): the JSONC document, or None and why it did not parse."""
    def parse() -> tuple[Any, str | None]:
        text = doc.text[1:] if doc.text.startswith("\ufeff") else doc.text  # editors accept a BOM
        try:
            return json.loads(text), None  # plain JSON: the C parser, no stripping
        except (ValueError, RecursionError):
            pass
        try:
            return json.loads(strip_jsonc(text)), None
        except (ValueError, RecursionError) as exc:
            return None, str(exc)[:200]
    return doc.memo("jsonc", parse)


_SECRET_VAR = rx(r"\$(?:env:)?\{?([a-z_][a-z0-9_]*)")


def _secret_vars(low: str) -> list[str]:
    """Secret-looking variable names (`$GITHUB_TOKEN`, `${env:API_KEY}`) in lower-cased text."""
    from ..scripts.common import is_secret_env_name
    return [m.group(1).decode() for m in _SECRET_VAR.finditer(low.encode("utf-8", "surrogatepass"))
            if is_secret_env_name(m.group(1).decode())]


def volume_source(spec: str) -> str:
    """The host side of a docker `-v`/`--mount` spec: `src:dst[:opts]`, `type=bind,source=...`,
    `${localEnv:HOME}/.ssh:/x` (colons inside `${...}` are not separators), `C:\\x:/y`."""
    spec = spec.strip().strip("'\"")
    if spec.startswith(("type=", "src=", "source=")) or ("=" in spec.split(",")[0] and "," in spec):
        parts = dict(p.split("=", 1) for p in spec.split(",") if "=" in p)
        return parts.get("source") or parts.get("src") or ""
    depth, start = 0, 2 if len(spec) > 2 and spec[1] == ":" and spec[0].isalpha() else 0
    for i in range(start, len(spec)):
        ch = spec[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == ":" and depth == 0:
            return spec[:i]
    return spec
