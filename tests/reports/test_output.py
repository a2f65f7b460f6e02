"""What reports and summaries print for a narrow terminal and for other tools, and the chart
files, formats and page structure a report writes."""

import io
import json
import re

import polars as pl
import pytest
from rich.console import Console

from reports import render
from reports.report import split_formats, write_report
from reports.sections import Section, Table
from sim.errors import UserError

NUMBER = re.compile(r"\d[\d,.]*%?")


def printed(table, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(table)
    return console.export_text()


SEATS = [[f"{p}p default, 1=naive-saboteurs", str(s), "10,000", "39.3% [38.4%, 40.3%]", "38.5%",
          "+0.9 pp", "0.17", "n.s."] for p in (3, 10) for s in range(3)]
HEADERS = ["configuration", "seat", "n", "rate [95% CI]", "even", "vs even", "p", "significance"]
NUMERIC = [False, True, True, True, True, True, True, False]


@pytest.mark.parametrize("width", [80, 60, 30])
def test_a_terminal_table_never_cuts_a_number(width):
    text = printed(render.terminal_table("seats", HEADERS, SEATS, NUMERIC, width), width)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    shown = set(NUMBER.findall(text))
    for row in SEATS:
        for cell, numeric in zip(row, NUMERIC):
            if numeric:
                assert set(NUMBER.findall(cell)) <= shown, cell


def test_a_table_whose_cells_fit_is_one_row_per_line_its_headers_wrapping_between_words():
    text = printed(render.terminal_table("seats", HEADERS, SEATS, NUMERIC, 120), 120)
    for row in SEATS:
        assert re.search(r"│ " + r"\s*│\s*".join(map(re.escape, row)) + r"\s*│", text), row
    assert "significance" in text and "rate [95%" in text


def test_too_narrow_for_the_cells_gives_one_block_per_row():
    text = printed(render.terminal_table("seats", HEADERS, SEATS, NUMERIC, 80), 80)
    assert text.count("vs even:") == len(SEATS) and "┃" not in text
    assert text.count("10p default, 1=naive-saboteurs\n") == 3
    assert "  rate [95% CI]: 39.3% [38.4%, 40.3%]\n" in text


# the What-if of a hand-size sweep, as `simulate report` prints it
WHATIF = ["variant", "games", "rate [95% CI]", "vs baseline", "vs baseline low",
          "vs baseline high", "p", "pairing", "width vs unpaired", "target", "verdict"]
WHATIF_ROWS = [[f"hand_size.7={h}{' (default)' * (h == 5)}", "10,000", "44.8% [41.5%, 48.1%]",
                "-1.1 pp", "-5.0 pp", "+2.8 pp", "1", "paired on 10,000 deals", "0.824", "50.0%",
                "favours saboteurs by 5.2 points [1.9, 8.5]"] for h in range(3, 9)]


@pytest.mark.parametrize("width", [80, 100, 120])
def test_no_cell_wraps_or_is_cut_at_80_100_or_120_columns(width):
    numeric = [False, True, True, True, True, True, True, False, True, True, False]
    for headers, body, numbers in ((WHATIF, WHATIF_ROWS, numeric), (HEADERS, SEATS, NUMERIC)):
        text = printed(render.terminal_table("what if", headers, body, numbers, width), width)
        lines = text.splitlines()
        assert max(map(len, lines)) <= width and "…" not in text
        for row in body:
            for value in row:  # every cell whole on a line of its own
                assert any(value in line for line in lines), (value, text)


def test_a_terminal_table_with_a_verdict_leaves_the_distance_it_states_to_the_files():
    frame = pl.DataFrame({"players": [5], "n": [6000], "rate": [0.565], "low": [0.553],
                          "high": [0.578], "target": [0.5], "vs target": [0.065],
                          "vs target low": [0.053], "vs target high": [0.078],
                          "verdict": ["favours miners by 6.5 points [5.3, 7.8]"]})
    table = Table("by player count", frame, ("rate", "low", "high", "target", "vs target",
                                             "vs target low", "vs target high"))
    console = Console(width=120, record=True, file=io.StringIO())
    render.print_tables([Section("s", [table])], console)
    text = console.export_text()
    assert "56.5% [55.3%, 57.8%]" in text and "favours miners by 6.5 points [5.3, 7.8]" in text
    assert "vs target" not in text.split("\n")[2] and "+6.5 pp" not in text


TABLES = [Table("Rates", pl.DataFrame({"configuration": ["5p", "7p"], "rate": [0.5, float("nan")],
                                       "n": [10, 20]}), ("rate",)),
          Table("Other", pl.DataFrame({"x": [1]}))]


def test_csv_json_and_markdown_carry_the_raw_numbers():
    out = io.StringIO()
    render.write_tables(TABLES[:1], "csv", out)
    assert out.getvalue() == "configuration,rate,n\n5p,0.5,10\n7p,,20\n"
    out = io.StringIO()
    render.write_tables(TABLES, "json", out)
    assert json.loads(out.getvalue()) == [
        {"title": "Rates", "rows": [{"configuration": "5p", "rate": 0.5, "n": 10},
                                    {"configuration": "7p", "rate": None, "n": 20}]},
        {"title": "Other", "rows": [{"x": 1}]}]
    out = io.StringIO()
    render.write_tables(TABLES, "csv", out)
    assert out.getvalue().startswith("# Rates\n") and "\n\n# Other\nx\n1\n" in out.getvalue()
    out = io.StringIO()
    render.write_tables(TABLES[:1], "markdown", out)
    assert "| 5p | 50.0% | 10 |" in out.getvalue()


def test_report_formats_name_charts_and_at_most_one_table_format():
    assert split_formats("svg,csv") == (("png", "svg"), "csv")
    assert split_formats("png,svg,pdf") == (("png", "svg", "pdf"), "table")
    for bad in ("gif", "csv,json", ""):
        with pytest.raises(UserError):
            split_formats(bad)


def test_a_report_in_svg_and_pdf_with_its_tables_as_json(saboteur_run, tmp_path, capsys):
    out = tmp_path / "report"
    write_report([saboteur_run], out, formats="png,svg,pdf,json", dpi=72)
    pngs = sorted((out / "charts").glob("*.png"))
    assert pngs
    for png in pngs:
        assert png.with_suffix(".svg").read_text().lstrip().startswith("<?xml")
        assert png.with_suffix(".pdf").read_bytes()[:5] == b"%PDF-"
    printed_tables = json.loads(capsys.readouterr().out)
    assert {t["title"] for t in printed_tables} >= {"Game-win rate by seat"}


def test_png_charts_are_200_dpi_by_default(saboteur_run, tmp_path):
    from PIL import Image

    write_report([saboteur_run], tmp_path / "report", console=Console(file=io.StringIO()))
    with Image.open(tmp_path / "report" / "charts" / "win_rate_by_seat.png") as image:
        assert round(image.info["dpi"][0]) == 200
        assert image.width >= 2000  # 10 inches at 200 dpi: sharp at a slide's full width


def test_the_html_page_has_contents_linking_every_section_the_answer_first_provenance_last():
    sections = [Section("Win rate by seat", TABLES[:1]), Section("Provenance", text="runs: x"),
                Section("Other", TABLES[1:]), Section("Answer", text="One.\nTwo.")]
    page = render.html_page("T", sections)
    contents = page[page.index("<nav"):page.index("</nav>")]
    targets = re.findall(r"href='#([^']+)'", contents)
    assert len(targets) == 4 + 2  # the sections and their tables
    for target in re.findall(r"href='#([^']+)'", page):
        assert f"id='{target}'" in page
    # the Answer, a sentence a paragraph, comes before the contents; the provenance last
    assert page.index(">Answer</h2>") < page.index("<nav") < page.index(">Win rate by seat</h2>")
    assert "<p>One.</p><p>Two.</p>" in page
    assert page.index(">Win rate by seat</h2>") < page.index(">Provenance</h2>")
    assert contents.index(">Win rate by seat</a>") < contents.index(">Provenance</a>")


def test_a_chart_caption_is_not_repeated_under_the_chart(saboteur_run, tmp_path):
    out = write_report([saboteur_run], tmp_path / "report", console=Console(file=io.StringIO()))
    page = (out / "report.html").read_text()
    md = (out / "report.md").read_text()
    assert "<figcaption" not in page and page.count("<img ") > 3
    assert md.count("](charts/") > 3
    assert not re.search(r"\]\(charts/[^)]+\)\n\n\*n = ", md)  # the chart itself states n
