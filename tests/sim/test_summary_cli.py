"""`simulate <game>` ends with a summary that states the target and the verdict, names every rule
a configuration changes, and fits 80, 100 and 120 columns without wrapping or cutting a cell."""

import io
import re

import pytest
from rich.console import Console

from reports.summary import print_summary
from sim.run.store import Run

# per game: players, a swept rule and a rule set once (the label names both)
RUNS = {
    "saboteur": ("7", "hand_size.7=4,5,6", "rounds=2"),
    "sequence-stacks": ("3", "hand_size=4,6", "deck.wilds=5"),
    "spit": ("2", "layout.stock_piles=4,5", "options.alternating_colours=true"),
    "speed": ("2", "deal.hand=4,5", "deal.cards_each=14"),
    "deep-space": ("2", "hand_size=2,3", "start_recruits=4"),
}
WIDTHS = (80, 100, 120)


def real_games(patch: pytest.MonkeyPatch) -> None:
    """Reads the real games (tests/reports' fakes, once patched in under xdist, stay for the
    session)."""
    from reports import runs
    from sim import games

    patch.setattr(runs, "game_named", games.get)


@pytest.fixture(autouse=True)
def _real_games(monkeypatch):
    real_games(monkeypatch)


@pytest.fixture(scope="module", params=sorted(RUNS))
def played(request, tmp_path_factory):
    """Plays a small sweep of each game through the CLI, piped at 80 columns: (game, its
    printed summary, the run folder)."""
    from sim import cli

    game = request.param
    players, sweep, single = RUNS[game]
    folder = tmp_path_factory.mktemp(game) / "run"
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        real_games(patch)
        patch.setenv("COLUMNS", "80")
        patch.setattr("sys.stdout", out)
        patch.setattr("sys.argv", ["simulate", game, "--players", players, "--set", sweep,
                                   "--set", single, "--games", "4", "--seed", "3",
                                   "--workers", "1", "--out", str(folder), "--quiet"])
        with pytest.raises(SystemExit) as exit:
            cli.main()
    assert not exit.value.code
    return game, out.getvalue(), folder


def summary_at(folder, width: int) -> str:
    console = Console(file=io.StringIO(), width=width, record=True)
    print_summary(Run.open(folder), console)
    return console.export_text()


@pytest.mark.parametrize("width", WIDTHS)
def test_every_summary_fits_its_width_and_splits_no_label(played, width):
    game, piped, folder = played
    text = piped if width == 80 else summary_at(folder, width)
    assert max(map(len, text.splitlines())) <= width
    assert "…" not in text
    players, sweep, single = RUNS[game]
    key, values = sweep.split("=")
    for value in values.split(","):
        # every configuration's label, naming the single --set too, with no word of it split
        # (a label longer than the line wraps between its words: Spit's, at 80 columns)
        rules = " ".join(sorted([f"{key}={value}", single]))
        assert re.search(rf"\b{players}p (\S+ )*?{re.escape(rules)} default\b",
                         " ".join(text.replace("│", " ").split())), text
        words = text.split()
        assert f"{key}={value}" in words and single in words


def test_every_summary_states_the_target_and_a_verdict_per_configuration(played):
    game, text, _ = played
    configurations = len(RUNS[game][1].split(",")) if game != "saboteur" else 3
    verdicts = re.findall(r"(favours .+ by [\d.]+ points \[[\d.]+, [\d.]+\]|balanced within ±2 "
                          r"points|not distinguishable from balanced at this sample size)", text)
    assert len(verdicts) == configurations, text
    players = int(RUNS[game][0])
    target = "50.0%" if game == "saboteur" else f"{100 / players:.1f}%"  # a fair share
    assert re.search(rf"target:\s+{re.escape(target)}$", text, re.M), text
    for note in ("verdict: balanced if the 95% CI lies within ±2 points of the target",
                 "stalled: games stopped unfinished", "tied seats all win"):
        assert note in text
