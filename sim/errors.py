"""The one kind of error a user can cause: it ends the command with one line and exit code 2;
and the interruption a user causes (Ctrl-C, `kill`), told apart from a bot raising
KeyboardInterrupt."""

from __future__ import annotations

import errno


class UserError(Exception):
    """A problem with the user's input, said in one line (no traceback is shown)."""


class Interruption(KeyboardInterrupt):
    """The user's Ctrl-C or SIGTERM, as the command's signal handler raises it."""


_CAUSES = {errno.ENOSPC: "no space left on device", errno.EROFS: "read-only file system",
           errno.EACCES: "permission denied", errno.EPERM: "operation not permitted",
           errno.EDQUOT: "disk quota exceeded"}


def os_error_line(error: OSError) -> str:
    """Gives one line naming what the operating system refused and where, e.g. "no space left
    on device (runs/r/games/.tmp-s000-g000000000.parquet)"."""
    cause = _CAUSES.get(error.errno) or (error.strerror or str(error) or type(error).__name__).lower()
    return f"{cause} ({error.filename})" if error.filename else cause
