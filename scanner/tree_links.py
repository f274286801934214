"""Links in a tree listed up front (a git tree: the Action reads blobs, not a working tree),
resolved as an agent resolves them on a checkout.

The working-tree walk gets this from the operating system (scanner/targets.py, textio.resolve);
a listing from `git ls-tree -r` holds each link as a blob whose content is its target, and the
files behind a folder link only under their real paths. resolve_tree_links() gives every path
an agent can open through a link (`CLAUDE.md` -> `docs/guide.md`; `.claude` -> `config/claude`
makes `.claude/settings.json` an alias of `config/claude/settings.json`, at any level above the
file) and the links that leave the repository, loop or nest too deep, which are findings (IG951)
where agents load files. Pure data in, data out: nothing is read here.

Use from scope (sketch): list the head tree with its links (`ls_tree_entries`, mode 120000, the
blob is the target), call resolve_tree_links(files, links), then classify every alias path with
the catalog: an agent path becomes a Target(alias, kind, blob=<blob of view.aliases[alias]>),
and each problem whose path is an agent location goes to TargetSet.not_scanned and .failing.
"""
from __future__ import annotations

import bisect
import posixpath
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .models import NotScanned

MAX_HOPS = 40  # links followed to resolve one path (Linux's own bound)
MAX_NESTING = 8  # folder links expanded inside one another
MAX_ALIASES = 200_000  # alias paths produced in one tree


@dataclass
class LinkView:
    aliases: dict[str, str] = field(default_factory=dict)  # path through a link -> real path of a file
    problems: list[NotScanned] = field(default_factory=list)  # links not followed, by reason
    truncated: bool = False  # MAX_ALIASES reached


class _Unresolved(Exception):
    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


def _norm(path: str) -> str | None:
    """A repository path, or None when it leaves the repository."""
    if path.startswith("/"):
        return None
    joined = posixpath.normpath(path)
    if joined == ".":
        return ""
    if joined == ".." or joined.startswith("../"):
        return None
    return joined


def _resolve(path: str, links: Mapping[str, str]) -> str:
    """The real path `path` leads to, following links at every component (like realpath)."""
    hops = 0
    parts = [p for p in path.split("/") if p]
    done = ""
    while parts:
        part = parts.pop(0)
        if part == ".":
            continue
        if part == "..":
            if not done:
                raise _Unresolved("link-outside-tree", "leaves the repository")
            done = posixpath.dirname(done)
            continue
        current = f"{done}/{part}" if done else part
        target = links.get(current)
        if target is None:
            done = current
            continue
        hops += 1
        if hops > MAX_HOPS:
            raise _Unresolved("link-loop", "never reaches a file (a loop, or too many links)")
        if target.startswith("/"):
            raise _Unresolved("link-outside-tree", f"symbolic link {current!r} -> {target!r} leaves the repository")
        parts = [p for p in target.split("/") if p] + parts
        # A relative target is read from the link's own folder.
    return done


def resolve_tree_links(files: Iterable[str], links: Mapping[str, str]) -> LinkView:
    """files: paths of the tree's regular files (not links); links: link path -> target as
    written. Every link is resolved; folder links are expanded into alias paths for the files
    (and links) below their target, bounded by MAX_NESTING and MAX_ALIASES."""
    view = LinkView()
    file_set = set(files)
    ordered = sorted(file_set)
    link_paths = sorted(links)

    def under(sorted_paths: list[str], folder: str) -> list[str]:
        prefix = folder + "/" if folder else ""
        i = bisect.bisect_left(sorted_paths, prefix)
        out = []
        while i < len(sorted_paths) and sorted_paths[i].startswith(prefix):
            out.append(sorted_paths[i])
            i += 1
        return out

    def is_folder(path: str) -> bool:
        return bool(under(ordered, path)) or bool(under(link_paths, path))

    def expand(link: str, depth: int, chain: tuple[str, ...] = ()) -> None:
        """Alias paths for `link` (a real link or an alias of one); chain: the real folders of
        the folder links expanded above it."""
        if view.truncated:
            return
        try:
            real = _resolve(link, links)
            here = _resolve(posixpath.dirname(link), links)
        except _Unresolved as exc:
            view.problems.append(NotScanned(link, exc.reason, _shown(link, links, exc.detail)))
            return
        if real in file_set:
            _add(view, link, real)
            return
        if not is_folder(real):
            return  # points to nothing in the tree: the agent reads nothing there either
        if real == "" or any(c == real or c.startswith(real + "/") for c in (here, *chain)):
            view.problems.append(NotScanned(link, "link-loop", _shown(link, links, "leads back to a folder above it (a loop)")))
            return
        if depth >= MAX_NESTING:
            view.problems.append(NotScanned(link, "link-too-deep", _shown(link, links, f"not followed: more than {MAX_NESTING} nested folder links")))
            return
        for f in under(ordered, real):
            _add(view, link + f[len(real):], f)
            if view.truncated:
                return
        for inner in under(link_paths, real):
            expand(link + inner[len(real):], depth + 1, (*chain, real))

    for link in link_paths:
        expand(link, 0)
    return view


def _add(view: LinkView, alias: str, real: str) -> None:
    if alias == real or alias in view.aliases:
        return
    if len(view.aliases) >= MAX_ALIASES:
        view.truncated = True
        return
    view.aliases[alias] = real


def _shown(link: str, links: Mapping[str, str], detail: str) -> str:
    target = links.get(link)
    head = f"symbolic link to {target!r}" if target is not None else f"path {link!r} (through a folder link)"
    return detail if detail.startswith("symbolic link") else f"{head} {detail}"
