"""Reading hostile files safely: size caps, link checks, binary sniffing, decoding.

Every outcome is explicit: either decoded text with its hash, or a NotScanned with a reason.
Nothing read here is ever executed or imported.

Links inside the repository are resolved as an agent resolves them (the file is read from its
target, and Decoded.via names it); a link leaving the repository, a loop, a special file, a
binary, a file over the cap and a git LFS pointer are each a NotScanned with its own reason,
which the native engine turns into a finding (scanner/engines/unread.py) unless the file is an
asset: its name and its first bytes agree on an image, font, document or data format.
"""
from __future__ import annotations

import codecs
import errno
import hashlib
import os
import posixpath
import stat
from dataclasses import dataclass
from functools import lru_cache


from .models import NotScanned
from .packaged import data_yaml

DEFAULT_MAX_BYTES = 2 * 1024 * 1024

# Magic numbers of formats that are never text an agent reads as instructions.
BINARY_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x7fELF", "ELF executable"),
    (b"\xcf\xfa\xed\xfe", "Mach-O executable"),
    (b"\xce\xfa\xed\xfe", "Mach-O executable"),
    (b"\xca\xfe\xba\xbe", "Mach-O universal binary or Java class"),
    (b"MZ", "PE/Windows executable"),
    (b"PK\x03\x04", "zip archive"),
    (b"\x1f\x8b", "gzip archive"),
    (b"BZh", "bzip2 archive"),
    (b"\xfd7zXZ\x00", "xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "7z archive"),
    (b"Rar!\x1a\x07", "rar archive"),
    (b"\x00asm", "WebAssembly module"),
    (b"\xfe\xed\xfa\xce", "Mach-O executable"),
    (b"\xfe\xed\xfa\xcf", "Mach-O executable"),
    (b"\x28\xb5\x2f\xfd", "zstd archive"),
    (b"\x1f\x9d", "compress archive"),
    (b"\x04\x22\x4d\x18", "lz4 archive"),
    (b"LZIP", "lzip archive"),
    (b"MSCF", "cab archive"),
    (b"\xed\xab\xee\xdb", "rpm package"),
    (b"!<arch>\n", "ar archive or deb package"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE compound document"),
)
# The first line of a git LFS pointer (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md):
# the file in the tree is a reference, its content lives on an LFS server no reviewer sees.
LFS_POINTER = b"version https://git-lfs.github.com/spec/v1"
LFS_POINTER_MAX = 1024
HEAD_BYTES = 8192  # enough to sniff magic numbers and NUL bytes
PYC_SUFFIXES = (".pyc", ".pyo")
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".rar", ".jar", ".whl")


@dataclass(frozen=True)
class Decoded:
    text: str
    sha256: str
    size: int
    encoding: str
    invalid_bytes: bool = False  # invalid UTF-8 was replaced with U+FFFD
    via: str | None = None  # repository path actually read, when a link inside the repository led there


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def binary_kind(data: bytes, path: str = "") -> str | None:
    """Name the binary format, or None when the bytes look like text."""
    lower = path.lower()
    if lower.endswith(PYC_SUFFIXES):
        return "compiled Python bytecode"
    for magic, name in BINARY_MAGIC:
        if data.startswith(magic):
            # "MZ" alone is too weak a signal for text files that start with those letters.
            if magic == b"MZ" and b"\x00" not in data[:512]:
                continue
            return name
    if len(data) > 262 and data[257:262] == b"ustar":
        return "tar archive"
    head = data[:8192]
    if b"\x00" in head and not _has_utf16_or_32_bom(head):
        return "binary data (NUL bytes)"
    return None


def _has_utf16_or_32_bom(data: bytes) -> bool:
    return data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE))


def decode(data: bytes) -> tuple[str, str, bool]:
    """Return (text, encoding, had_invalid_bytes). BOMs decide; UTF-8 otherwise."""
    for bom, enc in (
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if data.startswith(bom):
            body = data[len(bom):]
            try:
                return body.decode(enc), enc, False
            except UnicodeDecodeError:
                return body.decode(enc, errors="replace"), enc, True
    try:
        return data.decode("utf-8"), "utf-8", False
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), "utf-8", True


def is_lfs_pointer(data: bytes) -> bool:
    return len(data) <= LFS_POINTER_MAX and data.startswith(LFS_POINTER)


def _lfs_detail(data: bytes) -> str:
    oid = size = ""
    for line in data.decode("ascii", "replace").splitlines()[:6]:
        key, _, value = line.partition(" ")
        if key == "oid":
            oid = value.strip()[:80]
        elif key == "size" and value.strip().isdigit():
            size = value.strip()
    about = ", ".join(p for p in (oid, f"{size} bytes" if size else "") if p)
    return "git LFS pointer" + (f" ({about})" if about else "") + ": the content is stored outside the repository and was not scanned"


@lru_cache(maxsize=1)
def _formats() -> tuple[dict[str, tuple[str, tuple[tuple[tuple[int, bytes], ...], ...]]], frozenset[str]]:
    raw = data_yaml("file_formats.yml")
    by_ext: dict[str, tuple[str, tuple[tuple[tuple[int, bytes], ...], ...]]] = {}
    for entry in raw["formats"]:
        sigs = tuple(tuple((int(off), bytes.fromhex(hx)) for off, _, hx in (part.partition(":") for part in sig.split("+")))
                     for sig in entry["magic"])
        for ext in entry["ext"]:
            kind, known = by_ext.get(ext, (entry["kind"], ()))
            by_ext[ext] = (kind, known + sigs)
    return by_ext, frozenset(raw.get("text_data") or ())


def _extension(path: str) -> str:
    stem, dot, ext = posixpath.basename(path).lower().rpartition(".")
    return ext if dot and stem else ""


def asset_by_name(path: str) -> str | None:
    """The asset kind (image, font, document, audio, video, data) the file NAME claims, if any."""
    ext = _extension(path)
    found = _formats()[0].get(ext)
    if found:
        return found[0]
    return "data" if ext in _formats()[1] else None


def asset_kind(path: str, head: bytes) -> str | None:
    """'image', 'font', ... when the name and the first bytes agree on an asset format; text
    data (csv, jsonl, ...) counts when its first bytes are text. None otherwise."""
    ext = _extension(path)
    by_ext, text_data = _formats()
    found = by_ext.get(ext)
    if found is not None:
        kind, sigs = found
        for sig in sigs:
            if all(head[off:off + len(magic)] == magic for off, magic in sig):
                return f"{kind} ({ext})"
        return None
    if ext in text_data and binary_kind(head, path) is None and not is_lfs_pointer(head):
        return f"data ({ext})"
    return None


MIN_DATA_SIGNATURE = 4  # bytes a signature must fix before the bytes alone name a data format


@lru_cache(maxsize=1)
def _data_signatures() -> tuple[tuple[str, tuple[tuple[int, bytes], ...]], ...]:
    """(extension, signature) of every listed data format (SQLite, NumPy, Parquet, HDF5, ...) whose
    signature fixes at least MIN_DATA_SIGNATURE bytes."""
    raw = data_yaml("file_formats.yml")
    out = []
    for entry in raw["formats"]:
        if entry["kind"] != "data":
            continue
        for sig in entry["magic"]:
            parts = tuple((int(off), bytes.fromhex(hx)) for off, _, hx in (part.partition(":") for part in sig.split("+")))
            if sum(len(m) for _, m in parts) >= MIN_DATA_SIGNATURE:
                out.append((entry["ext"][0], parts))
    return tuple(out)


def data_by_bytes(path: str, head: bytes) -> str | None:
    """'data (sqlite, by its bytes)' when a file whose name has no extension (`.coverage`, a tool's
    state file) opens with a listed data format's signature, and the bytes are no archive or
    executable: a database or array file no interpreter runs and no agent reads as text. None
    otherwise. A name with an extension says what the file is; there, name and bytes must agree."""
    if _extension(path):
        return None
    if binary_kind(head, path) not in (None, "binary data (NUL bytes)"):
        return None  # an archive or an executable under a bare name
    for ext, sig in _data_signatures():
        if all(head[off:off + len(magic)] == magic for off, magic in sig):
            return f"data ({ext}, by its bytes)"
    return None


def decode_blob(path: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> Decoded | NotScanned:
    digest = sha256_bytes(data)
    return classify_blob(path, data, digest, len(data), max_bytes)


def classify_blob(path: str, head: bytes, digest: str | None, size: int, max_bytes: int = DEFAULT_MAX_BYTES) -> Decoded | NotScanned:
    """Decide about a file from its first bytes (`head`: the whole content when size <= max_bytes).
    Also the hook for content read from git (the Action): a NotScanned here becomes a finding
    through scanner.engines.unread.finding_for unless its reason is "asset"."""
    asset = asset_kind(path, head)
    if size > max_bytes:
        if asset:
            return NotScanned(path, "asset", f"{asset}, {size} bytes (over the {max_bytes}-byte cap); listed, not scanned", digest)
        if data := data_by_bytes(path, head):
            return NotScanned(path, "data-bytes", f"{data} under a name without an extension, {size} bytes", digest)
        return NotScanned(path, "too-large", f"{size} bytes is over the {max_bytes}-byte cap", digest)
    if is_lfs_pointer(head):
        if asset_by_name(path):
            return NotScanned(path, "asset", f"{asset_by_name(path)} ({_extension(path)}) kept as a git LFS pointer; listed, not scanned", digest)
        return NotScanned(path, "lfs-pointer", _lfs_detail(head), digest)
    kind = binary_kind(head, path)
    if kind:
        if asset:
            return NotScanned(path, "asset", f"{asset}; listed, not scanned", digest)
        if data := data_by_bytes(path, head):
            # a finding where agents load the file by its name; a skill's own data file otherwise (engines/unread.py)
            return NotScanned(path, "data-bytes", f"{data} under a name without an extension", digest)
        return NotScanned(path, "binary", kind, digest)
    text, enc, invalid = decode(head)
    return Decoded(text, digest or sha256_bytes(head), size, enc, invalid)


def is_within(root: str, candidate: str) -> bool:
    return _within(_real_root(root), os.path.realpath(candidate))


@lru_cache(maxsize=64)
def _real_root(root: str) -> str:
    return os.path.realpath(root)


def _within(root_real: str, real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


_SPECIAL = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"))


def file_type(mode: int) -> str:
    for test, name in _SPECIAL:
        if test(mode):
            return name
    return "not a regular file"


def _first_link(root_real: str, rel_path: str) -> tuple[str, str]:
    """The first symbolic link on the path (repository path, its target as written)."""
    parts = [p for p in rel_path.split("/") if p not in ("", ".")]
    for i in range(1, len(parts) + 1):
        sub = "/".join(parts[:i])
        try:
            return sub, os.readlink(os.path.join(root_real, sub))
        except OSError:
            continue
    return rel_path, "?"


_O_PATH = getattr(os, "O_PATH", 0)


def _kernel_path(full: str) -> str | None:
    """The path the kernel reached opening `full` (Linux: /proc/self/fd), None where it cannot
    tell. os.path.realpath is a Python loop with an lstat per component, half of reading a file;
    a path without links comes back as itself, anything else is left to realpath."""
    if not _O_PATH:
        return None
    try:
        fd = os.open(full, _O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    finally:
        os.close(fd)


def resolve(root: str, rel_path: str) -> tuple[str, os.stat_result, str | None] | NotScanned:
    """Where an agent reading `rel_path` ends up: (full path to read, its stat, the repository
    path read through links or None). Links inside the repository are followed (the kernel's
    own bound applies: a loop is ELOOP); leaving the repository, a loop and a dangling link are
    NotScanned with their reasons."""
    full = os.path.join(root, rel_path)
    try:
        st = os.lstat(full)
    except OSError as exc:
        return NotScanned(rel_path, "unreadable", exc.strerror or str(exc))
    root_real = _real_root(root)
    plain = os.path.normpath(os.path.join(root_real, rel_path))
    if not stat.S_ISLNK(st.st_mode) and _kernel_path(full) == plain:
        return full, st, None  # no link on the way: what realpath() below would find, in three system calls
    real = os.path.realpath(full)
    if real == plain and not stat.S_ISLNK(st.st_mode):
        return full, st, None
    link, target = _first_link(root_real, rel_path)
    shown = f"symbolic link {link!r} -> {target!r}" if link != rel_path else f"symbolic link to {target!r}"
    try:
        st = os.stat(full)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return NotScanned(rel_path, "link-loop", f"{shown} never reaches a file (a loop, or too many links)")
        if not _within(root_real, real):
            return NotScanned(rel_path, "link-outside-tree", f"{shown} leaves the repository")
        if exc.errno == errno.ENOENT:
            return NotScanned(rel_path, "link-dangling", f"{shown} points to nothing in the repository")
        return NotScanned(rel_path, "unreadable", exc.strerror or str(exc))
    if not _within(root_real, real):
        return NotScanned(rel_path, "link-outside-tree", f"{shown} leaves the repository")
    via = os.path.relpath(real, root_real).replace(os.sep, "/")
    return real, st, via


def read_file(root: str, rel_path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Decoded | NotScanned:
    """Read a working-tree file as an agent would (links inside the repository followed, never
    out of it), without reading huge files whole or blocking on special files."""
    found = resolve(root, rel_path)
    if isinstance(found, NotScanned):
        return found
    full, st, via = found
    if not stat.S_ISREG(st.st_mode):
        what = file_type(st.st_mode)
        return NotScanned(rel_path, "not-a-file", f"{what}, not a regular file" + (f" (through a link to {via!r})" if via else ""))
    try:
        if st.st_size > max_bytes:  # never read whole: its first bytes tell an asset from the rest
            head = _read_capped(full, HEAD_BYTES, HEAD_BYTES)
            return classify_blob(rel_path, head, _hash_file(full), st.st_size, max_bytes)
        data = _read_capped(full, st.st_size, max_bytes + 1)
    except OSError as exc:
        return NotScanned(rel_path, "unreadable", exc.strerror or str(exc))
    out = decode_blob(rel_path, data, max_bytes)
    if via is not None and isinstance(out, Decoded):
        out = Decoded(out.text, out.sha256, out.size, out.encoding, out.invalid_bytes, via)
    return out


def read_raw(root: str, rel_path: str, cap: int) -> bytes | None:
    """The bytes of a regular file (links inside the repository followed, never out of it), or
    None when it is not one, cannot be read or is over `cap` (an archive read whole)."""
    found = resolve(root, rel_path)
    if isinstance(found, NotScanned):
        return None
    full, st, _via = found
    if not stat.S_ISREG(st.st_mode) or st.st_size > cap:
        return None
    try:
        data = _read_capped(full, st.st_size, cap + 1)
    except OSError:
        return None
    return None if len(data) > cap else data


def past_cap_asset(root: str, rel_path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> NotScanned | None:
    """A skill file past the walk's caps that is an asset (its name and first bytes agree),
    as a listing with its sha256 (None above max_bytes: not read whole); None when it is
    anything else, which the caller scans. Only names that claim an asset are opened."""
    if asset_by_name(rel_path) is None:
        return None
    found = resolve(root, rel_path)
    if isinstance(found, NotScanned):
        return None
    full, st, _via = found
    if not stat.S_ISREG(st.st_mode):
        return None
    try:
        head = _read_capped(full, HEAD_BYTES, HEAD_BYTES)
    except OSError:
        return None
    kind = asset_kind(rel_path, head)
    if kind is None:
        if not (is_lfs_pointer(head) and st.st_size <= LFS_POINTER_MAX):
            return None
        kind = f"{asset_by_name(rel_path)} ({_extension(rel_path)}) kept as a git LFS pointer"
    digest = _hash_file(full) if st.st_size <= max_bytes else None
    return NotScanned(rel_path, "asset", f"{kind}, {st.st_size} bytes, past the skill's caps; listed, not scanned", digest)


def _read_capped(full: str, size_hint: int, cap: int) -> bytes:
    """At most `cap` bytes, read to end of file with plain os.read calls: a buffered file object
    costs an fstat, an isatty ioctl and two objects per file, and the size from lstat lets the
    first read take the whole file at once (a file that grew since is still read to the cap)."""
    fd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        chunks: list[bytes] = []
        got = 0
        want = min(size_hint + 1, cap)
        while got < cap:
            chunk = os.read(fd, min(want, cap - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            want = 1 << 16
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _hash_file(full: str) -> str | None:
    h = hashlib.sha256()
    try:
        with open(full, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()
