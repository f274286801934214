"""Package names a `.rune/` file tells an agent to install or use.

Two sources: install commands (`pip install`, `python -m pip install`, `uv add`, `uv pip install`,
`poetry add`, `pdm add`, `pipx install`, `npm i`/`install`/`add`, `yarn add`, `pnpm add`/`i`,
`bun add`, `cargo add`/`install`) and backticked names right after "use" or "install" in prose
("Use `httpx` for HTTP"). Cargo crates are extracted but not compared: the bundled rankings
cover PyPI and npm only, and comparing crates with them would report real crates (reqwest).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..document import Document
from ..matching import rx, text_rx
from .negation import negated

MAX_ARGS = 40  # names read from one install command

_INSTALL = rx(
    r"(?i)\b(pip3?|pipx|uv|poetry|pdm|npm|pnpm|yarn|bun|cargo)(?:\.exe)?\s+(install|i|add)\b([^\n;&|`#]*)"
)
_MENTION = rx(
    r"\b(use|uses|using|install|installs|installing|installed)\s+(?:the\s+)?(?:(?:package|library|lib|module|crate|dependency)\s+)?`([^`\n]{1,80})`"
)

ECOSYSTEM = {"pip": "pypi", "pip3": "pypi", "pipx": "pypi", "uv": "pypi", "poetry": "pypi", "pdm": "pypi",
             "npm": "npm", "pnpm": "npm", "yarn": "npm", "bun": "npm", "cargo": "cargo"}
VALUE_OPTIONS = frozenset({
    "-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url", "--extra-index-url",
    "-f", "--find-links", "-t", "--target", "--prefix", "--root", "--python", "-p", "--group", "-g", "--source",
    "--registry", "--tag", "--cache", "--workspace", "-w", "--filter", "--features", "-F", "--git", "--branch",
    "--rev", "--path", "--version", "--vers", "--index", "--optional", "--extra", "--upgrade-strategy", "--platform",
})


@dataclass(frozen=True)
class PackageRef:
    name: str
    ecosystem: str  # pypi, npm, cargo, or "any" for a prose mention
    start: int  # offsets of the name in the document
    end: int
    source: str  # "install" or "mention"


def _name_like(token: str, ecosystem: str) -> str | None:
    """The bare package name of an argument, or None for options, paths, URLs and placeholders."""
    t = token.strip("'\"").strip().rstrip(".,:;)")
    if not t or t.startswith(("-", ".", "/", "~", "$", "<", "{", "%")) or "://" in t or "\\" in t:
        return None
    if t.startswith(("git+", "file:", "http:", "https:", "github:", "npm:", "workspace:", "link:")):
        return None
    if ecosystem == "npm":
        scoped = t.startswith("@")
        body = t[1:] if scoped else t
        at = body.find("@")
        if at > 0:
            body = body[:at]
        if scoped and body.count("/") != 1 or not scoped and "/" in body:
            return None
        name = ("@" if scoped else "") + body
    else:
        if "/" in t or t.endswith((".txt", ".whl", ".gz", ".zip", ".toml", ".cfg", ".py")):
            return None
        cut = len(t)
        for ch in "[<>=!~;@ (,":
            i = t.find(ch)
            if 0 <= i < cut:
                cut = i
        name = t[:cut]
    if not name or len(name) > 100:
        return None
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@/")
    if any(c not in allowed for c in name) or not name.lstrip("@")[:1].isalnum():
        return None
    return name


def code_segments(doc: Document) -> Iterator[tuple[int, str]]:
    """(offset, text) of each code line and inline code span: where install commands live.

    Prose such as "run npm install and it still works" is not a command; a name is only read from
    what is written as code.
    """
    from .shell import _inline_spans

    code = doc.code_block_lines
    for no, line in enumerate(doc.lines, 1):
        start = doc.line_starts[no - 1]
        if no in code:
            yield start, line
        else:
            for span in _inline_spans(line, start):
                yield span.offset, span.text


def install_refs(doc: Document) -> Iterator[PackageRef]:
    count = 0
    for offset, text in code_segments(doc):
        if "install" not in text and "add" not in text and " i " not in text + " ":
            continue
        data = text.encode("utf-8", "surrogatepass")
        for m in _INSTALL.finditer(data):
            tool = m.group(1).decode().lower()
            verb = m.group(2).decode().lower()
            if tool in ("poetry", "pdm", "yarn", "bun") and verb != "add" or tool == "uv" and verb == "install":
                continue
            if tool in ("pip", "pip3") and verb != "install":
                continue
            eco = ECOSYSTEM.get(tool, "")
            args_start = len(data[:m.start(3)].decode("utf-8", "replace"))
            args = text[args_start:args_start + len(m.group(3).decode("utf-8", "replace"))]
            skip = False
            pos = 0
            for word in args.split():
                at = args.find(word, pos)
                pos = at + len(word)
                if skip:
                    skip = False
                    continue
                if word.startswith("-"):
                    skip = word in VALUE_OPTIONS
                    continue
                if tool == "uv" and verb == "pip":
                    continue
                name = _name_like(word, eco)
                if name is None:
                    continue
                count += 1
                if count > MAX_ARGS * 50:
                    return
                start = offset + args_start + at + (len(word) - len(word.lstrip("'\"")))
                yield PackageRef(name, eco, start, start + len(name), "install")


# A passing "use `x`" names a package only when the line talks about packages.
PACKAGE_CONTEXT = ("package", "library", "librar", " lib ", "dependenc", "module", "sdk", "pip", "npm", "pypi",
                   "crate", "install", "client for", "framework")


def mention_refs(doc: Document) -> Iterator[PackageRef]:
    for m in doc.finditer(_MENTION):
        # The match ran on the normalised (lower-cased) text; read the name as written.
        start = doc.text.find("`", m.start, m.end) + 1
        close = doc.text.find("`", start, m.end + 1)
        if start <= 0 or close < 0:
            continue
        raw = doc.text[start:close]
        # camelCase, dotted paths and calls are code identifiers, not package names.
        if any(c in raw for c in ".()") or any(c.isupper() for c in raw[1:]) or " " in raw.strip():
            continue
        name = _name_like(raw, "npm" if raw.startswith("@") else "pypi")
        if name is None:
            continue
        if negated(doc, m.start, m.end):
            continue
        verb = (m.group(1) or "").lower()
        if not verb.startswith("install"):
            line = doc.line_text(doc.position(m.start)[0]).lower()
            if raw[:1].isupper() or not any(w in f" {line} " for w in PACKAGE_CONTEXT):
                continue
        yield PackageRef(name, "any", start, start + len(raw), "install" if verb.startswith("install") else "mention")


# A table of the packages to install: a header cell names the column ("package", "dependency",
# "library", "module") and each row's cell in it a name, usually beside a pin. A name there is
# installed as written, as an install command's argument is. A table under a heading or with a
# row that refuses the name ("never install", "blocked", "typosquat of ...") lists what to keep out.
_PACKAGE_COLUMN = frozenset({"package", "packages", "dependency", "dependencies", "library", "libraries", "module", "modules",
                             "package name", "name", "pacchetto", "paquete", "paket", "pakiet", "pacote", "paquet", "пакет"})
_REFUSING = text_rx(r"(?i)\b(?:never|do not|don'?t|avoid|banned|blocked|blocklist|block-list|deny|denied|denylist|malicious|typo-?squat\w*|"
                    r"compromised|forbidden|rejected|removed|hijacked|not allowed|disallowed|vulnerable)\b|\x{274C}|\x{1F6AB}|\x{26D4}")


def table_refs(doc: Document) -> Iterator[PackageRef]:
    lines = doc.lines
    heading = ""
    column = -1
    in_table = False
    offset = 0
    count = 0
    for n, line in enumerate(lines):
        start = doc.line_starts[n] if n < len(doc.line_starts) else offset
        stripped = line.strip()
        if stripped.startswith("#"):
            heading = stripped
        if not stripped.startswith("|"):
            in_table, column = False, -1
            continue
        cells = [c.strip() for c in stripped.strip("|").split("|")]
        if not in_table:
            in_table = True
            names = [c.strip("*_` ").lower() for c in cells]
            column = next((k for k, c in enumerate(names) if c in _PACKAGE_COLUMN), -1)
            if column >= 0 and _REFUSING.search(heading):
                column = -1
            continue
        if column < 0 or column >= len(cells) or set(stripped) <= set("|-: "):
            continue
        if _REFUSING.search(stripped):
            continue
        cell = cells[column]
        if not (cell.startswith("`") and cell.count("`") >= 2):
            continue
        raw = cell.split("`")[1]
        if " " in raw.strip() or any(c.isupper() for c in raw[1:]):
            continue
        name = _name_like(raw, "npm" if raw.startswith("@") else "pypi")
        if name is None:
            continue
        at = line.find("`" + raw + "`")
        if at < 0:
            continue
        count += 1
        if count > 200:
            return
        yield PackageRef(name, "any", start + at + 1, start + at + 1 + len(raw), "table")
