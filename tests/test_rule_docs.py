"""docs/rules is generated from each rule's record; the committed pages must match the catalog."""
from pathlib import Path

from scanner.rules import catalog
from scanner.rules.docs import index_page, rule_page

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def test_committed_rule_pages_match_the_catalog():
    rules = catalog()
    stale = [r.id for r in rules if not (DOCS / f"{r.id}.md").is_file()
             or (DOCS / f"{r.id}.md").read_text(encoding="utf-8") != rule_page(r)]
    assert not stale, f"regenerate with `instruction-guard rules --docs docs/rules`: {stale}"
    assert (DOCS / "README.md").read_text(encoding="utf-8") == index_page(rules)
    orphans = {p.stem for p in DOCS.glob("IG*.md")} - {r.id for r in rules}
    assert not orphans, f"pages for rules that no longer exist: {sorted(orphans)}"
