"""Running a run's chunks in parallel: on threads, on loky worker processes or on a Dask
cluster; each chunk writes its own tables."""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sim import results
from sim.batch.spec import RunSpec
from sim.batch.summary import ChunkFigures, figures_of
from sim.batch.tables import GameFailed, play_chunk, uses_kernel
from sim.runlock import Owner, RunAbandoned, check_owner

BACKENDS = ("auto", "threads", "loky", "dask")
# How often a worker process of the run's own looks whether its parent is still there.
PARENT_CHECK_SECONDS = 0.5
# Held while a worker process writes a chunk's files, so that it never ends half-way through.
WRITING = threading.Lock()


def run_chunk(spec: RunSpec, run_dir: str, start: int, count: int,
              owner: Owner | None = None, own_process: bool = False
              ) -> tuple[ChunkFigures, dict[str, Any]]:
    """Play a chunk, write its tables, return its figures and its record for the manifest
    (the unit of parallel work).  With ``owner``, the run's writer, stop before playing and
    before writing when it no longer holds the run (it was killed): raise
    :class:`~sim.runlock.RunAbandoned`, or, in a worker process of the run's own
    (``own_process``: loky), end the process."""
    worker = own_process and owner is not None and os.getpid() != owner.pid
    if worker:
        exit_with_parent()
    stop_if_abandoned(owner, worker)
    try:
        tables = play_chunk(spec, start, count)
    except GameFailed as failure:
        raise RuntimeError(f"game {failure.index} (seed {spec.seed}) failed: "
                           f"{failure.error!r}; replay it with python -m sim.replay RUN_DIR "
                           f"--game {failure.index}") from failure.error
    except Exception as error:
        raise RuntimeError(f"the chunk of games {start}..{start + count - 1} (seed "
                           f"{spec.seed}) failed: {error!r}") from error
    with WRITING if worker else contextlib.nullcontext():
        stop_if_abandoned(owner, worker)
        record = results.write_chunk(Path(run_dir), start, tables)
    return figures_of(spec, start, count, tables), record


@functools.cache
def exit_with_parent() -> None:
    """In a worker process of the run's own (loky), end the process once the process that
    started it is gone (killed), between chunk writes: a worker waiting for its next chunk
    would otherwise wait minutes (loky's idle timeout).  Watches once per process."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        with WRITING:
            os._exit(1)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def stop_if_abandoned(owner: Owner | None, worker: bool) -> None:
    """Raise :class:`~sim.runlock.RunAbandoned` when ``owner`` no longer holds its run; in
    a worker process of the run's own (``worker``), whose parent is gone, end the process
    instead."""
    try:
        check_owner(owner)
    except RunAbandoned:
        if worker:
            os._exit(1)
        raise


def execute(spec: RunSpec, run_dir: Path, todo: list[tuple[int, int]], jobs: int,
            backend: str, scheduler: str | None, owner: Owner | None = None
            ) -> Iterator[tuple[ChunkFigures, dict[str, Any]]]:
    """Run the chunks, yielding their figures and records as they finish (in any order);
    ``owner``: the run's writer, whose workers stop when it is gone."""
    if backend == "dask":
        yield from _execute_dask(spec, run_dir, todo, jobs, scheduler, owner)
        return
    from joblib import Parallel, delayed
    backend = resolve_backend(spec, backend)
    parallel = Parallel(n_jobs=jobs, backend="threading" if backend == "threads" else "loky",
                        return_as="generator_unordered")
    yield from parallel(delayed(run_chunk)(spec, str(run_dir), start, count, owner,
                                           backend == "loky") for start, count in todo)


def resolve_backend(spec: RunSpec, backend: str) -> str:
    """``auto``: threads when the compiled kernel plays (it releases the GIL), else loky."""
    if backend != "auto":
        return backend
    return "threads" if uses_kernel(spec) else "loky"


def _execute_dask(spec: RunSpec, run_dir: Path, todo: list[tuple[int, int]],
                  jobs: int, scheduler: str | None, owner: Owner | None
                  ) -> Iterator[tuple[ChunkFigures, dict[str, Any]]]:
    """Run the chunks on a Dask cluster (``scheduler``, or a local one of ``jobs``
    processes), yielding their figures and records as they finish."""
    from distributed import Client, LocalCluster, as_completed
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        futures = [client.submit(run_chunk, spec, str(run_dir), start, count, owner,
                                 pure=False) for start, count in todo]
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
