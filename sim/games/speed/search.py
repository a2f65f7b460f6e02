"""Speed's pieces of the search family (sim/search.py), registered for its State: the real-time
games' shared ones (sim/games/spit/rollout.py: the candidates, the rollout, the scratch) and Speed's
own. A rollout stopped at the horizon is scored by the cards each seat still holds; one that
reaches the end of the hand, by the game's result, or the seat's lead in points where the game
is played to a target score.
"""

from sim.jit import rule, small_rule
from sim.games.speed import sampler
from sim.games.speed.cards import TARGET
from sim.games.speed.engine import cards_held
from sim.games.speed.state import OVER, WINNER, State
from sim.games.spit import rollout
from sim.games.spit.rollout import candidates, resample  # shared with Spit

__all__ = ["candidates", "play_out", "resample", "saved"]


@small_rule
def saved(s):
    """Gives the arrays a rollout changes (the clock's among them): all but the rule-fixed and
    the scratch ones."""
    return (s.g, s.hand, s.draw, s.draw_n, s.side, s.side_n, s.centre, s.centre_n, s.score,
            s.played, s.idle, s.deck, s.deal_rng, s.bot_rng, s.clock_now, s.clock_due,
            s.clock_pending, s.clock_plan, s.clock_time_rng, s.clock_coin_rng)


@rule
def play_out(s, rs, seat, move, params, r):
    """Plans `move` for `seat` and plays on to the horizon or the end of the hand; gives the
    seat's score (sim/games/spit/rollout.py)."""
    if rollout.play_on(s, rs, seat, move, params, r):  # the hand goes on
        mine, theirs = cards_held(s, seat), cards_held(s, 1 - seat)
        return rollout.result(False, -1, seat, theirs - mine, theirs + mine)
    lead = s.score[seat] - s.score[1 - seat]
    return rollout.result(s.g[OVER], s.g[WINNER], seat, lead, rs.numbers[TARGET])


rollout.register(State, sampler=sampler, saved=saved, play_out=play_out)
