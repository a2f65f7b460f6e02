"""The response chart of `simulate balance`: with two keys at a player count, every setting of
the grid, one line per value of the second key (not the best setting per value of the first)."""

import pytest

from reports import balance_chart
from sim.studies import balance


def _measure(rate: float, games: int = 400) -> balance.Measure:
    m = balance.Measure()
    wins = round(rate * games)
    m.add(games, wins, games, (wins, games, wins), 0.0)
    return m


@pytest.fixture
def figures(monkeypatch):
    """Gives the figures the chart draws, kept open."""
    kept = []
    monkeypatch.setattr(balance_chart.plt, "close", kept.append)
    return kept


def _result(rates: dict[tuple, float], keys: dict[str, tuple], best: tuple, skipped=()):
    owners = {k: 7 for k in keys}
    problem = balance.Problem((7,), keys, {k: k for k in keys}, owners, {},
                              {c: "cannot" for c in skipped})
    found = {c: {7: _measure(r)} for c, r in rates.items()}
    answer = balance.Answer(7, best, 0.5, _measure(rates[best]), None)
    return balance.Result([answer], [(problem, found, best)], [1], 2, {(7,): "full scan"}, None,
                          balance.Bots("default"))


def test_two_keys_draw_every_setting_one_line_per_value_of_the_second(tmp_path, figures):
    keys = {"miner_cards.7": (4, 5, 6), "saboteur_cards.7": (2, 3)}
    rates = {(("miner_cards.7", m), ("saboteur_cards.7", s)): r for (m, s), r in {
        (5, 2): 0.80, (6, 2): 0.88, (4, 3): 0.21, (5, 3): 0.49, (6, 3): 0.61}.items()}
    best = (("miner_cards.7", 5), ("saboteur_cards.7", 3))
    skipped = [(("miner_cards.7", 4), ("saboteur_cards.7", 2))]
    balance_chart.response_chart(tmp_path / "r.png", _result(rates, keys, best, skipped),
                                 "miners' win rate")
    (ax,) = figures[0].axes
    drawn = {line.get_label(): list(line.get_ydata()) for line in ax.get_lines()
             if not line.get_label().startswith("_")}
    # the best per value of miner_cards.7 would be one line 0.80 (4: none), 0.49, 0.61
    assert drawn == {"2": [0.80, 0.88], "3": [0.21, 0.49, 0.61]}
    assert ax.get_xlabel() == "miner_cards.7"
    assert ax.get_legend().get_title().get_text() == "saboteur_cards.7"
    caption = figures[0].texts[-1].get_text().replace("\n", " ")
    assert "Played by default." in caption and "cannot play has no point" in caption
    assert (tmp_path / "r.png").stat().st_size > 10_000


def test_one_key_draws_a_line_per_player_count(tmp_path, figures):
    keys = {"miner_cards.7": (4, 5, 6)}
    rates = {(("miner_cards.7", m),): r for m, r in ((4, 0.3), (5, 0.5), (6, 0.6))}
    best = (("miner_cards.7", 5),)
    balance_chart.response_chart(tmp_path / "r.png", _result(rates, keys, best),
                                 "miners' win rate")
    (ax,) = figures[0].axes
    drawn = {line.get_label(): list(line.get_ydata()) for line in ax.get_lines()
             if not line.get_label().startswith("_")}
    assert drawn == {"7p": [0.3, 0.5, 0.6]}
