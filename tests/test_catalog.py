"""The catalog proves itself at load: a rule that disagrees with its fixtures fails every consumer,
and the verification cache never lets a changed rule through unverified."""
import importlib
import os

import pytest

import scanner.rules as rules_pkg
from scanner.matching import rx
from scanner.models import Category, Confidence, Severity
from scanner.rules import Hit, RuleFixtureError, rule


def _broken_rule():
    pattern = rx(r"harmless")

    def check(doc):
        for m in doc.finditer(pattern):
            yield Hit(m.start, m.end)

    return rule(
        id="IG999", name="broken", title="A rule whose must-not-match fixture matches",
        category=Category.PROMPT_INJECTION, severity=Severity.HIGH, confidence=Confidence.HIGH,
        rationale="test", remediation="test", check=check,
        must_match=["harmless words"], must_not_match=["a", "b", "harmless too"],
    )


@pytest.fixture
def fresh_catalog(tmp_path, monkeypatch):
    monkeypatch.setenv("INSTRUCTION_GUARD_CACHE_DIR", str(tmp_path / "cache"))
    rules_pkg.catalog.cache_clear()
    rules_pkg._by_id.cache_clear()
    yield
    rules_pkg.catalog.cache_clear()
    rules_pkg._by_id.cache_clear()


def test_catalog_verifies_and_caches_success(fresh_catalog, tmp_path):
    assert len(rules_pkg.catalog()) > 40
    assert list((tmp_path / "cache").iterdir()), "a verified catalog leaves its marker"


def test_the_verified_marker_is_the_same_in_every_process(tmp_path):
    """A key that depended on string hashing (a frozenset's repr) changed with each process's
    hash seed, so most runs verified every fixture again: 0.35 s of every start."""
    import subprocess
    import sys

    probe = ("import importlib, scanner.rules as r\n"
             "rules = [x for n in r.RULE_MODULES for x in importlib.import_module(n).RULES]\n"
             "print(r._verified_marker(rules).name)\n")
    names = {subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": seed, "INSTRUCTION_GUARD_CACHE_DIR": str(tmp_path)}).stdout
             for seed in ("1", "2", "3")}
    assert len(names) == 1 and "fixtures-verified-" in names.pop()


def test_broken_rule_fails_even_after_a_cached_success(fresh_catalog, monkeypatch):
    rules_pkg.catalog()  # verified and cached
    rules_pkg.catalog.cache_clear()
    module = importlib.import_module("scanner.rules.engine_rules")
    monkeypatch.setattr(module, "RULES", [*module.RULES, _broken_rule()])
    with pytest.raises(RuleFixtureError, match="IG999: must_not_match fixture drew"):
        rules_pkg.catalog()


def test_cli_reports_a_broken_catalog_and_exits_nonzero(fresh_catalog, monkeypatch, capsys):
    from scanner.cli import main

    module = importlib.import_module("scanner.rules.engine_rules")
    monkeypatch.setattr(module, "RULES", [*module.RULES, _broken_rule()])
    assert main(["rules"]) == 3
    assert "IG999" in capsys.readouterr().err


def test_every_rule_documents_itself():
    from scanner.rules.docs import rule_page

    for r in rules_pkg.catalog():
        page = rule_page(r)
        assert r.id in page and r.rationale in page and r.remediation in page
        if r.check is not None:
            assert len(r.must_match) >= 1 and len(r.must_not_match) >= 3
