"""What keeps the Action's own output honest: no workflow command it did not mean, no crash on a byte path.

GitHub's runner reads every line a step writes to stdout or stderr and acts on any line that starts
with `::` (or the old `##[`). The Action writes its own commands (annotations, the stop-commands
pair around the text report) through `InertStream.command()`; everything else written to the two
streams (warnings from Python while parsing scanned scripts, a worker's message, text that quotes a
file name) goes through `InertStream.write()`, which neutralises such lines. Lone surrogates (from
file names that are not UTF-8, read with surrogateescape) are shown as `<0xNN>` instead of making
the write fail.
"""
from __future__ import annotations

import re
import warnings
from contextlib import contextmanager
from typing import Iterator, TextIO

_SURROGATE = re.compile("[\udc80-\udcff]")
_ANY_SURROGATE = re.compile("[\ud800-\udfff]")
# A line the runner would take as a command: `::name ...::`, or the older `##[name]` form.
# The runner splits lines at \n, \r\n and a lone \r alike (.NET ReadLine).
_COMMAND_LINE = re.compile(r"(^|[\r\n])([^\S\r\n]*)(::|##\[)")
MAX_WARNINGS_SHOWN = 5


def scrub(text: str) -> str:
    """Text that always encodes as UTF-8: surrogate-escaped bytes become `<0xNN>`."""
    if not _ANY_SURROGATE.search(text):
        return text
    text = _SURROGATE.sub(lambda m: f"<0x{ord(m.group()) - 0xDC00:02X}>", text)
    return _ANY_SURROGATE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def defuse(text: str) -> str:
    """No line of `text` can be read as a workflow command (a visible `> ` goes in front)."""
    return _COMMAND_LINE.sub(lambda m: m.group(1) + m.group(2) + "> " + m.group(3), scrub(text))


class InertStream:
    """A text stream whose ordinary writes can never be workflow commands; `command()` is the only way to write one."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        self._inner.write(defuse(text))
        return len(text)

    def command(self, line: str) -> None:
        self._inner.write(scrub(line) + "\n")

    def flush(self) -> None:
        self._inner.flush()

    def __getattr__(self, name: str):  # fileno, isatty, encoding, ...
        return getattr(self._inner, name)


def write_command(out, line: str) -> None:
    """Write one workflow command the Action means (works on plain streams in tests too)."""
    if isinstance(out, InertStream):
        out.command(line)
    else:
        out.write(scrub(line) + "\n")


@contextmanager
def captured_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Python warnings (e.g. 3.12's SyntaxWarning from ast.parse, which starts with the scanned
    file's path) are recorded instead of printed; the caller reports them inert."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        yield caught


def warnings_note(caught: list[warnings.WarningMessage]) -> str | None:
    if not caught:
        return None
    shown = "; ".join(f"{w.category.__name__}: {scrub(str(w.message))[:160]}" for w in caught[:MAX_WARNINGS_SHOWN])
    more = f" (and {len(caught) - MAX_WARNINGS_SHOWN} more)" if len(caught) > MAX_WARNINGS_SHOWN else ""
    return f"{len(caught)} Python warning(s) while reading scanned files were captured: {shown}{more}"
