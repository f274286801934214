"""Data files a skill ships beside its code are assets when name and bytes agree (file_formats.yml)."""
from __future__ import annotations

from scanner.config import Config
from scanner.models import Severity
from scanner.pipeline import scan_tree


def test_sqlite_wal_and_shm_files_are_assets_and_a_disguised_one_is_not(tmp_path):
    d = tmp_path / ".claude" / "skills" / "todo"
    (d / "backend").mkdir(parents=True)
    (d / "SKILL.md").write_text("---\nname: todo\ndescription: Example todo app\n---\n")
    (d / "backend" / "todos.db-wal").write_bytes(bytes.fromhex("377f0682002de218") + b"\0" * 200)
    (d / "backend" / "todos.db-shm").write_bytes(bytes.fromhex("18e22d00") + b"\0" * 200)
    (d / "backend" / "evil.db-wal").write_bytes(b"\x7fELF" + b"\0" * 200)
    result = scan_tree(str(tmp_path), [], Config())
    reasons = {n.path.rsplit("/", 1)[1]: n.reason for n in result.not_scanned}
    assert reasons["todos.db-wal"] == "asset" and reasons["todos.db-shm"] == "asset"
    high = {f.path.rsplit("/", 1)[1] for f in result.findings if f.severity >= Severity.HIGH}
    assert high == {"evil.db-wal"}


_SQLITE = b"SQLite format 3\x00" + bytes.fromhex("100001010040202000000009") + b"\x00" * 300


def test_a_skills_data_file_named_without_an_extension_is_data_by_its_bytes(tmp_path):
    # a test run leaves its SQLite state file (`.state`, `results`) in the skill's scripts folder;
    # and a NumPy array kept under a bare name: neither is run or read as text by an agent
    d = tmp_path / ".claude" / "skills" / "charts"
    (d / "scripts" / "tests").mkdir(parents=True)
    (d / "SKILL.md").write_text("---\nname: charts\ndescription: Draw charts\n---\nRun scripts/plot.py.\n")
    (d / "scripts" / "tests" / ".state").write_bytes(_SQLITE)
    (d / "scripts" / "results").write_bytes(bytes.fromhex("934e554d5059") + b"\x01\x00v\x00" + b"\x00" * 120)
    result = scan_tree(str(tmp_path), [], Config())
    reasons = {n.path.rsplit("/", 1)[1]: n.reason for n in result.not_scanned}
    assert reasons[".state"] == "data-bytes" and reasons["results"] == "data-bytes"
    assert not [f for f in result.findings if f.severity >= Severity.HIGH]


def test_data_bytes_under_a_text_name_or_an_agent_loaded_name_stay_findings(tmp_path):
    d = tmp_path / ".claude" / "skills" / "charts"
    (d / "scripts").mkdir(parents=True)
    (d / "SKILL.md").write_text("---\nname: charts\ndescription: Draw charts\n---\nRead notes.md first.\n")
    (d / "notes.md").write_bytes(_SQLITE)  # the name says text: the agent reads whatever the pages hold
    (d / "scripts" / "helper").write_bytes(b"\x7fELF" + b"\x00" * 200)  # a bare name on an executable
    (tmp_path / ".cursorrules").write_bytes(_SQLITE)  # a name an agent loads by itself
    result = scan_tree(str(tmp_path), [], Config())
    high = {f.path for f in result.findings if f.severity >= Severity.HIGH}
    assert {".claude/skills/charts/notes.md", ".claude/skills/charts/scripts/helper", ".cursorrules"} <= high
