"""Rendering report sections: Markdown, self-contained HTML (charts as base64), rich tables."""

from __future__ import annotations

import base64
import html
import math
from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable

from reports.sections import Section, Table


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


def markdown(title: str, sections: list[Section], base: Path) -> str:
    """Gives the report as Markdown, each chart linked right after its table."""
    out = [f"# {title}", ""]
    for section in sections:
        out += [f"## {section.title}", ""]
        if section.text:
            out += [section.text, ""]
        for table in section.tables:
            out += [f"### {table.title}", ""]
            cols = table.frame.columns
            out.append("| " + " | ".join(cols) + " |")
            out.append("|" + "|".join("---" if not table.frame[c].dtype.is_numeric() else "---:"
                                      for c in cols) + "|")
            out += ["| " + " | ".join(r) + " |" for r in rows(table)]
            out.append("")
            if table.note:
                out += [f"*{table.note}*", ""]
            if table.chart is not None:
                rel = table.chart.relative_to(base).as_posix()
                out += [f"![{table.title}]({rel})", "", f"*{table.chart_caption}*", ""]
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
img { max-width: 720px; }
"""


def html_page(title: str, sections: list[Section]) -> str:
    """Gives the report as one self-contained HTML page: charts embedded as base64 PNGs."""
    out = ["<!doctype html><html><head><meta charset='utf-8'>",
           f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>"]
    for section in sections:
        out.append(f"<h2>{html.escape(section.title)}</h2>")
        if section.text:
            out.append(f"<p>{html.escape(section.text)}</p>")
        for table in section.tables:
            out.append(f"<h3>{html.escape(table.title)}</h3><div class='pair'><div>")
            out.append("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>"
                                              for c in table.frame.columns) + "</tr>")
            numeric = [table.frame[c].dtype.is_numeric() for c in table.frame.columns]
            for r in rows(table):
                out.append("<tr>" + "".join(
                    f"<td class='{'num' if num else ''}'>{html.escape(v)}</td>"
                    for v, num in zip(r, numeric)) + "</tr>")
            out.append("</table>")
            if table.note:
                out.append(f"<p class='note'>{html.escape(table.note)}</p>")
            out.append("</div>")
            if table.chart is not None:
                data = base64.b64encode(table.chart.read_bytes()).decode("ascii")
                out.append(f"<figure><img alt='{html.escape(table.title)}' "
                           f"src='data:image/png;base64,{data}'><figcaption>"
                           f"{html.escape(table.chart_caption)}</figcaption></figure>")
            out.append("</div>")
    out.append("</body></html>")
    return "\n".join(out)


def print_tables(sections: list[Section], console: Console, only: set[str] | None = None) -> None:
    """Prints the sections' tables (or those titled in `only`) as rich tables.

    To fit a terminal, a rate and its interval share one column, and win counts are left to the
    Markdown and HTML reports.
    """
    for section in sections:
        for table in section.tables:
            if only is not None and table.title not in only:
                continue
            columns = list(table.frame.columns)
            joined = {"rate", "low", "high"} <= set(columns)
            shown = [c for c in columns
                     if not (joined and c in ("low", "high")) and not (c == "wins" and "n" in columns)]
            rt = RichTable(title=table.title, caption=table.note or None, caption_justify="left")
            for c in shown:
                text = not table.frame[c].dtype.is_numeric()
                rt.add_column("rate [95% CI]" if joined and c == "rate" else c,
                              justify="left" if text else "right", no_wrap=True)
            for values in table.frame.select(columns).iter_rows(named=True):
                row = []
                for c in shown:
                    text = cell(values[c], c, table.percent)
                    if joined and c == "rate":
                        text += (f" [{cell(values['low'], 'low', table.percent)},"
                                 f" {cell(values['high'], 'high', table.percent)}]")
                    row.append(text)
                rt.add_row(*row)
            console.print(rt)
