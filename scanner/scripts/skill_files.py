"""What the native engine must decide about a file in a skill folder (or a script named on the
command line) before and beyond running rules on it: the script size cap, files of no known
language, archives and compiled code by name, and the skill's own SKILL.md as context."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from functools import lru_cache

from ..document import classify
from ..matching import rx
from ..models import Finding, NotScanned
from ..textio import Decoded, read_file
from .common import documented_hosts
from .language import compiled_or_archive

SCRIPT_KINDS = ("skill", "explicit")

# Leading bytes of archives and executables that can still decode as text (no NUL in the first
# bytes): zip (PK), gzip, bzip2, xz, 7z, rar, zstd, cab, ELF, MZ, Mach-O, wasm, a shell archive.
_MAGICS = ("PK", "\x1f\x8b", "BZh", "\xfd7zXZ", "7z\xbc\xaf", "Rar!", "\x28\xb5\x2f\xfd", "MSCF", "\x7fELF", "MZ",
           "\xca\xfe\xba\xbe", "\xcf\xfa\xed\xfe", "\xce\xfa\xed\xfe", "\x00asm", "#!")


def _magic(text: str) -> bool:
    """Does the text open with an archive's or executable's header (or a shebang: a shell archive runs)?"""
    head = text.lstrip("\ufeff")[:8]
    return head.startswith(_MAGICS) or "\ufffd" in text[:512]


# A string literal that is one long run of the base64/base64url/hex alphabet (an optional data: URI
# head before it): encoded data, not code or text. No spaces, dots or colons: prose and URLs are not.
_BLOB = rx(r"""["'`](?:data:[\w/+.-]{1,60};base64,)?[A-Za-z0-9+/=_-]{200,}["'`]""")


def data_script(path: str, text: str, limits) -> bool:
    """A generated module of encoded data (634 icons as base64 SVG in one dict): a script by its
    name, at most limits.data_script_max_bytes, whose text outside its long encoded literals is
    within limits.script_max_bytes. Its blobs cost the analyses next to nothing (docs/limits.md:
    8 MB of them in 2-3 s and 110 MB, where 4 MB of code took 30 s and 700 MB), so it is read
    whole, as any script under the cap; anything else over a cap stays a failing finding."""
    if classify(path, "")[0] != "script":
        return False
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > limits.data_script_max_bytes:
        return False
    blobs = 0
    for m in _BLOB.finditer(data):
        blobs += m.end() - m.start()
    return len(data) - blobs <= limits.script_max_bytes


@dataclass
class Admission:
    scan: bool = True  # run the rules on the text
    not_scanned: NotScanned | None = None
    findings: list[Finding] = field(default_factory=list)


def admit(target, doc, loaded: Decoded, limits) -> Admission:
    """Apply the per-script cap and report what cannot be analysed; never a silent pass."""
    from ..findings import file_finding

    out = Admission()
    if target.kind not in SCRIPT_KINDS:
        return out
    named = compiled_or_archive(target.path)
    if named and target.kind == "skill" and loaded.size > 0:  # an empty placeholder holds nothing
        found = file_finding("IG952", target.path, f"{named} shipped in a skill folder (by its file name)",
                             sha256=loaded.sha256, detected_by="file name")
        if not loaded.invalid_bytes and not _magic(loaded.text):
            # Its bytes are readable text with no archive or executable header (a listing of what the
            # archive would hold, a placeholder): nothing opaque to unpack or run, and its text is read
            # by every rule like any file's. Still reported, as a mislabelled file to look at.
            from ..models import Severity

            found.severity = Severity.MEDIUM
            found.message += "; its bytes are text, no archive or executable header"
            found.properties["lowered-because"] = ["text under an archive or binary name"]
        out.findings.append(found)
    if doc.kind == "script" and loaded.size > limits.script_max_bytes and not data_script(target.path, loaded.text, limits):
        from ..engines.unread import finding_for

        out.scan = False
        out.not_scanned = NotScanned(target.path, "too-large",
                                     f"{loaded.size} bytes is over the {limits.script_max_bytes}-byte script cap", loaded.sha256)
        found = finding_for(out.not_scanned, target.kind)  # a script the agent runs and we did not read
        if found is not None:
            out.findings.append(found)
        return out
    if target.kind == "skill" and (doc.kind == "other" or doc.language == "unknown"):
        out.not_scanned = NotScanned(target.path, "unknown-language",
                                     f"no analyser for {doc.language!r} files; only language-neutral text rules ran", loaded.sha256)
    return out


def skill_context(root: str, target) -> dict:
    """Context for script rules: the hosts the skill's own SKILL.md names, and the credential files
    its command lines hand the script as arguments."""
    if not target.skill_root and target.skill_root != "":
        return {}
    # skill_dir lets skill_chain read the skill's sibling scripts together (bounded, links not followed).
    out = {"skill_hosts": _skill_hosts(root, target.skill_root or ""), "skill_dir": (root, target.skill_root or "")}
    handed = _handed_arguments(root, target.skill_root or "", target.path)
    if handed:
        out["argv_credentials"] = handed
    return out


# Where a command line's arguments end: a code span's close, a pipe or list operator, a redirect, a
# closing bracket or quote of the prose around it.
_ARGS_END = rx(r"[`|;&<>)\]]|\s#|\s-{2}\s|\s\(")


@lru_cache(maxsize=512)
def _handed_arguments(root: str, skill_root: str, script: str) -> tuple[tuple[int, str], ...]:
    """(position, path) of each credential file a command line in the skill's SKILL.md passes to this
    script (`bash scripts/detect.sh .env ~/.ssh/config`): the script's positional arguments are those
    files whatever its own text names, as `gawk -f x.awk ~/.kube/config` hands a settings runner's
    script its input. Only credential paths are kept; other arguments stay unknown."""
    from .common import is_credential_path

    text = ""
    for name in ("SKILL.md", "skill.md", "Skill.md"):
        loaded = read_file(root, posixpath.join(skill_root, name) if skill_root else name, 512 * 1024)
        if isinstance(loaded, Decoded):
            text = loaded.text
            break
    rel = posixpath.relpath(script, skill_root or ".")
    base = posixpath.basename(script)
    if not text or base not in text:
        return ()
    for line in text.split("\n")[:5000]:
        if base not in line or len(line) > 2000:
            continue
        for needle in dict.fromkeys((rel, base)):
            i = line.find(needle)
            while i >= 0:
                before = line[i - 1] if i else " "
                after = line[i + len(needle):i + len(needle) + 1] or " "
                if not (before.isalnum() or before in "_-") and after in " \t":
                    rest = line[i + len(needle):]
                    m = _ARGS_END.search(rest.encode("utf-8", "surrogatepass"))
                    if m is not None:
                        rest = rest.encode("utf-8", "surrogatepass")[:m.start()].decode("utf-8", "replace")
                    words = [w.strip("\"'") for w in rest.split()][:20]
                    found = tuple((n, w) for n, w in enumerate(words, 1) if w and not w.startswith("-") and is_credential_path(w))
                    if found:
                        return found
                i = line.find(needle, i + 1)
    return ()


@lru_cache(maxsize=256)
def _skill_hosts(root: str, skill_root: str) -> frozenset[str]:
    for name in ("SKILL.md", "skill.md", "Skill.md"):
        loaded = read_file(root, posixpath.join(skill_root, name) if skill_root else name, 512 * 1024)
        if isinstance(loaded, Decoded):
            return documented_hosts(loaded.text)
    return frozenset()
