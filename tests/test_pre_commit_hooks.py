"""The pre-commit hook's `files` regex must select exactly the kinds of path the agent-file catalog names."""
import re
from pathlib import Path

import pytest
import yaml

from scanner.agent_map import Catalog, builtin_entries

REPO = Path(__file__).resolve().parent.parent


def _hook() -> dict:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert isinstance(hooks, list) and len(hooks) == 1
    return hooks[0]


def _examples(glob: str) -> list[str]:
    """Concrete paths a catalog glob names: `**/` as no folder and as nested folders, `*` as a name."""
    variants = [glob]
    for deep in ("", "pkg/sub/"):
        variants = [v.replace("**/", deep, 1) if v.startswith("**/") else v for v in variants] + variants
    out = set()
    for v in variants:
        if v.startswith("**/"):
            continue
        for inner in ("", "team/"):
            p = v.replace("/**/", "/" + inner).replace("/**", "/nested/tool.py").replace("*", "name")
            out.add(p)
    return sorted(out)


def test_hook_record_runs_the_scanner_on_staged_files():
    hook = _hook()
    assert hook["id"] == "instruction-guard"
    assert hook["entry"] == "instruction-guard scan"
    assert hook["language"] == "python"
    assert hook.get("pass_filenames", True) is True


@pytest.mark.parametrize("glob", [e.glob for e in builtin_entries()])
def test_files_regex_matches_every_catalog_pattern(glob):
    files = re.compile(_hook()["files"])
    catalog = Catalog()
    examples = _examples(glob)
    assert examples
    for path in examples:
        assert catalog.classify(path) is not None, f"example {path!r} does not belong to {glob!r}"
        assert files.search(path), f"hook misses {path!r} (catalog glob {glob!r})"
        assert files.search(path.upper()), f"hook is case-sensitive on {path.upper()!r}"


@pytest.mark.parametrize("path", [
    "skills/pdf/SKILL.md", ".claude/skills/pdf/scripts/extract.py", "docs/.cursor/rules/style.mdc",
])
def test_files_regex_matches_skill_files(path):
    assert re.compile(_hook()["files"]).search(path)


@pytest.mark.parametrize("path", [
    "README.md", "src/claude.py", "docs/CLAUDE.md.bak", "MYCLAUDE.md", "notes/agents.txt",
    ".vscode/launch.json", ".github/workflows/ci.yml", "rune/decisions.md", "package.json",
])
def test_files_regex_leaves_other_files_alone(path):
    assert Catalog().classify(path) is None
    assert not re.compile(_hook()["files"]).search(path)
