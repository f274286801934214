"""`.rune/` agent state: the checks behind the IG8xx rules and the CLEAN/SUSPICIOUS/TAINTED report.

Agents such as Rune write `.rune/decisions.md` and `.rune/conventions.md` themselves and read
them back in the next session, so these files are a memory-poisoning target.
"""
from __future__ import annotations

import posixpath


def is_rune_path(path: str) -> bool:
    """A file inside a `.rune/` folder at any depth."""
    return "/.rune/" in "/" + path.replace("\\", "/").lower()


# Folders of notes an agent writes itself and reads back every session: Rune's `.rune/` and the
# Cline Memory Bank (`memory-bank/`, https://docs.cline.bot/features/memory-bank). The IG8xx
# memory-poisoning rules read both; the rune report and authorship check stay on `.rune/`.
MEMORY_FOLDERS = ("/.rune/", "/memory-bank/")


def is_memory_path(path: str) -> bool:
    """A file inside an agent-memory folder (`.rune/`, `memory-bank/`) at any depth."""
    p = "/" + path.replace("\\", "/").lower()
    return any(f in p for f in MEMORY_FOLDERS)


def basename(path: str) -> str:
    return posixpath.basename(path.replace("\\", "/")).lower()


def _json_strings(line: str) -> list[tuple[str, bool]]:
    """The JSON string literals of one line, in order, each with whether it is a key (a `:` follows).
    One pass over the characters; an unterminated string runs to the end of the line."""
    out: list[tuple[str, bool]] = []
    i, n = 0, len(line)
    while i < n:
        if line[i] != '"':
            i += 1
            continue
        j = i + 1
        buf: list[str] = []
        while j < n and line[j] != '"':
            if line[j] == "\\" and j + 1 < n:
                nxt = line[j + 1]
                buf.append({"n": " ", "t": " ", "r": " "}.get(nxt, nxt))
                j += 2
                continue
            buf.append(line[j])
            j += 1
        k = j + 1
        while k < n and line[k] in " \t":
            k += 1
        out.append(("".join(buf), k < n and line[k] == ":"))
        i = j + 1
    return out


def state_as_prose(text: str) -> str:
    """A JSON state file an agent keeps in its memory folder (`.rune/state.json`: its open tasks,
    its "next steps") read as the agent reads it, line for line (line numbers kept): each string
    value a list item of prose ("- key: value", "- value"), a key that opens a list or object a
    label, every other line blank. The agent acts on these values next session; read as JSON, a
    value is a quoted sample, never an order."""
    out: list[str] = []
    for line in text.split("\n"):
        strings = _json_strings(line)
        keys = [s for s, is_key in strings if is_key]
        values = [s for s, is_key in strings if not is_key]
        if values:
            out.append("- " + (_key_words(keys[0]) + ": " if keys else "") + " ".join(values))
        elif keys:
            out.append(_key_words(keys[0]) + ":")
        else:
            out.append("")
    return "\n".join(out)


def _key_words(key: str) -> str:
    """A key as the words it spells: `required_approvals`, `agents-may-merge` read as prose."""
    return key.replace("_", " ").replace("-", " ") if " " not in key else key


def _yaml_scalar(value: str) -> str:
    """A YAML scalar as its text: quotes taken off, a trailing comment dropped."""
    v = value.strip()
    if v[:1] in ("'", '"'):
        q = v[0]
        end = v.find(q, 1)
        return v[1:end] if end > 0 else v[1:]
    k = v.find(" #")
    return (v[:k] if k >= 0 else v).strip()


def yaml_state_as_prose(text: str) -> str:
    """A YAML state file in the agent's memory folder (`.rune/state.yaml`: its policy, its open
    tasks) read as the agent reads it, line for line (line numbers kept), as state_as_prose reads
    JSON: `key: value` a list item "- key words: value" (the key's underscores read as spaces), a
    key that opens a block a label, a list entry or a comment a list item, a block scalar's lines
    the prose they are. No YAML is loaded: each line is read on its own."""
    out: list[str] = []
    for line in text.split("\n"):
        t = line.strip()
        if not t or t in ("---", "..."):
            out.append("")
            continue
        if t.startswith("#"):
            t = t.lstrip("#").strip()
            out.append("- " + t if t else "")
            continue
        item = t.startswith("- ") or t == "-"
        if item:
            t = t[1:].strip()
        k = t.find(": ")
        if t.endswith(":") and " " not in t.rstrip(":").strip("'\""):
            out.append(_key_words(t.rstrip(":").strip("'\"")) + ":")
        elif k > 0 and " " not in t[:k].strip("'\""):
            value = _yaml_scalar(t[k + 2:])
            key = _key_words(t[:k].strip("'\""))
            out.append("- " + key + (": " + value if value and value not in ("|", ">", "|-", ">-") else ":"))
        else:
            out.append(("- " if item else "") + _yaml_scalar(t) if item else t)
    return "\n".join(out)
