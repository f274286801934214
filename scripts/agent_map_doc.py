"""Write docs/agent-map.md from scanner/data/agent_files.yml: every convention, per agent, with
how the agent loads it and the documentation that says so.   python scripts/agent_map_doc.py"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from scanner.agent_map import _raw  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "agent-map.md")


def render() -> str:
    raw = _raw()
    lines = ["# The agent map", "",
             "Generated from [`scanner/data/agent_files.yml`](../scanner/data/agent_files.yml) by",
             "`python scripts/agent_map_doc.py`; do not edit by hand.", "",
             "Every file below is scanned as an agent file. `load` is how the agent finds it (`any-depth`: in",
             "every folder; `root`: at the top of the opened workspace; `folder`: every file under that folder;",
             "`named`: only when configuration names it). Conventions that an agent reads at the top of a",
             "workspace are scanned at any depth all the same: any folder of a monorepo can be opened as a",
             "workspace of its own.", ""]
    for agent_id, agent in (raw.get("agents") or {}).items():
        lines += [f"## {agent.get('name', agent_id)}", "", "| path | kind | load | documented at |", "|---|---|---|---|"]
        for e in agent.get("entries") or ():
            case = " (exact case)" if e.get("case") == "sensitive" else ""
            lines.append(f"| `{e['glob']}`{case} | {e['kind']} | {e.get('load', '')} | {e.get('doc', '')} |")
        lines.append("")
    for lay in raw.get("layouts") or ():
        lines += [f"## Layout: {lay['name']}", "",
                  f"A folder holding {', '.join('`' + m + '`' for m in lay['markers'])} makes these paths below it agent files "
                  f"({lay.get('doc', '')}); its manifest may name more: "
                  + ", ".join(f"`{k}` ({v})" for k, v in (lay.get("manifest_paths") or {}).items()) + ".", "",
                  "| path below the folder | kind |", "|---|---|"]
        lines += [f"| `{e['glob']}` | {e['kind']} |" for e in lay["entries"]]
        lines.append("")
    runs = raw.get("runs") or {}
    if runs:
        lines += ["## Files settings run", "",
                  "Words of the commands under " + ", ".join(f"`{k}`" for k in runs.get("keys") or ()) +
                  " in these settings files that name a repository file make that file an agent file too "
                  f"({runs.get('doc', '')}): " + ", ".join(f"`{c}`" for c in runs.get("configs") or ()) + ".", ""]
    named = raw.get("named_by_settings") or []
    if named:
        lines += ["## Instruction files that settings name", "",
                  "These settings name instruction files an agent loads whatever their name or place; each named file is",
                  "scanned as an instruction file (`paths`: paths or globs from the project folder; `names`: file names",
                  "looked for in every folder).", "", "| settings file | keys | form | documented at |", "|---|---|---|---|"]
        lines += [f"| `{n['config']}` | {', '.join('`' + k + '`' for k in n['keys'])} | {n.get('form', 'paths')} | {n.get('doc', '')} |"
                  for n in named]
        lines.append("")
    lines += ["## `@path` imports", "",
              "Files that instruction files import with `@path` (up to five hops) are scanned as instructions; imports of",
              "credential files, of paths outside the repository (other than `~/.claude/`) and of URLs are findings",
              "(IG960-IG962). See [`scanner/data/imports.yml`](../scanner/data/imports.yml).", ""]
    return "\n".join(lines)


def main() -> int:
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write(render())
    print(f"wrote {os.path.normpath(OUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
