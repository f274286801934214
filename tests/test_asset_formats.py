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
