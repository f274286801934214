"""Evaluate the constant strings a Python script builds, without running any of it.

Attackers split a dangerous name ("sys" + "tem"), reverse it, join characters, or hide it in
base64 so that a text search misses it. These helpers fold such expressions over the syntax
tree only; nothing is compiled or executed. Results are capped in length.
"""
from __future__ import annotations

import ast
import base64
import binascii
import codecs
from typing import Callable

MAX_LEN = 4096
Lookup = Callable[[str], "str | None"]


def _cap(s: str | None) -> str | None:
    return s if s is None or len(s) <= MAX_LEN else None


def const_str(node: ast.AST | None, lookup: Lookup, depth: int = 0) -> str | None:
    """The string value of an expression built only from constants and known names, else None."""
    if node is None or depth > 25:
        return None
    d = depth + 1
    tp = type(node)  # parse() builds exact node types: identity tests, not isinstance chains
    if tp is ast.Constant:
        if isinstance(node.value, str):
            return _cap(node.value)
        if isinstance(node.value, bytes):
            return _cap(node.value.decode("latin-1"))
        return None
    if tp is ast.Name:
        return lookup(node.id)
    if tp is ast.BinOp:
        if isinstance(node.op, ast.Add):
            a, b = const_str(node.left, lookup, d), const_str(node.right, lookup, d)
            return _cap(a + b) if a is not None and b is not None else None
        if isinstance(node.op, ast.Div):  # pathlib: Path("~") / ".ssh"
            a, b = const_str(node.left, lookup, d), const_str(node.right, lookup, d)
            return _cap(a.rstrip("/") + "/" + b) if a is not None and b is not None else None
        if isinstance(node.op, ast.Mod):
            fmt = const_str(node.left, lookup, d)
            if fmt is None:
                return None
            items = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            vals = [const_str(e, lookup, d) for e in items]
            if any(v is None for v in vals):
                return None
            try:
                return _cap(fmt % tuple(vals))
            except (TypeError, ValueError):
                return None
        return None
    if tp is ast.JoinedStr:
        parts = []
        for v in node.values:
            s = const_str(v.value if isinstance(v, ast.FormattedValue) else v, lookup, d)
            if s is None:
                return None
            parts.append(s)
        return _cap("".join(parts))
    if tp is ast.Subscript and isinstance(node.slice, ast.Slice):
        s = const_str(node.value, lookup, d)
        sl = node.slice
        if s is not None and sl.lower is None and sl.upper is None and _int(sl.step) == -1:
            return s[::-1]
        return None
    if tp is ast.Call:
        return _const_call(node, lookup, d)
    return None


def _int(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _int(node.operand)
        return -v if v is not None else None
    return None


def _elements(node: ast.AST, lookup: Lookup, depth: int) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)):
        vals = []
        for e in node.elts:
            if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "chr" and e.args:
                n = _int(e.args[0])
                if n is None or not 0 <= n < 0x110000:
                    return None
                vals.append(chr(n))
                continue
            s = const_str(e, lookup, depth)
            if s is None:
                return None
            vals.append(s)
        return vals
    if isinstance(node, (ast.GeneratorExp, ast.ListComp)) and len(node.generators) == 1:
        # "".join(chr(c) for c in [115, 121, ...])
        gen = node.generators[0]
        elt = node.elt
        if (isinstance(elt, ast.Call) and isinstance(elt.func, ast.Name) and elt.func.id == "chr"
                and isinstance(gen.iter, (ast.List, ast.Tuple)) and isinstance(gen.target, ast.Name)
                and elt.args and isinstance(elt.args[0], ast.Name) and elt.args[0].id == gen.target.id):
            codes = [_int(e) for e in gen.iter.elts]
            if all(c is not None and 0 <= c < 0x110000 for c in codes):
                return [chr(c) for c in codes]  # type: ignore[arg-type]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reversed"
            and len(node.args) == 1 and not node.keywords):
        inner = _elements(node.args[0], lookup, depth + 1)  # "".join(reversed("so")): the name spelled backwards
        return inner[::-1] if inner is not None else None
    s = const_str(node, lookup, depth)
    return list(s) if s is not None else None


def _const_call(node: ast.Call, lookup: Lookup, depth: int) -> str | None:
    f = node.func
    args = node.args
    if isinstance(f, ast.Attribute):
        if f.attr == "join" and len(args) == 1:
            sep = const_str(f.value, lookup, depth)
            if sep is not None:
                parts = _elements(args[0], lookup, depth)
                return _cap(sep.join(parts)) if parts is not None else None
            if dotted_name(f.value) in ("os.path", "posixpath", "ntpath"):
                return None
        if dotted_name(f.value) in ("os.path", "posixpath") and f.attr == "join":
            vals = [const_str(a, lookup, depth) for a in args]
            return _cap("/".join(v.rstrip("/") for v in vals)) if all(v is not None for v in vals) else None
        if dotted_name(f.value) in ("os.path", "posixpath") and f.attr in ("expanduser", "expandvars", "abspath", "normpath") and args:
            return const_str(args[0], lookup, depth)
        dotted_f = dotted_name(f)
        if dotted_f in ("Path.home", "pathlib.Path.home", "PosixPath.home", "pathlib.PosixPath.home", "Path.cwd.home") and not args:
            return "~"  # Path.home() / ".aws" / "credentials": the user's home folder
        if dotted_f in ("pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath") and len(args) == 1:
            return const_str(args[0], lookup, depth)
        inner = const_str(f.value, lookup, depth)
        if inner is not None:
            if f.attr in ("expanduser", "resolve", "absolute", "as_posix") and not args:
                return inner  # Path("~/.ssh").expanduser(): the same path
            return _string_method(inner, f.attr, [const_str(a, lookup, depth) for a in args])
        if f.attr in ("fromhex",) and args:
            h = const_str(args[0], lookup, depth)
            try:
                return _cap(bytes.fromhex(h).decode("latin-1")) if h is not None else None
            except ValueError:
                return None
        dotted = dotted_name(f)
        if dotted in ("base64.b64decode", "base64.urlsafe_b64decode", "base64.b32decode", "base64.b16decode",
                      "binascii.unhexlify", "binascii.a2b_base64", "codecs.decode") and args:
            return _decode_const(dotted, const_str(args[0], lookup, depth), [const_str(a, lookup, depth) for a in args[1:]])
    if isinstance(f, ast.Name):
        if f.id in ("str", "Path", "PurePath", "PosixPath") and len(args) == 1:
            return const_str(args[0], lookup, depth)
        if f.id == "chr" and args:
            n = _int(args[0])
            return chr(n) if n is not None and 0 <= n < 0x110000 else None
        if f.id in ("b64decode", "unhexlify", "urlsafe_b64decode") and args:
            return _decode_const("base64." + f.id if f.id != "unhexlify" else "binascii.unhexlify",
                                 const_str(args[0], lookup, depth), [])
    return None


def _string_method(s: str, method: str, args: list[str | None]) -> str | None:
    if any(a is None for a in args):
        return None
    try:
        if method in ("lower", "upper", "strip", "lstrip", "rstrip", "title", "casefold", "swapcase") and len(args) <= 1:
            return getattr(s, method)(*args)
        if method == "replace" and len(args) == 2:
            return _cap(s.replace(args[0], args[1]))  # type: ignore[arg-type]
        if method in ("decode", "encode"):
            if args and args[0] and args[0].replace("-", "_").lower() in ("rot13", "rot_13"):
                return codecs.decode(s, "rot13")
            return s
        if method == "format":
            return None
    except (TypeError, ValueError):
        return None
    return None


def _decode_const(fn: str, data: str | None, extra: list[str | None]) -> str | None:
    if data is None:
        return None
    try:
        raw = data.encode("latin-1")
        if fn == "codecs.decode":
            codec = (extra[0] or "") if extra else ""
            if codec.replace("-", "_").lower() in ("rot13", "rot_13"):
                return codecs.decode(data, "rot13")
            if codec.lower() in ("base64", "base_64"):
                return base64.b64decode(raw).decode("latin-1")
            if codec.lower() in ("hex", "hex_codec"):
                return binascii.unhexlify(raw).decode("latin-1")
            return None
        if fn in ("base64.b64decode", "base64.urlsafe_b64decode"):
            return _cap(base64.b64decode(raw + b"=" * (-len(raw) % 4), altchars=b"-_" if "urlsafe" in fn else None).decode("latin-1"))
        if fn == "base64.b32decode":
            return _cap(base64.b32decode(raw).decode("latin-1"))
        if fn in ("base64.b16decode", "binascii.unhexlify"):
            return _cap(binascii.unhexlify(raw).decode("latin-1"))
        if fn == "binascii.a2b_base64":
            return _cap(binascii.a2b_base64(raw).decode("latin-1"))
    except (ValueError, binascii.Error, UnicodeError):
        return None
    return None


def dotted_name(node: ast.AST) -> str:
    """`os.path` for an Attribute chain ending in a Name; "" for anything else (calls, subscripts)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""
