"""Text a script hands to a model: tool descriptions, tool-returned strings, other literals.

An MCP tool's description (a Python docstring of a `@mcp.tool()` function, a `description=`
keyword, a JS `{ name, description }` object, the second argument of `server.tool(...)`) and
the strings its code returns are read by the agent as instructions. This module finds the
string literals of a script and says which of these they are, so rules can read them as
messages to the model rather than as code.

`span_at(doc, offset)` answers "which literal holds this character?" for a rule that found a
phrase with one RE2 pass over the whole text: the literals are extracted only for documents
where some phrase matched. Python is read through `ast` (python.flow.parse_tree; the tree is
dropped after each reading, so a script whose literals are wanted is parsed once more);
JavaScript/TypeScript through one RE2 pass over comments and string tokens. Nothing is
compiled, imported or run.
"""
from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass

from ..matching import rx
from .python.gc_paused import gc_paused

DESCRIPTION, RETURNED, DOCSTRING, STRING = "description", "returned", "docstring", "string"

_CACHE_ATTR = "_tool_text_spans"
_FuncDef = (ast.FunctionDef, ast.AsyncFunctionDef)
_TOOL_METHODS = frozenset({"_run", "_arun", "run", "arun", "__call__", "call", "execute", "invoke"})
_TOOL_DECORATORS = frozenset({"tool", "call_tool", "prompt", "resource", "read_resource", "list_tools", "get_prompt"})
# Callees whose `description=` reaches the model (tool and parameter schemas), unlike argparse's.
_DESCRIBING_CALLEE = ("tool", "prompt", "resource", "field", "param", "schema", "function", "argument")
_NOT_DESCRIBING = frozenset({"ArgumentParser", "add_argument", "add_parser", "add_argument_group", "add_subparsers",
                             "add_mutually_exclusive_group", "option", "Option", "argument", "Argument", "command", "group"})
# MCP server objects whose `instructions=` the client puts in the model's context.
_SERVERS = frozenset({"FastMCP", "Server", "MCPServer", "McpServer", "LowLevelServer"})
_CONSTANT_SHAPES = (ast.Constant, ast.JoinedStr, ast.BinOp, ast.List, ast.Tuple, ast.Set, ast.Dict)
# Calls that inspect text rather than deliver it: a string handed to them is test data.
# Words that name inspection, not delivery ("search" and "find" are left out: a SearchTool
# fed a poisoned page delivers it).
_DETECTOR_WORDS = ("scan", "detect", "analy", "check", "sanitiz", "classif", "validat", "assert", "expect",
                   "inspect", "lint", "guard", "compile", "is_injection", "is_malicious", "is_suspicious")
_REGEX_MARKS = ("\\s", "\\b", "\\w", "\\d", "(?:", "(?i", ".*", ".+", "[^", "\\(", "\\.")


@dataclass(frozen=True)
class Literal:
    start: int  # character offsets of the literal in Document.text, quotes included
    end: int
    kind: str  # DESCRIPTION, RETURNED, DOCSTRING or STRING
    data: bool  # evidence that the text is data (a pattern list, a regex, a test input), not a message
    owner: str = ""  # tool or function it belongs to, when known


class Spans:
    def __init__(self, literals: list[Literal]) -> None:
        self.literals = sorted(literals, key=lambda s: (s.start, -s.end))
        self.starts = [s.start for s in self.literals]

    def at(self, offset: int) -> Literal | None:
        """The innermost literal holding `offset` (literals nest only inside f-strings)."""
        i = bisect.bisect_right(self.starts, offset) - 1
        best = None
        # Literals do not overlap except an f-string's parts: look back a few for an enclosing one.
        for j in range(i, max(-1, i - 4), -1):
            s = self.literals[j]
            if s.start <= offset < s.end and (best is None or s.end - s.start < best.end - best.start):
                best = s
        return best


def span_at(doc, offset: int) -> Literal | None:
    spans = doc.__dict__.get(_CACHE_ATTR)
    if spans is None:
        spans = Spans(extract(doc))
        doc.__dict__[_CACHE_ATTR] = spans
    return spans.at(offset)


@gc_paused
def extract(doc) -> list[Literal]:
    if doc.language == "python":
        from .python.flow import parse_tree, release_tree

        try:
            tree = parse_tree(doc)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            return _js_literals(doc, test_file=_is_test_path(doc.path))  # unparsable: read its tokens
        try:
            return _PythonLiterals(doc, tree).run()
        finally:
            del tree
            release_tree(doc)  # freed before the collector resumes (python.behaviour.python_analyses says why)
    if doc.language in ("javascript", "typescript"):
        return _js_literals(doc, test_file=_is_test_path(doc.path))
    return []


def _is_test_path(path: str) -> bool:
    p = path.lower().replace("\\", "/")
    name = p.rsplit("/", 1)[-1]
    return (name.startswith("test_") or name.endswith(("_test.py", ".test.js", ".test.ts", ".spec.js", ".spec.ts"))
            or "/tests/" in f"/{p}" or "/test/" in f"/{p}" or "/__tests__/" in p or "fixture" in p)


def regex_like(text: str) -> bool:
    return any(m in text for m in _REGEX_MARKS)


def _detector(name: str) -> bool:
    low = name.lower()
    return any(w in low for w in _DETECTOR_WORDS)


# -- Python -------------------------------------------------------------------------------
def _callee(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")


def _name_of(node: ast.AST) -> str:
    return node.id if isinstance(node, ast.Name) else (node.attr if isinstance(node, ast.Attribute) else "")


class _PythonLiterals:
    def __init__(self, doc, tree: ast.Module) -> None:
        self.doc = doc
        self.tree = tree
        self.test_file = _is_test_path(doc.path)
        self.kind: dict[int, str] = {}  # id(node) -> kind other than STRING
        self.owner: dict[int, str] = {}
        self.data: set[int] = set()
        self.tool_methods: set[int] = set()

    def run(self) -> list[Literal]:
        strings: list[ast.AST] = []
        inner: set[int] = set()  # parts of an f-string: the f-string is the literal
        defs: list = []
        assigned: dict[str, list[ast.AST]] = {}  # module/class-level name -> value nodes
        detector_names: set[str] = set()
        for node in _walk(self.tree):
            t = type(node)
            if t is ast.Constant:
                if isinstance(node.value, str) and id(node) not in inner:
                    strings.append(node)
                continue
            if t is ast.JoinedStr:
                strings.append(node)
                inner.update(id(v) for v in node.values)
                continue
            if t in (ast.FunctionDef, ast.AsyncFunctionDef):
                defs.append(node)
            if t is ast.ClassDef and any("Tool" in _name_of(b) for b in node.bases):
                self._tool_class(node)
            if t in (ast.Module, ast.ClassDef):
                for st in node.body:
                    if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
                        for tgt in (st.targets if isinstance(st, ast.Assign) else [st.target]):
                            if isinstance(tgt, ast.Name):
                                assigned.setdefault(tgt.id, []).append(st.value)
            if t in (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef):
                self._docstring(node)
            elif t in (ast.List, ast.Tuple, ast.Set):
                elts = [e for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if len(elts) >= 3:  # a keyword or pattern list
                    self.data.update(id(e) for e in elts)
            elif t is ast.Assert or t is ast.Compare:
                self._mark_data(node.test if t is ast.Assert else node)
            elif t is ast.Call:
                self._call(node, assigned, detector_names)
            elif t is ast.Dict:
                self._dict(node)
        self._tools(defs, assigned)
        for name in detector_names:  # a payload variable handed to a detector is test data
            for value in assigned.get(name, ()):
                self._mark_data(value)
        out = []
        for node in strings:
            span = self._span(node)
            if span is None:
                continue
            text = self.doc.text[span[0]:span[1]]
            data = self.test_file or id(node) in self.data or regex_like(text)
            out.append(Literal(span[0], span[1], self.kind.get(id(node), STRING), data, self.owner.get(id(node), "")))
        return out

    def _docstring(self, node) -> None:
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            self.kind.setdefault(id(body[0].value), DOCSTRING)

    def _mark(self, node: ast.AST, kind: str, owner: str = "") -> None:
        for n in _walk(node):
            if isinstance(n, (ast.Constant, ast.JoinedStr)):
                if self.kind.get(id(n)) not in (DESCRIPTION,):  # a description stays one
                    self.kind[id(n)] = kind
                    if owner:
                        self.owner[id(n)] = owner

    def _mark_data(self, node: ast.AST) -> None:
        for n in _walk(node):
            if isinstance(n, (ast.Constant, ast.JoinedStr)):
                self.data.add(id(n))

    def _call(self, node: ast.Call, assigned: dict, detector_names: set[str]) -> None:
        name = _callee(node)
        if not name:
            return
        low = name.lower()
        if name in _SERVERS or (name not in _NOT_DESCRIBING and any(w in low for w in _DESCRIBING_CALLEE)):
            for kw in node.keywords:
                if kw.arg in ("description", "desc", "instructions"):
                    self._mark(kw.value, DESCRIPTION)
                    if isinstance(kw.value, ast.Name):
                        for value in assigned.get(kw.value.id, ()):
                            self._mark(value, DESCRIPTION)
        if _detector(name) or (isinstance(node.func, ast.Attribute) and _name_of(node.func.value) in ("re", "regex", "re2")):
            for arg in node.args:
                if isinstance(arg, (ast.Constant, ast.JoinedStr)):
                    self._mark_data(arg)
                elif isinstance(arg, ast.Name):
                    detector_names.add(arg.id)

    def _dict(self, node: ast.Dict) -> None:
        keys = {k.value: v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        if "description" in keys and keys.keys() & {"name", "inputSchema", "input_schema", "parameters", "arguments"}:
            self._mark(keys["description"], DESCRIPTION)

    def _tool_class(self, node: ast.ClassDef) -> None:
        """LangChain-style `class X(BaseTool)`: its `description` attribute is the tool's
        description and its run methods are the tool."""
        for st in node.body:
            if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                if any(isinstance(tg, ast.Name) and tg.id == "description" for tg in targets):
                    self._mark(st.value, DESCRIPTION, node.name)
            elif isinstance(st, _FuncDef) and st.name in _TOOL_METHODS:
                self.tool_methods.add(id(st))

    def _tools(self, defs: list, assigned: dict) -> None:
        tools = [fn for fn in defs if _is_tool(fn) or id(fn) in self.tool_methods]
        if not tools:
            return
        for fn in tools:
            body = fn.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                self.kind[id(body[0].value)] = DESCRIPTION
                self.owner[id(body[0].value)] = fn.name
        by_name: dict[str, list] = {}
        for fn in defs:
            by_name.setdefault(fn.name, []).append(fn)
        # Everything the tools reach by name (helpers, methods, callbacks): its strings can be returned.
        reached = {id(fn): fn for fn in tools}
        work = list(tools)
        while work:
            fn = work.pop()
            names: set[str] = set()
            for st in fn.body:  # not the decorators: `@mcp.tool()` does not return the server object
                for n in _walk(st):
                    if isinstance(n, (ast.Name, ast.Attribute)):
                        names.add(_name_of(n))
            for name in names:
                for g in by_name.get(name, ()):
                    if id(g) not in reached:
                        reached[id(g)] = g
                        work.append(g)
            for st in fn.body:
                if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and st is fn.body[0]:
                    continue  # the docstring is not returned
                self._mark(st, RETURNED, fn.name)
            for name in names & assigned.keys():  # constants the tool's code reads (class or module level)
                for value in assigned[name]:
                    if isinstance(value, _CONSTANT_SHAPES):  # a call builds an object, not a message
                        self._mark(value, RETURNED, fn.name)

    def _span(self, node: ast.AST) -> tuple[int, int] | None:
        try:
            return self._offset(node.lineno, node.col_offset), self._offset(node.end_lineno, node.end_col_offset)
        except (AttributeError, TypeError, IndexError):
            return None

    def _offset(self, lineno: int, col: int) -> int:
        line = self.doc.lines[lineno - 1]
        if not line.isascii():  # ast columns count UTF-8 bytes
            col = len(line.encode("utf-8", "surrogatepass")[:col].decode("utf-8", "replace"))
        return self.doc.line_starts[lineno - 1] + col


_SKIP = frozenset({ast.Load, ast.Store, ast.Del, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod, ast.Pow, ast.FloorDiv,
                   ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.MatMult, ast.And, ast.Or, ast.Not,
                   ast.Invert, ast.UAdd, ast.USub, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot,
                   ast.In, ast.NotIn, ast.alias})


def _walk(node: ast.AST):
    """Pre-order walk (a parent before its children) that skips context and operator tokens."""
    stack = [node]
    pop, push = stack.pop, stack.append
    skip = _SKIP
    while stack:
        n = pop()
        yield n
        for name in n._fields:
            v = getattr(n, name, None)
            if type(v) is list:
                for x in reversed(v):
                    if isinstance(x, ast.AST) and type(x) not in skip:
                        push(x)
            elif isinstance(v, ast.AST) and type(v) not in skip:
                push(v)


def _is_tool(fn) -> bool:
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if _name_of(target) in _TOOL_DECORATORS:
            return True
    return False


# -- JavaScript / TypeScript (also Python its parser rejects) ------------------------------
# One RE2 pass: comments first at each position, so quotes inside comments are not strings.
_JS_TOKENS = rx(
    r"//[^\n]*|/\*(?:[^*]|\*+[^*/])*\*+/|#[^\n]*"
    r"|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`"
)
_JS_KEY = rx(r"([A-Za-z_$][\w$]*)['\"]?\s*[:=]\s*$")
_JS_DESCRIBING_CALL = rx(r"(?:\.(?:tool|registerTool|prompt|registerPrompt|resource)|\btool)\s*\(\s*$")


def _js_literals(doc, *, test_file: bool) -> list[Literal]:
    text = doc.text
    data_bytes = doc.raw_bytes
    ascii_ = len(data_bytes) == len(text)
    out: list[Literal] = []
    prev: Literal | None = None
    prev_end_b = -1
    for count, m in enumerate(_JS_TOKENS.finditer(data_bytes)):
        if count > 20000:
            break
        tok = m.group(0)
        if tok[:1] in (b"/", b"#"):
            continue
        sb, eb = m.start(), m.end()
        s = sb if ascii_ else len(data_bytes[:sb].decode("utf-8", "replace"))
        e = eb if ascii_ else s + len(tok.decode("utf-8", "replace"))
        before = data_bytes[max(0, sb - 200):sb].decode("utf-8", "replace")
        head = before.rstrip()
        kind = STRING
        if prev is not None and head.endswith("+") and data_bytes[prev_end_b:sb].strip() == b"+":
            kind = prev.kind  # "a" + "b": one message split in two
        elif head.endswith((":", "=")):
            key = _JS_KEY.search(head.encode("utf-8", "surrogatepass")[-80:])
            name = key.group(1).decode() if key else ""
            if name in ("description", "desc", "instructions"):
                kind = DESCRIPTION
            elif name in ("text", "content", "message", "result", "output"):
                kind = RETURNED
        elif head.endswith("(") and head[:-1].rstrip().endswith(".describe"):
            kind = DESCRIPTION
        elif head.endswith(","):
            # server.tool("name", "description", ...): the second argument
            call_head = head[:-1].rstrip()
            q = call_head[-1:] if call_head[-1:] in ("'", '"', "`") else ""
            if q:
                open_ = call_head.rfind(q, 0, len(call_head) - 1)
                if open_ > 0 and _JS_DESCRIBING_CALL.search(call_head[:open_].encode("utf-8", "surrogatepass")[-60:]):
                    kind = DESCRIPTION
        elif head.endswith("return"):
            kind = RETURNED
        line = before[before.rfind("\n") + 1:]
        # An element of a list of strings ("a", "b", ...): the one before it ended at this comma.
        listed = kind == STRING and prev is not None and head.endswith(",") and data_bytes[prev_end_b:sb].strip() == b","
        if listed and not prev.data:
            out[-1] = Literal(prev.start, prev.end, prev.kind, True, prev.owner)
        listed = listed or "expect(" in line or "assert" in line
        data = test_file or listed or regex_like(tok.decode("utf-8", "replace")) or any(_detector(w) for w in _call_words(line))
        lit = Literal(s, e, kind, data)
        out.append(lit)
        prev, prev_end_b = lit, eb
    return out


_CALL_WORD = rx(r"([A-Za-z_$][\w$]*)\s*\(")


def _call_words(line: str) -> list[str]:
    data = line.encode("utf-8", "surrogatepass")
    return [m.group(1).decode() for m in _CALL_WORD.finditer(data)]
