"""Engines: each turns a TargetSet into a ScanResult. Engines never print or exit."""
from __future__ import annotations

from ..config import Config
from ..models import ScanResult
from ..targets import TargetSet


def run_engines(ts: TargetSet, config: Config, change=None) -> ScanResult:
    """`change`: an integrity.ChangeContext(base, head, trusts) for a pull request, so baselines
    are read from the base commit; None checks the working tree's trust store."""
    from . import cisco, integrity, native

    # Cisco's skill-scanner (when requested) runs in its own process while the others work.
    cisco_run = cisco.start(ts, config)
    result = ScanResult()
    if "native" in config.engines:
        result.extend(native.scan(ts, config.limits, config.jobs))
    if integrity.active(ts.root, config, change):
        result.extend(integrity.scan(ts, config, change))
    if cisco_run is not None:
        result.extend(cisco_run.finish())
    return result
