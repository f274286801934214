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

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_TARGETS_PER_WORKER = 12  # below this, forking and pickling cost more than they save
# Chunks are small: when this process runs out of chunks it waits for the ones still queued
# for the workers, so the idle tail is about one chunk per worker (with 8 chunks per worker and
# 3 in flight, this process sat idle for 1.2-2.8 s of a 2-process benign-corpus scan; with 32 and
# 2, 0.2-0.4 s). Pickling a chunk and its outcomes costs about a millisecond.
CHUNKS_PER_WORKER = 32
IN_FLIGHT_PER_WORKER = 2  # chunks queued for a worker at once: one running, the next one ready
MAX_AUTO_JOBS = 8

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


def map_targets(fn: Callable[..., R], root: str, targets: Sequence[T], limits, jobs: int) -> list[R]:
    """[fn(root, t, limits) for t in targets], spread over `jobs` processes when it pays: this
    process is one of them (jobs - 1 are forked), so memory holds one interpreter fewer."""
    jobs = min(resolve_jobs(jobs), len(targets) // MIN_TARGETS_PER_WORKER)
    pool = _get_pool(jobs - 1) if jobs > 1 else None
    if pool is None:
        return _run_chunk(fn, root, targets, limits)
    size = -(-len(targets) // (jobs * CHUNKS_PER_WORKER))
    chunks = [list(targets[i:i + size]) for i in range(0, len(targets), size)]
    results: list[list[R] | None] = [None] * len(chunks)
    in_flight: dict[int, Future] = {}
    front, back = 0, len(chunks) - 1
    # Workers are fed chunks from the front, a few ahead of them; this process takes chunks from
    # the back between feeds, until the two meet. Nothing is cancelled, so nothing races.
    while front <= back or in_flight:
        while pool is not None and front <= back and len(in_flight) < IN_FLIGHT_PER_WORKER * (jobs - 1):
            try:
                in_flight[front] = pool.submit(_run_chunk, fn, root, chunks[front], limits)
            except (OSError, NotImplementedError, RuntimeError):
                # No usable process support here (no /dev/shm, fork refused): this process alone.
                shutdown()
                pool = None
                break
            front += 1
        if front <= back:
            results[back] = _run_chunk(fn, root, chunks[back], limits)
            back -= 1
            finished = [i for i, f in in_flight.items() if f.done()]
        else:
            finished = list(in_flight)  # nothing left for this process: wait for the workers
        for i in finished:
            try:
                results[i] = in_flight.pop(i).result()
            except BrokenProcessPool:  # a worker died: its chunk, and the rest, are scanned here
                shutdown()
                pool = None
                results[i] = _run_chunk(fn, root, chunks[i], limits)
    return [outcome for chunk in results for outcome in chunk]


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
