"""ast.walk and ast.iter_child_nodes for the shape checks, without their generator layers.

`walk` yields the nodes ast.walk yields, in its order (breadth first, children in field
order), except the expression-context and operator tokens (Load, Store, Add, Eq, ...): no
check here looks for a token, each is reached through its parent (`n.op`, `n.ops`). ast.walk
spends most of its time in iter_child_nodes/iter_fields; reading each node type's child
fields from a table and skipping fields that never hold a node makes it about twice as fast.
"""
from __future__ import annotations

import ast
from collections import deque

_AST = ast.AST
# Fields that hold plain values (names, numbers, flags) or context/operator tokens, never a node worth visiting.
_NOT_CHILDREN = frozenset({"ctx", "op", "ops", "id", "attr", "name", "arg", "module", "level", "kind", "conversion",
                           "is_async", "simple", "asname", "type_comment", "tag"})
# Each node type's fields that can hold a node, filled for every type below (also read by the
# inlined walks of python.flow and python.behaviour).
FIELDS: dict[type, tuple[str, ...]] = {}
# Every node type parse() builds (all are named in the ast module): `type(x) in NODE_TYPES` is isinstance(x, ast.AST).
NODE_TYPES = frozenset(t for t in vars(ast).values() if isinstance(t, type) and issubclass(t, _AST))


def fields_of(tp: type) -> tuple[str, ...]:
    f = FIELDS.get(tp)
    if f is None:
        f = FIELDS[tp] = tuple(x for x in tp._fields if x not in _NOT_CHILDREN)
    return f


def children(node: ast.AST) -> list[ast.AST]:
    """ast.iter_child_nodes(node) as a list, tokens left out."""
    out: list[ast.AST] = []
    fields = FIELDS.get(type(node))
    for name in fields if fields is not None else fields_of(type(node)):
        v = getattr(node, name, None)
        if type(v) is list:
            out += [x for x in v if isinstance(x, _AST)]
        elif isinstance(v, _AST):
            out.append(v)
    return out


def walk(node: ast.AST):
    """ast.walk(node) in the same order, tokens left out."""
    todo = deque((node,))
    popleft, append = todo.popleft, todo.append
    table, nodes = FIELDS, NODE_TYPES
    while todo:
        node = popleft()
        yield node
        fields = table.get(type(node))
        for name in fields if fields is not None else fields_of(type(node)):
            v = getattr(node, name, None)
            if type(v) is list:
                for x in v:  # a loop, not a list comprehension: most lists hold one or two nodes
                    if type(x) in nodes:
                        append(x)
            elif type(v) in nodes:
                append(v)


for _t in NODE_TYPES:  # every node type parse() builds, so the walks never miss the table
    fields_of(_t)
FIELDS[ast.Constant] = ()  # its value is a plain Python value, never a node
