"""Dangerous text a unit test hands the code under test and shows refused.

`assert.throws(() => pm.getRunCommand('x; rm -rf /'), /unsafe/)`, `expect(() => check('rm -rf ~')).toThrow()`,
`assertThrows(..., () -> validate("rm -rf /"))`, or, in a test file, `const r = guard.run('rm -rf /')` followed by
`assert.strictEqual(r.success, false)`: the string is input whose refusal the test asserts, not a command the
script runs. It counts only when

- it is a direct argument of a call (the innermost open bracket before it is a call's),
- that call is not one the language's vocabulary says runs code or starts a process (`execSync('rm -rf ~')`
  inside `assert.throws` still runs it), and is not a function the same file defines (a local wrapper can run
  what it is given; the unit under test lives elsewhere),
- and a throws/rejects assertion opens on its line or the two before it, or (in a test file only) a failure is
  asserted on its line or the three after it.

Byte offsets into the script's UTF-8 text; every pattern runs on bounded windows (RE2, linear time).
"""
from __future__ import annotations

from ..matching import rx

_REJECTS = rx(
    r"(?i)(?:\bassert\s*\.\s*(?:throws|rejects)\b|\bassert(?:Throws|Raises|RaisesRegex|Rejects|Fails)\b|\bpytest\s*\.\s*raises\b"
    r"|\.\s*(?:toThrow\w*|rejects|toReject\w*)\b|\.\s*to\s*\.\s*(?:throw|be\s*\.\s*rejected)\b|\braise_error\b|\bexpectThrows?\b"
    r"|\bshould\s*\.\s*throw\b|\bexpectException\b|\b(?:throws|rejects)Error\b)"
)
# A result asserted to have failed or been refused.
_FAILED = rx(
    r"(?i)(?:\bassert\w*\s*(?:\.\s*\w+\s*)?\([^\n]*,\s*false\s*\)|\bassert(?:\s*\.\s*ok)?\s*\(\s*!|\bassertFalse\b|\btoBeFalsy\b"
    r"|\btoBe\s*\(\s*false\s*\)|\bassert\s+not\b|\bis\s+False\b|\bexpect\([^\n]*\)\s*\.\s*not\s*\.\s*toBe\s*\(\s*true"
    r"|\b(?:blocked|rejected|refused|denied|disallowed|not\s+allowed|unsafe)\b)"
)
_EXPECT = rx(r"\bexpect\s*[({]")
_CALLEE = rx(r"([A-Za-z_$][\w$]*)\s*(?:\?\.\s*)?$")


def _test_path(path: str) -> bool:
    p = "/" + path.lower().replace("\\", "/")
    name = p.rsplit("/", 1)[-1]
    stem = name.split(".", 1)[0]
    return (stem.startswith("test_") or stem.endswith(("_test", "_spec", "test")) or ".test." in name or ".spec." in name
            or any(d in p for d in ("/tests/", "/test/", "/__tests__/", "/spec/")))


def _open_call(head: bytes) -> int:
    """Offset in `head` of the innermost bracket still open at its end, -1 when none (a bounded walk)."""
    depth = 0
    for i in range(len(head) - 1, -1, -1):
        ch = head[i]
        if ch in b")]}":
            depth += 1
        elif ch in b"([{":
            if depth == 0:
                return i if ch == 0x28 else -1
            depth -= 1
    return -1


def _defined_here(data: bytes, name: bytes) -> bool:
    """Does the file define a function or a binding named `name` (bytes searches, no pattern built from text)?"""
    for form in (b"function " + name + b"(", b"function " + name + b" (", b"def " + name + b"(", b"def " + name + b" ",
                 b"func " + name + b"(", b"fn " + name + b"(", b"sub " + name + b" ", b"sub " + name + b"{",
                 b" " + name + b" = ", b" " + name + b"=", b"\t" + name + b" = ", b"\n" + name + b" = ", b"\n" + name + b"=",
                 b" " + name + b": ", b" " + name + b"("):
        i = data.find(form)
        while i >= 0:
            if form.startswith((b" ", b"\t", b"\n")) and form.endswith(b"("):
                # `  name(args) {` : a method defined in a class body (not a call: a call's line holds more before it)
                line = data[data.rfind(b"\n", 0, i) + 1:i + 1]
                end = data.find(b"\n", i)
                rest = data[i:end if end >= 0 else len(data)].rstrip()
                if line.strip() == b"" and rest.endswith(b"{"):
                    return True
            else:
                return True
            i = data.find(form, i + 1)
    return False


def _line_start(data: bytes, at: int, back: int = 0) -> int:
    """Start of the line holding byte `at`, or of the line `back` lines above it."""
    i = data.rfind(b"\n", 0, at) + 1
    for _ in range(back):
        if i == 0:
            break
        i = data.rfind(b"\n", 0, i - 1) + 1
    return i


def _line_end(data: bytes, at: int, forward: int = 0) -> int:
    """End of the line holding byte `at`, or of the line `forward` lines below it."""
    i = at
    for _ in range(forward + 1):
        j = data.find(b"\n", i)
        if j < 0:
            return len(data)
        i = j + 1
    return i - 1


def _literal_end(data: bytes, start: int) -> int:
    """The offset after the string literal opening at `start` (its closing quote on the same line, escapes skipped)."""
    q, i, end = data[start:start + 1], start + 1, _line_end(data, start)
    while i < end:
        ch = data[i:i + 1]
        if ch == b"\\":
            i += 2
            continue
        if ch == q:
            return i + 1
        i += 1
    return end


def _rejection_around(data: bytes, start: int) -> bool:
    """A throws/rejects assertion still open at `start` (`assert.throws(() => f(`, a `with pytest.raises(...):`
    block), or closing the statement after it (`expect(() => f('...')).toThrow()`)."""
    w0, w1 = max(_line_start(data, start, 2), start - 800), min(_line_end(data, start, 2), start + 800)
    for m in _REJECTS.finditer(data[w0:w1]):
        a, b = w0 + m.start(), w0 + m.end()
        if b <= start:
            between = data[b:start]
            if between.count(b"(") > between.count(b")") or data[_line_start(data, a):a].lstrip().startswith(b"with "):
                return True
        elif a > start:
            between = data[_literal_end(data, start):a]
            if b";" not in between and b"\n\n" not in between and _EXPECT.search(data[w0:start]):
                return True
    return False


def rejected_input(data: bytes, start: int, path: str, runs) -> bool:
    """Is the string literal at byte `start` test input whose refusal is asserted? `runs`: the
    language's patterns for calls that run code or start processes."""
    line0 = _line_start(data, start)
    head = data[max(line0, start - 400):start]
    at = _open_call(head)
    if at < 0:
        return False
    callee = _CALLEE.search(head[:at])
    if callee is None:
        return False
    call = head[max(0, callee.start() - 40):at + 1]
    if any(p.search(call) for p in runs) or _defined_here(data, callee.group(1)):
        return False
    if _rejection_around(data, start):
        return True
    if not _test_path(path):
        return False
    return _FAILED.search(data[start:min(_line_end(data, start, 3), start + 1200)]) is not None


def rejected_node(doc, node, memo: dict) -> bool:
    """rejected_input for a Python string constant (its line and UTF-8 column); `memo` keeps the
    file's bytes and line starts between calls."""
    if "data" not in memo:
        from .tokens.langs import VOCABULARIES
        data = doc.text.encode("utf-8", "surrogatepass")
        starts, i = [0], data.find(b"\n")
        while i >= 0:
            starts.append(i + 1)
            i = data.find(b"\n", i + 1)
        v = VOCABULARIES["python"]
        memo.update(data=data, starts=starts, runs=(v.spawn, v.exec_))
    starts = memo["starts"]
    line = getattr(node, "lineno", 0) - 1
    if not 0 <= line < len(starts):
        return False
    return rejected_input(memo["data"], starts[line] + getattr(node, "col_offset", 0), getattr(doc, "path", "") or "", memo["runs"])
