"""Engines: each turns a TargetSet into a ScanResult. Engines never print or exit."""
from __future__ import annotations

from ..config import Config
from ..models import ScanResult
from ..targets import TargetSet


def run_engines(ts: TargetSet, config: Config) -> ScanResult:
    from . import native

    result = ScanResult()
    if "native" in config.engines:
        result.extend(native.scan(ts, config.limits))
    return result
