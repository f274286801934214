"""Text helpers of the token-level reader: folding split string literals ('cur' + 'l',
['a', 'b'].join('')), unescaping, and the one-line `for (const x of y)` binding. Plain byte
and string scanning, linear in the text they are handed."""
from __future__ import annotations

from ...matching import rx
from .. import common as c


def for_of(line: bytes) -> tuple[bytes, bytes] | None:
    """`for (const [k, v] of items)` on one line -> (b"[k, v]", b"items"); plain byte scanning."""
    i = line.find(b"for")
    while i >= 0:
        rest = line[i + 3:].lstrip()
        if rest.startswith(b"(") and (i == 0 or not (chr(line[i - 1]).isalnum() or line[i - 1] in b"_$")):
            rest = rest[1:].lstrip()
            for kw in (b"const ", b"let ", b"var "):
                if rest.startswith(kw):
                    head, sep, tail = rest[len(kw):].partition(b" of ")
                    if sep and head.strip():
                        depth, end = 1, len(tail)
                        for j, ch in enumerate(tail):
                            depth += ch == 0x28
                            depth -= ch == 0x29
                            if depth == 0:
                                end = j
                                break
                        return head.strip(), tail[:end].strip()
        i = line.find(b"for", i + 3)
    return None


_PLUS_BETWEEN_LITERALS = rx(r"""['"]\s*\+\s*['"]""")


def join_literals(chunk: bytes) -> bytes:
    """'bas' + 'e64' -> 'base64', so a split keyword still matches."""
    if b"+" not in chunk:
        return chunk
    out, last = [], 0
    for m in _PLUS_BETWEEN_LITERALS.finditer(chunk):
        out.append(chunk[last:m.start()])
        last = m.end()
    out.append(chunk[last:])
    return b"".join(out)


def is_literal(arg: bytes) -> bool:
    a = arg.strip()
    if len(a) >= 2 and a[:1] in (b"'", b'"') and a[-1:] == a[:1] and a.count(a[:1]) == 2:
        return True
    return a[:1] == b"`" and a[-1:] == b"`" and b"${" not in a


def auth_header_only(win: bytes) -> bool:
    low = win.lower()
    return (b"authorization" in low or b"x-api-key" in low or b"bearer" in low) and b"body" not in low and b"data" not in low


def first_url(data: bytes) -> str:
    urls = c.urls_in(data.decode("utf-8", "replace"))
    return urls[0] if urls else ""


def unquote(raw: bytes | str) -> str:
    s = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if len(s) >= 2 and s[0] in "'\"`" and s[-1] == s[0]:
        s = s[1:-1]
    return unescape(s)


_HEX_ESCAPE_DIGITS = {"x": 2, "u": 4}


def unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out = []
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            digits = _HEX_ESCAPE_DIGITS.get(nxt, 0)  # \xHH, \uHHHH
            if digits and i + 1 + digits < len(s):
                try:
                    out.append(chr(int(s[i + 2:i + 2 + digits], 16)))
                    i += 2 + digits
                    continue
                except ValueError:
                    pass
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def pieces(text: str) -> list[str]:
    """Quoted pieces of a chunk, unescaped (a path is often split over several literals)."""
    out, quote, buf = [], "", []
    for ch in text:
        if quote:
            if ch == quote:
                out.append(unescape("".join(buf)))
                quote, buf = "", []
            else:
                buf.append(ch)
        elif ch in "'\"`":
            quote = ch
    return out


def fold(chain: str) -> str:
    return "".join(pieces(chain.split(".join", 1)[0] if ".join" in chain else chain))
