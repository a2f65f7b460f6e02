"""`simulate report`: a balance report of one or more runs, as Markdown, HTML and charts."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

from reports import charts, render
from reports import ladder, plays, skill, skill_matrix  # noqa: F401  (register their common sections)
from reports import runs as runs_mod
from reports import answer, profile, provenance, whatif
from reports.sections import ReportContext, Section, sections_for
from reports.verdicts import check_target
from sim.errors import UserError

PARTIAL = render.PARTIAL


def build_sections(runs: list, charts_dir: Path, allow_partial: bool = False,
                   target: float | None = None, baseline: str | None = None,
                   designer: profile.Profile | None = None) -> list[Section]:
    """Gives the report's sections (the Answer, the What-if when it holds several variants,
    the common ones, the game's own, then the provenance) and draws their charts; a report of
    runs that are not whole (with `allow_partial`) opens with a warning saying why.

    `target`: what balanced means for the headline instead of the game's own (--target);
    `baseline`: the variant label differences are taken from (--baseline); `designer`: the
    profile whose targets the report checks (--profile)."""
    game = runs_mod.game_named(runs[0].game)
    warnings = [w for run in runs for w in runs_mod.check_run(run, allow_partial)]
    ctx = report_context(runs, game, charts_dir, target, baseline)
    ctx.profile = designer
    own = sections_for(game)
    sections = [s for fn in (whatif.section, profile.section, *own) if (s := fn(ctx)) is not None]
    sections = [answer.section(ctx, sections), *sections, provenance.section(ctx)]
    if warnings:
        sections.insert(0, Section(PARTIAL, text="This report covers only the games these runs "
                                   "hold, which are not all they should: " + "; ".join(warnings)
                                   + "."))
    return sections


def report_context(runs: list, game, charts_dir: Path, target: float | None = None,
                   baseline: str | None = None) -> ReportContext:
    """Gives the context the sections read; UserError for a --target outside [0, 1] or a
    --baseline that names no variant of the runs."""
    check_target(target)
    ctx = ReportContext(runs, game, charts_dir, target, baseline)
    whatif.check_baseline(ctx)
    return ctx


def split_formats(text: str) -> tuple[tuple[str, ...], str]:
    """Gives the chart formats (png always among them: the report pages show PNGs) and the
    table format that a report's --format names, e.g. 'png,svg,csv'; one-line UserError for an
    unknown format or two table formats."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in (*charts.FORMATS, *render.TABLE_FORMATS)]
    if unknown or not names:
        raise UserError(f"--format takes chart formats ({', '.join(charts.FORMATS)}) and one "
                        f"table format ({', '.join(render.TABLE_FORMATS)}), comma-separated; "
                        f"got {text!r}")
    tables = [n for n in names if n in render.TABLE_FORMATS]
    if len(tables) > 1:
        raise UserError(f"--format names more than one table format: {', '.join(tables)}")
    chart_formats = tuple(dict.fromkeys(["png", *(n for n in names if n in charts.FORMATS)]))
    return chart_formats, tables[0] if tables else "table"


def _writable(out: Path) -> Path:
    try:
        (out / "charts").mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise UserError(f"cannot write the report to {out}: {e.strerror or e}") from None
    return out


def publish(out: Path, stem: str, title: str, sections: list[Section], console: Console,
            only: set[str] | None = None, fmt: str = "table") -> None:
    """Writes <stem>.md and <stem>.html into `out` and prints the tables (or those in `only`):
    for a terminal, or in another `fmt` (render.TABLE_FORMATS) to stdout for other tools, the
    files' names then going to stderr."""
    (out / f"{stem}.md").write_text(render.markdown(title, sections, out), encoding="utf-8")
    (out / f"{stem}.html").write_text(render.html_page(title, sections), encoding="utf-8")
    written = f"{stem}: {out / f'{stem}.md'}  ·  {out / f'{stem}.html'}"
    said = [p for s in sections if s.title == render.ANSWER for p in render.paragraphs(s)]
    if fmt == "table":
        if said:
            console.print(render.ANSWER, style="bold")
            for sentence in said:
                console.print(sentence, markup=False, highlight=False)
            console.print()
        render.print_tables(sections, console, only)
        console.print(written)
        return
    if said and fmt == "markdown":
        print(f"## {render.ANSWER}\n\n" + "\n\n".join(render.md(p) for p in said) + "\n")
    elif said:  # csv and json stay one table for other tools: the Answer goes with the names
        print("\n".join([render.ANSWER, *said]), file=sys.stderr)
    render.write_tables([t for s in sections for t in s.tables
                         if only is None or t.title in only], fmt)
    print(written, file=sys.stderr)


def write_report(runs: list[Path], out: Path | None = None,
                 console: Console | None = None, allow_partial: bool = False,
                 target: float | None = None, baseline: str | None = None,
                 formats: str = "png,table", dpi: int = charts.DPI,
                 designer: Path | None = None) -> Path:
    """Gives the report folder after writing report.md, report.html and charts/*.png into it.

    Default folder: RUN/report/ of the first run. Prints the key tables (the first of each
    section) to `console`. Runs that are not whole are refused unless `allow_partial`; then the
    report opens with a warning, also printed first. `target` and `baseline`: see
    `build_sections`; bad ones are refused before anything is written. `formats`
    (comma-separated) adds charts in svg or pdf beside the PNGs and names how the tables print
    (`split_formats`); `dpi` is the PNGs' resolution; `designer`: a profile TOML whose targets
    the report checks (reports.profile), a bad one refused first.
    """
    targets = profile.load(designer) if designer is not None else None
    chart_formats, table_format = split_formats(formats)
    charts.check_dpi(dpi)
    console = console or Console()
    check_target(target)
    opened = runs_mod.open_runs([Path(p) for p in runs])
    game = runs_mod.game_named(opened[0].game)
    folder = Path(out) if out is not None else Path(opened[0].path) / "report"
    report_context(opened, game, folder / "charts", target, baseline)  # refuses bad input first
    out = _writable(folder)
    with charts.output(chart_formats, dpi):
        sections = build_sections(opened, out / "charts", allow_partial, target, baseline,
                                  targets)
    if sections and sections[0].title == PARTIAL:
        (console if table_format == "table" else Console(stderr=True)).print(
            f"{PARTIAL}: {sections[0].text}", style="bold red", markup=False)
    title = f"{getattr(game, 'title', opened[0].game)} balance report"
    # the provenance is for the files: a terminal gets the findings
    publish(out, "report", title, sections, console,
            only={s.tables[0].title for s in sections if s.tables and s.title != "Provenance"},
            fmt=table_format)
    return out
