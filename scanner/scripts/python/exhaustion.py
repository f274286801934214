"""Resource-exhaustion shapes of python.behaviour: code written to exhaust memory, CPU, threads,
file descriptors or disk, catastrophic regexes, unbounded recursion and unchecked decompression.

Each shape is one a working script has no reason to contain (a 10-million-element literal
repetition, `while True` that allocates and never leaves or waits, a function that always
calls itself); the weaker ones (archives extracted with no size check, thread or file creation
counted by the caller) count only in code an agent's tool reaches.
"""
from __future__ import annotations

import ast

from ...models import Confidence, Severity
from .. import fact_kinds as K
from . import reach as pr
from .walk import children, walk

HUGE_COUNT = 10_000_000
BIG_LOOP = 1000
_WAITS = frozenset({"sleep", "wait", "recv", "recvfrom", "accept", "select", "poll", "join", "read", "readline", "input",
                    "get", "get_nowait", "communicate", "serve_forever", "acquire", "receive", "listen", "iter_lines", "next",
                    "readlines", "result", "check", "getch", "fetch", "pop", "popleft", "put"})
_MAKERS = frozenset({"append", "extend", "Thread", "Process", "fork", "open", "socket", "pipe", "Popen", "start", "mkstemp",
                     "NamedTemporaryFile", "write", "insert", "add"})
_RESOURCES = frozenset({"Thread", "Process", "socket", "pipe", "Popen", "fork", "mkstemp", "NamedTemporaryFile"})
_SIZE_CHECKS = ("file_size", "compress_size", "max_size", "max_bytes", "max_total", "maxsize", "st_size", "size_limit",
                "MAX_SIZE", "MAX_BYTES", "max_length", "max_output")
_REGEX_CALLS = frozenset({"re.compile", "re.match", "re.search", "re.fullmatch", "re.findall", "re.finditer", "re.sub", "re.split",
                          "regex.compile", "regex.search", "regex.match"})


def const_int(node: ast.AST, depth: int = 0) -> int | None:
    """The value of an integer expression made only of literals (10**9, 1024 * 1024), capped."""
    if depth > 12:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Pow, ast.Add, ast.LShift)):
        a, c = const_int(node.left, depth + 1), const_int(node.right, depth + 1)
        if a is None or c is None:
            return None
        if isinstance(node.op, ast.Pow):
            return a ** c if 0 <= c <= 40 and abs(a) <= 1 << 20 else None
        if isinstance(node.op, ast.LShift):
            return a << c if 0 <= c <= 64 else None
        return a * c if isinstance(node.op, ast.Mult) else a + c
    return None


def _const_factor(node: ast.AST) -> int:
    """Product of the literal factors of a multiplication (size_mb * 1024 * 1024 -> 1048576)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _const_factor(node.left) * _const_factor(node.right)
    v = const_int(node)
    return v if v is not None and v > 0 else 1


def resource_exhaustion(x) -> None:
    _huge_repetition(x)
    _endless_allocation(x)
    _resource_loops(x)
    _catastrophic_regex(x)
    _runaway_recursion(x)
    _unchecked_decompression(x)


def _huge_repetition(x) -> None:
    """`[item] * 10_000_000`, `b"X" * (size_mb * 1024 * 1024)`, `range(10**8)`."""
    for n in x.mults:
        for seq, count in ((n.left, n.right), (n.right, n.left)):
            if isinstance(seq, (ast.List, ast.Tuple)) or (isinstance(seq, ast.Constant) and isinstance(seq.value, (str, bytes))):
                v = const_int(count)
                scaled = v is None and not isinstance(count, ast.Constant) and _const_factor(count) >= 1 << 20
                if (v is not None and v >= HUGE_COUNT) or scaled:
                    x.emit(K.EXHAUSTION, n, "Builds a repetition tens of millions of elements or megabytes long (memory or disk exhaustion)",
                           Severity.MEDIUM, Confidence.MEDIUM)
                    return
    for n in x.calls:
        if isinstance(n.func, ast.Name) and n.func.id == "range" and any((const_int(a) or 0) >= HUGE_COUNT for a in n.args):
            x.emit(K.EXHAUSTION, n, "Loops tens of millions of times (CPU exhaustion)", Severity.MEDIUM, Confidence.LOW)
            return


def _body_calls(stmts) -> list[ast.Call]:
    out = []
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Call):
            out.append(n)
        stack.extend(children(n))
    return out


def _leaves(stmts) -> bool:
    """Whether a loop body can end the loop: break, return, raise, yield, sys.exit, await."""
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, (ast.Break, ast.Return, ast.Raise, ast.Yield, ast.YieldFrom, ast.Await, ast.Try)):
            return True
        if isinstance(n, ast.Call) and pr.callee_name(n) in ("exit", "_exit", "quit"):
            return True
        stack.extend(children(n))
    return False


def _endless_allocation(x) -> None:
    """`while True:` that never leaves, never waits and only allocates, counts or calls the
    module's own non-waiting functions. A loop inside a `try` may end by exception (EOFError)."""
    guarded = [(t.body[0].lineno, t.body[-1].end_lineno or t.body[-1].lineno) for t in x.tries if t.handlers]
    for loop in x.loops:
        if not isinstance(loop, ast.While) or not (isinstance(loop.test, ast.Constant) and loop.test.value):
            continue
        if _leaves(loop.body) or any(a <= loop.lineno <= z for a, z in guarded):
            continue
        calls = _body_calls(loop.body)
        names = {pr.callee_name(cl) for cl in calls}
        if names & _WAITS:
            continue
        grows = any(isinstance(n, ast.AugAssign) and isinstance(n.op, (ast.Add, ast.Mult)) for st in loop.body for n in walk(st))
        local = names & set(x.reach.funcs)
        local_idle = bool(names) and names <= local and not any(
            pr.callee_name(cl) in _WAITS for name in local for fn in x.reach.funcs[name] for cl in _body_calls(fn.body))
        if names & _MAKERS or grows or not calls or local_idle:
            x.emit(K.EXHAUSTION, loop, "Loops forever without waiting or leaving (CPU or memory exhaustion)",
                   Severity.MEDIUM, Confidence.MEDIUM)
            return


def _resource_loops(x) -> None:
    """Threads, processes, sockets or pipes created in a loop of a thousand or more, or of a
    count the agent's tool passes in."""
    for loop in x.loops:
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        it = loop.iter
        if not (isinstance(it, ast.Call) and pr.callee_name(it) == "range" and it.args):
            continue
        bound = const_int(it.args[-1] if len(it.args) < 3 else it.args[1])
        caller_sized = bound is None and _in_tool_taint(x, loop, it.args[-1])
        if not (caller_sized or (bound is not None and bound >= BIG_LOOP)):
            continue
        made = [cl for cl in _body_calls(loop.body) if pr.callee_name(cl) in _RESOURCES or
                (pr.callee_name(cl) == "open" and not _in_with(loop, cl))]
        if made:
            x.emit(K.EXHAUSTION, made[0], "Creates threads, processes, sockets or open files in a loop sized to exhaust the machine",
                   Severity.MEDIUM, Confidence.MEDIUM, count=bound if bound is not None else "caller-chosen")
            return


def _in_with(loop, call: ast.Call) -> bool:
    return any(isinstance(n, ast.withitem) and n.context_expr is call for n in walk(loop))


def _in_tool_taint(x, node: ast.AST, expr: ast.AST) -> bool:
    names = pr.names_in(expr)
    for fn in x.reach.reached_defs():
        if fn.lineno <= node.lineno <= (fn.end_lineno or fn.lineno) and names & x.reach.tainted.get(id(fn), set()):
            return True
    return False


def _all_atoms_repeat(body: str) -> bool:
    """Whether an alternative is only repeated or optional atoms, the first unbounded (`a+`,
    `[a-z]+`, `\\w+\\s?`): such a body matches one text in many ways, so repeating it backtracks
    exponentially. A mandatory literal (`\\d+\\.`) pins each repetition down."""
    if body.startswith("?"):
        j = body.find(">") + 1 if body.startswith(("?P<", "?<")) else (2 if body[1:2] in ":=!>" else 0)
        body = body[j:]
    i, n, first = 0, len(body), True
    if not body:
        return False
    while i < n:
        ch = body[i]
        if ch in "()|":
            return False
        if ch == "\\":
            i += 2
        elif ch == "[":
            k = body.find("]", i + 2)
            if k < 0:
                return False
            i = k + 1
        else:
            i += 1
        q = body[i:i + 1]
        if q == "{":
            k = body.find("}", i)
            if k < 0:
                return False
            q, i = ("*" if "," in body[i:k] else "?"), k + 1
        elif q in ("+", "*", "?"):
            i += 1
        else:
            return False
        if first and q not in ("+", "*"):
            return False
        first = False
        if body[i:i + 1] in ("?", "+"):  # lazy or possessive marker
            i += 1
    return True


def nested_quantifier(pattern: str) -> bool:
    """A repeated group one of whose alternatives starts with an atom that itself repeats without
    bound: (a+)+, ([a-z]+)*, (\\w+\\s?)*; or a repeated group of identical alternatives, (a|a)*.
    A literal separator first, as in (?:-[a-z0-9]+)*, cannot backtrack catastrophically. One pass."""
    stack: list[list[int]] = []  # per open group: start offsets of its alternatives
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            j = pattern.find("]", i + 2)
            i = (j + 1) if j > 0 else n
            continue
        if ch == "(":
            stack.append([i + 1])
        elif ch == "|" and stack:
            stack[-1].append(i + 1)
        elif ch == ")" and stack:
            alts = stack.pop()
            k = i + 1
            repeated = k < n and (pattern[k] in "+*" or (pattern.startswith("{", k) and ",}" in pattern[k:k + 8]))
            if repeated:
                bodies = [pattern[a:(alts[j + 1] - 1 if j + 1 < len(alts) else i)] for j, a in enumerate(alts)]
                if any(_all_atoms_repeat(bd) for bd in bodies) or len(bodies) != len(set(bodies)):
                    return True
        i += 1
    return False


def _catastrophic_regex(x) -> None:
    if not any(m.split(".")[0] in ("re", "regex") for m in x.imports.values()):
        return
    used = any(x.q(cl) in _REGEX_CALLS for cl in x.calls)
    if not used:
        return
    for node, s in x.strings:
        if len(s) <= 200 and ("+" in s or "*" in s) and "(" in s and nested_quantifier(s):
            x.emit(K.EXHAUSTION, node, "Defines a regular expression with nested repetition (catastrophic backtracking, ReDoS)",
                   Severity.MEDIUM, Confidence.MEDIUM, pattern=s[:80])
            return


def _runaway_recursion(x) -> None:
    """A function that calls itself with no condition anywhere in its body, or a recursive
    function started at a depth far past Python's limit."""
    recursive = set()
    for fn in x.defs:
        own = x.self_calls.get(id(fn))
        if not own:
            continue
        recursive.add(fn.name)
        if id(fn) not in x.conditional:
            x.emit(K.EXHAUSTION, own[0], "Calls itself unconditionally (unbounded recursion, stack exhaustion)",
                   Severity.MEDIUM, Confidence.MEDIUM)
            return
    for cl in x.calls:
        if isinstance(cl.func, ast.Name) and cl.func.id in recursive and any((const_int(a) or 0) >= 100_000 for a in cl.args):
            x.emit(K.EXHAUSTION, cl, "Starts a recursion far deeper than the interpreter allows (stack exhaustion)",
                   Severity.MEDIUM, Confidence.MEDIUM)
            return


def _unchecked_decompression(x) -> None:
    """An archive or compressed stream an agent's tool names, unpacked whole with no size check."""
    if not x.reach.tools or any(g in x.text for g in _SIZE_CHECKS):
        return
    for fn in x.reach.reached_defs():
        for cl in _body_calls(fn.body):
            q = x.q(cl)
            last = q.rsplit(".", 1)[-1]
            if last == "extractall" or q in ("zlib.decompress", "bz2.decompress", "lzma.decompress", "gzip.decompress") or \
                    (last == "read" and not cl.args and isinstance(cl.func, ast.Attribute) and _opened_compressed(x, fn, cl.func.value)):
                x.emit(K.EXHAUSTION, cl, "An agent-callable tool decompresses an archive whole with no size limit (decompression bomb)",
                       Severity.MEDIUM, Confidence.LOW, call=q)
                return


def _opened_compressed(x, fn, recv: ast.AST) -> bool:
    if not isinstance(recv, ast.Name):
        return False
    for n in walk(fn):
        if isinstance(n, ast.withitem) and isinstance(n.optional_vars, ast.Name) and n.optional_vars.id == recv.id and \
                isinstance(n.context_expr, ast.Call) and x.q(n.context_expr) in ("gzip.open", "bz2.open", "lzma.open"):
            return True
    return False
