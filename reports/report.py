"""`simulate report`: a balance report of one or more runs, as Markdown, HTML and charts."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from reports import ladder  # noqa: F401  (registers its common section)
from reports import render
from reports import runs as runs_mod
from reports import provenance, whatif
from reports.sections import ReportContext, Section, sections_for
from reports.verdicts import check_target
from sim.errors import UserError

PARTIAL = "Warning: partial results"


def build_sections(runs: list, charts_dir: Path, allow_partial: bool = False,
                   target: float | None = None, baseline: str | None = None) -> list[Section]:
    """Gives the report's sections (provenance, the What-if when it holds several variants,
    the common ones, then the game's own) and draws their charts; a report of runs that are
    not whole (with `allow_partial`) opens with a warning saying why.

    `target`: what balanced means for the headline instead of the game's own (--target);
    `baseline`: the variant label differences are taken from (--baseline)."""
    game = runs_mod.game_named(runs[0].game)
    warnings = [w for run in runs for w in runs_mod.check_run(run, allow_partial)]
    ctx = report_context(runs, game, charts_dir, target, baseline)
    own = sections_for(runs[0].game)
    sections = [s for fn in (provenance.section, whatif.section, *own) if (s := fn(ctx)) is not None]
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
            only: set[str] | None = None) -> None:
    """Writes <stem>.md and <stem>.html into `out` and prints the tables (or those in `only`)."""
    (out / f"{stem}.md").write_text(render.markdown(title, sections, out), encoding="utf-8")
    (out / f"{stem}.html").write_text(render.html_page(title, sections), encoding="utf-8")
    render.print_tables(sections, console, only)
    console.print(f"{stem}: {out / f'{stem}.md'}  ·  {out / f'{stem}.html'}")


def write_report(runs: list[Path], out: Path | None = None,
                 console: Console | None = None, allow_partial: bool = False,
                 target: float | None = None, baseline: str | None = None) -> Path:
    """Gives the report folder after writing report.md, report.html and charts/*.png into it.

    Default folder: RUN/report/ of the first run. Prints the key tables (the first of each
    section) to `console`. Runs that are not whole are refused unless `allow_partial`; then the
    report opens with a warning, also printed first. `target` and `baseline`: see
    `build_sections`; bad ones are refused before anything is written.
    """
    console = console or Console()
    check_target(target)
    opened = runs_mod.open_runs([Path(p) for p in runs])
    game = runs_mod.game_named(opened[0].game)
    folder = Path(out) if out is not None else Path(opened[0].path) / "report"
    report_context(opened, game, folder / "charts", target, baseline)  # refuses bad input first
    out = _writable(folder)
    sections = build_sections(opened, out / "charts", allow_partial, target, baseline)
    if sections and sections[0].title == PARTIAL:
        console.print(f"{PARTIAL}: {sections[0].text}", style="bold red", markup=False)
    title = f"{getattr(game, 'title', opened[0].game)} balance report"
    # the provenance is for the files: a terminal gets the findings
    publish(out, "report", title, sections, console,
            only={s.tables[0].title for s in sections if s.tables and s.title != "Provenance"})
    return out
