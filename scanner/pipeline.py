"""The scan pipeline shared by the CLI and the Action: targets -> engines -> policy.

Reporters are applied by the callers; nothing here prints or exits.
"""
from __future__ import annotations

import os

from .agent_map import Catalog
from .config import Config, ConfigError, load_file
from .config import DEFAULT_PATH as CONFIG_PATH
from .engines import run_engines
from .models import ScanResult
from .policy import apply
from .targets import TargetSet, discover, discover_steps, explicit


def find_config(root: str, explicit_path: str | None) -> Config:
    if explicit_path:
        return load_file(explicit_path)
    candidate = os.path.join(root, CONFIG_PATH)
    if os.path.isfile(candidate) and not os.path.islink(candidate):
        return load_file(candidate)
    return Config()


def targets_for(root: str, paths: list[str], config: Config) -> TargetSet:
    catalog = Catalog(config.include, config.exclude)
    if not paths:
        return discover(root, catalog, config.limits)
    return explicit(root, paths, catalog, config.limits)


def scan_tree(root: str, paths: list[str], config: Config) -> ScanResult:
    """Scan a working tree (all agent files, or the named paths) and apply policy."""
    if not os.path.isdir(root):
        raise ConfigError(f"{root}: not a directory")
    if paths:
        ts, steps = targets_for(root, paths, config), None
    else:  # the walk feeds the scan as it goes: the workers start before it ends
        ts = TargetSet(root=root)
        steps = discover_steps(ts, Catalog(config.include, config.exclude), config.limits)
    result = run_engines(ts, config, steps=steps)
    return apply(result, config)
