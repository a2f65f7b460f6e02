"""A name a user chose reads in report.md as written: Markdown's emphasis and code marks in it
are escaped."""

import polars as pl

from reports import render
from reports.sections import Section, Table


def test_stars_underscores_and_backticks_in_a_name_are_not_markdown(tmp_path):
    # `*x*` rendered as italics
    name = "bots/*x*.py:_Lucky_`b`"
    table = Table(f"by {name}", pl.DataFrame({"strategy": [name], "first_won": [1]}),
                  note=f"seat 0: {name}")
    md = render.markdown(f"Report of {name}", [Section(name, [table], text=name)], tmp_path)
    escaped = r"bots/\*x\*.py:\_Lucky\_\`b\`"
    assert md.count(escaped) == 6 and "*x*" not in md.replace(escaped, "")
    assert "first_won" in md and "first\\_won" not in md  # inside a word, left as it reads
