"""The table of sinks and sources (scanner/data/script_sinks.yml) is well formed, every entry of
it is read by an analysis, and no analysis reads an entry it lacks (issue 17)."""
from __future__ import annotations

import ast
from pathlib import Path

from scanner.matching import rx
from scanner.scripts import sink_table as T
from scanner.scripts.tokens import langs as token_langs

ROOT = Path(__file__).resolve().parent.parent


def _leaves(node, path=()):
    if isinstance(node, dict) and not all(isinstance(v, str) for v in node.values()):
        for key, value in node.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(node, dict) and path[-1:] != ("constructor_aliases",):
        for key, value in node.items():  # a language's patterns under tokens
            yield path + (key,), value
    else:
        yield path, node


def _read_paths() -> set[tuple[str, ...]]:
    """Every path an analysis asks the table for: T.names/ordered/mapping/pattern calls with
    literal arguments, and token_langs' roles for each language it builds."""
    read = set()
    for path in (ROOT / "scanner").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "T" and node.func.attr in ("names", "ordered", "mapping", "pattern")
                    and all(isinstance(a, ast.Constant) for a in node.args)):
                read.add(tuple(a.value for a in node.args))
    languages = set(T.table()["tokens"])
    read |= {("tokens", lang, role) for lang in languages for role in token_langs._ROLES.values()}
    return read


def test_every_entry_is_read_and_every_read_entry_exists():
    leaves = {path for path, _ in _leaves(T.table())}
    read = _read_paths()
    assert sorted(leaves - read) == [], "entries no analysis reads"
    assert sorted(read - leaves) == [], "entries read but missing from the table"


def test_lists_hold_distinct_strings():
    for path, value in _leaves(T.table()):
        if isinstance(value, list):
            assert all(isinstance(v, str) and v for v in value), path
            assert len(value) == len(set(value)), f"{'.'.join(path)} repeats a name"


def test_token_patterns_compile_and_every_vocabulary_is_in_the_table():
    for path, value in _leaves(T.table()):
        if path[0] == "tokens":
            assert isinstance(value, str) and rx(value) is not None, path
    built = {lang for lang in token_langs.VOCABULARIES if lang != "typescript"}  # typescript reads javascript's
    assert built == set(T.table()["tokens"])


def test_the_table_is_read_once():
    assert T.table() is T.table()
    assert T.names("python", "sinks", "exec") is T.names("python", "sinks", "exec")


def _spelt_module(name: str) -> dict:
    """What python_sink_gate sees of a module whose only call is `name(...)` written out."""
    parts = name.rstrip(".").split(".")
    return {"heads": {parts[0]}, "names": set(parts), "methods": {parts[-1]}, "imports": {}, "tool": False, "weak_calls": False}


def test_python_sink_gate_lets_every_sink_of_the_table_through():
    """The gate is computed from the table: a module spelling any sink name of it runs the passes."""
    from scanner.scripts.python.sink_gate import scope_passes_needed

    py = T.table()["python"]
    sinks = [n for key, names in py["sinks"].items() if isinstance(names, list) for n in names]
    sinks += py["sinks"]["network"]["exact"] + py["sources"]["capture"]
    # a prefix that ends in a dot takes a verb; one that does not is a whole call (urllib.request.urlopen)
    sinks += [p + verb if p.endswith(".") else p for p in py["sinks"]["network"]["prefixes"] for verb in ("post", "get")]
    missed = [n for n in sinks if not scope_passes_needed(**_spelt_module(n))]
    assert missed == []
    for method in (*py["methods"]["sql"], *py["methods"]["chmod"], *py["methods"]["capture"], *py["methods"]["sending"]):
        assert scope_passes_needed(heads={"x"}, names={"x", method}, methods={method}, imports={}, tool=False, weak_calls=False), method


def test_python_sink_gate_weak_methods_and_untrusted_sources_are_the_tables():
    from scanner.scripts.python import sink_gate as g

    py = T.table()["python"]
    assert g.WEAK_METHODS == set(py["methods"]["query"]) | set(py["methods"]["template"])
    assert set(g._UNTRUSTED_CALLS) == set(py["sources"]["untrusted_values"]) | set(py["sources"]["untrusted_calls"])
    assert g._attrs_always() == set(py["methods"]["sql"]) | set(py["methods"]["chmod"]) | set(py["methods"]["capture"])


def test_credential_path_gate_holds_for_every_credential_path():
    """credentials.path_gate is the cheap test in front of common.CRED_STRONG / CRED_WEAK: every text
    either pattern matches holds one of its words, or the gate would hide a credential read."""
    import random
    import re._parser as sre_parse

    from pattern_texts import ASCII, TextMaker
    from scanner.scripts import common as c

    texts, rnd, checked = TextMaker(ASCII), random.Random(7), 0
    for pattern in (c.CRED_STRONG, c.CRED_WEAK):
        tree = list(sre_parse.parse(pattern.pattern))
        for _ in range(400):
            text = rnd.choice(["", "~/", "/home/u/"]) + texts.generate(tree, rnd)
            if pattern.test(text):
                checked += 1
                assert c._gate(text, c._CRED_KEYS), text
    assert checked > 300  # the generator reaches the patterns: the test cannot pass by skipping
