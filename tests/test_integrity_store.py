"""The trust store file: stable, sorted, diff-friendly JSON; malformed stores refused with a reason."""
from __future__ import annotations

import json

import pytest

from scanner.integrity.store import StoreError, TrustStore, entry_for, git_blob_id, load, loads, normalize_path, save
from scanner.errors import UsageError


def test_store_json_is_sorted_stable_and_ends_with_newline(tmp_path):
    store = TrustStore()
    store.record(entry_for("b/AGENTS.md", b"b\n", "Bob <b@x>", "2026-01-02T00:00:00Z"))
    store.record(entry_for("CLAUDE.md", b"a\n", "Alice <a@x>", "2026-01-01T00:00:00Z"))
    save(str(tmp_path), ".github/instruction-guard-trust.json", store)
    text = (tmp_path / ".github/instruction-guard-trust.json").read_text()
    assert text.endswith("}\n") and not text.endswith("\n\n")
    doc = json.loads(text)
    assert list(doc["files"]) == sorted(doc["files"])
    assert doc["files"]["CLAUDE.md"]["approved_by"] == "Alice <a@x>"
    assert doc["files"]["CLAUDE.md"]["approved_at"] == "2026-01-01T00:00:00Z"
    # A round trip writes the same bytes: re-saving never produces a diff.
    again = load(str(tmp_path), ".github/instruction-guard-trust.json")
    assert again.dumps() == text
    # One entry per file, one key per line: a re-approval changes only that entry's lines.
    store.record(entry_for("CLAUDE.md", b"a2\n", "Alice <a@x>", "2026-01-01T00:00:00Z"))
    changed = [a for a, b in zip(text.splitlines(), store.dumps().splitlines()) if a != b]
    assert len(changed) == 3  # git_blob, sha256, size of that one entry


def test_git_blob_id_matches_git(tmp_path):
    import subprocess

    data = b"hello\n"
    out = subprocess.run(["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True).stdout
    assert git_blob_id(data) == out.decode().strip()


@pytest.mark.parametrize("text, problem", [
    ("{", "not valid JSON"),
    ('{"version": 2, "files": {}}', "not an instruction-guard trust store"),
    ('{"version": 1, "files": {"a": {"sha256": "xyz"}}}', "64 lower-case hex"),
    ('{"version": 1, "files": {"../etc/passwd": {"sha256": "' + "0" * 64 + '"}}}', "repository-relative"),
])
def test_malformed_store_is_refused_with_a_reason(text, problem):
    with pytest.raises(StoreError, match=problem):
        loads(text, "store.json")


def test_paths_outside_the_repository_are_refused(tmp_path):
    assert normalize_path(str(tmp_path), "./a/../CLAUDE.md") == "CLAUDE.md"
    with pytest.raises(UsageError, match="outside the repository"):
        normalize_path(str(tmp_path), "../elsewhere.md")


def test_a_store_that_is_a_link_is_not_read(tmp_path):
    (tmp_path / "real.json").write_text('{"version": 1, "files": {}}')
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github/instruction-guard-trust.json").symlink_to(tmp_path / "real.json")
    with pytest.raises(StoreError, match="symbolic link"):
        load(str(tmp_path), ".github/instruction-guard-trust.json")
