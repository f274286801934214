"""A commit's tree as an agent on a checkout sees it: symbolic links inside the repository resolved.

The Action reads files from git objects, never from the working tree. A checkout turns a link blob
(mode 120000) into a real link, and an agent that opens `CLAUDE.md` or `.claude/settings.json`
follows it, at any level of the path. So the scope is computed over *agent paths*: the tree's own
paths plus the paths under every link to a folder, each mapped to the blob an agent would read.
A link that leaves the repository, loops, or goes nowhere is said as such (the first two are
findings at agent paths; a dangling link gives the agent nothing to read).
"""
from __future__ import annotations

import bisect
import posixpath
from dataclasses import dataclass, field

from .. import gitutil

MAX_HOPS = 8  # links followed while resolving one path (a loop ends here)
MAX_VIRTUAL = 50_000  # agent paths added under links to folders, per commit

FILE, DIR, GITLINK, OUTSIDE, LOOP, DANGLING = "file", "dir", "gitlink", "outside", "loop", "dangling"


@dataclass
class Resolved:
    kind: str  # FILE, DIR, GITLINK, OUTSIDE, LOOP, DANGLING
    real: str | None  # the tree path reached (FILE, DIR, GITLINK)
    via: tuple[str, ...] = ()  # the links followed on the way, in order
    target: str = ""  # for OUTSIDE: the link text that left


@dataclass
class GitTree:
    files: set[str] = field(default_factory=set)  # regular blobs (not links)
    links: dict[str, str] = field(default_factory=dict)  # link path -> link text
    gitlinks: set[str] = field(default_factory=set)  # submodule paths
    dirs: set[str] = field(default_factory=set)
    _sorted: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, repo: str, rev: str) -> "GitTree":
        out = gitutil.run_git(repo, "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", rev)
        tree = cls()
        link_shas: dict[str, str] = {}
        for rec in out.split(b"\0"):
            if not rec:
                continue
            meta, _, raw = rec.partition(b"\t")
            mode, typ, sha = meta.split()
            path = raw.decode("utf-8", "surrogateescape")
            if typ == b"commit":
                tree.gitlinks.add(path)
            elif mode == b"120000":
                link_shas[path] = sha.decode()
            else:
                tree.files.add(path)
            d = posixpath.dirname(path)
            while d and d not in tree.dirs:
                tree.dirs.add(d)
                d = posixpath.dirname(d)
        if link_shas:
            blobs = gitutil.read_objects(repo, list(link_shas.values()))
            for path, sha in link_shas.items():
                data = blobs.get(sha)
                tree.links[path] = data.decode("utf-8", "surrogateescape") if data is not None else ""
        tree._sorted = sorted(tree.files | set(tree.links) | tree.gitlinks)
        return tree

    def under(self, folder: str) -> list[str]:
        """Tree entries (files, links, submodules) below `folder`."""
        prefix = folder + "/" if folder else ""
        i = bisect.bisect_left(self._sorted, prefix)
        out = []
        while i < len(self._sorted) and self._sorted[i].startswith(prefix):
            out.append(self._sorted[i])
            i += 1
        return out

    def resolve(self, path: str) -> Resolved:
        """What an agent opening `path` on a checkout reaches."""
        pending = [p for p in path.split("/")]
        cur: list[str] = []
        via: list[str] = []
        while pending:
            comp = pending.pop(0)
            if comp in ("", "."):
                continue
            if comp == "..":
                if not cur:
                    return Resolved(OUTSIDE, None, tuple(via), path)
                cur.pop()
                continue
            cand = "/".join(cur + [comp])
            if cand in self.links:
                via.append(cand)
                if len(via) > MAX_HOPS:
                    return Resolved(LOOP, None, tuple(via))
                target = self.links[cand]
                if target.startswith("/") or not target:
                    return Resolved(OUTSIDE if target else DANGLING, None, tuple(via), target)
                pending = target.split("/") + pending
                continue
            cur.append(comp)
        real = "/".join(cur)
        if real in self.files:
            return Resolved(FILE, real, tuple(via))
        if real in self.gitlinks:
            return Resolved(GITLINK, real, tuple(via))
        if real in self.dirs or real == "":
            return Resolved(DIR, real, tuple(via))
        return Resolved(DANGLING, None, tuple(via))

    def agent_paths(self) -> dict[str, Resolved]:
        """Paths under links to folders (as an agent sees them), and every link path, resolved.

        The shared resolver of the working-tree walk (scanner/tree_links.py, nested folder links
        and loops judged as the walk judges them) is used when present, so the CLI and the Action
        agree; this module's own resolution is the fallback."""
        try:
            from ..tree_links import resolve_tree_links
        except ImportError:
            return self._own_agent_paths()
        view = resolve_tree_links(self.files | self.gitlinks, self.links)
        out: dict[str, Resolved] = {}
        for alias, real in view.aliases.items():
            via = tuple(p for p in _prefixes(alias) if p in self.links)
            out[alias] = Resolved(GITLINK if real in self.gitlinks else FILE, real, via)
        for ns in view.problems:
            kind = OUTSIDE if ns.reason == "link-outside-tree" else LOOP
            out[ns.path] = Resolved(kind, None, tuple(p for p in _prefixes(ns.path) if p in self.links),
                                    self.links.get(ns.path, ""))
        for link in self.links:  # links to folders or to nothing: said, not read
            if link not in out:
                out[link] = self.resolve(link)
        return out

    def _own_agent_paths(self) -> dict[str, Resolved]:
        out: dict[str, Resolved] = {}
        for link in sorted(self.links):
            r = self.resolve(link)
            out[link] = r
            if r.kind != DIR or r.real is None:
                continue
            for entry in self.under(r.real):
                if len(out) >= MAX_VIRTUAL:
                    return out
                virtual = link + "/" + entry[len(r.real) + 1 if r.real else 0:]
                out[virtual] = self.resolve(virtual)
        return out


def _prefixes(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
