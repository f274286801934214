"""Reading hostile files safely: size caps, link checks, binary sniffing, decoding.

Every outcome is explicit: either decoded text with its hash, or a NotScanned with a reason.
Nothing read here is ever executed or imported.
"""
from __future__ import annotations

import codecs
import hashlib
import os
import stat
from dataclasses import dataclass

from .models import NotScanned

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
)
PYC_SUFFIXES = (".pyc", ".pyo")
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".rar", ".jar", ".whl")


@dataclass(frozen=True)
class Decoded:
    text: str
    sha256: str
    size: int
    encoding: str
    invalid_bytes: bool = False  # invalid UTF-8 was replaced with U+FFFD


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


def decode_blob(path: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> Decoded | NotScanned:
    digest = sha256_bytes(data)
    if len(data) > max_bytes:
        return NotScanned(path, "too-large", f"{len(data)} bytes is over the {max_bytes}-byte cap", digest)
    kind = binary_kind(data, path)
    if kind:
        return NotScanned(path, "binary", kind, digest)
    text, enc, invalid = decode(data)
    return Decoded(text, digest, len(data), enc, invalid)


def is_within(root: str, candidate: str) -> bool:
    root_real = os.path.realpath(root)
    try:
        return os.path.commonpath([root_real, os.path.realpath(candidate)]) == root_real
    except ValueError:
        return False


def read_file(root: str, rel_path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Decoded | NotScanned:
    """Read a working-tree file without following links out of the tree or reading huge files whole."""
    full = os.path.join(root, rel_path)
    try:
        st = os.lstat(full)
    except OSError as exc:
        return NotScanned(rel_path, "unreadable", exc.strerror or str(exc))
    if stat.S_ISLNK(st.st_mode):
        try:
            target = os.readlink(full)
        except OSError as exc:
            return NotScanned(rel_path, "unreadable", exc.strerror or str(exc))
        if not is_within(root, full):
            return NotScanned(rel_path, "link-outside-tree", f"symbolic link to {target!r} leaves the repository")
        return NotScanned(rel_path, "link", f"symbolic link to {target!r}; links are not followed")
    if not stat.S_ISREG(st.st_mode):
        return NotScanned(rel_path, "not-a-file", "not a regular file")
    if st.st_size > max_bytes:
        digest = _hash_file(full)
        return NotScanned(rel_path, "too-large", f"{st.st_size} bytes is over the {max_bytes}-byte cap", digest)
    try:
        data = _read_capped(full, st.st_size, max_bytes + 1)
    except OSError as exc:
        return NotScanned(rel_path, "unreadable", exc.strerror or str(exc))
    return decode_blob(rel_path, data, max_bytes)


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
