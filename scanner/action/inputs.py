"""Action inputs: Docker actions receive them as INPUT_<NAME>, upper-cased with hyphens kept.

Every value is validated here; a bad one is a UsageError whose one line names the input and
what it accepts (the runner turns it into exit code 2).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..config import ConfigError, parse_engines, parse_fail_on
from ..errors import UsageError
from ..models import Severity

MODES = ("scan", "publish")
SCOPES = ("changed", "all")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0", "")


@dataclass(frozen=True)
class Inputs:
    token: str | None = None
    fail_on: Severity | None = Severity.HIGH
    fail_on_given: bool = False  # an explicit fail-on overrides the configuration's
    scan_scope: str = "changed"
    config: str | None = None
    sarif_file: str = "instruction-guard.sarif"
    upload_sarif: bool = True
    comment: bool = True
    engines: tuple[str, ...] | None = None
    judge: bool | None = None  # None: the configuration decides
    virustotal: bool | None = None
    cisco_mode: str | None = None
    trusted_users: tuple[str, ...] = ()
    mode: str = "scan"
    pr_number: int | None = None


def raw(env: Mapping[str, str], name: str) -> str:
    """An input's value; GitHub keeps hyphens in the variable name, some runners turn them into underscores."""
    key = "INPUT_" + name.upper()
    value = env.get(key)
    if value is None:
        value = env.get(key.replace("-", "_"), "")
    return value.strip()


def boolean(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = raw(env, name).lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise UsageError(f"input {name}: use true or false, not {value!r}")


def parse_inputs(env: Mapping[str, str]) -> Inputs:
    fail_on_raw = raw(env, "fail-on")
    try:
        fail_on = parse_fail_on(fail_on_raw) if fail_on_raw else Severity.HIGH
    except ConfigError as exc:
        raise UsageError(f"input {exc}") from None
    scope = raw(env, "scan-scope").lower() or "changed"
    if scope not in SCOPES:
        raise UsageError(f"input scan-scope: use changed or all, not {scope!r}")
    mode = raw(env, "mode").lower() or "scan"
    if mode not in MODES:
        raise UsageError(f"input mode: use scan or publish, not {mode!r}")
    engines = cisco = None
    if raw(env, "engines"):
        try:
            engines, cisco = parse_engines(raw(env, "engines"), "input engines")
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
    pr_raw = raw(env, "pr-number")
    pr_number = None
    if pr_raw:
        if not pr_raw.isdigit() or int(pr_raw) <= 0:
            raise UsageError(f"input pr-number: give a pull request number, not {pr_raw!r}")
        pr_number = int(pr_raw)
    sarif_file = raw(env, "sarif-file") or "instruction-guard.sarif"
    if "\0" in sarif_file or "\n" in sarif_file:
        raise UsageError("input sarif-file: give a file path on one line")
    trusted = tuple(t.strip() for chunk in raw(env, "trusted-users").replace("\n", ",").split(",")
                    for t in [chunk.strip().lstrip("@")] if t)
    return Inputs(
        token=raw(env, "token") or None,
        fail_on=fail_on,
        fail_on_given=bool(fail_on_raw),
        scan_scope=scope,
        config=raw(env, "config") or None,
        sarif_file=sarif_file,
        upload_sarif=boolean(env, "upload-sarif", True),
        comment=boolean(env, "comment", True),
        engines=engines,
        cisco_mode=cisco,
        judge=boolean(env, "judge", False) if raw(env, "judge") else None,
        virustotal=boolean(env, "virustotal", False) if raw(env, "virustotal") else None,
        trusted_users=trusted,
        mode=mode,
        pr_number=pr_number,
    )
