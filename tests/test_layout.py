"""The package layout follows the pipeline: no import loop inside scanner/, and no module imports
from a later stage (issue 17). The stage of every module is in STAGES, the one table of it;
docs/development.md describes the same layout in words.

Edges are counted over every import statement, top-level and inside functions, with the graph of
scripts/import_cycles.py.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Pipeline order. A module belongs to the stage of the longest prefix listed (a package entry
# covers its submodules); "base" is the vocabulary every stage speaks, including the findings
# stage's own: the Finding record (models), file_finding (findings) and the rule table
# (scanner.rules, rules.base) are built by every stage that raises a finding, so they sit below
# all of them. Front ends drive the whole pipeline and may import any stage.
STAGES: dict[str, tuple[str, ...]] = {
    "base": ("scanner", "scanner.errors", "scanner.models", "scanner.findings", "scanner.rules",
             "scanner.rules.base", "scanner.normalize", "scanner.inert", "scanner.textio", "scanner.packaged",
             "scanner.matching", "scanner.document", "scanner.gitutil", "scanner.tree_links", "scanner.identity", "scanner.config"),
    "intake": ("scanner.github", "scanner.github.event", "scanner.github.change",
               "scanner.github.provenance", "scanner.github.gittree", "scanner.authors"),
    "targets": ("scanner.agent_map", "scanner.targets", "scanner.runs", "scanner.named",
                "scanner.imports", "scanner.git_targets"),
    "engines": ("scanner.engines", "scanner.rules.", "scanner.scripts", "scanner.intent",
                "scanner.rune", "scanner.integrity", "scanner.hosts", "scanner.carriers"),
    "findings": (),  # its vocabulary is in base (see above)
    "policy": ("scanner.policy",),
    "reports": ("scanner.report", "scanner.rune.verdict"),
    "publishing": ("scanner.github.api", "scanner.github.channels", "scanner.github.comments",
                   "scanner.github.publish", "scanner.github.publish_contract", "scanner.github.pulls",
                   "scanner.github.rest", "scanner.github.review", "scanner.github.sarif_findings",
                   "scanner.github.upload"),
    "front ends": ("scanner.__main__", "scanner.cli", "scanner.commands", "scanner.action",
                   "scanner.pipeline", "scanner.evaluate", "scanner.evaluate_judge", "scanner.evaluate_sets"),
}
ORDER = {name: i for i, name in enumerate(STAGES)}


def _graph() -> dict[str, set[str]]:
    spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "scripts" / "import_cycles.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.graph(), mod.cycles


def _covers(entry: str, module: str) -> bool:
    if entry == "scanner" or entry.endswith("."):  # the top package alone; "pkg." its submodules
        return module == entry if entry == "scanner" else module.startswith(entry)
    return module == entry or module.startswith(entry + ".")


def stage_of(module: str) -> str:
    """The stage of the longest entry of STAGES that covers the module; "" when none does."""
    hits = [(len(e), name) for name, entries in STAGES.items() for e in entries if _covers(e, module)]
    return max(hits)[1] if hits else ""


def test_every_module_has_a_stage():
    edges, _ = _graph()
    assert [m for m in sorted(edges) if not stage_of(m)] == []


def test_no_import_loop():
    edges, cycles = _graph()
    assert cycles(edges) == []


def test_no_module_imports_from_a_later_stage():
    edges, _ = _graph()
    later = sorted(f"{m} ({stage_of(m)}) imports {t} ({stage_of(t)})" for m, targets in edges.items() for t in targets
                   if ORDER[stage_of(t)] > ORDER[stage_of(m)] and stage_of(m) != "front ends")
    assert later == []


def test_the_stage_table_places_some_modules_as_documented():
    assert stage_of("scanner.rules") == "base" and stage_of("scanner.rules.injection") == "engines"
    assert stage_of("scanner.github.change") == "intake" and stage_of("scanner.github.review") == "publishing"
    assert stage_of("scanner.git_targets") == "targets" and stage_of("scanner.engines.provenance_findings") == "engines"
    assert stage_of("scanner.rune.verdict") == "reports" and stage_of("scanner.rune.shell") == "engines"
    assert stage_of("scanner.inert") == "base" and stage_of("scanner.report.sarif") == "reports"
