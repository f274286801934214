"""A decoded file as the rules see it: text, positions, a normalised view, cached parses.

Rules ask the document for what they need (lines, normalised bytes, code-block lines); each
view is computed once per document and only when some rule asks for it.
"""
from __future__ import annotations

import bisect
import posixpath
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from typing import Callable, Iterator, TypeVar

from .matching import Regex, prefilter
from .normalize import OffsetMap, normalize_line

_UNSET = object()
T = TypeVar("T")

PROSE_SUFFIXES = {".md", ".mdc", ".markdown", ".txt", ".rst", ".instructions.md", ""}
PROSE_NAMES = {".cursorrules", ".windsurfrules", ".clinerules", "claude.md", "agents.md", "gemini.md"}
CONFIG_LANGUAGES = {".json": "json", ".jsonc": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
                    # agent-map formats (data/agent_files.yml): Kiro hooks and VS Code workspaces are JSON
                    ".hook": "json", ".code-workspace": "json"}
SCRIPT_LANGUAGES = {
    ".py": "python", ".pyw": "python",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".ksh": "shell", ".command": "shell",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".ps1": "powershell", ".psm1": "powershell", ".psd1": "powershell",
    ".rb": "ruby", ".rake": "ruby", ".pl": "perl", ".pm": "perl",
    ".bat": "batch", ".cmd": "batch",
    ".c": "c", ".h": "c", ".cpp": "cpp", ".cc": "cpp", ".hpp": "cpp", ".go": "go", ".rs": "rust",
    ".java": "java", ".cs": "csharp", ".csx": "csharp", ".php": "php", ".lua": "lua", ".r": "r",
    ".swift": "swift", ".kt": "kotlin", ".sol": "solidity", ".s": "assembly", ".asm": "assembly",
    # Languages with no analyser of their own still run when an agent runs them: read as scripts
    # (the language-neutral script rules and the credential/sink and loader passes), never as "other".
    ".kts": "kotlin", ".groovy": "groovy", ".gradle": "groovy", ".scala": "scala", ".dart": "dart",
    ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".escript": "erlang", ".nu": "nushell", ".fish": "fish",
    ".awk": "awk", ".gawk": "awk", ".jl": "julia", ".clj": "clojure", ".cljs": "clojure", ".bb": "clojure",
    ".fsx": "fsharp", ".vbs": "vbscript", ".vb": "vbnet", ".tcl": "tcl", ".raku": "raku", ".p6": "raku",
    ".cr": "crystal", ".nim": "nim", ".zig": "zig", ".hs": "haskell", ".ml": "ocaml",
    ".xsh": "xonsh", ".elv": "elvish", ".applescript": "applescript", ".ahk": "autohotkey",
}
SHEBANG_LANGUAGES = (
    ("python", "python"), ("bash", "shell"), ("zsh", "shell"), ("/sh", "shell"), (" sh", "shell"),
    ("dash", "shell"), ("ksh", "shell"), ("node", "javascript"), ("deno", "typescript"), ("bun", "javascript"),
    ("pwsh", "powershell"), ("powershell", "powershell"), ("ruby", "ruby"), ("perl", "perl"),
    ("rscript", "r"), ("php", "php"), ("lua", "lua"),
    ("fish", "fish"), (" nu", "nushell"), ("/nu", "nushell"), ("elixir", "elixir"), ("awk", "awk"), ("kotlin", "kotlin"),
    ("dart", "dart"), ("julia", "julia"), ("groovy", "groovy"), ("scala", "scala"), ("escript", "erlang"),
    ("tclsh", "tcl"), ("raku", "raku"), ("osascript", "applescript"), ("dotnet", "csharp"),
)


_TEMPLATE_SUFFIXES = (".tmpl", ".tpl", ".j2", ".jinja", ".jinja2", ".hbs", ".handlebars", ".mustache", ".liquid", ".njk", ".template", ".gotmpl")


def classify(path: str, text: str) -> tuple[str, str]:
    """Return (kind, language): kind is prose, config, script or other."""
    name = posixpath.basename(path).lower()
    if name in PROSE_NAMES:
        return "prose", "markdown"
    if name == "rakefile":
        return "script", "ruby"  # Ruby by name: rake runs it
    stem, dot, ext = name.rpartition(".")
    suffix = f".{ext}" if dot and stem else ""
    if suffix in SCRIPT_LANGUAGES:
        return "script", SCRIPT_LANGUAGES[suffix]
    if suffix in CONFIG_LANGUAGES:
        return "config", CONFIG_LANGUAGES[suffix]
    if text.startswith("#!"):
        first = text[:200].split("\n", 1)[0].lower()
        for needle, lang in SHEBANG_LANGUAGES:
            if needle in first:
                return "script", lang
        return "script", "unknown"
    if suffix in _TEMPLATE_SUFFIXES and posixpath.splitext(stem)[1] in (".md", ".mdc", ".markdown", ".txt", ".rst"):
        return classify(stem, text)  # "notes.md.tmpl": a template of a prose file is prose the agent reads and fills in
    if suffix in (".md", ".mdc", ".markdown", ".cursorrules", ".windsurfrules", ".clinerules", ".prompt"):  # .prompt: Continue
        return "prose", "markdown"
    if suffix in (".txt", ".rst", ""):
        return "prose", "text"
    if suffix in (".html", ".htm", ".xml", ".svg"):
        return "prose", "html"
    return "other", suffix.lstrip(".") or "text"


@dataclass(frozen=True)
class Match:
    start: int  # character offsets in Document.text
    end: int
    groups: tuple[str | None, ...]

    def group(self, i: int) -> str | None:
        return self.groups[i - 1] if i else None


class Document:
    def __init__(self, path: str, text: str, kind: str | None = None, language: str | None = None) -> None:
        self.path = path
        self.text = text
        if kind is None or language is None:
            k, lang = classify(path, text)
            kind = kind or k
            language = language or lang
        self.kind = kind
        self.language = language
        self._memo: dict = {}

    # -- per-document cache ----------------------------------------------------------
    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """compute(), once per document and key: the one cache for views and results that
        modules above keep per document (rule views, gate passes, parses). Keys are namespaced
        by their owner ("gate:...", "intent:..."); the value lives as long as the document."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    # -- positions -----------------------------------------------------------------
    @cached_property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @cached_property
    def line_starts(self) -> list[int]:
        return [total + i for i, total in enumerate(accumulate(map(len, self.lines[:-1]), initial=0))]

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        idx = bisect.bisect_right(self.line_starts, offset) - 1
        return idx + 1, offset - self.line_starts[idx] + 1

    def line_text(self, line_no: int) -> str:
        return self.lines[line_no - 1] if 0 < line_no <= len(self.lines) else ""

    # -- byte views for RE2 ----------------------------------------------------------
    @cached_property
    def raw_bytes(self) -> bytes:
        return self.text.encode("utf-8", "surrogatepass")

    @cached_property
    def _normalized(self) -> tuple[str, OffsetMap | None]:
        # One pass over the whole text with a sparse offset map: per-line maps made the
        # normalised view the scanner's hottest path.
        return normalize_line(self.text)

    @property
    def normalized_text(self) -> str:
        return self._normalized[0]

    @cached_property
    def normalized_bytes(self) -> bytes:
        return self.normalized_text.encode("utf-8", "surrogatepass")

    def normalized_to_original(self, offset: int) -> int:
        index = self._normalized[1]
        if index is None:
            return offset
        return index[offset] if offset < len(index) else len(self.text)

    def may_match(self, regex: Regex, normalized: bool = True) -> bool:
        """False only when the pattern cannot match this view of the text: its gate family's
        set pass (matching/gates.py) did not name it, or its required words (matching/prefilter.py)
        are absent. Both are exact supersets, so skipping the pass changes no result."""
        gate = regex.gate
        if gate is not None and gate.normalized == normalized and not gate.may_match(self, regex):
            return False
        if regex.prefilter is None:
            return True
        index, cond = regex.prefilter
        key = (index, normalized)
        present = self._atoms.get(key, _UNSET)
        if present is _UNSET:
            present = self._atoms.get((index, not normalized), _UNSET)
            if present is _UNSET or not self._case_only_normalized:
                # The atoms match without case, so the raw view is read lowered (ASCII only: every
                # letter stays in its case-folding class): the same answer, and the set's automaton
                # meets the lowercase bytes it already has states for from the normalised views.
                present = index.present(self.normalized_bytes if normalized else self.raw_bytes.lower())
            self._atoms[key] = present
        return present is None or prefilter.holds(cond, present)

    @cached_property
    def _atoms(self) -> dict:
        return {}

    @cached_property
    def _case_only_normalized(self) -> bool:
        """The normalised view differs from the text only by ASCII case (most files): the word
        prefilter's atoms match without case, so both views then hold the same atoms, and one
        set pass answers for both."""
        return self.normalized_bytes == self.raw_bytes.lower()

    def finditer(self, regex: Regex, normalized: bool = True, limit: int = 200) -> Iterator[Match]:
        """Matches as character offsets into the original text, at most `limit` of them."""
        if not self.may_match(regex, normalized):
            return
        text = self.normalized_text if normalized else self.text
        data = self.normalized_bytes if normalized else self.raw_bytes
        to_chars = _ByteToChar(text, data)
        for count, m in enumerate(regex.finditer(data)):
            if count >= limit:
                return
            s, e = to_chars(m.start()), to_chars(m.end())
            groups = tuple(
                g.decode("utf-8", "replace") if isinstance(g, bytes) else g for g in m.groups()
            )
            if normalized:
                s = self.normalized_to_original(s)
                e = self.normalized_to_original(e - 1) + 1 if e > 0 else 0
            yield Match(s, e, groups)

    def search(self, regex: Regex, normalized: bool = True) -> Match | None:
        return next(self.finditer(regex, normalized, limit=1), None)

    # -- structure ---------------------------------------------------------------------
    @cached_property
    def code_block_lines(self) -> frozenset[int]:
        """1-based numbers of lines inside fenced code blocks (``` or ~~~), fences included."""
        text = self.text
        if "```" not in text and "~~~" not in text:
            return frozenset()
        # Only lines that start (after spaces) with ``` or ~~~ can open or close a block: find
        # those and fill the ranges between, instead of testing every line in Python.
        inside: set[int] = set()
        lines = self.lines
        fence: str | None = None
        opened = line_no = 1
        pos = 0
        for start in fence_candidates(text):
            line_no += text.count("\n", pos, start)
            pos = start
            line = lines[line_no - 1]
            stripped = line.lstrip(" ")
            if fence is None:
                if len(line) - len(stripped) <= 3:
                    marker = stripped[0]
                    fence = marker * (len(stripped) - len(stripped.lstrip(marker)))
                    opened = line_no
            elif stripped.startswith(fence) and not stripped.strip(fence[0]).strip():
                inside.update(range(opened, line_no + 1))
                fence = None
        if fence is not None:  # never closed: the block runs to the end
            inside.update(range(opened, len(lines) + 1))
        return frozenset(inside)


def fenced_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) character spans of fenced code blocks, fences included, in order. Only lines
    that start (after up to three spaces) with ``` or ~~~ are looked at."""
    spans: list[tuple[int, int]] = []
    fence: str | None = None
    opened = 0
    for start in fence_candidates(text):
        at = start
        while at - start < 4 and text.startswith(" ", at):
            at += 1
        if at - start > 3:  # four spaces or more: indented, not a fence
            continue
        mark = text[at:at + 3]
        if fence is None:
            fence, opened = mark, start
        elif mark == fence:
            eol = text.find("\n", start)
            spans.append((opened, len(text) if eol == -1 else eol))
            fence = None
    if fence is not None:
        spans.append((opened, len(text)))
    return spans


def fence_candidates(text: str) -> list[int]:
    """Starts of the lines that may open or close a fenced code block: spaces, then ``` or ~~~
    (what `^ *(?:```|~~~)` finds line by line). str.find runs at C speed, where a regex tried at
    every position of the text cost more than the rest of the method; once a line has shown a
    marker, the search goes on from the next line, so each line is read a bounded number of times."""
    starts: set[int] = set()
    for marker in ("```", "~~~"):
        at = text.find(marker)
        while at >= 0:
            begin = text.rfind("\n", 0, at) + 1
            if not text[begin:at].strip(" "):
                starts.add(begin)
            nl = text.find("\n", at)
            if nl < 0:
                break
            at = text.find(marker, nl + 1)
    return sorted(starts)


class _ByteToChar:
    """Maps UTF-8 byte offsets to character offsets; identity for ASCII text."""

    __slots__ = ("_text", "_data", "_ascii", "_last_b", "_last_c")

    def __init__(self, text: str, data: bytes) -> None:
        self._text = text
        self._data = data
        self._ascii = len(text) == len(data)
        self._last_b = 0
        self._last_c = 0

    def __call__(self, b: int) -> int:
        if self._ascii:
            return b
        # Matches arrive in increasing order: decode only the stretch since the last one.
        if b < self._last_b:
            self._last_b, self._last_c = 0, 0
        self._last_c += len(self._data[self._last_b:b].decode("utf-8", "replace"))
        self._last_b = b
        return self._last_c
