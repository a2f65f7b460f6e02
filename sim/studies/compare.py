"""Planning a paired strategy comparison: which strategy sits in which seat, configuration by
configuration, so that every strategy meets the others on the same deals."""

from __future__ import annotations

from itertools import combinations

from sim.errors import UserError
from sim.game import Setup
from sim.run.setups import role_setup
from strategies.seats import canonical, is_python, parse


def plan(game, strategies: list[str], players: int, options: dict,
         rules: dict | None = None, roles: dict[str, str] | None = None) -> list[Setup]:
    """Gives the seat assignments (one Setup each) of a paired comparison.

    roles ({role: strategy}, --role-strategy): those roles play their strategy whichever seat
    holds them, and the strategies compared play the roles left open (e.g. saboteur=default:
    miners' strategies compared against default saboteurs).

    Pairing: the runner plays the same game indices 0..G-1 for every Setup, and a game's deal
    depends only on (seed, game index, players, options), so every assignment is played on the
    same deals; only who sits where changes.

    Seating (what this plan chose): take every group of m = min(k, players) of the k strategies
    (all of them when they fit at the table, every pair for two-player games); for each group
    seat it as the repeating pattern g[0], g[1], ..., g[m-1], g[0], ... and add its m cyclic
    shifts (seat i gets g[(i + c) % m] for c in 0..m-1). Within each group every strategy then
    sits in every seat exactly once, so over the plan each strategy sits in every seat equally
    often, every pair of strategies meets, and seat advantage cancels out.
    E.g. 2 strategies, 3 players: (a, b, a), (b, a, b); 3 strategies, 2 players: (a, b), (b, a),
    (a, c), (c, a), (b, c), (c, b).

    A strategy may be a preset of `rules` (--strategies-file), a Python bot, or restricted
    (`default-no-rockfall`, strategies/seats.py): comparing `default,default-no-rockfall` measures
    what a card is worth to that bot.
    """
    strategies = [s.strip() for s in strategies if s.strip()]
    if len(strategies) < 2:
        raise UserError("compare needs at least two strategies, e.g. --strategies a,b")
    doubles = sorted({s for s in strategies if strategies.count(s) > 1})
    if doubles:
        raise UserError(f"strategy given twice: {', '.join(doubles)}")
    strategies = [canonical(game, s, rules) for s in strategies]
    fixed = role_setup(game, roles or {}, None, rules)
    if fixed and all(name for _, name in fixed):
        raise UserError("--role-strategy names every role: leave a role open to the strategies "
                        "compared")
    if fixed and any(is_python(parse(s).base) for s in strategies):
        raise UserError("with --role-strategy, compare built-in strategies or presets: a Python "
                        "bot plays by seat, not by role")
    if not game.min_players <= players <= game.max_players:
        raise UserError(f"{game.name} plays with {game.min_players}–{game.max_players} players, "
                        f"not {players}")
    opts = tuple(sorted(options.items()))
    m = min(len(strategies), players)
    setups = []
    for group in combinations(strategies, m):
        for shift in range(m):
            seats = tuple(group[(i + shift) % m] for i in range(players))
            setups.append(Setup(players, seats, opts, roles=fixed))
    return setups


def pairwise(game, strategies: list[str], players: int, options: dict,
             rules: dict | None = None, roles: dict[str, str] | None = None) -> list[Setup]:
    """Gives the seat assignments of every pair of `strategies` head to head, alone at the
    table: `plan` of each pair in turn (a, b, a, b, ... and its rotation), so that each pair's
    games say how the one does against the other with no third strategy in them (the skill
    matrix of a ladder's rungs, the empirical game of a population)."""
    return [setup for pair in combinations(strategies, 2)
            for setup in plan(game, list(pair), players, options, rules, roles)]
