"""Whether the flow analysis's scope passes (python.scope.Scope over every function, the costly
part of a script's analysis) can emit anything for a module, decided from the names its tree holds.

Every name the gate tests for is computed from the sink table (scanner/data/script_sinks.yml)
through the same sets the passes test (python.api, python.sinks.SINK_NAMES and _SINK_ATTRS,
python.taint.SOCKET_CONNECTS): a sink added to the table is gated with no further edit.

Every fact the scope passes emit comes from one of these (keep this list in step with them):
  - python.sinks.check_call, which acts only when the call's method name is in _SINK_ATTRS or
    `_may_sink(q)` holds for its resolved name q; every sink() call, and so every summary's
    param_sinks and every via-helper sink, starts there;
  - Scope.call's capture check (q in api.CAPTURE, or a method in api.CAPTURE_METHODS);
  - Scope.stmt's Return inside an agent tool (a decorated function);
  - PythonFlow.whole_module_shapes, which needs a socket connect among the resolved calls.
Sinks of kind QUERY or TEMPLATE (weak_sink_call: find, search, format, ...) emit only through
untrusted_outcome, i.e. when a value holds UNTRUSTED: a tool's parameter or one of the table's
untrusted sources (sys.argv, input(), raw_input(), getpass.getpass()). The SQL methods (execute,
raw, ...) also emit on a plain parameter, so they always count.

A resolved name q is `a.b.c` built by Scope.qualname from the tree alone: its first part is a
Name's id, the head of an import's module path, or a constructor alias's head (socket,
requests); every later part is an attribute, a part of an import's path or of an alias. Only
getattr, __import__, import_module, globals/locals/vars, builtins.* and sys.modules bring parts
from strings (which folding can assemble from pieces), and normalize() drops a builtins prefix:
a module naming any of those is never gated. So if no sink's name can be spelt from the heads
and parts present, no call can resolve to it, and skipping the passes changes no fact.
"""
from __future__ import annotations

import ast
from functools import cache

from . import api
from .. import sink_table as T

# Names through which a resolved name can come from a string, or lose its first part (how
# Scope.qualname resolves, not a sink: kept here, beside the reasoning above).
DYNAMIC = frozenset({"getattr", "__import__", "import_module", "globals", "locals", "vars", "builtins", "__builtins__",
                     "__builtin__", "modules"})
# Method names check_call may hand to a QUERY or TEMPLATE sink, which emits only on UNTRUSTED values:
# the sink table's query and template methods.
WEAK_METHODS = T.names("python", "methods", "query") | T.names("python", "methods", "template")
# The untrusted sources Scope reads (the sink table's): without one, a weak sink never emits.
_UNTRUSTED_CALLS = tuple(sorted(api.UNTRUSTED_VALUES | api.UNTRUSTED_CALLS))


# Read from the modules that test them (imported at first use: both import this module).
@cache
def _attrs_always() -> frozenset[str]:
    """check_call's and Scope.call's tests of a call's own method name (`attr`) that emit whatever the value."""
    from .sinks import _SINK_ATTRS

    return (_SINK_ATTRS - WEAK_METHODS) | api.CAPTURE_METHODS


@cache
def _exact_sinks() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Sink names by first part: the rest of each."""
    from .taint import SOCKET_CONNECTS
    from .sinks import SINK_NAMES

    # check_call's names, those its shell and network predicates take whole, Scope.call's captures,
    # and the socket connect whole_module_shapes needs.
    names = SINK_NAMES | api.SHELL_ALWAYS | api.PROCESS_CALLS | api.NETWORK_EXACT | api.CAPTURE | SOCKET_CONNECTS
    by_head: dict[str, list[tuple[str, ...]]] = {}
    for n in sorted(names):
        path = tuple(n.split("."))
        by_head.setdefault(path[0], []).append(path[1:])
    return {head: tuple(rests) for head, rests in by_head.items()}


def _spelt(parts: tuple[str, ...], heads: set[str], names: set[str]) -> bool:
    return parts[0] in heads and all(p in names for p in parts[1:])


def weak_sink_call(call: ast.Call, method: str) -> bool:
    """Whether check_call can hand `x.method(...)` (method in WEAK_METHODS) to a QUERY or TEMPLATE
    sink: `.format` on anything but a literal, `.search/.find/.aggregate` of a string built at
    run time, any `.xpath/.search_s/.from_string` (keep in step with check_call)."""
    if method == "format":
        return type(call.func.value) is not ast.Constant
    if method in ("search", "find", "aggregate"):
        from .sinks import _built_string

        return bool(call.args) and _built_string(call.args[0])
    return True


def scope_passes_needed(heads: set[str], names: set[str], methods: set[str], imports: dict[str, str], tool: bool,
                        weak_calls: bool = True) -> bool:
    """False only when no call of the module can resolve to anything the scope passes act on.

    heads: every Name id of the tree; names: every attribute name (and may hold more);
    methods: the method name of every call `x.m(...)` (and may hold more); imports:
    PythonFlow.imports; tool: some function the passes would visit is an agent tool;
    weak_calls: some call passes weak_sink_call."""
    if tool:
        return True  # a tool's parameters are untrusted and its Return can emit
    heads = set(heads)
    names = set(names) | heads
    for target in imports.values():
        path = target.split(".")
        heads.add(path[0])
        names.update(path)
    if names & DYNAMIC:
        return True
    for key, value in api.CONSTRUCTOR_ALIASES.items():  # qualname may turn key into value; both have at most 3 parts
        if _spelt(tuple(key.split(".")), heads, names):
            path = value.split(".")
            heads.add(path[0])
            names.update(path)
    if methods & _attrs_always() or names & api.SENDING_METHODS:  # a sending method on any receiver is a network sink
        return True
    exact = _exact_sinks()
    for head in heads & exact.keys():
        if any(all(p in names for p in rest) for rest in exact[head]):
            return True
    if "os" in heads and any(n.startswith(("exec", "spawn")) for n in names):  # is_shell_call: os.exec*, os.spawn*
        return True
    if names & api.NETWORK_VERBS:  # is_network: a network module's prefix, then a verb
        for prefix in api.NETWORK_PREFIXES:
            *full, partial = prefix.split(".")
            if _spelt(tuple(full), heads, names) and (not partial or any(n.startswith(partial) for n in names)):
                return True
    untrusted = any(_spelt(tuple(q.split(".")), heads, names) for q in _UNTRUSTED_CALLS)
    return untrusted and weak_calls
