"""`.github/instruction-guard.yml`: schema-checked configuration with one-line errors.

Inline ignore comments inside scanned files are never honoured: the author of a poisoned
file would simply add one. Suppressions live here, each with a reason and an optional expiry.
In a pull request this file is read from the base commit (see scanner/github/).
"""
from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from .models import Severity

DEFAULT_PATH = ".github/instruction-guard.yml"


class ConfigError(ValueError):
    """A configuration problem; its message is one line that says what to fix."""


@dataclass(frozen=True)
class Limits:
    """How much of each target is read: configuration (`limits:`), used by discovery and engines."""
    max_file_bytes: int = 2 * 1024 * 1024
    skill_max_depth: int = 3  # within these caps every file of a skill is read and hashed;
    skill_max_files: int = 40  # past them, assets are only listed (scripts and text are still scanned)
    script_max_bytes: int = 256 * 1024
    # A script whose bulk is encoded data (generated icons, fonts, fixtures as base64/hex literals) is read up
    # to this size, when what is left outside those literals is within script_max_bytes (docs/limits.md).
    data_script_max_bytes: int = 8 * 1024 * 1024
    skill_max_entries: int = 50_000  # entries listed per skill folder; beyond, a finding (IG958)
    skill_max_scanned: int = 2_000  # files scanned past the caps per skill; beyond, a finding (IG958)


@dataclass(frozen=True)
class Suppression:
    rule: str  # a rule id, or "*"
    path: str  # a path glob
    reason: str
    expires: dt.date | None = None

    def expired(self, today: dt.date) -> bool:
        return self.expires is not None and today > self.expires


@dataclass(frozen=True)
class VirusTotalSettings:
    """The opt-in hash lookup (engines/virustotal.py). The key itself is never configuration: the
    CLI or entrypoint reads it from the environment variable named here."""

    enabled: bool = False
    key_env: str = "VT_API_KEY"
    api_key: str = ""  # filled by the CLI/entrypoint from key_env; never read from YAML
    base_url: str = "https://www.virustotal.com/api/v3"
    per_minute: int = 4  # the public API's pace; 0 for no pacing (premium keys)
    daily_budget: int = 500  # the public API's daily quota
    scan_budget: int = 200  # lookups one scan may make
    timeout: float = 20.0
    cache_file: str = ""  # empty: no cache
    strict: bool = False  # an unchecked file fails the verdict


@dataclass(frozen=True)
class JudgeSettings:
    """The opt-in semantic judge (engines/judge.py). Like VirusTotal's, the key is read by the CLI
    or entrypoint from the environment variable named here, never from configuration."""

    enabled: bool = False
    provider: str = "openai"  # openai (any OpenAI-compatible Chat Completions server) or anthropic
    base_url: str = "https://api.openai.com/v1"
    model: str = "gpt-4o-mini"
    key_env: str = "OPENAI_API_KEY"
    api_key: str = ""  # filled by the CLI/entrypoint from key_env
    timeout: float = 60.0
    retries: int = 2
    daily_cap: int = 200  # calls a day, counted in the cache file
    max_bytes: int = 64 * 1024  # larger files are reported unjudged, never sent
    gate: bool = False  # True: malicious/suspicious verdicts count towards fail-on
    strict: bool = False  # True: an unjudged file fails the verdict
    cache_file: str = ""


@dataclass(frozen=True)
class Config:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    disable: frozenset[str] = frozenset()
    severity: dict[str, Severity] = field(default_factory=dict)
    suppress: tuple[Suppression, ...] = ()
    engines: tuple[str, ...] = ("native",)
    cisco_mode: str = "off"  # off, auto (run when installed), on (required)
    cisco_timeout: float = 300.0
    cisco_executable: str = ""  # absolute path to Cisco's skill-scanner; empty: look it up
    fail_on: Severity | None = Severity.HIGH  # None: never fail
    fail_on_new_only: bool = False
    trusted_users: tuple[str, ...] = ()
    provenance_severity: Severity = Severity.MEDIUM
    limits: Limits = Limits()
    jobs: int = 0  # worker processes for the native engine; 0: one per usable core (a run-time setting, not read from YAML)
    trust_store: str = ".github/instruction-guard-trust.json"
    public_keys: dict[str, str] = field(default_factory=dict)
    source: str = "defaults"
    virustotal: VirusTotalSettings = VirusTotalSettings()
    judge: JudgeSettings = JudgeSettings()


def parse_fail_on(value: str) -> Severity | None:
    if value.strip().lower() in ("never", "none", "off"):
        return None
    try:
        return Severity.parse(value)
    except ValueError as exc:
        raise ConfigError(f"fail-on: {exc} or never") from None


def parse_engines(value: Any, where: str = "engines") -> tuple[tuple[str, ...], str]:
    """Return (engines, cisco_mode) from "native,cisco", a list, or a mapping {cisco: auto}."""
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",") if v.strip()]
    elif isinstance(value, list):
        items = [str(v).strip() for v in value]
    elif isinstance(value, dict):
        items = ["native"]
        mode = str(value.get("cisco", "off")).lower()
        if mode in ("true", "on"):
            mode = "on"
        if mode not in ("off", "auto", "on", "false"):
            raise ConfigError(f"{where}.cisco: use on, auto or off, not {mode!r}")
        return tuple(items), "off" if mode == "false" else mode
    else:
        raise ConfigError(f"{where}: give a comma-separated string or a list such as native,cisco")
    mode = "off"
    engines = []
    for item in items:
        name, colon, opt = item.partition(":")
        if name not in ("native", "cisco") or (colon and (name, opt) != ("cisco", "auto")):
            raise ConfigError(f"{where}: unknown engine {item!r}; use native and/or cisco (or cisco:auto)")
        if name == "cisco":
            mode = "auto" if opt == "auto" else "on"
            if opt == "auto":
                # "Cisco when installed" must not mean "nothing when it is not": the native
                # engine always runs beside an optional engine.
                engines.insert(0, "native")
        engines.append(name)
    if not engines:
        raise ConfigError(f"{where}: name at least one engine")
    return tuple(dict.fromkeys(engines)), mode


_TOP_KEYS = {
    "version", "include", "exclude", "disable", "severity", "suppress", "engines", "cisco",
    "fail-on", "fail-on-new-only", "trusted-users", "provenance", "limits", "integrity", "virustotal", "judge",
}

_VT_KEYS = {"enabled": "enabled", "key-env": "key_env", "base-url": "base_url", "per-minute": "per_minute",
            "daily-budget": "daily_budget", "scan-budget": "scan_budget", "timeout": "timeout", "strict": "strict"}


_JUDGE_KEYS = {"enabled": "enabled", "provider": "provider", "base-url": "base_url", "model": "model",
               "key-env": "key_env", "timeout": "timeout", "retries": "retries", "daily-cap": "daily_cap",
               "max-bytes": "max_bytes", "gate": "gate", "strict": "strict"}


def _settings(raw: Any, cls, keys: dict[str, str], where: str):
    if raw is None:
        return cls()
    if isinstance(raw, bool):
        return cls(enabled=raw)
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: use true/false or a mapping of settings")
    unknown = sorted(set(map(str, raw)) - set(keys))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; known: {', '.join(sorted(keys))}")
    values: dict[str, Any] = {}
    for key, name in keys.items():
        if key not in raw:
            continue
        default = getattr(cls, name)
        try:
            value = bool(raw[key]) if isinstance(default, bool) else type(default)(raw[key])
        except (TypeError, ValueError):
            raise ConfigError(f"{where}.{key}: expected a {type(default).__name__}") from None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
            raise ConfigError(f"{where}.{key}: must not be negative")
        values[name] = value
    if not str(values.get("base_url", "https://")).startswith(("https://", "http://127.", "http://localhost", "http://[::1]")):
        raise ConfigError(f"{where}.base-url: use https (plain http only to a server on this machine)")
    return cls(**values)


def parse_judge(raw: Any) -> JudgeSettings:
    settings = _settings(raw, JudgeSettings, _JUDGE_KEYS, "judge")
    if settings.provider not in ("openai", "anthropic"):
        raise ConfigError(f"judge.provider: use openai (any OpenAI-compatible server) or anthropic, not {settings.provider!r}")
    if settings.provider == "anthropic" and isinstance(raw, dict):
        from dataclasses import replace
        defaults = {"base-url": ("base_url", "https://api.anthropic.com"), "model": ("model", "claude-haiku-4-5"),
                    "key-env": ("key_env", "ANTHROPIC_API_KEY")}
        settings = replace(settings, **{name: value for key, (name, value) in defaults.items() if key not in raw})
    return settings


def parse_virustotal(raw: Any) -> VirusTotalSettings:
    return _settings(raw, VirusTotalSettings, _VT_KEYS, "virustotal")


def _mapping(raw: Any, key: str) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{key}: must be a mapping of settings")
    return raw


def _positive_int(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit() or int(value) < 1:
        raise ConfigError(f"{key}: give a whole number of 1 or more, not {value!r}")
    return int(value)


_LIMIT_KEYS = {name.replace("_", "-") for name in Limits.__dataclass_fields__}


def _limits(raw: Any) -> Limits:
    """Every limit positive: a zero or negative cap would leave every file "not scanned"."""
    raw = _mapping(raw, "limits")
    unknown = sorted(set(map(str, raw)) - _LIMIT_KEYS)
    if unknown:
        raise ConfigError(f"limits: unknown limit {unknown[0]!r}; known: {', '.join(sorted(_LIMIT_KEYS))}")
    return Limits(**{str(k).replace("-", "_"): _positive_int(v, f"limits.{k}") for k, v in raw.items()})


def check_rule_ids(disable: Any, severity: Any, suppress: Any, source: str) -> None:
    """Reject rule ids that name no rule: a typo in `disable` or a suppression would otherwise
    look applied while it changes nothing (and a later rule taking the id would be silenced).
    Ids of Cisco's engine are its own (prefix `cisco.`) and are not checked here."""
    where = {"disable": list(disable), "severity": list(severity), "suppress": [s.rule for s in suppress if s.rule != "*"]}
    if not any(where.values()):
        return
    from .rules import catalog  # only when the file names rules: the catalog is the rule table

    known = {r.id for r in catalog()}
    bad = {key: sorted({i for i in ids if i not in known and not i.startswith("cisco.")}) for key, ids in where.items()}
    listed = "; ".join(f"{key}: {', '.join(ids)}" for key, ids in bad.items() if ids)
    if listed:
        raise ConfigError(f"{source}: unknown rule id(s) ({listed}); `instruction-guard rules` lists the ids")


def _str_list(raw: Any, key: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ConfigError(f"{key}: must be a list of strings")
    return tuple(raw)


def parse(raw: Any, source: str = DEFAULT_PATH) -> Config:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of settings")
    unknown = sorted(set(map(str, raw)) - _TOP_KEYS)
    if unknown:
        raise ConfigError(f"{source}: unknown setting {unknown[0]!r}; known: {', '.join(sorted(_TOP_KEYS))}")
    if raw.get("version", 1) != 1:
        raise ConfigError(f"{source}: version must be 1")
    severity = {}
    for rid, level in _mapping(raw.get("severity"), "severity").items():
        try:
            severity[str(rid)] = Severity.parse(str(level))
        except ValueError as exc:
            raise ConfigError(f"severity.{rid}: {exc}") from None
    suppressions = []
    if not isinstance(raw.get("suppress") or [], list):
        raise ConfigError("suppress: must be a list of mappings with rule, path and reason")
    for i, item in enumerate(raw.get("suppress") or []):
        if not isinstance(item, dict):
            raise ConfigError(f"suppress[{i}]: must be a mapping with rule, path and reason")
        extra = set(item) - {"rule", "path", "reason", "expires"}
        if extra:
            raise ConfigError(f"suppress[{i}]: unknown key {sorted(extra)[0]!r}; use rule, path, reason, expires")
        reason = str(item.get("reason") or "").strip()
        if not reason:
            raise ConfigError(f"suppress[{i}]: a reason is required (why is this finding acceptable?)")
        expires = item.get("expires")
        if expires is not None and not isinstance(expires, dt.date):
            try:
                expires = dt.date.fromisoformat(str(expires))
            except ValueError:
                raise ConfigError(f"suppress[{i}].expires: use a date like 2027-01-31") from None
        suppressions.append(Suppression(str(item.get("rule", "*")), str(item.get("path", "**")), reason, expires))
    engines, cisco_mode = parse_engines(raw.get("engines", ["native"]))
    cisco = raw.get("cisco") or {}
    if not isinstance(cisco, dict):
        raise ConfigError("cisco: must be a mapping such as {mode: auto, timeout: 300}")
    try:
        timeout = float(cisco.get("timeout", 300))
    except (TypeError, ValueError):
        timeout = float("nan")
    if isinstance(cisco.get("timeout"), bool) or not 0 < timeout < float("inf"):
        raise ConfigError(f"cisco.timeout: give a number of seconds above 0, not {cisco.get('timeout')!r}")
    if "mode" in cisco:
        _, cisco_mode = parse_engines({"cisco": cisco["mode"]}, "cisco")
        if cisco_mode != "off" and "cisco" not in engines:
            engines = engines + ("cisco",)
    prov = _mapping(raw.get("provenance"), "provenance")
    limits = _limits(raw.get("limits"))
    integrity = _mapping(raw.get("integrity"), "integrity")
    disable = frozenset(_str_list(raw.get("disable"), "disable"))
    check_rule_ids(disable, severity, suppressions, source)
    try:
        return Config(
            include=_str_list(raw.get("include"), "include"),
            exclude=_str_list(raw.get("exclude"), "exclude"),
            disable=disable,
            severity=severity,
            suppress=tuple(suppressions),
            engines=engines,
            cisco_mode=cisco_mode,
            cisco_timeout=float(timeout),
            cisco_executable=str(cisco.get("executable") or ""),
            fail_on=parse_fail_on(str(raw.get("fail-on", "high"))),
            fail_on_new_only=bool(raw.get("fail-on-new-only", False)),
            trusted_users=_str_list(raw.get("trusted-users"), "trusted-users"),
            provenance_severity=Severity.parse(str(prov.get("external-severity", "medium"))),
            limits=limits,
            trust_store=str(integrity.get("store", ".github/instruction-guard-trust.json")),
            public_keys={str(k): str(v) for k, v in _mapping(integrity.get("public-keys"), "integrity.public-keys").items()},
            source=source,
            virustotal=parse_virustotal(raw.get("virustotal")),
            judge=parse_judge(raw.get("judge")),
        )
    except ValueError as exc:
        raise ConfigError(f"{source}: {exc}") from None


class _Loader(yaml.SafeLoader):
    """YAML's safe loader with dates left as text: PyYAML builds `2027-13-45` into a date while
    loading and fails with a bare ValueError (a traceback); parse() checks `expires` itself."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_text(text: str, source: str = DEFAULT_PATH) -> Config:
    try:
        raw = yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{source}:{where} is not valid YAML ({getattr(exc, 'problem', exc)})") from None
    return parse(raw, source)


def load_file(path: str) -> Config:
    try:
        with open(path, encoding="utf-8") as fh:
            return load_text(fh.read(), path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read configuration ({exc.strerror})") from None


def _cache_home(env) -> str:
    return env.get("INSTRUCTION_GUARD_CACHE_DIR") or os.path.join(
        env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "instruction-guard")


def with_virustotal_key(settings: VirusTotalSettings, env) -> VirusTotalSettings:
    """Enable the lookup with its key (from the variable the configuration names) and its cache.
    The caller passes the environment: only the CLI and the entrypoint read it."""
    from dataclasses import replace

    return replace(settings, enabled=True, api_key=env.get(settings.key_env, ""),
                   cache_file=settings.cache_file or os.path.join(_cache_home(env), "virustotal.json"))


def with_judge_key(settings: JudgeSettings, env) -> JudgeSettings:
    """Enable the judge with its key (from the variable the configuration names) and its cache."""
    from dataclasses import replace

    return replace(settings, enabled=True, api_key=env.get(settings.key_env, ""),
                   cache_file=settings.cache_file or os.path.join(_cache_home(env), "judge.json"))
