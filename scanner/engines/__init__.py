"""Engines: each turns a TargetSet into a ScanResult. Engines never print or exit."""
from __future__ import annotations

from typing import Iterable

from ..config import Config
from ..models import ScanResult
from ..targets import Target, TargetSet


def run_engines(ts: TargetSet, config: Config, change=None, steps: Iterable[list[Target]] | None = None) -> ScanResult:
    """`change`: an integrity_findings.ChangeContext(base, head, trusts) for a pull request, so baselines
    are read from the base commit; None checks the working tree's trust store. `steps`: ts's
    targets still being found (targets.discover_steps), which the native engine scans as they
    come; the other engines start once ts is complete."""
    from . import cisco, integrity_findings, judge, native, virustotal

    if steps is not None and ("native" not in config.engines or cisco.requested(config)):
        for step in steps:  # Cisco's run is staged from every target before it starts
            ts.targets.extend(step)
        steps = None
    # Cisco's skill-scanner (when requested) runs in its own process while the others work.
    cisco_run = cisco.start(ts, config)
    result = ScanResult()
    if "native" in config.engines:
        result.extend(native.scan(ts, config.limits, config.jobs, steps))
    if integrity_findings.active(ts.root, config, change):
        result.extend(integrity_findings.scan(ts, config, change))
    if config.judge.enabled:
        result.extend(judge.scan(ts, config))
    if virustotal.requested(config):
        result.extend(virustotal.scan(ts, config))
    if cisco_run is not None:
        result.extend(cisco_run.finish())
    return result
