"""Spit's pieces of the search family (sim/search.py), registered for its State: the real-time
games' shared ones (sim/games/spit/rollout.py: the candidates, the rollout, the scratch) and Spit's
own. A rollout's score is the cards each seat holds: at the horizon, or at the deal's end once
the spit piles are taken (who went out first, and who took the smaller pile).
"""

from sim.jit import rule, small_rule
from sim.games.spit import engine, rollout, sampler
from sim.games.spit.rollout import candidates, resample  # shared with Speed
from sim.games.spit.state import OVER, WINNER, State

__all__ = ["candidates", "play_out", "resample", "saved"]


@small_rule
def saved(s):
    """Gives the arrays a rollout changes (the clock's among them): all but the rule-fixed and
    the scratch ones."""
    return (s.g, s.stock, s.stock_n, s.stock_up, s.spit, s.spit_n, s.centre, s.centre_n,
            s.starter, s.hold, s.hold_n, s.played, s.idle, s.deal_rng, s.bot_rng, s.clock_now,
            s.clock_due, s.clock_pending, s.clock_plan, s.clock_time_rng, s.clock_coin_rng)


@rule
def play_out(s, rs, seat, move, params, r):
    """Plans `move` for `seat` and plays on to the horizon or the end of the deal; gives the
    seat's score (sim/games/spit/rollout.py)."""
    rollout.play_on(s, rs, seat, move, params, r)
    mine, theirs = engine.cards_held(s, seat), engine.cards_held(s, 1 - seat)
    return rollout.result(s.g[OVER], s.g[WINNER], seat, theirs - mine, theirs + mine)


rollout.register(State, sampler=sampler, saved=saved, play_out=play_out)
