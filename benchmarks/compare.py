"""The regression gate: each game's engine speed here against a revision, side by side.

    python -m benchmarks.compare REV [--rounds 9] [--max-rounds 25] [--seconds 1] [--game NAME ...]

plays, for every game, its `random` and `default` bots in every seat and one `search` seat
among `default` bots, at the working tree and at REV (checked out in a git worktree of its own
under the temporary folder, kept for the next comparison with its own numba cache), and
prints games per CPU-second of both and their ratio per row. It exits 1 when a row is shown
more than --threshold (5%) slower here, 0 otherwise (2 on bad input). `--dose 0.1` makes the
working tree's player burn a tenth more CPU in every timing: the gate's own check.

Why it can be trusted on a shared machine: the time is CPU time of the process that plays
(time.process_time), never wall-clock time; each side runs in a process of its own, started
once, its engines compiled or loaded and warmed before any timing; the two sides take turns,
round by round, on the same seeded games (the order flipping every round, so that a change of
load in between falls on both alike); a round's ratio is that of two rates timed next to each
other; and a row fails only when the 95% confidence interval of the median of those ratios (the
sign test's, distribution-free) lies wholly below 1 - threshold. A row whose interval straddles
it plays more rounds, up to --max-rounds. docs/development.md#the-regression-gate.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from scipy.stats import quantile_test

from benchmarks.common import PLAYERS, SEED

ROOT = Path(__file__).resolve().parents[1]
PLAYER = Path(__file__).with_name("player.py")
PROBE_GAMES = {"search": 2, "other": 20}
"""Games played once to size a round (a search seat's games are a hundred times slower)."""
CONFIDENCE = 0.95
"""The confidence of a row's interval: a row fails when the whole interval is too slow."""


class Player:
    """A player process (benchmarks/player.py) over the copy of the project at `root`."""

    def __init__(self, label: str, root: Path, env: dict[str, str], dose: float = 0.0):
        self.label = label
        self.dose = dose
        self.process = subprocess.Popen(
            [sys.executable, str(PLAYER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, cwd=root, env={**os.environ, **env, "PYTHONPATH": str(root)})
        hello = self._answer()
        if Path(hello["sim"]) != root.resolve() / "sim":
            raise SystemExit(f"compare: {label} imported sim from {hello['sim']}, not {root}")
        self.games = hello["games"]
        self.strategies = hello["strategies"]

    def _answer(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"compare: the {self.label} player process ended "
                             f"(exit code {self.process.wait()})")
        return json.loads(line)

    def play(self, game: str, seats: tuple[str, ...], games: int) -> tuple[float, str]:
        """Gives the CPU seconds games [0, games) of a configuration took, and their hash."""
        self.process.stdin.write(json.dumps({"game": game, "seats": list(seats), "games": games,
                                             "seed": SEED, "dose": self.dose}) + "\n")
        self.process.stdin.flush()
        answer = self._answer()
        return answer["cpu"], answer["hash"]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.write("\n")
            self.process.stdin.flush()
            self.process.wait()


@dataclass
class Row:
    """One configuration's timings: CPU seconds per round, here and at the revision."""

    game: str
    seats: tuple[str, ...]
    games: int = 0
    here: list[float] = field(default_factory=list)
    there: list[float] = field(default_factory=list)
    same_tables: bool = True
    load: float = 0.0

    @property
    def name(self) -> str:
        kinds = sorted(set(self.seats), key=self.seats.index)
        bots = kinds[0] if len(kinds) == 1 else f"one {kinds[0]} seat, {kinds[1]}"
        return f"{self.game} {len(self.seats)}p {bots}"

    def rate(self, times: list[float]) -> float:
        """Gives the median rate of the rounds, in games per CPU-second."""
        return statistics.median(self.games / t for t in times)

    def ratios(self) -> list[float]:
        """Gives each round's rate here over the rate there (timed next to each other)."""
        return [there / here for here, there in zip(self.here, self.there)]

    def ratio(self) -> float:
        return statistics.median(self.ratios())

    def interval(self) -> tuple[float, float]:
        """Gives the CONFIDENCE interval of the median ratio (the sign test's: order statistics
        of the rounds' ratios, whatever their spread); (nan, nan) under 6 rounds, too few."""
        found = quantile_test(self.ratios(), p=0.5).confidence_interval(CONFIDENCE)
        return float(found.low), float(found.high)

    def verdict(self, threshold: float) -> str:
        """Gives "slower" when the whole interval lies below 1 - threshold, "not slower" when
        it lies wholly at or above it, "undecided" when it straddles it (or is unknown)."""
        low, high = self.interval()
        if high < 1 - threshold:
            return "slower"
        return "not slower" if low >= 1 - threshold else "undecided"


BOTS = ("random", "default", "search")


def configurations(here: Player, there: Player, chosen: list[str], bots: list[str]) -> list[Row]:
    """Gives the rows timed: for each game both sides know (or those chosen), `random` and
    `default` in every seat, and one `search` seat among `default` bots where both have it
    (of these, the `bots` asked for)."""
    rows = []
    for game, players in PLAYERS.items():
        if game not in here.games or game not in there.games or (chosen and game not in chosen):
            continue
        rows += [Row(game, (bot,) * players) for bot in ("random", "default") if bot in bots]
        if "search" in bots and all("search" in side.strategies[game] for side in (here, there)):
            rows.append(Row(game, ("search",) + ("default",) * (players - 1)))
    return rows


def time_row(row: Row, here: Player, there: Player, rounds: int, seconds: float,
             threshold: float, max_rounds: int) -> None:
    """Warms both sides, sizes a round to about `seconds` CPU-seconds here, and times the
    rounds, the two sides taking turns (the first flipping every round): `rounds`, then more
    while the row is undecided, up to `max_rounds`."""
    for side in (here, there):
        side.play(row.game, row.seats, 1)  # compiles or loads the engine
    probe = PROBE_GAMES["search" if "search" in row.seats else "other"]
    games = probe
    cpu, _ = here.play(row.game, row.seats, games)
    # a few fast games take too little time to size a round from: a call's own cost (making
    # the tables) swamps theirs, and the rounds came out 0.02 CPU-s for Speed
    while cpu < seconds / 4:
        games *= 4
        cpu, _ = here.play(row.game, row.seats, games)
    row.games = max(probe, round(games * seconds / cpu))
    hashes = set()
    r = 0
    while r < rounds or (r < max_rounds and row.verdict(threshold) == "undecided"):
        for side in ((here, there) if r % 2 == 0 else (there, here)):
            cpu, digest = side.play(row.game, row.seats, row.games)
            (row.here if side is here else row.there).append(cpu)
            hashes.add((side.label, digest))
        r += 1
    row.same_tables = len({digest for _, digest in hashes}) == 1
    row.load = os.getloadavg()[0]


def worktree(rev: str) -> Path:
    """Gives a git worktree of `rev` (made under the temporary folder unless one is there)."""
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                            f"{rev}^{{commit}}"], capture_output=True, text=True)
    if found.returncode != 0:
        print(f"compare: {rev!r} is not a revision of {ROOT}", file=sys.stderr)
        raise SystemExit(2)
    commit = found.stdout.strip()
    path = Path(tempfile.gettempdir()) / "tabletop-balance-compare" / commit
    if not (path / "sim").is_dir():
        made = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--quiet", "--detach",
                               str(path), commit], capture_output=True, text=True)
        if made.returncode != 0:
            print(f"compare: cannot check out {rev} into {path}: {made.stderr.strip()}",
                  file=sys.stderr)
            raise SystemExit(2)
    return path


def slower_rows(rows: list[Row], threshold: float) -> list[Row]:
    """Gives the rows shown more than `threshold` slower here (their whole interval below)."""
    return [row for row in rows if row.verdict(threshold) == "slower"]


def table(rows: list[Row], rev: str, threshold: float) -> str:
    """Gives the rows as a Markdown table."""
    lines = [f"| configuration | games a round | rounds | here, games/CPU-s | {rev}, games/CPU-s "
             f"| ratio [{CONFIDENCE:.0%} CI] (rounds' range) | verdict | same tables | load |",
             "|---|---:|---:|---:|---:|---:|---|---|---:|"]
    for row in rows:
        ratios = row.ratios()
        low, high = row.interval()
        lines.append(f"| {row.name} | {row.games:,} | {len(ratios)} | {row.rate(row.here):,.1f} | "
                     f"{row.rate(row.there):,.1f} | {row.ratio():.3f} [{low:.3f}–{high:.3f}] "
                     f"({min(ratios):.2f}–{max(ratios):.2f}) | {row.verdict(threshold)} | "
                     f"{'yes' if row.same_tables else 'no'} | {row.load:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the revision to compare the working tree with")
    parser.add_argument("--rounds", type=int, default=9,
                        help="rounds per side and row, at least (9; 6 at the least)")
    parser.add_argument("--max-rounds", type=int, default=25,
                        help="rounds an undecided row may take, at most (25)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU-seconds a round plays, about (1)")
    parser.add_argument("--threshold", type=float, default=0.05,
                        help="the slowdown that fails (0.05: 5%%)")
    parser.add_argument("--dose", type=float, default=0.0,
                        help="extra CPU the working tree burns per timing, as a fraction of "
                             "it (0.1: a deliberate 10%% slowdown, to see the gate fail)")
    parser.add_argument("--game", action="append", default=[], help="time only this game")
    parser.add_argument("--bots", default=",".join(BOTS),
                        help="the rows: random, default, search (one search seat), "
                             "comma-separated (all three)")
    args = parser.parse_args(argv)
    if (args.rounds < 6 or args.max_rounds < args.rounds or args.seconds <= 0
            or not 0 < args.threshold < 1 or args.dose < 0):
        print("compare: --rounds must be at least 6 (fewer give no 95% interval), --max-rounds "
              "at least --rounds, --seconds above 0, --threshold within (0, 1), --dose at "
              "least 0", file=sys.stderr)
        return 2
    bots = args.bots.split(",")
    if not set(bots) <= set(BOTS):
        print(f"compare: --bots takes {', '.join(BOTS)}", file=sys.stderr)
        return 2
    unknown = set(args.game) - set(PLAYERS)
    if unknown:
        print(f"compare: unknown game {sorted(unknown)[0]!r}; known: {', '.join(PLAYERS)}",
              file=sys.stderr)
        return 2
    base = worktree(args.rev)
    here = Player("working tree", ROOT, {}, args.dose)
    there = Player(args.rev, base, {"NUMBA_CACHE_DIR": str(base / ".numba-cache")})
    try:
        rows = configurations(here, there, args.game, bots)
        for row in rows:
            print(f"timing {row.name}", file=sys.stderr, flush=True)
            time_row(row, here, there, args.rounds, args.seconds, args.threshold,
                     args.max_rounds)
            print(table([row], args.rev, args.threshold).splitlines()[-1], file=sys.stderr,
                  flush=True)
    finally:
        here.close()
        there.close()
    dosed = f", dosed with {args.dose:.0%} extra CPU" if args.dose else ""
    print(f"Working tree ({ROOT}{dosed}) against {args.rev} ({base.name[:7]}): "
          f"{args.rounds} to {args.max_rounds} interleaved rounds, CPU time; ratio = the median "
          f"of each round's rate here over the rate there, with its {CONFIDENCE:.0%} confidence "
          f"interval (sign test).\n")
    print(table(rows, args.rev, args.threshold))
    slower = slower_rows(rows, args.threshold)
    for row in slower:
        print(f"\nSLOWER: {row.name}: {row.ratio():.3f} of {args.rev}'s rate, its interval "
              f"wholly more than {args.threshold:.0%} slower")
    undecided = [row.name for row in rows if row.verdict(args.threshold) == "undecided"]
    if undecided:
        print(f"\nUndecided after {args.max_rounds} rounds (the interval straddles "
              f"{1 - args.threshold:.2f}; not shown slower): {', '.join(undecided)}. Run again "
              f"at a quieter hour or with more --max-rounds.")
    if not slower:
        print(f"\nNo row shown more than {args.threshold:.0%} slower than {args.rev}.")
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
