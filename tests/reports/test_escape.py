"""Names a user chose (a bot file, a board, a run folder) are shown in report.md, never run:
Markdown passes raw HTML through, and MkDocs and GitHub render it."""

import re

import polars as pl
from rich.console import Console

from reports import render
from reports.report import write_report
from reports.sections import Section, Table
from sim.game import Setup

BOT = "<img src=x onerror=alert(1)>.py:Bot"
BOARD = "<script>alert(1)</script>"


def test_a_bot_file_and_a_run_folder_named_as_html_are_escaped_in_report_md(tmp_path, runkit):
    setups = [Setup(4, (BOT, "default", "default", "default")), Setup(4, ("default",) * 4)]
    run = runkit.write(tmp_path / "<b onmouseover=alert(2)>run", setups,
                       runkit.tables(setups, 30))
    out = write_report([run], tmp_path / "out", Console(quiet=True))
    md = (out / "report.md").read_text()
    assert "&lt;img src=x onerror=alert(1)>.py:Bot" in md  # the name is shown...
    assert "<img" not in md and "<b " not in md            # ...and no tag is left raw
    assert "<img src=x" not in (out / "report.html").read_text()


def test_every_title_cell_note_and_text_of_a_markdown_report_is_escaped(tmp_path):
    table = Table(f"Bases per planet: {BOARD}", pl.DataFrame({
        "board": [BOARD], f"by {BOARD}": [1], "link": ["[x](javascript:alert(3))"],
        "p": [1e-9], "cell": ["a | b\nc"]}), note=f"board {BOARD}")
    md = render.markdown(f"Report of {BOARD}", [Section(f"On {BOARD}", [table], text=BOARD)],
                         tmp_path)
    assert "<script" not in md and "</script" not in md
    assert md.count("&lt;script>alert(1)&lt;/script>") == 7
    assert "[x\\](javascript:" in md and not re.search(r"[^\\]\]\(javascript", md)  # no link
    assert "<0.0001" in md                       # not a tag: left as it reads
    row = next(line for line in md.splitlines() if line.startswith("| &lt;script>"))
    assert row.count(" | ") == 4                 # the cell's | and line break stay in it
