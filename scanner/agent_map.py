"""Which paths are agent files: the agent map in data/agent_files.yml, plugin layouts, and skill
folders.

A skill folder is any folder holding a SKILL.md; every file inside it is a skill file. A plugin
folder (one holding `.claude-plugin/plugin.json`) makes its commands, agents, skills, hooks and
MCP configuration agent files (the `layouts` of the data file).
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable


from .matching import Regex, RegexSet
from .packaged import data_yaml


def glob_to_regex(glob: str, case_sensitive: bool = False) -> str:
    """Translate a path glob (`**`, `*`, `?`, `[...]`-free) to an anchored RE2 pattern,
    case-insensitive unless asked."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            ch = glob[i]
            out.append("\\" + ch if not ch.isalnum() and ch != "/" else ch)
            i += 1
    return ("(?s)^" if case_sensitive else "(?is)^") + "".join(out) + "$"


def match_bytes(path: str) -> bytes:
    """The path as RE2 matches it: UTF-8, with each byte that is not UTF-8 (a surrogate escape
    from os.fsdecode) as '?', so that `*` and `**` still match across it (RE2's `.` does not
    match invalid UTF-8) and no glob can match it literally."""
    return path.encode("utf-8", "replace")


class GlobSet:
    """A set of globs matched in one linear-time pass."""

    def __init__(self, globs: Iterable[str]) -> None:
        self.globs = tuple(globs)
        # glob_to_regex gives "(?is)^...$"; strip the flags to join the alternatives under one.
        alternatives = "|".join(f"(?:{glob_to_regex(g)[len('(?is)'):]})" for g in self.globs)
        self._regex = Regex("(?is)" + alternatives) if self.globs else None

    def matches(self, path: str) -> bool:
        return bool(self._regex and self._regex.search(match_bytes(path)))


@dataclass(frozen=True)
class Entry:
    glob: str
    kind: str
    agent: str
    regex: Regex
    load: str = "any-depth"
    doc: str = ""
    example: str = ""

    @property
    def specificity(self) -> int:
        """Literal (non-wildcard) characters: when several entries match, the most specific wins."""
        return sum(1 for ch in self.glob if ch not in "*?")


@dataclass(frozen=True)
class Layout:
    """A folder layout that makes its sub-paths agent files when the folder holds a marker file
    (a Claude Code plugin: `.claude-plugin/plugin.json`)."""

    name: str
    agent: str
    doc: str
    markers: tuple[str, ...]
    entries: tuple[Entry, ...]
    manifest: str = ""  # the marker whose keys name more component paths
    manifest_paths: tuple[tuple[str, str], ...] = ()  # (manifest key, kind)
    marketplace: str = ""  # the marker that lists plugins in folders of their own (`source`)

    def classify(self, rel: str) -> str | None:
        """The kind of a path relative to the layout's folder: the most specific entry wins."""
        data = rel.encode("utf-8", "surrogateescape")
        matched = _layout_set(self.name).match(data)
        if matched is None:
            matched = [i for i, e in enumerate(self.entries) if e.regex.search(data) is not None]
        if not matched:
            return None
        return self.entries[min(matched, key=lambda i: (-self.entries[i].specificity, i))].kind


def _entry(e: dict, agent: str) -> Entry:
    # `case: sensitive`: a name that is common in another case for other files (docs/agent.md).
    sensitive = e.get("case") == "sensitive"
    return Entry(e["glob"], e["kind"], e.get("agent", agent), Regex(glob_to_regex(e["glob"], sensitive)),
                 e.get("load", "any-depth"), e.get("doc", ""), e.get("example", ""))


@lru_cache(maxsize=1)
def _raw() -> dict:
    return data_yaml("agent_files.yml")


@lru_cache(maxsize=1)
def builtin_entries() -> tuple[Entry, ...]:
    """Every convention of data/agent_files.yml in file order: each agent's entries, then the
    ungrouped `entries` list (this scanner's own files, entries appended before being filed)."""
    raw = _raw()
    out: list[Entry] = []
    for agent_id, agent in (raw.get("agents") or {}).items():
        out.extend(_entry(e, agent_id) for e in agent.get("entries") or ())
    out.extend(_entry(e, e.get("agent", "generic")) for e in raw.get("entries") or ())
    return tuple(out)


@lru_cache(maxsize=1)
def layouts() -> tuple[Layout, ...]:
    return tuple(Layout(l["name"], l.get("agent", "generic"), l.get("doc", ""), tuple(l["markers"]),
                        tuple(_entry(e, l.get("agent", "generic")) for e in l["entries"]),
                        l.get("manifest", ""), tuple((l.get("manifest_paths") or {}).items()),
                        l.get("marketplace", ""))
                 for l in _raw().get("layouts") or ())


def _local(v: object) -> str | None:
    """A path inside the plugin folder, normalised, or None (a URL, outside, not a string)."""
    if not isinstance(v, str) or "://" in v:
        return None
    rel = posixpath.normpath(v.replace("${CLAUDE_PLUGIN_ROOT}", ".", 1) if v.startswith("${CLAUDE_PLUGIN_ROOT}") else v)
    if rel == ".." or rel.startswith("../") or posixpath.isabs(rel):
        return None
    return rel


def _keyed(layout: Layout, data: dict, base: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key, kind in layout.manifest_paths:
        value = data.get(key)
        for v in value if isinstance(value, list) else [value]:
            rel = _local(v)
            if rel is not None and rel != ".":
                out.append((posixpath.normpath(posixpath.join(base, rel)), kind))
    return out


def manifest_components(layout: Layout, manifest_text: str, marketplace: bool = False) -> list[tuple[str, str]]:
    """(path relative to the layout folder, kind) for each component a manifest names at a path of
    its own choosing (`"agents": "./custom/agents/"`). A marketplace lists plugins whose `source`
    is a folder of the repository: each such folder gets the layout's default component folders
    and the paths its entry names. Paths that leave the folder, URLs and other sources are
    ignored; a manifest that is not JSON names nothing (its own scan reports what it holds)."""
    import json

    try:
        data = json.loads(manifest_text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    if not marketplace:
        return _keyed(layout, data, ".")
    out: list[tuple[str, str]] = []
    plugins = data.get("plugins")
    for entry in plugins if isinstance(plugins, list) else ():
        if not isinstance(entry, dict):
            continue
        src = _local(entry.get("source"))
        if src is None:
            continue
        for e in layout.entries:  # the default folders, below the plugin's own folder
            glob = e.glob[:-3] if e.glob.endswith("/**") else e.glob
            if "*" not in glob:
                out.append((posixpath.normpath(posixpath.join(src, glob)), e.kind))
        out.extend(_keyed(layout, entry, src))
    return [(p, k) for p, k in out if p not in (".", "")]


@lru_cache(maxsize=1)
def _marker_names() -> dict[str, tuple[str, Layout]]:
    """Lower-cased marker path -> (its own case, layout)."""
    return {m.lower(): (m, lay) for lay in layouts() for m in lay.markers}


@lru_cache(maxsize=1)
def _specificity() -> tuple[int, ...]:
    return tuple(e.specificity for e in builtin_entries())


@lru_cache(maxsize=1)
def _entries_set() -> RegexSet:
    """All built-in globs in one RE2 set: one pass per path tells which entries match, without
    building a match group per entry (that cost ten times the pass itself)."""
    return RegexSet(e.regex.pattern for e in builtin_entries())


@lru_cache(maxsize=1)
def layout_top_names() -> GlobSet:
    """Names a layout gives a kind at the top of its folder (`.lsp.json`): a walk lists them
    before the marker's sub-folder, so discovery keeps them aside until it knows."""
    return GlobSet(e.glob for lay in layouts() for e in lay.entries if "/" not in e.glob)


class Roots(frozenset):
    """The skill roots found among some paths (a frozenset of folders, '' for the top), carrying
    the layout roots (plugin folders) found among the same paths in `.layouts`: folder -> layout
    name. Every caller that computes skill roots from a path list gets plugin layouts with them."""

    layouts: dict[str, str]

    def __new__(cls, skills: Iterable[str] = (), layout_roots: dict[str, str] | None = None):
        obj = super().__new__(cls, skills)
        obj.layouts = dict(layout_roots or {})
        return obj

    def __reduce__(self):
        return (Roots, (list(self), self.layouts))

    @property
    def plugins(self) -> frozenset[str]:
        return frozenset(self.layouts)


def layout_roots(paths: Iterable[str]) -> dict[str, str]:
    """Folders holding a layout's marker file (`x/.claude-plugin/plugin.json` -> `x`), with the
    layout's name."""
    markers = _marker_names()
    found: dict[str, str] = {}
    for p in paths:
        low = p.lower()
        for m, (_, lay) in markers.items():
            if low == m or low.endswith("/" + m):
                found[p[: len(p) - len(m)].rstrip("/")] = lay.name
    return found


def marker_dirs(dirs: Iterable[str]) -> list[str]:
    """The folders to list, besides `dirs`, so that skill_roots() of the listing also finds the
    layouts (plugins) rooted at any of `dirs`: their marker sub-folders (`d/.claude-plugin`).
    For callers that list a few folders instead of the whole tree (the Action's changed scope)."""
    subs = sorted({posixpath.dirname(m) for lay in layouts() for m in lay.markers})
    return [f"{d}/{s}" if d else s for d in dirs for s in subs]


def skill_roots(paths: Iterable[str]) -> Roots:
    """Folders (repository-relative, '' for the root) that hold a SKILL.md; `.layouts` also names
    the plugin folders among the same paths."""
    paths = list(paths)
    roots = set()
    for p in paths:
        if posixpath.basename(p).lower() == "skill.md":
            roots.add(posixpath.dirname(p))
    return Roots(roots, layout_roots(paths))


def skill_root_of(path: str, roots: frozenset[str]) -> str | None:
    d = posixpath.dirname(path)
    while True:
        if d in roots:
            return d
        if not d:
            return None
        d = posixpath.dirname(d)


@lru_cache(maxsize=None)
def _layout_set(name: str) -> RegexSet:
    lay = next(lay for lay in layouts() if lay.name == name)
    return RegexSet(e.regex.pattern for e in lay.entries)


@lru_cache(maxsize=1)
def _layout_index() -> tuple[dict[str, Layout], frozenset[str]]:
    """Layouts by name, and the first path segment (lower-cased) of every layout entry: a path
    below a plugin folder has one of them right after the folder."""
    firsts = frozenset(e.glob.split("/", 1)[0].lower() for lay in layouts() for e in lay.entries)
    return {lay.name: lay for lay in layouts()}, firsts


def layout_kind(path: str, roots: frozenset[str]) -> str | None:
    """The kind a layout (plugin) gives a path below its root, or None."""
    found = getattr(roots, "layouts", None)
    if not found:
        return None
    by_name, firsts = _layout_index()
    parts = path.split("/")
    for i in range(len(parts) - 1, -1, -1):  # the innermost plugin folder first
        if parts[i].lower() not in firsts:
            continue
        name = found.get("/".join(parts[:i]))
        lay = by_name.get(name) if name is not None else None
        if lay is not None:
            kind = lay.classify("/".join(parts[i:]))
            if kind is not None:
                return kind
    return None


class Catalog:
    def __init__(self, extra_globs: Iterable[str] = (), exclude_globs: Iterable[str] = ()) -> None:
        self.entries = builtin_entries()
        self.extra = GlobSet(extra_globs)
        self.exclude = GlobSet(exclude_globs)

    def classify(self, path: str, roots: frozenset[str] = frozenset()) -> str | None:
        """The agent-file kind of a repository-relative path, or None when agents do not load it."""
        if self.exclude.matches(path):
            return None
        data = match_bytes(path)
        matched = _entries_set().match(data)
        if matched is None:  # the set's pass did not finish: ask each entry
            matched = [i for i, e in enumerate(self.entries) if e.regex.search(data) is not None]
        if matched:  # the most specific entry that matches wins; on a tie, the first
            spec = _specificity()
            return self.entries[min(matched, key=lambda i: (-spec[i], i))].kind
        kind = layout_kind(path, roots)
        if kind is not None:
            return kind
        if skill_root_of(path, roots) is not None:
            return "skill"
        if self.extra.matches(path):
            return "extra"
        return None

    def is_protected(self, path: str, roots: frozenset[str] = frozenset()) -> bool:
        return self.classify(path, roots) is not None
