"""Files the package carries as data: the games' rules configs with their presets, and the
example bots, found wherever the package is installed (a clone, `pip install .`, a wheel)."""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

# The folders a user names as the docs write them, from a clone's top folder: the package's copy
# of each stands in when the user's working folder has no such file.
_SHIPPED = {"configs": ("sim", "configs"), "strategies/examples": ("strategies", "examples")}


def configs() -> Traversable:
    """Gives the folder of the games' configs files and example presets."""
    return resources.files("sim") / "configs"


def user_file(name: str | Path) -> Path:
    """Gives the file a user named: as named when it exists, else, for a relative path under
    configs/ or strategies/examples/, the copy the installed package carries (if it has one).

    So that the docs' commands, e.g. `--strategies-file configs/saboteur-presets.toml`, run
    from any folder, not only from a clone."""
    path = Path(name).expanduser()
    if path.exists() or path.is_absolute():
        return path
    for prefix, (package, folder) in _SHIPPED.items():
        parts = Path(prefix).parts
        if path.parts[:len(parts)] == parts:
            shipped = Path(str(resources.files(package) / folder)).joinpath(*path.parts[len(parts):])
            if shipped.exists():
                return shipped
    return path
