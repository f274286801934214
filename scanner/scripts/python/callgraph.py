"""Which of a script's functions the Python flow analysis summarises, and in what order.

Functions are summarised callees first, so that one summary pass resolves helper chains; and
only those whose summary-pass result the final pass can observe are summarised at all.
Calls are placed in functions by line span (the innermost function whose lines hold them),
which needs no second walk of the tree.
"""
from __future__ import annotations

import bisect


def callees_first(funcs: dict, call_sites: list[tuple[int, str]]) -> list:
    """Functions ordered so that a helper is summarised before the functions that call it.
    Calls are attributed to the innermost function whose lines hold them (no second tree walk)."""
    spans = sorted((fn.lineno, fn.end_lineno or fn.lineno, name) for name, fn in funcs.items())
    starts = [sp[0] for sp in spans]
    calls: dict[str, set[str]] = {name: set() for name in funcs}
    for line, callee in call_sites:
        if callee not in funcs:
            continue
        i = bisect.bisect_right(starts, line) - 1
        while i >= 0:  # innermost enclosing span: walk back over spans that end before the line
            start, end, name = spans[i]
            if end >= line:
                if name != callee:
                    calls[name].add(callee)
                break
            i -= 1
    done: list[str] = []
    seen: set[str] = set()
    for root in funcs:
        stack = [(root, iter(sorted(calls[root])))]
        if root in seen:
            continue
        seen.add(root)
        while stack:
            name, it = stack[-1]
            nxt = next((c for c in it if c not in seen), None)
            if nxt is None:
                stack.pop()
                done.append(name)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(sorted(calls[nxt]))))
    return [(n, funcs[n]) for n in done]


def summaries_read(funcs: dict, ordered: list, call_sites: list[tuple[int, str]], inert: set[int],
                    attr_writes: list[int]) -> set[str]:
    """Functions whose summary-pass result the final pass can observe; the others need only the final pass.

    The final pass runs the module body first and then every function callees-first, each
    rewriting its summary, so a summary-pass summary is read only by a module-level call, a
    call back up the order (recursion, cycles), or, transitively, inside another such summary.
    A call that is a bare statement with no positional argument ignores the summary (its value
    is dropped, and summaries speak only of positional parameters). A function that stores into
    self.x / cls.x feeds every later scope through the shared attributes, so it always runs."""
    spans = sorted((fn.lineno, fn.end_lineno or fn.lineno, name) for name, fn in funcs.items())
    starts = [sp[0] for sp in spans]

    def owner(line: int) -> str:  # innermost function whose lines hold `line`; "" for the module
        i = bisect.bisect_right(starts, line) - 1
        while i >= 0:
            start, end, name = spans[i]
            if end >= line:
                return name
            i -= 1
        return ""

    pos = {name: i for i, (name, _) in enumerate(ordered)}
    edges: dict[str, set[str]] = {}
    needed: set[str] = {owner(line) for line in attr_writes}
    for k, (line, callee) in enumerate(call_sites):
        if callee not in funcs or k in inert:
            continue
        caller = owner(line)
        if caller == "" or pos[callee] >= pos[caller]:
            needed.add(callee)
        else:
            edges.setdefault(caller, set()).add(callee)
    needed.discard("")
    work = list(needed)
    while work:
        for callee in edges.get(work.pop(), ()):
            if callee not in needed:
                needed.add(callee)
                work.append(callee)
    return needed
