"""Language of a bundled file: extension first, shebang second (scanner.document.classify),
plus the names of files that are compiled code or archives whatever their bytes say."""
from __future__ import annotations

import posixpath

from ..document import classify

# Languages with an analyser in this package (others still get the language-neutral rules).
ANALYSED_LANGUAGES = frozenset({"python", "shell", "javascript", "typescript", "powershell", "ruby", "perl", "php", "go", "rust", "lua", "r", "csharp"})
BINARY_SUFFIXES = (
    ".exe", ".dll", ".so", ".dylib", ".bin", ".o", ".a", ".pyc", ".pyo", ".pyd", ".class", ".jar", ".war",
    ".wasm", ".elf", ".msi", ".dmg", ".pkg", ".deb", ".rpm", ".apk", ".appimage", ".node",
)
ARCHIVE_SUFFIXES = (
    ".zip", ".tar", ".tgz", ".tar.gz", ".gz", ".bz2", ".tbz2", ".xz", ".txz", ".7z", ".rar", ".whl", ".egg",
    ".zst", ".lz", ".lzma", ".cab", ".iso", ".nupkg", ".crx", ".xpi", ".vsix",
)


def language_of(path: str, text: str) -> tuple[str, str]:
    """(kind, language) with kind prose/config/script/other; extension first, shebang second."""
    kind, lang = classify(path, text)
    if kind == "script" and lang == "unknown":
        first = text[:200].split("\n", 1)[0].lower()
        if "env -s" in first:
            rest = first.split("env -s", 1)[1].split()
            if rest:
                return classify(path, "#!/usr/bin/env " + rest[0])
    return kind, lang


def compiled_or_archive(path: str) -> str | None:
    """'compiled binary' or 'archive' when the file name says so, else None."""
    name = posixpath.basename(path).lower()
    if name.endswith(ARCHIVE_SUFFIXES):
        return "archive"
    if name.endswith(BINARY_SUFFIXES):
        return "compiled binary"
    return None


def flags_binary(path: str, detail: str) -> bool:
    """Is a binary file in a skill itself a finding? Executables, bytecode and archives are;
    images, fonts and other data (only 'NUL bytes' known) are reported as not scanned only."""
    return compiled_or_archive(path) is not None or not detail.startswith("binary data")
