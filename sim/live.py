"""Where live displays (the progress bar, the first compile's spinner) show: on stderr when it
is a terminal, and in a notebook's output (rich draws them there), so that a script or a notebook
calling the API sees a long run move. Piped or sent to a file they would only litter it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def stderr_console() -> Console | None:
    """Gives a rich console on stderr where a live display shows (a terminal, a Jupyter
    notebook), else None."""
    from rich.console import Console

    console = Console(stderr=True)
    return console if console.is_terminal or console.is_jupyter else None
