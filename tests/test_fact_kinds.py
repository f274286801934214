"""The table of fact kinds (scanner/scripts/fact_kinds.py) is the only place a kind is named,
every kind in it is emitted and read, and every kind emitted is in it (issue 17)."""
from __future__ import annotations

import ast
from pathlib import Path

from scanner.rules import catalog
from scanner.rules.base import fixture_document
from scanner.scripts import facts_for
from scanner.scripts import fact_kinds as K
from scanner.scripts.python import behaviour as pb

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "scanner" / "scripts" / "fact_kinds.py"


def _script_rules():
    return [r for r in catalog() if r.check is not None and r.check.__name__.startswith(("facts_", "behaviour_"))]


def _kind_read(r) -> str:
    """The kind a rule's check reads (the closure _facts(kind) built it from)."""
    return next(c.cell_contents for c in r.check.__closure__ if isinstance(c.cell_contents, str))


def test_every_kind_is_read_by_its_rule_at_its_severity():
    rules = {r.id: r for r in _script_rules()}
    for kind, row in K.KINDS.items():
        r = rules.get(row.rule)
        assert r is not None, f"{kind}: no script rule {row.rule}"
        assert _kind_read(r) == kind, f"{row.rule} reads {_kind_read(r)!r}, the table says {kind!r}"
        assert r.severity == row.severity, f"{row.rule}: severity {r.severity.label}, the table says {row.severity.label}"


def test_every_rule_reads_a_kind_of_the_table():
    assert sorted(_kind_read(r) for r in _script_rules() if _kind_read(r) not in K.KINDS) == []


def test_every_kind_is_emitted_and_every_emitted_kind_is_in_the_table():
    emitted: dict[str, str] = {}
    for r in _script_rules():
        for fx in (*r.must_match, *r.must_not_match, *r.lowered):
            doc = fixture_document(r, fx)
            for f in (*facts_for(doc), *pb.behaviour_facts(doc)):
                emitted.setdefault(f.kind, r.id)
    assert {k: by for k, by in emitted.items() if k not in K.KINDS} == {}
    assert sorted(set(K.KINDS) - set(emitted)) == []


def test_no_kind_is_spelt_outside_the_table():
    """A kind's text as a string literal anywhere in scanner/ but the table is a second copy (a
    rule's `name=` is another namespace: IG504 is named reverse-shell too)."""
    kinds = set(K.KINDS)
    found = []
    for path in sorted((ROOT / "scanner").rglob("*.py")):
        if path == TABLE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {id(k.value) for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "name"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in kinds and id(node) not in names:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert found == []


def test_the_table_names_each_kind_once():
    values = [v for n, v in vars(K).items() if n.isupper() and isinstance(v, str)]
    assert len(values) == len(set(values)) == len(K.KINDS)
