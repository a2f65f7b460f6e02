"""The examples of the docs, run: every ```python block and `>>>` session of docs/ and README.md
executes, and every `$ simulate ...` block's output is the output the command gives today.

A page's examples run in order in one folder (a block's run folder serves the next block's
report) and its Python in one namespace. An example is skipped only under a marker on the line
before its fence, which says why and shows on the page's source:

    <!-- example: slow (20,000 games of 6 variants: a minute) -->     run only with --all
    <!-- example: not run (its output holds timings) -->              never run

Refresh the outputs in place after a change of the code's output (the tests then pass):

    python -m tests.docs_examples --update              # the examples the tests run
    python -m tests.docs_examples --update --all        # also those marked slow
    python -m tests.docs_examples --update docs/reports.md

Without --update it says which examples differ. Commands run at 100 columns, or as wide as the
widest line the page shows of their output. Outputs are compared line by line with trailing
spaces dropped and the page's folder written as `.`. A line `…` (or `...`) of its own leaves
out real lines: the lines after it are found from the first of them (or, at the end, are the
last lines), and a refresh keeps the page's cuts. A command shown with no output is run for
what it writes (a run folder the next command reads): it must succeed, its output is not
compared.
"""

from __future__ import annotations

import argparse
import contextlib
import doctest
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 100  # the terminal width outputs are shown at (wider where a page shows wider lines)
MARKER = re.compile(r"<!-- example: (slow|not run) \((.+)\) -->")
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")


@dataclass
class Command:
    """One `$ ...` line (with its continuation lines) and the output shown after it."""
    text: str  # as a shell reads it
    shown: list[str]  # the output lines shown on the page
    first: int  # the index of the output's first line in the page's lines


@dataclass
class Example:
    """One fenced block of a page that is an example: python, a `>>>` session or `$` commands."""
    page: Path
    line: int  # 1-based line of the opening fence
    kind: str  # "python", "session" or "shell"
    body: list[str]
    skip: tuple[str, str] | None  # ("slow" or "not run", reason)
    commands: list[Command] = field(default_factory=list)

    @property
    def name(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}"


def pages() -> list[Path]:
    """Gives README.md and every page of docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def examples(page: Path) -> list[Example]:
    """Gives a page's examples in order."""
    lines = page.read_text().splitlines()
    found, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
        indent = len(opening[1])
        body = [line[indent:] for line in lines[i + 1:end]]
        marker = MARKER.search(lines[i - 1]) if i else None
        skip = (marker[1], marker[2]) if marker else None
        kind = ("python" if opening[2] == "python" else
                "session" if body and body[0].startswith(">>> ") else
                "shell" if body and body[0].startswith("$ simulate") else None)
        if kind:
            example = Example(page, i + 1, kind, body, skip)
            if kind == "shell":
                example.commands = _commands(body, i + 1)
            found.append(example)
        i = end + 1
    return found


def _commands(body: list[str], offset: int) -> list[Command]:
    commands, j = [], 0
    while j < len(body):
        text = body[j][2:]
        while text.endswith("\\"):
            j += 1
            text = text[:-1] + body[j].strip()
        j += 1
        first = j
        while j < len(body) and not body[j].startswith("$ "):
            j += 1
        commands.append(Command(text, body[first:j], offset + first))
    return commands


def environment(width: int = WIDTH) -> dict[str, str]:
    """Gives the environment the examples run in: this checkout's code, a terminal `width`
    wide."""
    env = dict(os.environ, COLUMNS=str(width), LINES="50", PYTHONPATH=str(ROOT),
               POLARS_TABLE_WIDTH=str(width), NO_COLOR="1", TERM="dumb")
    env.pop("FORCE_TERMINAL", None)
    return env


def run_command(command: Command, folder: Path) -> tuple[int, list[str]]:
    """Gives the exit code of a `$` line and what it prints (stdout and stderr, in order),
    `simulate` being this checkout's: in this process when it is `simulate ARGS` (a `> FILE`
    after it or not), which spares a start of Python and a load of the engines per command;
    else through bash."""
    width = max([WIDTH, *(len(line.rstrip()) for line in command.shown)])
    words = shlex.split(command.text)
    into = None
    if len(words) > 2 and words[-2] == ">":
        words, into = words[:-2], words[-1]
    if words[0] == "simulate" and not set(words) & {"|", ">", ";", "&&", "<"}:
        with _environ(environment(width)):
            code, text = _simulate(words[1:], folder / into if into else None)
    else:
        script = (f"simulate() {{ {shlex.quote(sys.executable)} -m sim.cli \"$@\"; }}\n"
                  f"{command.text}\n")
        done = subprocess.run(["bash", "-c", script], cwd=folder, env=environment(width),
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=900)
        code, text = done.returncode, done.stdout
    return code, normalise(text.replace(str(folder), "."))


@contextlib.contextmanager
def _environ(env: dict[str, str]):
    """Sets this process's environment to `env` for a while."""
    kept = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(kept)


def _simulate(args: list[str], into: Path | None) -> tuple[int, str]:
    """Gives the exit code of `simulate ARGS`, run in this process, and what it prints (its
    stdout into a file instead, if given)."""
    from sim import cli

    shown = io.StringIO()
    out = open(into, "w") if into else shown
    argv, code = sys.argv, 0
    sys.argv = ["simulate", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(shown):
            cli.main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        sys.argv = argv
        if into:
            out.close()
    return code, shown.getvalue()


def normalise(text: str) -> list[str]:
    """Gives output lines as compared: trailing spaces and trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


CUTS = ("...", "…")  # a line of its own where the page leaves out output lines


def fit(shown: list[str], real: list[str]) -> list[str] | None:
    """Gives the real output in the shape the page shows it: each run of shown lines between
    cuts is replaced by as many real lines, from the start (the first run), up to the end (the
    last run after a cut) or from the real line equal to its first line (a run between cuts);
    None when that line is not in the real output."""
    want = normalise("\n".join(shown))
    pieces: list[list[str] | str] = []
    for line in want:
        if line in CUTS:
            pieces.append(line)
        elif pieces and isinstance(pieces[-1], list):
            pieces[-1].append(line)
        else:
            pieces.append([line])
    out, at = [], 0
    for k, piece in enumerate(pieces):
        if isinstance(piece, str):
            out.append(piece)
            continue
        after_cut, last = k > 0, k == len(pieces) - 1
        if not after_cut:
            start = 0
        elif last:
            start = max(at, len(real) - len(piece))
        else:
            start = next((i for i in range(at, len(real)) if real[i] == piece[0]), None)
            if start is None:
                return None
        stop = len(real) if last and not after_cut else start + len(piece)
        out += real[start:stop]
        at = stop
    return out if pieces else real


def runs(page: Path, slow: bool = False) -> bool:
    """Tells whether a page has an example to run (with `slow`, those marked slow count)."""
    return any(not e.skip or (slow and e.skip[0] == "slow") for e in examples(page))


def run_page(page: Path, folder: Path, slow: bool, on_command=None) -> list[str]:
    """Runs a page's examples in `folder`, in order; gives what failed (one message each).
    `on_command(command, real)` sees each command's real output lines."""
    failures, namespace = [], {"__name__": "__docs__"}
    previous = Path.cwd()
    os.chdir(folder)
    try:
        for example in examples(page):
            if example.skip and (example.skip[0] == "not run" or not slow):
                continue
            if example.kind == "python":
                try:
                    with _environ(environment()):
                        exec(compile("\n".join(example.body), example.name, "exec"), namespace)
                except Exception as e:  # the page's code failed as written
                    failures.append(f"{example.name}: {type(e).__name__}: {e}")
            elif example.kind == "session":
                with _environ(environment()):
                    failures += _session(example, namespace)
            else:
                for command in example.commands:
                    code, real = run_command(command, folder)
                    if on_command:
                        on_command(command, real)
                    if not command.shown and code:  # run for its run folder: it must make it
                        failures.append(f"{example.name}: `{command.text}` failed (exit code "
                                        f"{code}):\n" + "\n".join(real[-20:]))
                    elif command.shown and (fit(command.shown, real)
                                            != normalise("\n".join(command.shown))):
                        failures.append(f"{example.name}: `{command.text}` printed\n"
                                        + "\n".join(real[:60]))
    finally:
        os.chdir(previous)
    return failures


def _session(example: Example, namespace: dict) -> list[str]:
    """Runs a `>>>` session as doctest does; gives its failures."""
    parser, out = doctest.DocTestParser(), []
    test = parser.get_doctest("\n".join(example.body) + "\n", namespace, example.name,
                              str(example.page), example.line)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=out.append, clear_globs=False)
    return [f"{example.name}: " + "".join(out)] if runner.failures else []


def update(page: Path, slow: bool) -> int:
    """Rewrites the shown output of a page's `$` commands with their real output; gives how
    many changed."""
    lines = page.read_text().splitlines()
    edits: list[tuple[Command, list[str]]] = []

    def keep(command: Command, real: list[str]) -> None:
        if not command.shown:
            return  # run for what it writes (a run folder), its output not shown
        new = fit(command.shown, real)
        if new is None:
            print(f"{page}:{command.first}: `{command.text}` no longer prints "
                  "the line after a cut: refresh it by hand", file=sys.stderr)
        elif new != normalise("\n".join(command.shown)):
            edits.append((command, new))

    with tempfile.TemporaryDirectory() as folder:
        for failure in run_page(page, Path(folder), slow, keep):
            if "` printed\n" not in failure:
                print(failure, file=sys.stderr)
    for command, new in sorted(edits, key=lambda e: -e[0].first):
        start = command.first
        shown = len(command.shown)
        while shown and not command.shown[shown - 1].strip():
            shown -= 1  # a blank line before the next `$` stays
        indent = re.match(r"\s*", lines[start - 1] if start else "")[0]
        lines[start:start + shown] = [indent + line if line else line for line in new]
    if edits:
        page.write_text("\n".join(lines) + "\n")
    return len(edits)


def built_in_games_only() -> None:
    """Forgets the games installed from elsewhere (a plugin a developer tried): the pages show
    the games the project ships, as the tests do (tests/conftest.py)."""
    from sim import games

    for name in [n for n, target in games.GAMES.items() if not target.startswith("sim.games.")]:
        del games.GAMES[name]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.docs_examples", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pages", nargs="*", type=Path, help="pages (default: all)")
    parser.add_argument("--update", action="store_true", help="rewrite the shown outputs")
    parser.add_argument("--all", action="store_true", help="also the examples marked slow")
    parser.add_argument("--results", type=Path, help="write each page's failures to this JSON file")
    args = parser.parse_args(argv)
    built_in_games_only()
    chosen = [p.resolve() for p in args.pages] or pages()
    failed, results = 0, {}
    for page in chosen:
        if not runs(page, args.all):
            continue
        if args.update:
            changed = update(page, args.all)
            print(f"{page.relative_to(ROOT)}: {changed} output(s) rewritten")
        else:
            with tempfile.TemporaryDirectory() as folder:
                failures = run_page(page, Path(folder), args.all)
            failed += len(failures)
            results[page.relative_to(ROOT).as_posix()] = failures
            for failure in failures:
                print(failure, end="\n\n")
            print(f"{page.relative_to(ROOT)}: {'ok' if not failures else 'differs'}")
    if args.results:
        args.results.write_text(json.dumps(results))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
