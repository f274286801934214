"""Safe git helpers: read commits, trees, diffs and authors of a repository we do not trust.

Every call runs `git` with an argument list (never a shell) and with settings that keep the
repository's own content from running anything: no external diff drivers or textconv filters
(a pull request's .gitattributes can name them), no pager, no prompts, no fsmonitor hook.
`safe.directory=*` because the Action's workspace is owned by another user. Outputs are read
with -z where git offers it, so paths with newlines or quotes survive.
"""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

GIT_TIMEOUT = 120.0  # seconds for one git command; a hung git is an error, not a hang

_BASE_ARGS = (
    "-c", "safe.directory=*",
    "-c", "core.quotepath=off",
    "-c", "core.fsmonitor=false",
    "-c", "core.hooksPath=/dev/null",
    "-c", "diff.external=",
    "-c", "core.pager=cat",
    "--no-pager",
)


class GitError(RuntimeError):
    """A git command failed; the message is one line."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_ASKPASS": "/bin/false",
        "GIT_PAGER": "cat",
        "LC_ALL": "C",
        "GIT_OPTIONAL_LOCKS": "0",  # read-only use: never take the index lock
    })
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


def _run(repo: str, args: tuple[str, ...], input: bytes | None = None) -> subprocess.CompletedProcess:
    cmd = ["git", *_BASE_ARGS, "-C", repo, *args]
    try:
        return subprocess.run(cmd, input=input, capture_output=True, timeout=GIT_TIMEOUT, env=_env(), check=False)
    except FileNotFoundError:
        raise GitError("git is not installed; diff scoping and provenance need it") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0] if args else ''} took longer than {GIT_TIMEOUT:.0f}s") from None


def run_git(repo: str, *args: str, input: bytes | None = None, ok_codes: tuple[int, ...] = (0,)) -> bytes:
    """Run git in `repo` and return its standard output; raise GitError on failure."""
    proc = _run(repo, args, input)
    if proc.returncode not in ok_codes:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {args[0] if args else ''} failed: {err[-1] if err else 'exit %d' % proc.returncode}")
    return proc.stdout


# Pathspecs per git process: Linux refuses an argument list over ARG_MAX (E2BIG, "Argument list
# too long"; 2 MiB with the environment), which 40,000 paths of one skill folder reach.
PATHSPEC_BYTES = 64 * 1024


def _pathspec_chunks(paths: list[str], suffix: str = "") -> list[list[str]]:
    """`:(literal)` pathspecs for `paths`, cut into lists each under PATHSPEC_BYTES."""
    chunks: list[list[str]] = [[]]
    size = 0
    for p in paths:
        spec = ":(literal)" + p + suffix
        n = len(os.fsencode(spec)) + 1
        if chunks[-1] and size + n > PATHSPEC_BYTES:
            chunks.append([])
            size = 0
        chunks[-1].append(spec)
        size += n
    return chunks


def _text(data: bytes) -> str:
    # Paths and names are bytes in git; surrogateescape keeps undecodable bytes round-trippable.
    return data.decode("utf-8", "surrogateescape")


def is_repository(repo: str) -> bool:
    try:
        return run_git(repo, "rev-parse", "--is-inside-work-tree", ok_codes=(0, 128)).strip() == b"true"
    except GitError:
        return False


def top_level(repo: str) -> str:
    return _text(run_git(repo, "rev-parse", "--show-toplevel").strip())


def commit_exists(repo: str, sha: str) -> bool:
    if not sha or sha.startswith("-"):
        return False
    return _run(repo, ("cat-file", "-e", f"{sha}^{{commit}}")).returncode == 0


def rev_parse(repo: str, rev: str) -> str:
    if rev.startswith("-"):
        raise GitError(f"not a revision: {rev!r}")
    return _text(run_git(repo, "rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}").strip())


def is_shallow(repo: str) -> bool:
    return run_git(repo, "rev-parse", "--is-shallow-repository").strip() == b"true"


def merge_base(repo: str, a: str, b: str) -> str | None:
    out = run_git(repo, "merge-base", "--end-of-options", a, b, ok_codes=(0, 1))
    return _text(out.strip()) or None


def fetch_commit(repo: str, sha: str, auth_url: str | None = None, token: str | None = None,
                 remote: str = "origin") -> str | None:
    """Fetch one commit (depth 1, no tags, no submodules) from `remote`; None on success, else why not.

    For a shallow checkout whose base commit is missing. The token, when given, is sent only to
    `auth_url` (the GitHub server) as the header actions/checkout itself uses, through GIT_CONFIG_*
    variables so it never appears in a process list; a header the checkout persisted also works.
    """
    import base64

    if not sha or sha.startswith("-") or not all(c in "0123456789abcdef" for c in sha):
        return f"not a commit id: {sha!r}"
    env = _env()
    if token and auth_url:
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        key = f"http.{auth_url.rstrip('/')}/.extraheader"
        # An empty value first resets the header list, so the header actions/checkout persisted
        # (same key) is not sent alongside ours: two Authorization headers are refused.
        env.update({"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": key, "GIT_CONFIG_VALUE_0": "",
                    "GIT_CONFIG_KEY_1": key, "GIT_CONFIG_VALUE_1": f"AUTHORIZATION: basic {basic}"})
    cmd = ["git", *_BASE_ARGS, "-c", "protocol.ext.allow=never", "-C", repo, "fetch", "--quiet", "--no-tags",
           "--no-recurse-submodules", "--no-write-fetch-head", "--depth=1", remote, sha]
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=GIT_TIMEOUT, env=env, check=False)
    except FileNotFoundError:
        return "git is not installed"
    except subprocess.TimeoutExpired:
        return f"git fetch took longer than {GIT_TIMEOUT:.0f}s"
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"git fetch failed: {err[-1] if err else 'exit %d' % proc.returncode}"
    return None if commit_exists(repo, sha) else "git fetch did not bring the commit"


def ls_tree_under(repo: str, rev: str, dirs: list[str]) -> list[str]:
    """Every file path (recursively) under the given folders of `rev` ("" is the whole tree)."""
    if not dirs:
        return []
    if "" in dirs:
        return ls_tree(repo, rev)
    found: list[str] = []
    for specs in _pathspec_chunks(sorted({d.rstrip("/") for d in dirs}), "/"):
        out = run_git(repo, "ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", rev, "--", *specs)
        found += [_text(p) for p in out.split(b"\0") if p]
    return found


@dataclass(frozen=True)
class TreeEntry:
    mode: str  # "100644", "100755", "120000" (symbolic link), "160000" (submodule)
    type: str  # blob, tree, commit
    sha: str
    size: int | None  # None for submodules
    path: str

    @property
    def is_link(self) -> bool:
        return self.mode == "120000"


def ls_tree_entries(repo: str, rev: str, paths: list[str] | None = None) -> list[TreeEntry]:
    """Files (recursively) in the tree of `rev` with their sizes, optionally only the given paths."""
    args = ["ls-tree", "-r", "-z", "--long", "--full-tree", "--end-of-options", rev]
    if paths is not None and not paths:
        return []
    entries = []
    seen: set[str] = set()
    for specs in ([None] if paths is None else _pathspec_chunks(paths)):
        out = run_git(repo, *args, *(() if specs is None else ("--", *specs)))
        for rec in out.split(b"\0"):
            if not rec:
                continue
            meta, _, path = rec.partition(b"\t")
            mode, typ, sha, size = meta.split()
            entry = TreeEntry(_text(mode), _text(typ), _text(sha), None if size == b"-" else int(size), _text(path))
            if entry.path not in seen:
                seen.add(entry.path)
                entries.append(entry)
    return entries


def ls_tree(repo: str, rev: str) -> list[str]:
    """Every file path in the tree of `rev` (names only: no object lookups, fast on big trees)."""
    out = run_git(repo, "ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", rev)
    return [_text(p) for p in out.split(b"\0") if p]


def list_dirs(repo: str, rev: str, dirs: list[str]) -> list[str]:
    """Paths of the entries directly inside each folder of `dirs` ("" is the root), not recursive."""
    found: list[str] = []
    if "" in dirs:
        out = run_git(repo, "ls-tree", "-z", "--name-only", "--full-tree", "--end-of-options", rev)
        found += [_text(p) for p in out.split(b"\0") if p]
    rest = sorted({d.rstrip("/") for d in dirs if d})
    for specs in (_pathspec_chunks(rest, "/") if rest else []):
        out = run_git(repo, "ls-tree", "-z", "--name-only", "--full-tree", "--end-of-options", rev, "--", *specs)
        found += [_text(p) for p in out.split(b"\0") if p]
    return found


def read_blob(repo: str, rev: str, path: str) -> bytes | None:
    """The content of `path` at `rev`, or None when the path is not a file there."""
    entries = ls_tree_entries(repo, rev, [path])
    if not entries or entries[0].type != "blob":
        return None
    return read_objects(repo, [entries[0].sha])[entries[0].sha]


def read_objects(repo: str, shas: list[str]) -> dict[str, bytes | None]:
    """Blob contents by object id, in one `git cat-file --batch` process."""
    unique = list(dict.fromkeys(shas))
    if not unique:
        return {}
    out = run_git(repo, "cat-file", "--batch", input=("\n".join(unique) + "\n").encode())
    result: dict[str, bytes | None] = {}
    pos = 0
    for sha in unique:
        nl = out.index(b"\n", pos)
        header = out[pos:nl].split()
        pos = nl + 1
        if len(header) < 3 or header[1] == b"missing":
            result[sha] = None
            continue
        size = int(header[2])
        result[sha] = out[pos:pos + size] if header[1] == b"blob" else None
        pos += size + 1  # content is followed by a newline
    return result


@dataclass(frozen=True)
class Change:
    status: str  # A added, M modified, D deleted, R renamed, C copied, T type changed
    path: str  # the head-side path (the old path for deletions)
    old_path: str | None = None  # renames and copies
    similarity: int | None = None


def diff_name_status(repo: str, base: str, head: str, merge_base_diff: bool = True) -> list[Change]:
    """What head changes relative to base; with merge_base_diff, like a pull request (base...head)."""
    spec = f"{base}...{head}" if merge_base_diff else None
    args = ["diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", "--end-of-options"]
    args += [spec] if spec else [base, head]
    out = run_git(repo, *args)
    fields = out.split(b"\0")
    changes: list[Change] = []
    i = 0
    while i < len(fields) and fields[i]:
        status = _text(fields[i])
        kind = status[0]
        if kind in "RC":
            old, new = _text(fields[i + 1]), _text(fields[i + 2])
            sim = int(status[1:]) if status[1:].isdigit() else None
            changes.append(Change(kind, new, old, sim))
            i += 3
        else:
            changes.append(Change(kind, _text(fields[i + 1])))
            i += 2
    return changes


def _c_unquote(raw: bytes) -> bytes:
    """Undo git's C-style quoting of a path ("a\\tb", octal escapes)."""
    if not (raw.startswith(b'"') and raw.endswith(b'"')):
        return raw
    body = raw[1:-1]
    out = bytearray()
    simple = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("v"): 11,
              ord("\\"): 92, ord('"'): 34}
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == 92 and i + 1 < len(body):
            nxt = body[i + 1]
            if 48 <= nxt <= 55 and i + 3 < len(body) + 1:
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(simple.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return bytes(out)


def changed_lines_by_path(repo: str, base: str, head: str, paths: list[str] | None = None,
                          merge_base_diff: bool = True) -> dict[str, frozenset[int]]:
    """Head-side line numbers added or modified, per head-side path, from `git diff -U0`."""
    if paths is not None and not paths:
        return {}
    args = ["diff", "-U0", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/",
            "--dst-prefix=b/", "--end-of-options"]
    args += [f"{base}...{head}"] if merge_base_diff else [base, head]
    result: dict[str, set[int]] = {}
    for specs in ([None] if paths is None else _pathspec_chunks(paths)):
        _diff_lines(run_git(repo, *args, *(() if specs is None else ("--", *specs))), result)
    return {p: frozenset(s) for p, s in result.items()}


def _diff_lines(out: bytes, result: dict[str, set[int]]) -> None:
    current: set[int] | None = None
    for line in out.split(b"\n"):
        if line.startswith(b"diff --git "):
            current = None
        elif line.startswith(b"+++ "):
            target = _c_unquote(line[4:].rstrip(b"\t"))
            if target == b"/dev/null":
                current = None
            else:
                path = _text(target[2:] if target.startswith(b"b/") else target)
                current = result.setdefault(path, set())
        elif line.startswith(b"@@ ") and current is not None:
            # "@@ -a[,b] +c[,d] @@": d lines starting at c are head-side additions (d=0: pure deletion).
            plus = line.split(b" ")[2]
            start_s, _, count_s = plus[1:].partition(b",")
            start, count = int(start_s), int(count_s) if count_s else 1
            current.update(range(start, start + count))


def changed_lines(repo: str, base: str, head: str, path: str) -> frozenset[int]:
    return changed_lines_by_path(repo, base, head, [path]).get(path, frozenset())


@dataclass(frozen=True)
class Commit:
    sha: str
    author_name: str
    author_email: str
    committer_name: str
    committer_email: str
    parents: tuple[str, ...]
    paths: tuple[str, ...]  # files the commit touches (both sides of a rename); merges: only evil-merge paths


_LOG_FORMAT = "%x1e%H%x1f%an%x1f%ae%x1f%cn%x1f%ce%x1f%P%x1f"


def log_authors(repo: str, rev_range: str, paths: list[str] | None = None) -> list[Commit]:
    """Commits in `rev_range` (e.g. "base..head") with their authors and the files each touches.

    Renames count on both sides; a merge commit lists only files it changed relative to all its
    parents (`--cc`), so content brought in from the base branch is not blamed on the merger.
    """
    args = ["log", "-z", f"--format={_LOG_FORMAT}", "--name-only", "--no-renames", "--diff-merges=dense-combined",
            "--end-of-options", rev_range]
    wanted: set[str] | None = None
    if paths is not None:
        specs = _pathspec_chunks(paths)
        if len(specs) == 1:
            args += ["--", *specs[0]]
        else:  # too many for one command line: every commit of the range, its paths filtered here
            wanted = set(paths)
    out = run_git(repo, *args)
    commits = []
    for rec in out.split(b"\x1e"):
        if not rec:
            continue
        parts = rec.split(b"\x1f")
        if len(parts) < 7:
            continue
        sha, an, ae, cn, ce, parents, tail = parts[:7]
        names = tuple(_text(p.strip(b"\n")) for p in tail.split(b"\0") if p.strip(b"\n"))
        if wanted is not None:
            names = tuple(n for n in names if n in wanted)
            if not names:
                continue
        commits.append(Commit(_text(sha), _text(an), _text(ae).lower(), _text(cn), _text(ce).lower(),
                              tuple(_text(parents).split()), names))
    return commits


def authors_in_history(repo: str, rev: str) -> set[str]:
    """Lower-cased author emails of every commit reachable from `rev` (its branch's history)."""
    out = run_git(repo, "log", "-z", "--format=%ae", "--end-of-options", rev)
    return {_text(e).strip().lower() for e in out.split(b"\0") if e.strip()}


def co_authors(repo: str, sha: str) -> list[str]:
    """The `Co-authored-by:` trailer values of one commit (asked one commit at a time, so a hostile
    message can only ever speak for its own commit)."""
    out = run_git(repo, "show", "-s", "--format=%(trailers:key=Co-authored-by,valueonly,unfold)", "--end-of-options", sha)
    return [_text(line).strip() for line in out.splitlines() if line.strip()][:20]
