"""Measure, for each rule pattern, the smallest RE2 memory budget that costs no time; save them.

    python scripts/measure_budgets.py [CORPUS_DIR ...] [--slack 1.15] [--dry-run]

Why: RE2 builds each pattern's automaton states as texts need them and keeps them, up to the
pattern's budget (max_mem), in every scanning process. Over a corpus of thousands of different
files a pattern keeps far more states than any one file needs, so a large budget mostly buys
memory that is never used again, while a budget below what one file needs makes RE2 rebuild
states over and over (or fall back to a slower matcher). Where that line lies depends on the
pattern and on the texts it really meets, so it is measured, not guessed:

1. one single-process scan of each corpus (the benign and the malicious halves by default: a
   budget must also hold for the texts attacks write) records every pass each pattern makes (the
   bytes, the span, search or finditer), as the rules make them (gates and prefilter included);
2. each pattern that kept more than MIN_KEPT_MB is compiled afresh and replays its own passes:
   it gets CEILING_MB unless a pass runs out of memory there (then twice that, or else the
   default), and
   below that the smallest budget whose CPU time stays within `slack` times the time at the
   default budget (plus a small allowance for timer noise) and in which no pass runs out of
   memory, never below FLOOR_MB: below it, attack texts made RE2's automaton run out of memory
   and fall back to its slower matcher (and log to stderr);
3. the budgets are saved to scanner/data/pattern_budgets.json, keyed by the pattern's text, and
   matching.rx applies them. A budget never changes a match (RE2 returns the same results
   whatever its memory), so a stale or missing entry only costs memory or time:
   tests/test_matching_budgets.py checks that, and that every entry still names a pattern.
Figures: docs/performance.md.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import sys
import tempfile
import time
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import re2  # noqa: E402

from scanner import matching  # noqa: E402
from scanner.matching import budgets  # noqa: E402

FLOOR_MB = 4
# Over a whole scan a large automaton costs the other patterns their share of the CPU caches,
# which a replay of one pattern alone cannot see: at 16 MB instead of 64 the authority concept's
# two halves made a one-process scan of the benign corpus faster, not slower (docs/performance.md).
# So every pattern that keeps over MIN_KEPT_MB gets at most CEILING_MB unless a pass runs out of
# memory there; below it, a budget must also cost no time in the replay.
CEILING_MB = 16
CANDIDATES_MB = tuple(mb for mb in (8, 4, 2, 1) if mb >= FLOOR_MB)
MIN_KEPT_MB = 1.0  # patterns that keep less are left at the default
NOISE_SECONDS = 0.01


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]


_libc = ctypes.CDLL("libc.so.6")
_libc.mallinfo2.restype = _MallInfo2


def malloc_in_use() -> int:
    info = _libc.mallinfo2()
    return info.uordblks + info.hblkhd


def record(corpora: list[str]) -> dict[str, list[tuple[bytes, int, int | None, str]]]:
    """Every pass each registered pattern makes over one scan of each corpus (one process)."""
    from scanner.config import Config
    from scanner.pipeline import scan_tree

    passes: dict[str, list] = defaultdict(list)
    kept: dict[int, bytes] = {}  # id -> bytes, kept alive so that ids stay unique
    search, finditer = matching.Regex.search, matching.Regex.finditer

    def keep(data: bytes) -> bytes:
        return kept.setdefault(id(data), data)

    def recording_search(self, data, pos=0, endpos=None):
        passes[self.pattern].append((keep(data), pos, endpos, "search"))
        return search(self, data, pos, endpos)

    def recording_finditer(self, data, pos=0, endpos=None):
        passes[self.pattern].append((keep(data), pos, endpos, "finditer"))
        return finditer(self, data, pos, endpos)

    matching.Regex.search, matching.Regex.finditer = recording_search, recording_finditer
    try:
        for corpus in corpora:
            scan_tree(corpus, [], Config(jobs=1))
    finally:
        matching.Regex.search, matching.Regex.finditer = search, finditer
    return passes


def replay(pattern: str, calls, max_mem: int, give_up: float) -> tuple[float, float, int]:
    """(CPU seconds, MB kept, automaton failures) of a fresh compile at max_mem replaying calls;
    stops past give_up. RE2 reports a pass whose automaton ran out of memory (it then finishes
    with its slower matcher) only on stderr, so stderr is read while the pass runs."""
    options = re2.Options()
    options.max_mem = max_mem
    gc.collect()
    before = malloc_in_use()
    compiled = re2.compile(pattern.encode("utf-8"), options)
    saved_fd = os.dup(2)
    with tempfile.TemporaryFile() as log:
        os.dup2(log.fileno(), 2)
        try:
            started = time.process_time()
            for data, pos, endpos, kind in calls:
                end = len(data) if endpos is None else endpos
                if kind == "search":
                    compiled.search(data, pos, end)
                else:
                    for _ in compiled.finditer(data, pos, end):
                        pass
                if time.process_time() - started > give_up:
                    break
            seconds = time.process_time() - started
        finally:
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
        log.seek(0)
        failures = log.read().count(b"DFA out of memory")
    kept = (malloc_in_use() - before) / (1 << 20)
    del compiled
    return seconds, kept, failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpora", nargs="*", default=["/work/shared/corpus/benign", "/work/shared/corpus/malicious"])
    ap.add_argument("--slack", type=float, default=1.15)
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    passes = record(args.corpora)
    chosen: dict[str, int] = {}
    saved_total = 0.0
    for pattern, calls in sorted(passes.items(), key=lambda kv: -len(kv[1])):
        base_seconds, base_kept, _ = replay(pattern, calls, budgets.DEFAULT, float("inf"))
        if base_kept < MIN_KEPT_MB:
            continue
        allowed = base_seconds * args.slack + NOISE_SECONDS
        best = (budgets.DEFAULT, base_seconds, base_kept)
        for ceiling in (CEILING_MB, 2 * CEILING_MB):
            seconds, kept, failures = replay(pattern, calls, ceiling << 20, float("inf"))
            if not failures:
                best = (ceiling << 20, seconds, kept)
                break
        else:
            continue  # some text needs more than twice the ceiling: the pattern keeps the default
        if best[0] > CEILING_MB << 20:
            chosen[pattern] = best[0]
            saved_total += base_kept - best[2]
            print(f"{best[0] >> 20:3d} MB  {base_seconds:.3f}->{best[1]:.3f} s  {base_kept:5.1f}->{best[2]:5.1f} MB kept  "
                  f"{len(calls):5d} passes  {pattern[:70]!r}")
            continue
        for mb in CANDIDATES_MB:
            seconds, kept, failures = replay(pattern, calls, mb << 20, allowed * 1.5)
            if seconds > allowed or failures:
                break  # smaller budgets only rebuild more, and a pass that ran out must not happen
            best = (mb << 20, seconds, kept)
        budget, seconds, kept = best
        saved_total += base_kept - kept
        print(f"{budget >> 20:3d} MB  {base_seconds:.3f}->{seconds:.3f} s  {base_kept:5.1f}->{kept:5.1f} MB kept  "
              f"{len(calls):5d} passes  {pattern[:70]!r}")
        if budget != budgets.DEFAULT:
            chosen[pattern] = budget
    print(f"{len(chosen)} budgets; {saved_total:.1f} MB fewer kept in one process over this corpus")
    if not args.dry_run:
        budgets.save(chosen)
        print(f"wrote {budgets.PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
