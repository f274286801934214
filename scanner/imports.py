"""`@path` imports: what an agent file pulls into the agent's context, and where it comes from.

Claude Code (and Gemini CLI, and Cursor rules) read `@path/to/file` in an instruction file as
"put that file's content here": relative to the importing file, `~/` for the home folder, never
inside code spans or fenced code blocks, up to five hops deep
(https://docs.claude.com/en/docs/claude-code/memory#claude-md-imports). So:

- an import that stays inside the repository is followed, and the imported file is scanned as
  an instruction file, whatever its name or extension (targets.discover_steps; the chain of
  importers is kept on the target as `imported_by`);
- an import of a credential file, of a path outside the repository, or of a URL is a finding
  (rules IG960-IG962 in scanner/rules/imports.py), because its content reaches the model but
  never the pull request.

What counts as a credential file and which outside paths are expected are data
(data/imports.yml). Nothing here touches the file system except through the `read` callback
the caller passes.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, Iterator

from .agent_map import GlobSet
from .document import fenced_spans
from .packaged import data_yaml

URL = "url"
CREDENTIAL = "credential"
OUTSIDE = "outside"
HOME_ALLOWED = "home-allowed"  # documented personal imports (~/.claude/...): not followed, not flagged
INSIDE = "inside"
ALIAS = "alias"  # an absolute-looking token that is not a system or home path (`@/components`)

PROSE_SUFFIXES = ("", ".md", ".mdc", ".markdown", ".txt")
_TRAILING = ".,;:!?)]}>'\"*_"
_FIRST = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~/-")


@lru_cache(maxsize=1)
def _data() -> dict:
    return data_yaml("imports.yml")


def max_hops() -> int:
    return int(_data().get("max_hops", 5))


def importing_kinds() -> frozenset[str]:
    return frozenset(_data().get("importing_kinds") or ())


@lru_cache(maxsize=1)
def _credential_sets() -> tuple[GlobSet, GlobSet, GlobSet]:
    d = _data()
    return (GlobSet(d.get("credential_globs") or ()), GlobSet(d.get("credential_exceptions") or ()),
            GlobSet(d.get("outside_allowed") or ()))


@lru_cache(maxsize=1)
def _link_globs() -> GlobSet:
    return GlobSet(_data().get("link_globs") or ())


def follows_links(path: str) -> bool:
    """A file whose Markdown links and `#file:` references put the linked files into the prompt."""
    return _link_globs().matches(path)


@lru_cache(maxsize=1)
def _file_reference_globs() -> GlobSet:
    return GlobSet(_data().get("file_reference_globs") or ())


def follows_file_references(path: str) -> bool:
    """A file whose `#[[file:path]]` references put the named files into the agent's context (Kiro)."""
    return _file_reference_globs().matches(path)


def workspace_of(path: str) -> str:
    """The workspace folder of a file under `.kiro/` (the folder holding `.kiro`), with a trailing
    slash, or "" for the top of the repository."""
    at = ("/" + path).rfind("/.kiro/")
    return path[:at] if at > 0 else ""


def _file_reference_spans(text: str) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, as written, cleaned path) of each `#[[file:path]]` reference (one str.find pass)."""
    i = text.find("#[[file:")
    while i != -1:
        k = i + len("#[[file:")
        end = text.find("]]", k, k + 1000)
        if end == -1:
            break
        raw = text[k:end].strip().strip("'\"")
        path = clean(raw) if raw and "\n" not in raw else None
        if path:
            yield i, end + 2, raw, path
        i = text.find("#[[file:", end)


def file_references(text: str) -> Iterator[str]:
    """The paths of `#[[file:path]]` references, anywhere in the text."""
    return (path for _, _, _, path in _file_reference_spans(text))


def file_reference_tokens(text: str) -> list["Token"]:
    """The `#[[file:path]]` references as Tokens (offsets of the whole reference), outside inline
    code spans; the caller drops those in fenced blocks (as for `@` imports)."""
    return [Token(start, end, raw, path) for start, end, raw, path in _file_reference_spans(text)
            if text.count("`", text.rfind("\n", 0, start) + 1, start) % 2 == 0]


@lru_cache(maxsize=1)
def _absolute_roots() -> frozenset[str]:
    return frozenset(str(r).lower() for r in _data().get("absolute_roots") or ())


@dataclass(frozen=True)
class Token:
    """One `@path` in a text: character offsets of the whole token (with its `@`)."""

    start: int
    end: int
    raw: str  # as written after the `@`
    path: str  # trailing punctuation and any `#fragment` removed


def tokens(text: str, fences: bool = True) -> list[Token]:
    """Every `@path` outside fenced code blocks and inline code spans, preceded by the start of a
    line or by white space (as Claude Code reads them). Linear in the text: the `@`s are found
    with str.find, and lines are looked at only when some `@` could start an import."""
    candidates: list[int] = []
    i = text.find("@")
    while i != -1:
        if i == 0 or text[i - 1].isspace():
            candidates.append(i)
        i = text.find("@", i + 1)
    if not candidates:
        return []
    # fences=False: the caller drops tokens in fenced blocks itself (a Document knows its blocks).
    fenced = fenced_spans(text) if fences and ("```" in text or "~~~" in text) else []
    out: list[Token] = []
    f = 0
    n = len(text)
    for i in candidates:
        while f < len(fenced) and fenced[f][1] <= i:
            f += 1
        if f < len(fenced) and fenced[f][0] <= i:
            continue
        line_start = text.rfind("\n", 0, i) + 1
        if text.count("`", line_start, i) % 2 == 1:  # inside a code span
            continue
        j = i + 1
        while j < n and not text[j].isspace() and text[j] != "`":
            j += 1
        raw = text[i + 1:j]
        path = clean(raw)
        if path:
            out.append(Token(i, j, raw, path))
    return out


def links(text: str) -> Iterator[tuple[str, bool]]:
    """Relative targets of Markdown links `[text](path)` and of `#file:path` references, outside
    fenced code blocks, with True for the latter (relative to the workspace, not the file).
    Linear: one scan of each line for `](` and `#file:`."""
    fence: str | None = None
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        if len(line) - len(stripped) <= 3 and (stripped.startswith("```") or stripped.startswith("~~~")):
            mark = stripped[:3]
            fence = mark if fence is None else (None if mark == fence else fence)
            continue
        if fence is not None:
            continue
        i = line.find("](")
        while i != -1:
            end = line.find(")", i + 2)
            if end == -1:
                break
            target = line[i + 2:end].strip().strip("<>").split(" ", 1)[0]
            path = clean(target)
            if path and not _is_url(path) and not target.startswith(("#", "mailto:")):
                yield path, False
            i = line.find("](", end)
        j = line.find("#file:")
        while j != -1:
            k = j + 6
            quoted = k < len(line) and line[k] in "'\""
            if quoted:
                end = line.find(line[k], k + 1)
                raw = line[k + 1:end if end != -1 else len(line)]
            else:
                end = k
                while end < len(line) and not line[end].isspace():
                    end += 1
                raw = line[k:end]
            path = clean(raw)
            if path:
                yield path, True
            j = line.find("#file:", max(end, k))


def clean(raw: str) -> str:
    """The path an `@` token names: no `#fragment`, no trailing punctuation of the sentence."""
    if "://" not in raw:
        raw = raw.split("#", 1)[0]
    raw = raw.rstrip(_TRAILING)
    if not raw or raw[0] not in _FIRST:
        return ""
    return raw


def _is_url(path: str) -> bool:
    scheme, sep, rest = path.partition("://")
    return bool(sep and rest and scheme and scheme[0].isalpha() and all(c.isalnum() or c in "+.-" for c in scheme))


def _windows_absolute(path: str) -> bool:
    return len(path) > 2 and path[0].isalpha() and path[1] == ":" and path[2] in "\\/"


def classify(importer: str, path: str) -> tuple[str, str]:
    """(category, resolved path) of an import written in `importer` (repository-relative).
    The resolved path is repository-relative for INSIDE, else the path as written."""
    if _is_url(path):
        return URL, path
    creds, exceptions, allowed = _credential_sets()
    low = path.lower().replace("\\", "/")
    if creds.matches(low) and not exceptions.matches(low):
        return CREDENTIAL, path
    if low.startswith("~"):
        return (HOME_ALLOWED if allowed.matches(low) else OUTSIDE), path
    if _windows_absolute(path):
        return OUTSIDE, path
    if low.startswith("/"):
        first = low.lstrip("/").split("/", 1)[0]
        return (OUTSIDE if first in _absolute_roots() else ALIAS), path
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), path))
    if joined == ".." or joined.startswith("../"):
        return OUTSIDE, path
    # An import that climbs out and back in still names a repository file.
    if creds.matches(joined.lower()) and not exceptions.matches(joined.lower()):
        return CREDENTIAL, path
    return INSIDE, joined


def is_prose(path: str) -> bool:
    name = posixpath.basename(path).lower()
    stem, dot, ext = name.rpartition(".")
    suffix = f".{ext}" if dot and stem else ""
    return suffix in PROSE_SUFFIXES


# More ways an agent file brings a repository file into the agent's context, registered by other
# modules (prose delegation: "treat docs/runbook.md as part of these instructions"): each is
# called with (importing file, its text) and returns the paths as written there. The files
# they name are followed and scanned exactly like `@` imports (tried relative to the file, then
# to the top of the repository).
# Name them here ("module:function"), so that discovery finds them before any rule module is
# imported; or append a function to REFERENCE_FINDERS.
REFERENCE_FINDER_NAMES: tuple[str, ...] = ("scanner.rules.intent:delegated_files",)
REFERENCE_FINDERS: list[Callable[[str, str], Iterable[str]]] = []


def _finders() -> list[Callable[[str, str], Iterable[str]]]:
    import importlib

    named = []
    for spec in REFERENCE_FINDER_NAMES:
        module, _, name = spec.partition(":")
        named.append(getattr(importlib.import_module(module), name))
    return [*named, *REFERENCE_FINDERS]


def _ancestors(path: str) -> list[str]:
    """The folders above the file's own, nearest first (the top of the repository excluded)."""
    parts = path.split("/")[:-2]
    return ["/".join(parts[:k]) for k in range(len(parts), 0, -1)]


@dataclass(frozen=True)
class Imported:
    path: str  # repository-relative
    chain: tuple[str, ...]  # the importing files, outermost first (the agent file, then each hop)


def follow(starts: Iterable[str], read: Callable[[str], str | None], known: Iterable[str] = (),
           brought_by: dict[str, tuple[str, ...]] | None = None) -> list[Imported]:
    """Files imported (up to max_hops hops) by the agent files `starts`, that are not themselves
    among `known` (already scanned as agent files). `read(path)` returns the text of a regular
    file inside the repository, or None (absent, a link, unreadable, not text). `brought_by`:
    the chain that brought a start in (a setting that names it), kept at the front of its
    imports' chains."""
    known_set = set(known)
    seen: set[str] = set()
    out: list[Imported] = []
    hops = max_hops()
    finders = _finders()
    queue: list[tuple[str, str, tuple[str, ...], int]] = []  # (file, text, chain, hops so far)
    brought_by = brought_by or {}
    for start in starts:
        if not is_prose(start):
            continue
        text = read(start)
        if text is not None and ("@" in text or follows_links(start) or follows_file_references(start) or finders):
            queue.append((start, text, (*brought_by.get(start, ()), start), 0))
    while queue:
        path, text, chain, depth = queue.pop(0)
        found = [(tok.path, False, (path,)) for tok in tokens(text)]
        if finders:
            # A sentence names a file from the file's folder or from the top of the repository
            # (or of the project folder the agent file sits in): every ancestor is tried.
            up = [f"{d}/" for d in _ancestors(path)]
            for finder in finders:
                found += [(p, False, (path, *up, "")) for p in finder(path, text)]
        if follows_links(path):
            # `#file:` is relative to the workspace: the repository's top, or the file's folder.
            found += [(p, True, ("", path) if from_root else (path,)) for p, from_root in links(text)]
        if follows_file_references(path) and "#[[file:" in text:
            # relative to the workspace: the folder holding `.kiro` (a pseudo-file there as the base)
            found += [(p, False, (workspace_of(path) + "_",)) for p in file_references(text)]
        for written, linked, bases in found:
            for base in bases:
                category, resolved = classify(base, written)
                if category != INSIDE or resolved in known_set or resolved in seen or resolved in chain:
                    continue
                if linked and not is_prose(resolved):
                    continue
                body = read(resolved)
                if body is not None:
                    break
            else:
                continue
            seen.add(resolved)
            out.append(Imported(resolved, chain))
            if depth + 1 < hops and is_prose(resolved) and ("@" in body or follows_links(resolved)
                                                             or follows_file_references(resolved) or finders):
                queue.append((resolved, body, chain + (resolved,), depth + 1))
    return out
