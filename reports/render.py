"""Rendering report sections: Markdown, self-contained HTML (charts as base64), rich tables."""

from __future__ import annotations

import base64
import html
import json
import math
import re
import sys
import textwrap
from pathlib import Path
from typing import TextIO

from rich.console import Console, Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from reports import glossary
from reports.sections import Section, Table
from sim.errors import UserError

TABLE_FORMATS = ("table", "csv", "json", "markdown")
"""How summary commands print their tables: for a terminal, or for other tools."""


def check_table_format(text: str) -> str:
    """Gives a --format value of a summary command, checked (one-line UserError otherwise)."""
    if text not in TABLE_FORMATS:
        raise UserError(f"--format must be one of {', '.join(TABLE_FORMATS)}, got {text!r}")
    return text


def cell(value, column: str, percent: tuple[str, ...]) -> str:
    """Gives a table value as text: percentages, p-values and counts each in their own way."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if column in percent:
        if column.startswith("vs ") or column.startswith("gap"):  # differences of rates
            return f"{100 * value:+.1f} pp"
        return f"{100 * value:.1f}%"
    if column == "p" or column.endswith(" p"):  # p-values, e.g. "gap p"
        return "<0.0001" if value < 1e-4 else f"{value:.2g}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return f"{int(value):,}"
        return f"{value:.3g}" if abs(value) < 100 else f"{value:,.1f}"
    return str(value)


def rows(table: Table) -> list[list[str]]:
    return [[cell(v, c, table.percent) for c, v in zip(table.frame.columns, row)]
            for row in table.frame.iter_rows()]


_TAG = re.compile(r"<(?=[A-Za-z/!?])")  # what opens raw HTML or an autolink in Markdown
# What marks emphasis or code: `*` and a backtick anywhere, `_` at a word's edge (inside a
# word, as in first_won, Markdown leaves it be).
_MARK = re.compile(r"[*`]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def md(text: str) -> str:
    """Gives text for Markdown as it reads: a `<` that would open raw HTML or an autolink
    (which MkDocs and GitHub render) as `&lt;`, and `](` (an inline link) escaped, so that a
    name a user chose (a board, a bot file, a run folder) is shown and never run or followed;
    what would mark emphasis or code escaped, so that `*x*` reads as written; a `|` escaped
    and a line break a space, so that a cell stays whole. A `<` before a number ("<0.0001")
    stays as it is."""
    return (_MARK.sub(lambda mark: "\\" + mark[0], _TAG.sub("&lt;", text))
            .replace("](", "\\](").replace("|", "\\|").replace("\n", " "))


def markdown_table(table: Table) -> list[str]:
    """Gives a table's lines in Markdown: numbers as the report shows them, right-aligned;
    every header and cell through `md`."""
    cols = table.frame.columns
    out = ["| " + " | ".join(md(c) for c in cols) + " |",
           "|" + "|".join("---" if not table.frame[c].dtype.is_numeric() else "---:"
                          for c in cols) + "|"]
    return out + ["| " + " | ".join(md(v) for v in r) + " |" for r in rows(table)]


def write_tables(tables: list[Table], fmt: str, stream: TextIO | None = None) -> None:
    """Writes tables for other tools: csv and json hold the raw numbers (rates as fractions,
    missing values empty or null); markdown the numbers as the report shows them.

    Several tables: csv gives one block per table, each after a `# title` line and apart by
    a blank line; json a list of {"title", "rows"}; markdown a `### title` heading each."""
    stream = stream or sys.stdout
    if fmt == "json":
        data = [{"title": t.title, "rows": t.frame.fill_nan(None).to_dicts()} for t in tables]
        json.dump(data[0]["rows"] if len(data) == 1 else data, stream, indent=1, default=str,
                  allow_nan=False)
        stream.write("\n")
        return
    for i, table in enumerate(tables):
        if i:
            stream.write("\n")
        if fmt == "csv":
            if len(tables) > 1:
                stream.write(f"# {table.title}\n")
            stream.write(table.frame.fill_nan(None).write_csv())
        else:
            if len(tables) > 1:
                stream.write(f"### {table.title}\n\n")
            stream.write("\n".join(markdown_table(table)) + "\n")


PROVENANCE = "Provenance"
"""The title of the section saying what the report was made from (runs, seeds, rules, bots,
version); shown last."""
ANSWER = "Answer"
"""The title of the section of sentences that say what the run means; shown first."""
PARTIAL = "Warning: partial results"


def ordered(sections: list[Section]) -> list[Section]:
    """Gives the sections in the order the report shows them: a warning that the runs are not
    whole, the Answer, the findings, then the provenance."""
    first = {PARTIAL: 0, ANSWER: 1, PROVENANCE: 3}
    return sorted(sections, key=lambda s: first.get(s.title, 2))


def paragraphs(section: Section) -> list[str]:
    """Gives a section's text as paragraphs (the Answer has a sentence per line)."""
    return [line for line in section.text.split("\n") if line.strip()]


def markdown(title: str, sections: list[Section], base: Path) -> str:
    """Gives the report as Markdown, each chart linked right after its table (the chart's own
    caption says n and what the bars are, so no line under it repeats them)."""
    out = [f"# {md(title)}", ""]
    for section in ordered(sections):
        out += [f"## {md(section.title)}", ""]
        for paragraph in paragraphs(section):
            out += [md(paragraph), ""]
        if section.figure is not None:
            rel = section.figure.relative_to(base).as_posix()
            alt = md(f"{section.title}: {section.figure_caption}").replace("[", "\\[").replace(
                "]", "\\]")
            out += [f"![{alt}]({rel})", ""]
        for table in section.tables:
            out += [f"### {md(table.title)}", ""]
            out += markdown_table(table)
            out.append("")
            if table.note:
                out += [f"*{md(table.note)}*", ""]
            if table.chart is not None:
                rel = table.chart.relative_to(base).as_posix()
                alt = md(_alt(table)).replace("[", "\\[").replace("]", "\\]")  # in [alt]
                out += [f"![{alt}]({rel})", ""]
    return "\n".join(out)


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { border-bottom: 2px solid #0072B2; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; margin-bottom: 1.5em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 3px 7px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f4f8; }
figure { margin: 0; } figcaption, .note { font-size: 0.8em; color: #555; }
img { max-width: 100%; width: 960px; height: auto; }
nav.toc { background: #f6f8fa; border: 1px solid #ddd; padding: 0.5em 1.5em; margin: 1em 0; }
nav.toc ol { margin: 0.2em 0; } nav.toc > ol > li { margin: 0.3em 0; }
.answer { display: flex; gap: 1.5em; align-items: flex-start; }
.answer .sentences { flex: 1 1 22em; font-size: 1.05em; line-height: 1.4; }
.answer .sentences p { margin: 0 0 0.6em 0; }
.answer figure { flex: 0 1 760px; min-width: 0; }
.answer img { width: 100%; }
th a.term { color: inherit; text-decoration: underline dotted; }
dl.words dt { font-weight: bold; } dl.words dd { margin: 0 0 0.4em 1.5em; }
@media (max-width: 800px) {
  body { margin: 0.6em; } h1 { font-size: 1.3em; margin: 0.2em 0; }
  .answer { flex-direction: column; gap: 0.5em; } .answer figure { order: -1; flex: none; }
}
"""


def _alt(table: Table) -> str:
    """Gives a chart's alternative text: its title and its sample size."""
    return f"{table.title}: {table.chart_caption}" if table.chart_caption else table.title


def _toc(sections: list[Section]) -> list[str]:
    """Gives the HTML of the table of contents: each section, with its tables under it."""
    out = ["<nav class='toc'><strong>Contents</strong><ol>"]
    for i, section in enumerate(sections):
        out.append(f"<li><a href='#s{i}'>{html.escape(section.title)}</a>")
        if section.tables:
            out.append("<ol>" + "".join(f"<li><a href='#s{i}t{j}'>{html.escape(t.title)}</a></li>"
                                        for j, t in enumerate(section.tables)) + "</ol>")
        out.append("</li>")
    return out + ["</ol></nav>"]


def _header(column: str) -> str:
    """Gives a table header's HTML: a technical word with its meaning as a hover title and a
    link to its entry under "Words used in this report"."""
    text = html.escape(column)
    meaning = glossary.meaning(column)
    if meaning is None:
        return f"<th>{text}</th>"
    return (f"<th><a class='term' href='#{glossary.anchor(column)}' "
            f"title='{html.escape(meaning, quote=True)}'>{text}</a></th>")


def _words(sections: list[Section]) -> list[str]:
    """Gives the HTML of the "Words used in this report" section: each technical header the
    page's tables show, with its meaning."""
    used = dict.fromkeys(c for s in sections for t in s.tables for c in t.frame.columns
                         if glossary.meaning(c) is not None)
    if not used:
        return []
    out = ["<h2 id='words'>Words used in this report</h2>",
           ("<p class='note'>Every technical column header links here and shows its meaning "
            "when the pointer rests on it; the documentation's Glossary page says more.</p>"),
           "<dl class='words'>"]
    out += [f"<dt id='{glossary.anchor(c)}'>{html.escape(c)}</dt>"
            f"<dd>{html.escape(glossary.meaning(c))}</dd>" for c in used]
    return out + ["</dl>"]


def _image(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f"<img alt='{html.escape(alt)}' src='data:image/png;base64,{data}'>"


def html_page(title: str, sections: list[Section]) -> str:
    """Gives the report as one self-contained HTML page: the Answer (its sentences beside the
    hero chart) right under the title, a table of contents linking every section and table,
    then the sections (the provenance last) and the meanings of the technical headers; charts
    embedded as base64 PNGs. A chart's own caption states n, so the page adds no caption that
    repeats it."""
    sections = ordered(sections)
    lead = [s for s in sections if s.title in (PARTIAL, ANSWER)]
    heroes = {s.figure: i for i, s in enumerate(sections) if s.figure is not None}
    out = ["<!doctype html><html><head><meta charset='utf-8'>",
           "<meta name='viewport' content='width=device-width, initial-scale=1'>",
           f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>"]
    for i, section in enumerate(sections):
        if i == len(lead):  # the contents come after the Answer
            out += _toc(sections)
        out.append(f"<h2 id='s{i}'>{html.escape(section.title)}</h2>")
        if section.title == ANSWER:
            out.append("<section class='answer'><div class='sentences'>"
                       + "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs(section))
                       + "</div>")
            if section.figure is not None:
                out.append("<figure class='hero'>" + _image(
                    section.figure, f"{section.title}: {section.figure_caption}") + "</figure>")
            out.append("</section>")
        else:
            out += [f"<p>{html.escape(p)}</p>" for p in paragraphs(section)]
        for j, table in enumerate(section.tables):
            out.append(f"<h3 id='s{i}t{j}'>{html.escape(table.title)}</h3>"
                       "<div class='pair'><div>")
            out.append("<table><tr>" + "".join(_header(c) for c in table.frame.columns)
                       + "</tr>")
            numeric = [table.frame[c].dtype.is_numeric() for c in table.frame.columns]
            for r in rows(table):
                out.append("<tr>" + "".join(
                    f"<td class='{'num' if num else ''}'>{html.escape(v)}</td>"
                    for v, num in zip(r, numeric)) + "</tr>")
            out.append("</table>")
            if table.note:
                out.append(f"<p class='note'>{html.escape(table.note)}</p>")
            out.append("</div>")
            if table.chart is not None and table.chart in heroes:  # shown once, up top
                out.append(f"<p class='note'><a href='#s{heroes[table.chart]}'>Its chart "
                           "leads the report, in the Answer.</a></p>")
            elif table.chart is not None:
                out.append(f"<figure>{_image(table.chart, _alt(table))}</figure>")
            out.append("</div>")
    out += _words(sections)
    out.append("</body></html>")
    return "\n".join(out)


def terminal_table(title: str, headers: list[str], body: list[list[str]], numeric: list[bool],
                   width: int, caption: str | None = None) -> RenderableType:
    """Gives a table that fits `width` columns without wrapping or cutting a cell.

    Each column is as wide as its widest cell; a header wider than that wraps between its
    words. When the cells do not fit side by side even so, each row is shown as a block of
    `column: value` lines instead (`stacked`)."""
    columns = range(len(headers))
    cell = [max([len(r[j]) for r in body] + [len(w) for w in headers[j].split()] + [1])
            for j in columns]
    widths = [max(cell[j], len(headers[j])) for j in columns]
    # one space of padding either side of a cell and a border to its left; one more at the end
    excess = sum(w + 3 for w in widths) + 1 - width
    while excess > 0 and any(widths[j] > cell[j] for j in columns):
        widest = max((j for j in columns if widths[j] > cell[j]), key=lambda j: widths[j])
        widths[widest] -= 1
        excess -= 1
    if excess > 0:
        return stacked(title, headers, body, numeric, width, caption)
    table = RichTable(title=title, caption=caption or None, caption_justify="left")
    for j, header in enumerate(headers):
        table.add_column(header, justify="right" if numeric[j] else "left", width=widths[j],
                         overflow="fold")
    for row in body:
        table.add_row(*row)
    return table


def stacked(title: str, headers: list[str], body: list[list[str]], numeric: list[bool],
            width: int, caption: str | None = None) -> Group:
    """Gives a table too wide for `width` columns as one block per row: the row's first cell,
    then a `column: value` line for each other column, values aligned where they fit. A value
    too long for its line goes on a line of its own, wrapped between words (a single word
    longer than the terminal is the only thing ever broken)."""
    def lines(text: str, indent: int) -> list[str]:
        return textwrap.wrap(text, max(width - indent, 1), break_on_hyphens=False) or [""]

    keys = [f"{h}:" for h in headers[1:]]
    align = max(map(len, keys), default=0) + 1
    out = [Text(line, style="italic") for line in lines(title, 0)]
    for row in body:
        head = f"{headers[0]}: {row[0]}" if numeric[0] else row[0]
        out += [Text(line, style="bold") for line in lines(head, 0)]
        for key, value in zip(keys, row[1:]):
            if 2 + align + len(value) <= width:
                out.append(Text(f"  {key:<{align}}{value}"))
            else:
                out += [Text(f"  {line}") for line in lines(key, 2)]
                out += [Text(f"    {line}") for line in lines(value, 4)]
    if caption:
        out += [Text(line) for line in lines(caption, 0)]
    return Group(*out)


# what a verdict ("favours miners by 6.5 points [5.3, 7.8]") states in words
VERDICT_STATES = ("vs target", "vs target low", "vs target high")


def print_tables(sections: list[Section], console: Console, only: set[str] | None = None) -> None:
    """Prints the sections' tables (or those titled in `only`) as rich tables.

    To fit a terminal, a rate and its interval share one column, and win counts, and the
    distance to the target where a verdict states it with its interval, are left to the
    Markdown and HTML reports. A table too wide for the terminal is shown row by row, never
    wrapping or cutting a cell (`terminal_table`).
    """
    for section in sections:
        for table in section.tables:
            if only is not None and table.title not in only:
                continue
            columns = list(table.frame.columns)
            joined = {"rate", "low", "high"} <= set(columns)
            stated = VERDICT_STATES if "verdict" in columns else ()
            shown = [c for c in columns
                     if not (joined and c in ("low", "high")) and not (c == "wins" and "n" in columns)
                     and c not in stated]
            body = []
            for values in table.frame.select(columns).iter_rows(named=True):
                row = []
                for c in shown:
                    text = cell(values[c], c, table.percent)
                    if joined and c == "rate":
                        text += (f" [{cell(values['low'], 'low', table.percent)},"
                                 f" {cell(values['high'], 'high', table.percent)}]")
                    row.append(text)
                body.append(row)
            rt = terminal_table(
                table.title, ["rate [95% CI]" if joined and c == "rate" else c for c in shown],
                body, [table.frame[c].dtype.is_numeric() for c in shown], console.width,
                table.note)
            console.print(rt)
