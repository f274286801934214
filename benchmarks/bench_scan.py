"""Speed and memory of the scanner, printed as figures (not a timed test).

    python benchmarks/bench_scan.py [CORPUS_BENIGN_DIR] [--rules] [--adversarial-only]

1. Full scan of the benign corpus, as `instruction-guard scan CORPUS_BENIGN_DIR` does it (one
   tree, its agent files discovered at any depth, one worker process per core by default;
   --jobs 1 for one process), five times (--repeat), each in a fresh process as a command-line
   run would be (a second scan in the same process runs 20-30% faster on caches the first one
   filled, which no real run has): the median and the best wall time of the scan (start-up, imports and the
   rule table are printed apart, and so is the time from start to exit), since other tenants of
   a shared machine only ever add time, and the CPU time of every process. Then peak memory, in
   runs of its own (--memory-runs), since sampling it costs CPU: the peak over time of the summed
   PSS (proportional set size) of the scanning process and its workers, sampled every 20 ms by
   a separate process: forked workers share pages with their parent, and PSS counts a shared
   page once in all, where summing each process's RSS would count it once per process. The RSS
   figures are printed beside it.
   Bars (issue 13): under 3 s (the median of the runs; the best is printed beside it) and under
   200 MB on the 2-core reference machine.
2. Every rule together on 1 MB single-line adversarial texts (runs of spaces, of `<!--`, of
   invisible characters, of base64 alphabet, ...). Bar: well under a second each.
3. With --rules: seconds each rule spends over the benign corpus, slowest first, so a slow
   rule is found by name.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from scanner.config import Config  # noqa: E402
from scanner.document import Document  # noqa: E402
from scanner.engines import workers  # noqa: E402
from scanner.engines.native import scan_document  # noqa: E402
from scanner.matching.prefilter import ensure_prefilter  # noqa: E402
from scanner.pipeline import scan_tree  # noqa: E402
from scanner.rules import catalog  # noqa: E402
from scanner.textio import read_file  # noqa: E402

DEFAULT_CORPUS = "/work/shared/corpus/benign"
SCAN_BAR_SECONDS = 3.0  # issue 13 (issue 2 had 5 s)
RSS_BAR_MB = 200.0
ADVERSARIAL_BAR_SECONDS = 1.0
MB = 1 << 20


def peak_rss_mb() -> tuple[float, float]:
    """(this process's peak, the largest finished worker's peak) in MB; call after workers.shutdown()."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux
    return own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0


def group_pss_kb(pid: int) -> int:
    """Summed PSS of pid and its child processes, in KiB (0 for processes gone meanwhile)."""
    pids = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                pids += [int(x) for x in fh.read().split()]
    except OSError:
        pass
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                total += next(int(line.split()[1]) for line in fh if line.startswith("Pss:"))
        except (OSError, StopIteration, ValueError):
            pass
    return total


def sample_pss(pid: int) -> int:
    """Run as a separate process: print the peak group PSS (KiB) of pid when stdin closes."""
    import select

    peak = 0
    while True:
        peak = max(peak, group_pss_kb(pid))
        ready, _, _ = select.select([sys.stdin], [], [], 0.02)
        if ready and not sys.stdin.read(1):
            print(peak, flush=True)
            return 0


def cpu_seconds() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def full_scan(corpus: str, jobs: int) -> dict:
    """Scan the corpus as one tree in this process (a fresh one: see fresh_scan)."""
    cpu_started = cpu_seconds()
    started = time.perf_counter()
    result = scan_tree(corpus, [], Config(jobs=jobs))
    wall = time.perf_counter() - started
    workers.shutdown()  # workers exit, so their CPU time and peak memory are counted
    own, worker = peak_rss_mb()
    return {"wall": wall, "cpu": cpu_seconds() - cpu_started, "scanned": len(result.scanned),
            "not_scanned": len(result.not_scanned), "findings": len(result.findings), "rss": own, "worker_rss": worker}


def fresh_scan(corpus: str, jobs: int, sample_memory: bool) -> dict:
    """full_scan in a new interpreter; adds the seconds before the scan (interpreter, imports,
    rule table) and, with sample_memory, the peak summed PSS (MB) of its processes. Memory is
    sampled in runs of its own: reading every process's smaps every 20 ms takes a fifth of a
    core, which on two cores slowed the scan it measured by 15-25%."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, os.path.abspath(__file__), corpus, "--one-scan", "--jobs", str(jobs)],
                             stdout=subprocess.PIPE, text=True)
    sampler = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--sample-pss", str(child.pid)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) if sample_memory else None
    out, _ = child.communicate()
    total = time.perf_counter() - started
    pss = int(sampler.communicate("")[0].strip() or 0) / 1024.0 if sampler is not None else 0.0
    if child.returncode != 0:
        raise SystemExit(f"the scanning process failed with exit code {child.returncode}")
    run = json.loads(out.strip().splitlines()[-1])
    run.update(pss=pss, startup=total - run["wall"], total=total)
    return run


def adversarial_texts() -> dict[str, str]:
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return {
        "spaces": "ignore" + " " * MB + "instructions",
        "html-comment-openers": "<!--" * (MB // 4),
        "comment-open-close-mix": "<!-- -" * (MB // 6),
        "zero-width": "a" + "\u200b" * (MB // 3),
        "zero-width-in-words": "ab\u200bcd " * (MB // 8),
        "variation-selectors": "\U0001F600" + "\ufe01" * (MB // 3),
        "bidi": "x\u202e\u2066" * (MB // 7),
        "tags": "".join(chr(0xE0000 + (i % 95) + 32) for i in range(MB // 4)),
        "base64": (b64 * (MB // len(b64) + 1))[:MB],
        "angle-brackets": "<div style=\"" * (MB // 12),
        "link-reference": "[//]: # (" * (MB // 9),
        "cyrillic-mix": "pаypаl " * (MB // 8),
        "curl-pipes": "curl http://x | " * (MB // 16),
        "backticks": "`" * MB,
        "front-matter": "---\n" + "description: " + "a " * (MB // 2) + "\n---\n",
    }


def rule_times(corpus: str) -> list[tuple[float, str]]:
    docs: list[Document] = []
    for dirpath, _, files in os.walk(corpus):
        for f in files:
            if f == "MANIFEST.tsv":
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), corpus)
            loaded = read_file(corpus, rel)
            if hasattr(loaded, "text"):
                docs.append(Document(rel.split("/", 1)[-1], loaded.text))
    times: list[tuple[float, str]] = []
    for r in catalog():
        if r.check is None:
            continue
        started = time.process_time()
        for doc in docs:
            if r.applies(doc):
                for _ in r.check(doc):
                    pass
        times.append((time.process_time() - started, r.id))
    return sorted(times, reverse=True)


def slowest_rules(text: str, rules) -> list[tuple[float, str]]:
    """Seconds each rule takes on one text (prose and script readings), slowest first."""
    times: list[tuple[float, str]] = []
    for path in ("CLAUDE.md", "helper.py"):
        doc = Document(path, text)
        for r in rules:
            if not r.applies(doc):
                continue
            started = time.process_time()
            for _ in r.check(doc):
                pass
            times.append((time.process_time() - started, f"{r.id}({path.split('.')[-1]})"))
    return sorted(times, reverse=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("corpus", nargs="?", default=DEFAULT_CORPUS)
    ap.add_argument("--rules", action="store_true", help="also time each rule over the corpus")
    ap.add_argument("--adversarial-only", action="store_true")
    ap.add_argument("--jobs", type=int, default=0, help="worker processes (default 0: one per core)")
    ap.add_argument("--repeat", type=int, default=5, help="full scans to run; the best is the figure, since other "
                    "tenants of a shared machine only ever add time (default 5)")
    ap.add_argument("--memory-runs", type=int, default=2, help="further full scans whose memory is sampled (default 2)")
    ap.add_argument("--sample-pss", type=int, metavar="PID", help=argparse.SUPPRESS)
    ap.add_argument("--one-scan", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.sample_pss:
        return sample_pss(args.sample_pss)
    if args.one_scan:
        catalog()
        print(json.dumps(full_scan(args.corpus, workers.resolve_jobs(args.jobs))))
        return 0
    rules = catalog()  # load (and fixture-check) before timing
    ensure_prefilter()  # as a scan of many files does: the adversarial texts pay its word pass too
    failed = False
    print(f"rules loaded: {len(rules)}; cpus: {os.cpu_count()}")
    if not args.adversarial_only:
        jobs = workers.resolve_jobs(args.jobs)
        runs = [fresh_scan(args.corpus, jobs, sample_memory=False) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["wall"])
        # --memory-runs 0 skips the memory runs: the memory bar is then not judged (no figure, no verdict)
        pss = max((fresh_scan(args.corpus, jobs, sample_memory=True)["pss"] for _ in range(args.memory_runs)), default=None)
        median = statistics.median(r["wall"] for r in runs)
        ok_t, ok_m = median < SCAN_BAR_SECONDS, pss is None or 0 < pss < RSS_BAR_MB
        failed |= not (ok_t and ok_m)
        walls = ", ".join(f"{r['wall']:.2f}" for r in runs)
        print(f"full scan of {args.corpus}: {best['scanned']} files scanned, {best['not_scanned']} not scanned, "
              f"{best['findings']} findings")
        print(f"  {'PASS' if ok_t else 'FAIL'}  wall time {median:.2f} s median, {best['wall']:.2f} s best, with {jobs} "
              f"process(es) over {len(runs)} fresh processes (all: {walls}; bar: median < {SCAN_BAR_SECONDS:.0f} s); "
              f"CPU time {best['cpu']:.2f} s in the best; "
              f"{best['startup']:.2f} s more before it (interpreter, imports, rule table), so {best['total']:.2f} s "
              f"from start to exit; load average {os.getloadavg()[0]:.1f} (other processes share the CPUs when "
              f"above {os.cpu_count()})")
        rss = f"peak RSS {best['rss']:.0f} MB in the scanning process" + (
            f", {best['worker_rss']:.0f} MB in the largest worker" if jobs > 1 else "")
        if pss is None:
            print(f"  SKIP  peak memory not sampled (--memory-runs 0); {rss}")
        else:
            print(f"  {'PASS' if ok_m else 'FAIL'}  peak memory {pss:.0f} MB, summed PSS of all processes, worst of "
                  f"{args.memory_runs} runs sampled apart (bar < {RSS_BAR_MB:.0f} MB); {rss}")
    print("all rules on 1 MB single-line adversarial texts (CPU seconds, so that other load does not count):")
    for name, text in adversarial_texts().items():
        doc = Document("CLAUDE.md", text)
        started = time.process_time()
        found = scan_document(doc, rules)
        secs = time.process_time() - started
        script = Document("helper.py", text)
        started = time.process_time()
        found_py = scan_document(script, rules)
        secs_py = time.process_time() - started
        worst = max(secs, secs_py)
        ok = worst < ADVERSARIAL_BAR_SECONDS
        failed |= not ok
        print(f"  {'PASS' if ok else 'FAIL'}  {name:<24} prose {secs:6.3f} s ({len(found)} findings), script {secs_py:6.3f} s ({len(found_py)} findings)")
        if not ok or args.rules:
            print("        slowest rules: " + ", ".join(f"{rid} {t:.2f} s" for t, rid in slowest_rules(text, rules)[:4]))
    if args.rules:
        print(f"CPU seconds per rule over {args.corpus} (slowest first; shared document views are paid by the first rule that asks):")
        for secs, rid in rule_times(args.corpus)[:15]:
            print(f"  {rid}  {secs:7.3f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
