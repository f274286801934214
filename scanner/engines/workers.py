"""Spreading a scan's targets over worker processes.

Scanning is CPU-bound Python (syntax-tree walks, one RE2 pass per rule), so one process uses
one core. On a machine with more, the targets are cut into contiguous chunks (a skill's files
stay together) and scanned by this process together with forked workers, which inherit the
already verified rule table. Outcomes come back in target order, so the result is the same as
a serial scan's.

Workers are kept for the life of the process: a tree of 47 repositories scanned one after
another forks once per extra core, not once per repository. A worker that dies takes no target
with it: its chunk is scanned again in this process.
"""
from __future__ import annotations

import gc
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_TARGETS_PER_WORKER = 12  # below this, forking and pickling cost more than they save
# Chunks are small: when this process runs out of chunks it waits for the ones still queued
# for the workers, so the idle tail is about one chunk per worker; pickling a small chunk and its
# outcomes costs little (figures: docs/performance.md).
CHUNKS_PER_WORKER = 32
IN_FLIGHT_PER_WORKER = 2  # chunks queued for a worker at once: one running, the next one ready
MAX_AUTO_JOBS = 8
# Chunks this process scans before it forks the workers (the first is cut when the workers are
# due), so that they inherit what those texts taught every pattern's automaton (RE2 builds its
# states as texts need them): the pages are shared, not built again in each worker, which lowers
# both the summed memory and the CPU time (figures: docs/performance.md).
WARM_CHUNKS = 1
STREAM_CHUNK = 32  # map_stream's chunk: the count of targets is not known while they are found

_pool: ProcessPoolExecutor | None = None
_pool_key: tuple | None = None


def resolve_jobs(requested: int) -> int:
    """0 means one process per usable core."""
    if requested > 0:
        return requested
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_AUTO_JOBS))


def map_targets(fn: Callable[..., R], root: str, targets: Sequence[T], limits, jobs: int,
                prepare: Callable[[], None] | None = None) -> list[R]:
    """[fn(root, t, limits) for t in targets], spread over `jobs` processes when it pays: this
    process is one of them (jobs - 1 are forked), so memory holds one interpreter fewer.
    `prepare`: called once before the workers are forked (not at all when none are), to load
    what every process would otherwise load for itself on first use."""
    jobs = min(resolve_jobs(jobs), len(targets) // MIN_TARGETS_PER_WORKER)
    spread = _Spread(root, limits)
    if jobs > 1:
        spread.start(jobs, prepare)
    size = -(-len(targets) // (spread.jobs * CHUNKS_PER_WORKER)) if spread.jobs > 1 else max(len(targets), 1)
    for i in range(0, len(targets), size):
        spread.add(fn, list(targets[i:i + size]))
    return spread.finish()


def map_stream(fn_for: Callable[[list[T]], Callable[..., R]], root: str, targets: Iterable[T], limits, jobs: int,
               prepare: Callable[[], None] | None = None) -> list[R]:
    """map_targets for targets still being found (a tree walk): once enough are found, the
    workers scan chunks while this process goes on finding more, and it joins in when the walk
    ends. fn_for(chunk) gives the function for a chunk when the chunk is cut, so it may depend on
    everything found until then."""
    jobs = resolve_jobs(jobs)
    spread = _Spread(root, limits)
    chunk: list[T] = []
    found = 0
    for t in targets:
        chunk.append(t)
        found += 1
        if len(chunk) >= STREAM_CHUNK:
            spread.add(fn_for(chunk), chunk)
            chunk = []
            if jobs > 1 and spread.pool is None and found >= MIN_TARGETS_PER_WORKER * jobs:
                spread.warm(WARM_CHUNKS)
                spread.start(jobs, prepare)
            spread.feed(len(spread.chunks) - 1)
    if chunk:
        spread.add(fn_for(chunk), chunk)
    return spread.finish()


class _Spread:
    """Chunks scanned by workers (fed from the front, a few ahead of them) and by this process
    (from the back, between feeds) until the two meet. Nothing is cancelled, so nothing races."""

    def __init__(self, root: str, limits) -> None:
        self.root, self.limits = root, limits
        self.chunks: list[tuple[Callable[..., R], list]] = []
        self.results: list[list | None] = []
        self.in_flight: dict[int, Future] = {}
        self.front = 0
        self.pool: ProcessPoolExecutor | None = None
        self.jobs = 1

    def warm(self, count: int) -> None:
        """Scan the first chunks (of those cut so far) here before the workers are forked: the
        automaton states RE2 builds for them are then inherited (shared pages, built once)
        instead of built again in every worker. Results keep their places: nothing else changes."""
        while self.front < min(count, len(self.chunks)):
            fn, chunk = self.chunks[self.front]
            self.results[self.front] = _run_chunk(fn, self.root, chunk, self.limits)
            self.front += 1

    def start(self, jobs: int, prepare: Callable[[], None] | None = None) -> None:
        if prepare is not None:
            prepare()
        # Objects alive now (modules, the rule table, what the first chunk left) move out of the
        # collector's reach: a collection in a worker would otherwise write to every one of them
        # and copy the pages it shares with this process.
        gc.freeze()
        self.pool = _get_pool(jobs - 1)
        self.jobs = jobs if self.pool is not None else 1

    def add(self, fn: Callable[..., R], chunk: list) -> None:
        self.chunks.append((fn, chunk))
        self.results.append(None)

    def feed(self, last: int) -> None:
        """Queue chunks up to index `last` for the workers while they have room; collect what is done."""
        self._collect(wait=False)
        while self.pool is not None and self.front <= last and len(self.in_flight) < IN_FLIGHT_PER_WORKER * (self.jobs - 1):
            fn, chunk = self.chunks[self.front]
            try:
                self.in_flight[self.front] = self.pool.submit(_run_chunk, fn, self.root, chunk, self.limits)
            except (OSError, NotImplementedError, RuntimeError):
                # No usable process support here (no /dev/shm, fork refused): this process alone.
                self._lose_pool()
                break
            self.front += 1

    def finish(self) -> list[R]:
        back = len(self.chunks) - 1
        while self.front <= back or self.in_flight:
            self.feed(back)
            if self.front <= back:
                fn, chunk = self.chunks[back]
                self.results[back] = _run_chunk(fn, self.root, chunk, self.limits)
                back -= 1
            else:
                self._collect(wait=True)  # nothing left for this process: wait for the workers
        return [outcome for chunk in self.results for outcome in chunk]

    def _collect(self, wait: bool) -> None:
        finished = list(self.in_flight) if wait else [i for i, f in self.in_flight.items() if f.done()]
        for i in finished:
            try:
                self.results[i] = self.in_flight.pop(i).result()
            except BrokenProcessPool:  # a worker died: its chunk, and the rest, are scanned here
                self._lose_pool()
                fn, chunk = self.chunks[i]
                self.results[i] = _run_chunk(fn, self.root, chunk, self.limits)

    def _lose_pool(self) -> None:
        shutdown()
        self.pool, self.jobs = None, 1


def shutdown() -> None:
    """Stop the workers (a benchmark does this to read their peak memory)."""
    global _pool, _pool_key
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
    _pool, _pool_key = None, None


def _run_chunk(fn: Callable[..., R], root: str, chunk: list[T], limits) -> list[R]:
    return [fn(root, t, limits) for t in chunk]


def _get_pool(jobs: int) -> ProcessPoolExecutor | None:
    global _pool, _pool_key
    if "fork" not in multiprocessing.get_all_start_methods():
        return None  # spawn would re-import and re-verify everything per worker: not worth it
    from ..rules import catalog

    # A reloaded rule table (tests do this) must not be served by workers forked before it.
    key = (jobs, id(catalog()), os.getpid())
    if _pool is None or _pool_key != key:
        if _pool is not None and _pool_key[2] == os.getpid():  # a pool forked here, not inherited
            _pool.shutdown(wait=False, cancel_futures=True)
        try:
            _pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))
        except (OSError, NotImplementedError, ImportError):
            _pool, _pool_key = None, None  # no semaphores (no /dev/shm) or no fork: one process
            return None
        _pool_key = key
    return _pool
