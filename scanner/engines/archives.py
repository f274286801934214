"""Reading an archive a skill ships (tar, tar.gz/tgz/tar.bz2/tar.xz, gz, zip) in memory, never
extracting it to disk, so that each text member is scanned as a file of the skill.

A skill that ships `components.tar.gz` has its agent unpack and use it: the members are what
matters, and an archive we cannot open is a finding (IG952), never a silent pass. Hostile
archives are expected: member count, per-member and total uncompressed size and compression
ratio are capped (zip and gzip bombs stop at the cap, they are never inflated whole); link,
device and fifo members are never followed (a link member is reported, it is how an archive
writes outside the folder it is unpacked in); member names are sanitised (no absolute path,
no `..`, no control character) and shown as `archive.tar.gz!member/path`. What does not fit
the caps, is encrypted, corrupt or nested is a `problem`; the caller turns problems into one
IG952 finding on the archive.
"""
from __future__ import annotations

import bz2
import io
import lzma
import posixpath
import stat
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field

MAX_MEMBERS = 2_000
MAX_TOTAL_BYTES = 64 * 1024 * 1024  # uncompressed, all members (and the inner tar of a .tar.gz)
MAX_RATIO = 200  # uncompressed / compressed, whole archive or one zip member, above a floor
RATIO_FLOOR = 1024 * 1024  # below 1 MiB uncompressed no ratio is a bomb
MAX_ARCHIVE_BYTES = 32 * 1024 * 1024  # the archive file itself, read whole
SEPARATOR = "!"

_COMPRESSED = {"gzip archive": "gz", "bzip2 archive": "bz2", "xz archive": "xz"}


@dataclass
class Member:
    name: str  # sanitised, relative, '/'-separated
    data: bytes


@dataclass
class Contents:
    kind: str  # "tar", "zip", "gz", "tar.gz", ...
    members: list[Member] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def readable_kind(detail: str, head: bytes) -> str | None:
    """The archive format we read, from binary_kind's detail (or the bytes), else None."""
    if detail in _COMPRESSED:
        return _COMPRESSED[detail]
    if detail == "zip archive" or head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    if len(head) > 262 and head[257:262] == b"ustar":
        return "tar"
    return None


def sanitise(name: str) -> tuple[str, str | None]:
    """(safe relative name, problem or None). Never lets a name climb out or carry controls."""
    problem = None
    cleaned = "".join(ch if ch.isprintable() and ch not in "\\" else "?" for ch in name.replace("\\", "/"))
    if cleaned != name.replace("\\", "/"):
        problem = f"member name {cleaned!r} holds control characters"
    parts = [p for p in cleaned.split("/") if p not in ("", ".")]
    if cleaned.startswith("/") or (parts and len(parts[0]) == 2 and parts[0][1] == ":"):
        problem = problem or f"member {cleaned!r} has an absolute path"
    if ".." in parts:
        problem = problem or f"member {cleaned!r} climbs out of the folder it is unpacked in"
        parts = [p for p in parts if p != ".."]
    return "/".join(parts) or "_", problem


def _inflate(data: bytes, kind: str, cap: int) -> tuple[bytes, str | None]:
    """Decompress at most cap+1 bytes (a bomb stops there); (output, problem)."""
    out = bytearray()
    rest = data
    try:
        while rest:
            if kind == "gz":
                d = zlib.decompressobj(wbits=47)
            elif kind == "bz2":
                d = bz2.BZ2Decompressor()
            else:
                d = lzma.LZMADecompressor()
            chunk = d.decompress(rest, max_length=cap + 1 - len(out))
            out += chunk
            if len(out) > cap:
                return bytes(out), f"expands past the {cap}-byte cap (a decompression bomb, or too big to read)"
            if not d.eof:
                return bytes(out), "truncated or corrupt compressed stream"
            rest = d.unused_data
            rest = rest.lstrip(b"\x00") if kind == "gz" else rest  # gzip padding
    except (zlib.error, OSError, EOFError, lzma.LZMAError, ValueError) as exc:
        return bytes(out), f"corrupt compressed stream ({exc})"
    return bytes(out), None


def _ratio_problem(uncompressed: int, compressed: int, what: str) -> str | None:
    if uncompressed > RATIO_FLOOR and uncompressed > MAX_RATIO * max(compressed, 1):
        return f"{what} expands {uncompressed // max(compressed, 1)}x (over {MAX_RATIO}x: a decompression bomb)"
    return None


def read_archive(data: bytes, kind: str, member_cap: int, archive_path: str = "") -> Contents:
    """Read every member of an archive in memory, bounded; `member_cap`: bytes per member."""
    if len(data) > MAX_ARCHIVE_BYTES:
        return Contents(kind, problems=[f"{len(data)} bytes is over the {MAX_ARCHIVE_BYTES}-byte archive cap"])
    if kind == "zip":
        return _read_zip(data, member_cap)
    if kind in ("gz", "bz2", "xz"):
        raw, problem = _inflate(data, kind, MAX_TOTAL_BYTES)
        if problem is None:
            problem = _ratio_problem(len(raw), len(data), "the compressed stream")
        if problem is not None:
            return Contents(kind, problems=[problem])
        if len(raw) > 262 and raw[257:262] == b"ustar" or _is_tar(raw):
            out = _read_tar(raw, member_cap)
            out.kind = f"tar.{kind}"
            return out
        # One compressed file: its content is the member, named after the archive less its suffix.
        out = Contents(kind)
        if len(raw) > member_cap:
            out.problems.append(f"its content is {len(raw)} bytes, over the {member_cap}-byte cap")
        else:
            out.members.append(Member(inner_name(archive_path), raw))
        return out
    if kind == "tar":
        return _read_tar(data, member_cap)
    return Contents(kind, problems=[f"{kind} archives are not read"])


def _is_tar(raw: bytes) -> bool:
    try:
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tf:
            return tf.next() is not None
    except (tarfile.TarError, EOFError, ValueError, OSError):
        return False


def _read_tar(raw: bytes, member_cap: int) -> Contents:
    out = Contents("tar")
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tf:
            count = 0
            while True:
                info = tf.next()
                if info is None:
                    break
                count += 1
                if count > MAX_MEMBERS:
                    out.problems.append(f"more than {MAX_MEMBERS} members")
                    break
                name, problem = sanitise(info.name)
                if problem:
                    out.problems.append(problem)
                if info.isdir():
                    continue
                if info.issym() or info.islnk():
                    out.problems.append(f"member {name!r} is a link to {sanitise(info.linkname)[0]!r} (not followed)")
                    continue
                if not info.isreg():
                    out.problems.append(f"member {name!r} is not a regular file (not read)")
                    continue
                if info.size > member_cap:
                    out.problems.append(f"member {name!r} is {info.size} bytes, over the {member_cap}-byte cap")
                    continue
                total += info.size
                if total > MAX_TOTAL_BYTES:
                    out.problems.append(f"members total over the {MAX_TOTAL_BYTES}-byte cap")
                    break
                fh = tf.extractfile(info)
                out.members.append(Member(name, fh.read(member_cap + 1) if fh is not None else b""))
    except (tarfile.TarError, EOFError, ValueError, OSError) as exc:
        out.problems.append(f"corrupt tar archive ({exc})")
    return out


def _read_zip(data: bytes, member_cap: int) -> Contents:
    out = Contents("zip")
    total = 0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_MEMBERS:
                out.problems.append(f"{len(infos)} members, over the {MAX_MEMBERS}-member cap")
                infos = infos[:MAX_MEMBERS]
            for info in infos:
                name, problem = sanitise(info.filename)
                if problem:
                    out.problems.append(problem)
                if info.is_dir():
                    continue
                mode = info.external_attr >> 16
                if mode and stat.S_ISLNK(mode):
                    out.problems.append(f"member {name!r} is a symbolic link (not followed)")
                    continue
                if info.flag_bits & 0x1:
                    out.problems.append(f"member {name!r} is encrypted")
                    continue
                if info.file_size > member_cap:
                    out.problems.append(f"member {name!r} is {info.file_size} bytes, over the {member_cap}-byte cap")
                    continue
                ratio = _ratio_problem(info.file_size, info.compress_size, f"member {name!r}")
                if ratio:
                    out.problems.append(ratio)
                    continue
                # Declared sizes can lie: read no more than the cap whatever the header says.
                with zf.open(info) as fh:
                    body = fh.read(member_cap + 1)
                if len(body) > member_cap:
                    out.problems.append(f"member {name!r} expands past the {member_cap}-byte cap")
                    continue
                total += len(body)
                if total > MAX_TOTAL_BYTES:
                    out.problems.append(f"members total over the {MAX_TOTAL_BYTES}-byte cap")
                    break
                out.members.append(Member(name, body))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, ValueError, OSError,
            zlib.error, RuntimeError) as exc:
        out.problems.append(f"corrupt or unsupported zip archive ({exc})")
    return out


def member_path(archive: str, member: str) -> str:
    return f"{archive}{SEPARATOR}{member}"


def inner_name(archive: str) -> str:
    """The name of the single file of a plain .gz: the archive's name less the suffix."""
    base = posixpath.basename(archive)
    for suffix in (".gz", ".bz2", ".xz"):
        if base.lower().endswith(suffix):
            return base[: -len(suffix)] or "_"
    return base
