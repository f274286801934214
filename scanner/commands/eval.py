"""`instruction-guard eval CORPUS_DIR`: recall, false positives and bars on a labelled corpus."""
from __future__ import annotations

import json
import os
import sys

from ..errors import UsageError
from ..evaluate import evaluate, inert_path, summary


def register(sub) -> None:
    p = sub.add_parser("eval", help="measure recall and false positives on a labelled corpus (benign/ and malicious/ with MANIFEST.tsv)")
    p.add_argument("corpus", metavar="CORPUS_DIR")
    p.add_argument("--json", metavar="FILE", help="also write the full evaluation (every file's outcome) as JSON")
    p.add_argument("--worst", metavar="N", type=int, default=20, help="worst offenders to list (default 20)")
    p.add_argument("--half", choices=("benign", "malicious", "both"), default="both", help="evaluate one half only")
    p.set_defaults(func=run)


def run(args) -> int:
    corpus = os.path.abspath(args.corpus)
    halves = ("benign", "malicious") if args.half == "both" else (args.half,)
    if not any(os.path.isfile(os.path.join(corpus, h, "MANIFEST.tsv")) for h in halves):
        raise UsageError(f"{args.corpus}: no benign/MANIFEST.tsv or malicious/MANIFEST.tsv; give a labelled corpus folder")
    if args.worst < 0:
        raise UsageError("--worst: give a number of files, 0 or more")
    ev = evaluate(corpus, halves=halves)
    data = summary(ev, args.worst)
    if args.json:
        full = dict(data, outcomes=[f.to_json() for f in ev.files])
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(full, fh, indent=1)
                fh.write("\n")
        except OSError as exc:
            raise UsageError(f"{args.json}: cannot write ({exc.strerror})") from None
    sys.stdout.write(render(data))
    return 0


def _rate(r: dict) -> str:
    return f"{r['hits']:>4}/{r['total']:<5} {r['rate']:7.1%}" if r["rate"] is not None else f"{0:>4}/{0:<5}     n/a"


def render(d: dict) -> str:
    out: list[str] = []
    n = d["files"]
    out.append(f"Corpus {d['corpus']}")
    out.append(f"  benign real-world {n['benign_real_world']}, benign test material {n['benign_test_material']}, "
               f"malicious scored {n['malicious_scored']} (+{n['malicious_unscored']} mixed-label/metadata), "
               f"not scanned {n['not_scanned']}")
    rec = d["recall_medium"]
    if rec["overall"]["total"]:
        out.append("\nRecall: malicious files drawing a medium+ finding")
        out.append(f"  {'overall':<22} {_rate(rec['overall'])}")
        for k, r in rec["by_file_kind"].items():
            out.append(f"  {'kind ' + k:<22} {_rate(r)}")
        for k, r in rec["scripts_by_language"].items():
            out.append(f"  {'script ' + k:<22} {_rate(r)}")
    fp = d["false_positives"]
    if fp["high"]["total"]:
        out.append("\nFalse positives: real-world benign files drawing a finding")
        out.append(f"  {'':<22} {'high+':>19}   {'medium+':>19}")
        out.append(f"  {'overall':<22} {_rate(fp['high'])}   {_rate(fp['medium'])}")
        for k, r in fp["by_file_kind"].items():
            out.append(f"  {'kind ' + k:<22} {_rate(r['high'])}   {_rate(r['medium'])}")
        for k, r in fp["scripts_by_language"].items():
            out.append(f"  {'script ' + k:<22} {_rate(r['high'])}   {_rate(r['medium'])}")
        t = d["test_material"]
        out.append(f"  {'test material (apart)':<22} {_rate(t['high'])}   {_rate(t['medium'])}")
        if fp["rules_high"]:
            out.append("  rules at high+ on benign files: " + ", ".join(f"{r} {c}" for r, c in fp["rules_high"].items()))
        if fp["rules_medium"]:
            out.append("  rules at medium+ on benign files: " + ", ".join(f"{r} {c}" for r, c in fp["rules_medium"].items()))
    if d["worst_benign"]:
        out.append("\nWorst benign offenders (high+):")
        for f in d["worst_benign"]:
            rules = ", ".join(f"{r}:{s}" for r, s in f["rules"].items())
            out.append(f"  {f['max_severity']:<8} {inert_path(f['repo'] + '/' + f['path'])}  [{rules}]")
    if d["missed_malicious"]:
        out.append("\nMalicious files missed (nothing at medium+):")
        for f in d["missed_malicious"]:
            extra = f" not scanned: {f['not_scanned']}" if f["not_scanned"] else ""
            rules = ", ".join(f"{r}:{s}" for r, s in f["rules"].items())
            out.append(f"  {f['file_kind']:<11} {inert_path(f['repo'] + '/' + f['path'])}{' [' + rules + ']' if rules else ''}{extra}")
    if d["not_scanned"]:
        reasons: dict[str, int] = {}
        for f in d["not_scanned"]:
            reasons[f["reason"]] = reasons.get(f["reason"], 0) + 1
        out.append("\nNot scanned: " + ", ".join(f"{r} {c}" for r, c in sorted(reasons.items())))
    for line in d["engine_problems"]:
        out.append("ENGINE " + line)
    out.append("\nBars:")
    for b in d["bars"]:
        op = "<=" if b["at_most"] else ">="
        measured = f"{b['hits']}/{b['total']} = {b['rate']:.1%}" if b["rate"] is not None else "no files"
        out.append(f"  {'PASS' if b['passed'] else 'FAIL'}  issue {b['issue']}: {b['name']}: {measured} (bar {op} {b['target']:.1%})")
    secs = d["seconds"]
    out.append("\nScan time: " + ", ".join(f"{h} {s:.2f} s" for h, s in secs.items()) + f", total {sum(secs.values()):.2f} s")
    return "\n".join(out) + "\n"
