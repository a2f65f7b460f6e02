"""The documentation site builds with `mkdocs build --strict` (no broken link or anchor, no page
left out of the nav), and its output schema lists exactly the tables and columns the games write."""

import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PAGE = ROOT / "docs" / "output-schema.md"

# The run that shows each game's tables in docs/output-schema.md (a section per game there).
RUNS = {
    "Saboteur": ["saboteur", "--players", "3"],
    "Deep Space": ["deep-space", "--players", "2"],
    "Spit": ["spit"],
    "Speed": ["speed"],
    "Sequence Stacks": ["sequence-stacks", "--players", "2"],
}


def documented_tables(game: str) -> dict[str, list[tuple[str, str]]]:
    """Gives the tables the schema page lists for a game: each table's (column, type) rows."""
    tables, table = {}, None
    for line in SCHEMA_PAGE.read_text().splitlines():
        heading = re.fullmatch(r"### (.+) `(\w+)`", line)
        if heading:
            table = heading[2] if heading[1] == game else None
            if table:
                tables[table] = []
        elif table and (row := re.match(r"\| `([\w.]+)` \| (\w+) \|", line)):
            tables[table].append((row[1], row[2]))
    return tables


def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (it is in the dev extra)")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    assert (tmp_path / "site" / "games" / "saboteur" / "index.html").is_file()


@pytest.mark.parametrize("game", RUNS)
def test_the_output_schema_lists_what_a_run_writes(game, simulate, tmp_path):
    code, _, err = simulate(*RUNS[game], "--games", "10", "--seed", "1", "--workers", "1",
                            "--quiet", "--out", "run")
    assert code == 0, err
    written = {
        folder.name: [(name, str(dtype)) for name, dtype in
                      pl.scan_parquet(str(folder / "*.parquet")).collect_schema().items()]
        for folder in sorted((tmp_path / "run").iterdir()) if list(folder.glob("*.parquet"))}
    assert documented_tables(game) == written
