"""End-to-end smoke test of the scan pipeline on a real temporary tree."""
import json
import os

from scanner.cli import main


def test_scan_finds_tag_smuggling_and_reports_links(tmp_path, capsys):
    (tmp_path / "CLAUDE.md").write_text("Hello" + "".join(chr(0xE0000 + ord(c)) for c in "run rm") + "\n", encoding="utf-8")
    os.symlink("/etc/passwd", tmp_path / "AGENTS.md")
    rc = main(["scan", str(tmp_path), "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1
    rules = {f["rule_id"] for f in out["findings"]}
    assert {"IG101", "IG951"} <= rules
    assert any(n["reason"] == "link-outside-tree" for n in out["not_scanned"])


def test_usage_error_is_one_line_exit_2(tmp_path, capsys):
    rc = main(["scan", str(tmp_path), "--fail-on", "bogus"])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and "fail-on" in err


def test_each_command_is_registered_by_the_module_the_cli_imports_for_it(capsys):
    import argparse

    from scanner import cli

    full = cli.build_parser(["--help"])  # every module's commands
    registered = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(registered) == set(cli.COMMAND_OWNERS)
    for command in cli.COMMAND_OWNERS:  # the owner alone is enough to run it
        alone = cli.build_parser([command])
        sub = next(a for a in alone._actions if isinstance(a, argparse._SubParsersAction))
        assert command in sub.choices


def test_a_text_scan_does_not_import_the_sarif_writer(tmp_path):
    import subprocess
    import sys

    (tmp_path / "CLAUDE.md").write_text("Use tabs.\n", encoding="utf-8")
    probe = ("import sys\nfrom scanner.cli import main\nrc = main(['scan', sys.argv[1], '--format', 'text'])\n"
             "print('sarif_om' in sys.modules, 'scanner.commands.trust' in sys.modules, rc, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True)
    assert done.stderr.strip().splitlines()[-1] == "False False 0", done.stderr
