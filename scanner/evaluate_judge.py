"""`eval --judge`: recall and false alarms of the native engine, the semantic judge, and both
together, on a labelled set of cases (a folder of case folders with labels.json, the layout of
the corpus's adversarial set), so that users with a real provider can measure their own."""
from __future__ import annotations

from dataclasses import dataclass, field

from .config import Config
from .models import Severity
from .pipeline import scan_tree

JUDGE_FLAGS = {"IG916", "IG917"}  # malicious, suspicious
UNJUDGED = "IG918"


@dataclass
class View:
    name: str
    caught: int = 0
    malicious: int = 0
    hard_caught: int = 0
    hard: int = 0
    flagged_benign: int = 0
    benign: int = 0

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class JudgeEvaluation:
    views: list[View]
    unjudged: int
    judged: int
    missed_by_both: list[str] = field(default_factory=list)


def evaluate_judge(cases_dir: str, labels: dict, config: Config) -> JudgeEvaluation:
    result = scan_tree(cases_dir, [], config)
    native: dict[str, Severity] = {}
    judge: dict[str, set[str]] = {}
    for f in result.findings:
        if f.suppressed_by is not None:
            continue
        if f.engine == "judge":
            judge.setdefault(f.path, set()).add(f.rule_id)
        elif f.severity > native.get(f.path, Severity.INFO) or f.path not in native:
            native[f.path] = f.severity
    views = {n: View(n) for n in ("native", "judge", "both")}
    unjudged = judged = 0
    missed = []
    for cid, lab in sorted(labels.items()):
        target = f"{cid}/{str(lab['target']).lstrip('./')}"
        if UNJUDGED in judge.get(target, set()):
            unjudged += 1
        else:
            judged += 1
        if lab["expect"] == "malicious":
            hits = {"native": native.get(target, Severity.INFO) >= Severity.MEDIUM and target in native,
                    "judge": bool(judge.get(target, set()) & JUDGE_FLAGS)}
            hits["both"] = hits["native"] or hits["judge"]
            for n, v in views.items():
                if lab.get("hard"):
                    v.hard += 1
                    v.hard_caught += hits[n]
                else:
                    v.malicious += 1
                    v.caught += hits[n]
            if not hits["both"]:
                missed.append(cid)
        else:
            in_case = [p for p in set(native) | set(judge) if p.split("/", 1)[0] == cid]
            hits = {"native": any(native.get(p, Severity.INFO) >= Severity.HIGH for p in in_case),
                    "judge": any(judge.get(p, set()) & JUDGE_FLAGS for p in in_case)}
            hits["both"] = hits["native"] or hits["judge"]
            for n, v in views.items():
                v.benign += 1
                v.flagged_benign += hits[n]
    return JudgeEvaluation(list(views.values()), unjudged, judged, missed)


def render(ev: JudgeEvaluation) -> str:
    def pct(a: int, b: int) -> str:
        return f"{a}/{b} = {a / b:.1%}" if b else "no cases"

    lines = ["Native rules, the semantic judge, and both (a case counts when either flags it):",
             f"  {'engine':<8} {'recall (non-hard, medium+)':<28} {'hard':<16} {'benign flagged':<18}"]
    for v in ev.views:
        lines.append(f"  {v.name:<8} {pct(v.caught, v.malicious):<28} {pct(v.hard_caught, v.hard):<16} "
                     f"{pct(v.flagged_benign, v.benign):<18}")
    lines.append(f"  judge: {ev.judged} target file(s) judged, {ev.unjudged} unjudged (never counted as clean or as caught)")
    lines.append("  native flags a benign case at high+; the judge when it says suspicious or malicious")
    if ev.missed_by_both:
        lines.append("  missed by both: " + ", ".join(ev.missed_by_both[:20]))
    return "\n".join(lines) + "\n"
