"""Analysing a large collection on a Ray cluster: what ``shogiban analyse DIR --cluster ray``
runs.

Each Ray worker is an actor holding one engine (:class:`~shogiban.analysis.batch.EngineSpec`),
started once, that analyses whole files with :func:`~shogiban.analysis.batch.analyse_file`,
exactly as a ``--jobs`` worker process does: every search starts from a fresh engine state, so
the results equal a local run's, and the same on-disk cache skips the positions and the records
analysed before (a run that was stopped starts again where it was).  The files must be readable
and the outputs writable at the same paths on every machine of the cluster (a shared folder),
as must the cache file.

Ray was chosen because it is the well-kept library made for this: it places one actor per core
over any number of machines, restarts nothing behind our back, and needs no broker of our own.
``--cluster ray`` starts a private local Ray (its object store sized for a small machine) and
stops it at the end; ``--cluster ray://HOST:PORT`` joins a running cluster through Ray Client.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from shogiban.analysis.batch import BatchOptions, FileJob, FileResult, ProgressUpdate, analyse_file, shared_cache
from shogiban.analysis.cache import open_cache
from shogiban.errors import ShogibanError

#: The local Ray's object store: results are a few kilobytes a file, so a small store leaves the
#: memory to the engines (Ray's own minimum is 75 MB).
LOCAL_OBJECT_STORE_BYTES = 128 * 1024 * 1024


class ClusterError(ShogibanError):
    """A ``--cluster`` that cannot be used (Ray missing, or the cluster unreachable)."""

    code = "cluster_unavailable"


def parse_cluster(text: str) -> str | None:
    """The Ray address ``--cluster`` names: None for a local Ray started on demand (``ray``),
    else the ``ray://HOST:PORT`` address.

    :raises ClusterError: for anything else.

    >>> parse_cluster("ray") is None, parse_cluster("ray://10.0.0.5:10001")
    (True, 'ray://10.0.0.5:10001')
    """
    if text == "ray":
        return None
    if text.startswith("ray://") and len(text) > len("ray://") and " " not in text:
        return text
    raise ClusterError(f"unknown cluster {text[:80]!r}: give ray (a local Ray) or ray://HOST:PORT")


class _Analyst:
    """One engine in one Ray worker, analysing whole files (a Ray actor)."""

    def __init__(self, options: BatchOptions) -> None:
        self.options = options
        self.engine = options.engine.start()
        self.cache = open_cache(options.cache_path)

    def analyse(self, job: FileJob) -> FileResult:
        return analyse_file(job, self.options, self.engine, self.cache)

    def close(self) -> None:
        self.engine.quit()
        self.cache.close()


def _start_ray(address: str | None, workers: int) -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError('Ray is not installed: pip install "shogiban[cluster]"') from None
    try:
        if address is None:
            ray.init(num_cpus=workers, object_store_memory=LOCAL_OBJECT_STORE_BYTES, include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as error:  # Ray raises its own kinds: connection, start-up, version
        where = "a local Ray" if address is None else address
        raise ClusterError(f"cannot start or reach {where}: {error}") from None
    return ray


def run_on_ray(
    jobs: Sequence[FileJob], options: BatchOptions, *, address: str | None = None, workers: int | None = None,
    on_progress: ProgressUpdate | None = None, cancel: threading.Event | None = None,
) -> Iterator[FileResult]:
    """Analyse *jobs* on Ray (a local one when *address* is None), one engine per Ray worker:
    *workers* of them (default: the cluster's CPUs, at most the number of files).  Yields the
    results in the jobs' order, as :func:`~shogiban.analysis.batch.run_batch` does.

    :raises ClusterError: if Ray is missing or the cluster cannot be reached.
    """
    if not jobs:
        return
    options = shared_cache(options)
    ray = _start_ray(address, workers or os.cpu_count() or 1)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        count = max(1, min(workers or cpus, len(jobs)))
        analyst = ray.remote(num_cpus=1, max_restarts=0)(_Analyst)
        actors = [analyst.remote(options) for _ in range(count)]
        pool = ray.util.ActorPool(actors)
        try:
            results = pool.map(lambda actor, job: actor.analyse.remote(job), list(jobs))
            for job in jobs:
                if cancel is not None and cancel.is_set():
                    break
                try:
                    result: FileResult = next(results)
                except StopIteration:
                    break
                except Exception as error:  # a worker that died (its engine crashed it) fails its file only
                    result = FileResult(str(job.source), "failed", error=f"worker failed: {error!r}")
                if on_progress is not None and result.positions:
                    on_progress(str(job.source), result.positions, result.positions)
                yield result
        finally:
            for actor in actors:
                with contextlib.suppress(Exception):  # a dead actor has nothing left to close
                    ray.get(actor.close.remote(), timeout=30)
                ray.kill(actor)
    finally:
        ray.shutdown()


__all__ = ["LOCAL_OBJECT_STORE_BYTES", "ClusterError", "parse_cluster", "run_on_ray"]
