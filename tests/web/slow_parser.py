"""Stand-ins for the record workers' job handler (:func:`shogiban.web.parsing.run_job`), injected
into a :class:`~shogiban.web.parsing.ParsePool` by the tests.  Spawned workers import this
module by name, so it stays small and imports little."""

from __future__ import annotations

import os
from pathlib import Path

from shogiban.web.parsing import ParseJob, ParseReply, run_job

#: An upload starting with this makes :func:`spin_or_read` spin: ``SPIN <marker file>``.
SPIN = b"SPIN "


def spin_or_read(job: ParseJob) -> ParseReply:
    """Like the real handler, except for ``SPIN <path>`` uploads (and room downloads when the
    marker path is in ``$SHOGIBAN_TEST_SPIN_ROOM``): write this worker's pid to the path, then
    burn CPU forever, like a reader stuck on a pathological record."""
    marker: str | None = None
    if job.data.startswith(SPIN):
        marker = job.data[len(SPIN):].decode()
    elif job.kind == "room":
        marker = os.environ.get("SHOGIBAN_TEST_SPIN_ROOM")
    if marker is None:
        return run_job(job)
    Path(marker).write_text(str(os.getpid()))
    count = 0
    while True:
        count += 1


def hog_memory(job: ParseJob) -> ParseReply:
    """Grow without bound, like a reader building a 530 MB tree."""
    chunks = []
    while True:
        chunks.append(bytearray(16 * 1024 * 1024))


def crash(job: ParseJob) -> ParseReply:
    """Die in the middle of the job, like a crash in a compiled extension."""
    os._exit(3)
