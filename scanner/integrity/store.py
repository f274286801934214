"""The trust store: for each approved agent file its sha256, who approved it and when.

It is committed in the repository (default `.github/instruction-guard-trust.json`) so that an
approval is itself reviewed. The JSON is stable and diff-friendly: keys sorted, two-space
indent, one entry per file, a trailing newline, so a re-approval shows as a two-line diff.

`git_blob` (git's SHA-1 object id of the approved bytes) is kept only to find, in history, the
commit that moved a file away from its approved content; the integrity decision itself always
compares sha256.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import posixpath
from dataclasses import dataclass, field

from ..errors import UsageError

STORE_VERSION = 1
SIG_SUFFIX = ".sig"  # detached signatures sit next to the file they sign (see signing.py)
MAX_STORE_BYTES = 8 * 1024 * 1024  # a store is small; a huge one is refused, not parsed


class StoreError(UsageError):
    """The trust store is unreadable or malformed; the message says where and what to fix."""


@dataclass(frozen=True)
class TrustEntry:
    path: str  # repository-relative, forward slashes
    sha256: str
    approved_by: str
    approved_at: str  # ISO 8601 UTC, seconds
    size: int
    git_blob: str = ""

    def to_json(self) -> dict:
        data = {"sha256": self.sha256, "approved_by": self.approved_by, "approved_at": self.approved_at,
                "size": self.size}
        if self.git_blob:
            data["git_blob"] = self.git_blob
        return data


@dataclass
class TrustStore:
    entries: dict[str, TrustEntry] = field(default_factory=dict)

    def get(self, path: str) -> TrustEntry | None:
        return self.entries.get(path)

    def record(self, entry: TrustEntry) -> None:
        self.entries[entry.path] = entry

    def remove(self, path: str) -> bool:
        return self.entries.pop(path, None) is not None

    def dumps(self) -> str:
        doc = {
            "version": STORE_VERSION,
            "tool": "instruction-guard",
            "files": {p: self.entries[p].to_json() for p in sorted(self.entries)},
        }
        return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def utc_now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def git_blob_id(data: bytes) -> str:
    """Git's object id of a blob with this content (SHA-1 of the "blob <size>\\0" header + bytes)."""
    h = hashlib.sha1(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def entry_for(path: str, data: bytes, approved_by: str, approved_at: str | None = None) -> TrustEntry:
    return TrustEntry(path, hashlib.sha256(data).hexdigest(), approved_by, approved_at or utc_now(),
                      len(data), git_blob_id(data))


def normalize_path(root: str, path: str) -> str:
    """A path given on the command line, as the repository-relative key the store uses."""
    full = os.path.abspath(os.path.join(root, path))
    rel = os.path.relpath(full, os.path.abspath(root)).replace(os.sep, "/")
    if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
        raise UsageError(f"{path}: outside the repository {root}")
    return posixpath.normpath(rel)


def _entry(path: str, raw: object, source: str) -> TrustEntry:
    if not isinstance(raw, dict):
        raise StoreError(f"{source}: entry {path!r} must be a mapping")
    sha = raw.get("sha256")
    if not isinstance(sha, str) or len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        raise StoreError(f"{source}: entry {path!r} needs sha256 as 64 lower-case hex digits")
    blob = raw.get("git_blob", "")
    if not isinstance(blob, str):
        raise StoreError(f"{source}: entry {path!r}: git_blob must be a string")
    size = raw.get("size", 0)
    if not isinstance(size, int) or size < 0:
        raise StoreError(f"{source}: entry {path!r}: size must be a non-negative integer")
    if path.startswith("/") or path.startswith("../") or "/../" in path or "\\" in path:
        raise StoreError(f"{source}: entry {path!r} is not a repository-relative path")
    return TrustEntry(path, sha, str(raw.get("approved_by", "")), str(raw.get("approved_at", "")), size, blob)


def loads(data: bytes | str, source: str) -> TrustStore:
    if isinstance(data, bytes):
        if len(data) > MAX_STORE_BYTES:
            raise StoreError(f"{source}: larger than {MAX_STORE_BYTES} bytes; not read")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise StoreError(f"{source}: not UTF-8 text") from None
    try:
        doc = json.loads(data)
    except json.JSONDecodeError as exc:
        raise StoreError(f"{source}: line {exc.lineno} is not valid JSON ({exc.msg})") from None
    if not isinstance(doc, dict) or doc.get("version") != STORE_VERSION or not isinstance(doc.get("files"), dict):
        raise StoreError(f"{source}: not an instruction-guard trust store (want version {STORE_VERSION} and a files mapping)")
    store = TrustStore()
    for path, raw in doc["files"].items():
        store.record(_entry(str(path), raw, source))
    return store


def store_path(root: str, configured: str) -> str:
    return os.path.join(root, configured)


def load(root: str, configured: str) -> TrustStore | None:
    """The working-tree store, or None when there is none yet."""
    full = store_path(root, configured)
    if os.path.islink(full):
        raise StoreError(f"{configured}: the trust store is a symbolic link; refusing to read it")
    try:
        with open(full, "rb") as fh:
            data = fh.read(MAX_STORE_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"{configured}: cannot read the trust store ({exc.strerror})") from None
    return loads(data, configured)


def save(root: str, configured: str, store: TrustStore) -> None:
    full = store_path(root, configured)
    os.makedirs(os.path.dirname(full) or ".", exist_ok=True)
    tmp = full + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(store.dumps())
    os.replace(tmp, full)


def read_bytes(root: str, path: str, limit: int = 64 * 1024 * 1024) -> bytes | None:
    """Bytes of a trusted file in the working tree; None when it is absent. Links are not followed."""
    full = os.path.join(root, path)
    if os.path.islink(full):
        # A link's identity is its target string, as git records it.
        return os.readlink(full).encode("utf-8", "surrogateescape")
    try:
        with open(full, "rb") as fh:
            return fh.read(limit)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
