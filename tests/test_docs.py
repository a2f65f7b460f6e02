"""The documentation site builds with `mkdocs build --strict` (no broken link or anchor, no page
left out of the nav), its output schema lists exactly the tables and columns the games write, and
its examples run as shown (tests/docs_examples.py)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # docs_examples is a command too (python -m tests.…)
import docs_examples  # noqa: E402
SCHEMA_PAGE = ROOT / "docs" / "output-schema.md"

# The run that shows each game's tables in docs/output-schema.md (a section per game there).
RUNS = {
    "Saboteur": ["saboteur", "--players", "3"],
    "Deep Space": ["deep-space", "--players", "2"],
    "Spit": ["spit"],
    "Speed": ["speed"],
    "Sequence Stacks": ["sequence-stacks", "--players", "2"],
    "No Thanks!": ["no-thanks", "--players", "3"],  # a simple-level game, from examples/
}
PLUGINS = {"No Thanks!": ("no-thanks", "no_thanks:GAME", ROOT / "examples" / "games" / "no_thanks")}


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
def test_the_output_schema_lists_what_a_run_writes(game, simulate, tmp_path, monkeypatch):
    if game in PLUGINS:  # registered as `pip install -e` would
        from sim import games

        name, target, folder = PLUGINS[game]
        monkeypatch.syspath_prepend(str(folder))
        monkeypatch.setitem(games.GAMES, name, target)
    code, _, err = simulate(*RUNS[game], "--games", "10", "--seed", "1", "--workers", "1",
                            "--quiet", "--out", "run")
    assert code == 0, err
    written = {
        folder.name: [(name, str(dtype)) for name, dtype in
                      pl.scan_parquet(str(folder / "*.parquet")).collect_schema().items()]
        for folder in sorted((tmp_path / "run").iterdir()) if list(folder.glob("*.parquet"))}
    assert documented_tables(game) == written


@pytest.fixture(scope="module")
def examples_run(tmp_path_factory) -> dict[str, list[str]]:
    """Runs every page's examples once, in a process of their own, as a user's commands would
    run (not in this one, whose caches other tests stand in for); gives each page's failures."""
    results = tmp_path_factory.mktemp("docs") / "results.json"
    done = subprocess.run([sys.executable, "-m", "tests.docs_examples", "--results", str(results)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode in (0, 1) and results.is_file(), done.stderr[-3000:]
    return json.loads(results.read_text())


@pytest.mark.parametrize("page", [p.relative_to(ROOT).as_posix() for p in docs_examples.pages()
                                  if docs_examples.runs(p)])
def test_the_examples_of_a_page_run_as_shown(page, examples_run):
    failures = examples_run[page]
    assert not failures, ("\n\n".join(failures) + "\n\nWhere the code's new output is right, "
                          f"refresh the page: python -m tests.docs_examples --update {page}")


PAGE = """A run:

```
$ simulate games
chess  Chess  2 players
$ simulate rules nope
error: old words
```

<!-- example: not run (it needs a cluster) -->
```
$ simulate saboteur --players 99
```

```python
answer = 6 * 7
```

```
>>> answer
42
```
"""


def test_a_refresh_rewrites_the_shown_output_with_the_real_one(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    assert [(e.kind, e.skip) for e in docs_examples.examples(page)] == [
        ("shell", None), ("shell", ("not run", "it needs a cluster")), ("python", None),
        ("session", None)]
    assert len(docs_examples.run_page(page, tmp_path, slow=False)) == 2  # both outputs differ
    assert docs_examples.update(page, slow=False) == 2
    assert docs_examples.run_page(page, tmp_path, slow=False) == []
    text = page.read_text()
    assert "saboteur         Saboteur             3–10 players\n" in text
    assert "$ simulate rules nope\nerror: unknown game 'nope'; known games: deep-space," in text
    assert "--players 99\n```" in text and text.endswith(">>> answer\n42\n```\n")


def test_a_cut_leaves_out_real_lines_and_a_refresh_keeps_it():
    real = ["title", "a", "b", "### table", "row 1", "row 2", "last"]
    assert docs_examples.fit(["title", "…", "### table", "row 1", "…", "last"], real) == [
        "title", "…", "### table", "row 1", "…", "last"]
    assert docs_examples.fit(["title", "…", "### table", "row 9", "…"], real) == [
        "title", "…", "### table", "row 1", "…"]
    assert docs_examples.fit(["…", "### gone", "…"], real) is None
    assert docs_examples.fit(["title", "x"], real) == real  # no cut: all of it


def test_a_failing_block_names_its_page_and_line(tmp_path):
    # a python block as docs/python-api.md had it (no import), and a run shown without output
    # (made for the next block) that no longer starts
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n```python\nrun = api.run('saboteur')\n```\n\n"
                    "```\n$ simulate saboteur --players 2 --out runs/two\n```\n")
    assert docs_examples.run_page(page, tmp_path, slow=False) == [
        f"{page}:3: NameError: name 'api' is not defined",
        f"{page}:7: `simulate saboteur --players 2 --out runs/two` failed (exit code 2):\n"
        "error: saboteur takes 3–10 players, got 2"]
