"""Cheaper patterns for RE2 set gates: a relaxed pattern matches every text its original does.

A gate (scanner/matching/gates.py) only decides which patterns run their own exact pass, so its
set may hold any SUPERSET of each pattern: the exact pass still decides the findings. Most of a
set pass's cost is building its automaton's states (in every process, as texts need them), and
two features of our patterns multiply those states:

- Bounded repeats: `[^\\n]{0,80}` is eighty copies of a class, each a separate state in every
  product with the other patterns. Widened (`{m,n}` -> `*` when m is 0, else `+`), it is one
  (see KEEP_GROUP_COUNT for the repeats kept).
- UTF-8: RE2 compiles `[^\\n]`, `\\S` or `.` into a small automaton over the lead and
  continuation bytes of every code point. Under Latin-1 each is one byte class.

Both are derived from the pattern's syntax tree (the stdlib parser, as scanner/matching/prefilter.py does
for our own patterns) and emitted again as an RE2 pattern. Latin-1 is made a superset of RE2's
UTF-8 matching over the same bytes:
- a node that can match a non-ASCII code point (a dot, a negated class, `\\S`, `\\W`, `\\D`, a
  non-ASCII range) matches, besides its ASCII part, any run of bytes 0x80-0xFF: every byte of a
  multi-byte code point (and of an invalid sequence, which RE2's UTF-8 automaton never matches
  anyway) lies there. Under a widened repeat that is simply the byte class, since
  (A|H+)* = (A|H)*;
- a non-ASCII literal is the exact sequence of its UTF-8 bytes;
- `\\b`, `\\s`, `\\w`, `\\d`, `^` and `$` mean the same in both encodings (RE2's Perl classes
  and word boundaries are ASCII);
- case folding differs (under UTF-8 `(?i)k` also matches the Kelvin sign), so a pattern that
  folds case is left to a UTF-8 set, with its repeats widened.
Anything the translation does not fully understand (RE2-only syntax, syntax the two parsers read
differently, back references, look-arounds) yields None: the caller keeps the original pattern.
tests/test_gates.py checks the superset on texts generated from every gated pattern.
"""
from __future__ import annotations

import re  # only over our own pattern sources, never over scanned text
import re._parser as sre_parse  # the stdlib's regex syntax parser: only ever sees our own patterns
from re._constants import (
    ANY, AT, AT_BEGINNING, AT_BEGINNING_STRING, AT_BOUNDARY, AT_END, AT_NON_BOUNDARY, BRANCH,
    CATEGORY, CATEGORY_DIGIT, CATEGORY_NOT_DIGIT, CATEGORY_NOT_SPACE, CATEGORY_NOT_WORD,
    CATEGORY_SPACE, CATEGORY_WORD, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, NEGATE, NOT_LITERAL,
    RANGE, SRE_FLAG_DOTALL, SRE_FLAG_IGNORECASE, SRE_FLAG_MULTILINE, SUBPATTERN,
)

from . import saved

_HIGH = r"[\x80-\xff]"  # any byte of a multi-byte UTF-8 sequence
_CATEGORIES = {  # RE2's ASCII Perl classes, and whether the class holds non-ASCII code points
    CATEGORY_DIGIT: (r"\d", False), CATEGORY_SPACE: (r"\s", False), CATEGORY_WORD: (r"\w", False),
    CATEGORY_NOT_DIGIT: (r"\D", True), CATEGORY_NOT_SPACE: (r"\S", True), CATEGORY_NOT_WORD: (r"\W", True),
}
# Syntax that RE2 and Python's parser read differently: POSIX classes, quoting, `x{,n}` (a
# literal in RE2, a repeat in Python), Unicode classes and `\C`.
_DIVERGENT = re.compile(r"\[:\^?[a-z]+:\]|\\[QpPC]|\{,")


# A group repeated a few times is kept as it is: `(?:\S+\s+){0,3}` widened would reach across
# lines and paragraphs (\s holds newlines), and one exfil pattern's gate then admitted 114 benign
# documents instead of 13; kept, such a group costs the automaton few states. A group repeated
# more (`(?:\S+\s+){0,4}`) and any repeated single character (`[^\n]{0,80}`) are widened.
KEEP_GROUP_COUNT = 3


class _Unsupported(Exception):
    pass


SAVED_PATH = saved.DATA / "relaxed_patterns.json"
_saved: dict[str, str | None] | None = None


def relaxed_saved(pattern: str, latin1: bool) -> str | None:
    """relaxed(), read from the forms saved with the package for this derivation (saved.py), so
    that a start does not derive the gates' patterns again."""
    global _saved
    if _saved is None:
        _saved = saved.load(SAVED_PATH, __file__)
    key = _key(pattern, latin1)
    return _saved[key] if key in _saved else relaxed(pattern, latin1)


def save_relaxed(patterns, path=SAVED_PATH) -> int:
    return saved.save(path, __file__, {_key(p, latin1): relaxed(p, latin1) for p in set(patterns) for latin1 in (True, False)})


def _key(pattern: str, latin1: bool) -> str:
    return ("latin1:" if latin1 else "utf8:") + pattern


def relaxed(pattern: str, latin1: bool) -> str | None:
    """A pattern matching every text `pattern` matches under RE2 (UTF-8), with bounded repeats
    widened; with latin1, meant for an RE2 set with Latin-1 encoding over the same UTF-8 bytes
    (every character of the result is below U+0100: encode it as latin-1). None: not understood."""
    if _DIVERGENT.search(pattern):
        return None
    try:
        tree = sre_parse.parse(pattern)
        return _Emitter(latin1).sequence(list(tree), tree.state.flags)
    except Exception:  # RE2-only syntax (\x{...}, \z) or a node the emitter does not know
        return None


def _byte(code: int) -> str:
    return f"\\x{code:02x}"


def _utf8(ch: str) -> str:
    return "".join(_byte(b) for b in ch.encode("utf-8"))


class _Emitter:
    def __init__(self, latin1: bool) -> None:
        self.latin1 = latin1

    def sequence(self, items, flags: int) -> str:
        return "".join(self.node(op, arg, flags) for op, arg in items)

    def node(self, op, arg, flags: int) -> str:
        if op is LITERAL:
            return self.literal(arg, flags)
        if op is AT:
            return self.at(arg, flags)
        if op is SUBPATTERN:
            _group, add, remove, child = arg
            return f"(?:{self.sequence(child, (flags | add) & ~remove)})"
        if op is BRANCH:
            return "(?:" + "|".join(self.sequence(b, flags) for b in arg[1]) + ")"
        if op in (MAX_REPEAT, MIN_REPEAT):  # lazy or greedy: the same for a set
            return self.repeat(arg, flags)
        if op in (ANY, NOT_LITERAL, IN):
            ascii_class, wide = self.klass(op, arg, flags)
            if not self.latin1 or not wide:
                return ascii_class
            return f"(?:{ascii_class}|{_HIGH}+)" if ascii_class else f"{_HIGH}+"
        raise _Unsupported(op)  # back references, look-arounds, atomic groups: not RE2

    def literal(self, code: int, flags: int) -> str:
        if flags & SRE_FLAG_IGNORECASE:
            if self.latin1:
                raise _Unsupported("case folding differs between encodings")
            return f"(?i:{_escape(code)})"
        if 0xD800 <= code <= 0xDFFF:
            raise _Unsupported("surrogate")
        if self.latin1 and code >= 0x80:
            return f"(?:{_utf8(chr(code))})"
        return _escape(code)

    def at(self, code, flags: int) -> str:
        multiline = bool(flags & SRE_FLAG_MULTILINE)
        if code is AT_BEGINNING:
            return "(?m:^)" if multiline else r"\A"
        if code is AT_END:
            return "(?m:$)" if multiline else r"\z"  # RE2's $ outside multi-line: end of text
        if code is AT_BEGINNING_STRING:
            return r"\A"
        if code is AT_BOUNDARY:
            return r"\b"
        if code is AT_NON_BOUNDARY:
            return r"\B"
        raise _Unsupported(code)  # \Z: not RE2

    def repeat(self, arg, flags: int) -> str:
        low, high, child = arg
        single = len(child) == 1 and child[0][0] in (ANY, NOT_LITERAL, IN)
        if high <= 1 or (not single and high - low <= KEEP_GROUP_COUNT):
            body = self.sequence(child, flags)
            return f"(?:{body}){{{low},{high}}}"
        suffix = "*" if low == 0 else "+"
        if single:
            # One character, repeated: under Latin-1 its non-ASCII part is a byte class too.
            op, carg = child[0]
            return self.klass(op, carg, flags, high=True)[0] + suffix
        return f"(?:{self.sequence(child, flags)}){suffix}"

    def klass(self, op, arg, flags: int, high: bool = False) -> tuple[str, bool]:
        """(an RE2 class of the node, whether it can match a non-ASCII code point). Under
        Latin-1 the class holds the node's ASCII part, and with `high` every byte 0x80-0xFF too
        (for a repeated node); without, a negated class leaves those bytes out."""
        if flags & SRE_FLAG_IGNORECASE and self.latin1:
            raise _Unsupported("case folding differs between encodings")
        if op is ANY:
            dotall = flags & SRE_FLAG_DOTALL
            if not self.latin1:
                return (r"(?s:.)" if dotall else r"[^\n]"), True
            if high:
                return (r"[\x00-\xff]" if dotall else r"[^\n]"), True
            return (r"[\x00-\x7f]" if dotall else r"[^\n\x80-\xff]"), True
        items = [(NEGATE, None), (LITERAL, arg)] if op is NOT_LITERAL else list(arg)
        negate = bool(items) and items[0][0] is NEGATE
        parts: list[str] = []
        wide = negate  # a negated class holds (almost) every non-ASCII code point
        for iop, iarg in items[1:] if negate else items:
            if iop is LITERAL:
                if iarg < 0x80 or not self.latin1:
                    parts.append(_escape(iarg))
                wide |= iarg >= 0x80
            elif iop is RANGE:
                lo, hi = iarg
                if not self.latin1:
                    parts.append(f"{_escape(lo)}-{_escape(hi)}")
                elif lo < 0x80:
                    parts.append(f"{_byte(lo)}-{_byte(min(hi, 0x7F))}")
                wide |= hi >= 0x80
            elif iop is CATEGORY and iarg in _CATEGORIES:
                escape, has_wide = _CATEGORIES[iarg]
                # \S, \W, \D hold every byte 0x80-0xFF under Latin-1; negated inside a negated
                # class they leave ASCII characters only, as under UTF-8.
                parts.append(escape)
                wide |= has_wide
            else:
                raise _Unsupported(iop)
        if self.latin1 and negate and not high:
            parts.append(r"\x80-\xff")  # matched as byte runs instead (see node())
        elif self.latin1 and wide and high and not negate:
            parts.append(r"\x80-\xff")
        if not parts:
            if negate:  # a negation of only non-ASCII characters
                return (r"[\x00-\xff]" if high else r"[\x00-\x7f]"), True
            return "", wide  # only non-ASCII characters: node() matches them as byte runs
        klass = f"[{'^' if negate else ''}{''.join(parts)}]"
        if flags & SRE_FLAG_IGNORECASE:
            klass = f"(?i:{klass})"
        return klass, wide


def _escape(code: int) -> str:
    ch = chr(code)
    if ch.isascii() and ch.isalnum():
        return ch
    if code < 0x100:
        return _byte(code)
    return f"\\x{{{code:x}}}"  # UTF-8 sets only
