"""Per-game adapters of the hidden-information conformance test (test_hidden_information.py).

An adapter plays one game of its game through the game's Python driver with every decision of
every seat handed to a `Checker`, and says what one seat knows and does not know of a position.
A game's state is given as `parts`: the tuple of named tuples of arrays its sampler re-deals
(the state, and the clock of a real-time game).

A decision is a function decide(parts) -> a hashable value: it makes its decision on those
parts (the bot writes the move where the driver reads it) and gives what it decided.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from builtin_seats import played

from sim import games, rng
from sim.games.deep_space import engine as deep_space_engine
from sim.games.deep_space import play as deep_space_play
from sim.games.deep_space import state as deep_space_state
from sim.game import Setup
from sim.games.saboteur import engine as saboteur_engine
from sim.games.saboteur import play as saboteur_play
from sim.games.saboteur import state as saboteur_state
from sim.games.saboteur.cards import ROUNDS
from sim.games.sequence_stacks import engine as sequence_stacks_engine
from sim.games.sequence_stacks import play as sequence_stacks_play
from sim.games.sequence_stacks import state as sequence_stacks_state
from sim.games.speed import state as speed_state
from sim.games.spit import state as spit_state
from sim.games.deep_space import bots as deep_space_bots
from sim.games.saboteur import bots as saboteur_bots
from sim.games.sequence_stacks import bots as sequence_stacks_bots

SAMPLER_SEED = 19


class Prepared(NamedTuple):
    """What playing a configuration's games takes: the state objects (not started), the rule
    arrays, the seats' bot families and parameters, and the game's own arguments of play."""

    parts: tuple
    rs: object
    families: np.ndarray
    params: np.ndarray
    options: tuple = ()


def copy(parts: tuple) -> tuple:
    """Gives a copy of a game's state objects, every array copied."""
    return tuple(type(part)(*(a.copy() for a in part)) for part in parts)


def stream(decision: int, sample: int) -> np.ndarray:
    """Gives the sampler's stream for one re-deal of one decision."""
    r = np.zeros(1, np.uint64)
    rng.start(r, SAMPLER_SEED, decision, sample)
    return r


class Checker:
    """Decides for the driver, on the real state, and first decides the same way on `samples`
    copies of it whose hidden part the sampler re-dealt; records the decisions that differ.

    inspect(real parts, re-dealt parts, seat, redeal), if given, looks at each re-dealt copy;
    redeal() gives another copy re-dealt from the same stream."""

    def __init__(self, adapter: "Adapter", parts: tuple, rs, samples: int, inspect=None):
        self.adapter, self.parts, self.rs, self.samples = adapter, parts, rs, samples
        self.inspect = inspect
        self.decisions = 0
        self.differing: list[tuple[int, int, object, object]] = []  # decision, seat, real, sampled

    def __call__(self, seat: int, decide):
        """Gives decide(real parts), having compared it with decide on re-dealt copies."""
        sampled = []
        for k in range(self.samples):
            redealt = self.redeal(seat, k)
            if self.inspect:
                self.inspect(self.parts, redealt, seat, lambda k=k: self.redeal(seat, k))
            sampled.append(decide(redealt))
        real = decide(self.parts)
        for other in sampled:
            if other != real:
                self.differing.append((self.decisions, seat, real, other))
        self.decisions += 1
        return real

    def redeal(self, seat: int, sample: int) -> tuple:
        """Gives a copy of the real state, re-dealt for `seat` by this decision's sample."""
        redealt = copy(self.parts)
        self.adapter.resample(redealt, self.rs, seat, stream(self.decisions, sample))
        return redealt


def _sorted(*arrays) -> list[int]:
    return sorted(int(x) for a in arrays for x in np.ravel(a))


def _others(p: int, seat: int) -> list[int]:
    return [q for q in range(p) if q != seat]


def _next(parts, seat: int) -> int:
    """Gives the seat after `seat` (players: rows of the state's bot streams)."""
    streams = parts[0].bot_rng if hasattr(parts[0], "bot_rng") else parts[0].rngs[1:]
    return (seat + 1) % streams.shape[0]


def _top(pile: np.ndarray, at: int) -> int:
    """Gives the card a pile drawn from index `at` on gives next (the last card once empty)."""
    return int(pile[min(at, len(pile) - 1)])


def _bits(stream: np.ndarray) -> int:
    """Gives some of a random stream's bits (what its next draw depends on)."""
    return int(stream[0] >> np.uint64(40))


class Adapter:
    """What the hidden-information test needs of a game (one subclass per registered game)."""

    name: str
    players: int  # the player count its games are played with
    # Fields of the state that the sampler may change (everything else must stay as it is).
    redealt: tuple[str, ...]
    # Setup options the sampler is tried under (each a Setup.options tuple).
    option_cases: tuple = ((),)
    peeks: dict  # name -> peek(parts, seat) -> int: hidden things a cheat might read

    @property
    def game(self):
        return games.get(self.name)

    def strategies(self) -> list[str]:
        """Gives the built-in bot families and presets (of the search presets, the one the suite
        plays)."""
        return played(self.game)

    def prepare(self, rules, setup: Setup) -> Prepared:
        """Gives what playing a configuration's games takes."""
        raise NotImplementedError

    def play(self, table: Prepared, seed, game, check, decide_for):
        """Plays one game through the Python driver; every decision of a seat is
        check(seat, decide_for(seat, what)) where `what` names the decision ("move", or a
        game's own) and decide_for gives a decision function."""
        raise NotImplementedError

    def builtin(self, rs, families, params):
        """Gives decide_for(seat, what): the seat's built-in bot deciding."""
        raise NotImplementedError

    def peeking(self, rs, peek):
        """Gives decide_for(seat, what): a bot that plays the legal move numbered
        peek(parts, seat) modulo their count (what it peeks at picks its move)."""
        raise NotImplementedError

    def resample(self, parts, rs, seat, r):
        """Re-deals in place what `seat` cannot know, with the game's sampler."""
        self.game.sampler.resample(parts[0], rs, seat, r)

    def known(self, parts, seat) -> dict[str, object]:
        """Gives what `seat` knows of the redealt fields (public or its own)."""
        raise NotImplementedError

    def hidden(self, parts, seat) -> dict[str, object]:
        """Gives, by name, each thing `seat` cannot know (the sampler must re-deal each)."""
        raise NotImplementedError

    def hidden_cards(self, parts, seat) -> list[int]:
        """Gives the sorted multiset of the cards `seat` cannot see."""
        raise NotImplementedError


class TurnBasedHidden(Adapter):
    """A game whose driver asks one seat at a time for its move, written into s.move."""

    def choose(self, s, rs, seat, family, params):
        """Lets the built-in bot write `seat`'s move into s.move."""
        raise NotImplementedError

    def legal_moves(self, s, rs, seat) -> int:
        """Lists `seat`'s legal moves into s.moves; gives how many."""
        raise NotImplementedError

    def builtin(self, rs, families, params):
        def decide_for(seat, what):
            def decide(parts):
                s = parts[0]
                self.choose(s, rs, seat, families[seat], params[seat])
                return tuple(s.move.tolist())
            return decide
        return decide_for

    def peeking(self, rs, peek):
        def decide_for(seat, what):
            def decide(parts):
                s = parts[0]
                n = self.legal_moves(s, rs, seat)
                s.move[:] = s.moves[peek(parts, seat) % n]
                return tuple(s.move.tolist())
            return decide
        return decide_for


# ---- Saboteur ---------------------------------------------------------------------------------

class SaboteurHidden(TurnBasedHidden):
    name = "saboteur"
    players = 5
    redealt = ("g", "hand", "deck", "role", "goal_kind", "bot_rng", "gold_rng", "deal_rng",
               "scratch", "posterior")
    option_cases = ((), (("saboteurs", 1),))

    def prepare(self, rules, setup):
        rs, _, families, params, s, fixed = self.game.prepare(rules, setup)
        # By (role, seat); the setups here give every seat one strategy: both rows are alike.
        return Prepared((s,), rs, families[0], params[0], (fixed,))

    def play(self, table, seed, game, check, decide_for):
        s = table.parts[0]
        out = saboteur_play.new_results(1, self.players, int(table.rs.numbers[ROUNDS]))
        def player(seat, _round, n):
            # Saboteur's driver lists the seat's legal moves into s.moves[:n] and plays the
            # index it is given: the decision's move found among them (decide lists its own).
            listed = s.moves[:n].tolist()
            return listed.index(list(check(seat, decide_for(seat, "move"))))

        seats = {seat: player for seat in range(self.players)}
        saboteur_play.play_python(s, table.rs, np.array([table.families] * 2),
                                  np.array([table.params] * 2), seed, game,
                                  table.options[0], out, 0, seats)

    def choose(self, s, rs, seat, family, params):
        saboteur_bots.choose(s, rs, seat, family, params, s.move)

    def legal_moves(self, s, rs, seat):
        return saboteur_engine.legal_moves(s, rs, seat)

    peeks = {
        "another seat's hand": lambda parts, seat: int(parts[0].hand[_next(parts, seat), 0]),
        "the draw pile": lambda parts, seat: _top(parts[0].deck,
                                                  parts[0].g[saboteur_state.DRAW_AT]),
        "the order cards were dealt in": lambda parts, seat: int(parts[0].deck[0]),
        "another seat's role": lambda parts, seat: int(parts[0].role[_next(parts, seat)]),
        "the gold": lambda parts, seat: int(np.argmin(parts[0].goal_kind)),
        "another seat's bot stream": lambda parts, seat: _bits(
            parts[0].bot_rng[_next(parts, seat)]),
    }

    def known(self, parts, seat):
        s = parts[0]
        shown = s.goal_shown.astype(bool) | s.seen[seat].astype(bool)
        public_g = s.g.copy()
        public_g[saboteur_state.SEED] = 0
        if s.g[saboteur_state.FIXED_SABOTEURS] < 0:
            public_g[saboteur_state.SABOTEURS] = 0
        return {"g": public_g, "own hand": s.hand[seat].copy(), "own role": int(s.role[seat]),
                "goals it knows": s.goal_kind[shown].copy(),
                "own bot stream": int(s.bot_rng[seat, 0]), "empty hand slots": (s.hand < 0).copy()}

    def hidden(self, parts, seat):
        s = parts[0]
        others = _others(s.hand.shape[0], seat)
        unknown = ~(s.goal_shown.astype(bool) | s.seen[seat].astype(bool))
        hidden = {"other hands": s.hand[others].copy(),
                  "draw pile": s.deck[s.g[saboteur_state.DRAW_AT]:].copy(),
                  "other roles": s.role[others].copy(), "unseen goals": s.goal_kind[unknown].copy(),
                  "other bot streams": s.bot_rng[others].copy(), "gold stream": int(s.gold_rng[0]),
                  "deal stream": int(s.deal_rng[0]),
                  "later rounds' deals": int(s.g[saboteur_state.SEED])}
        if s.g[saboteur_state.FIXED_SABOTEURS] < 0:  # else the number of saboteurs is known
            hidden["saboteurs in play"] = int(s.g[saboteur_state.SABOTEURS])
        return hidden

    def hidden_cards(self, parts, seat):
        s = parts[0]
        hands = [s.hand[q, :s.hand_n[q]] for q in _others(s.hand.shape[0], seat)]
        return _sorted(s.deck[s.g[saboteur_state.DRAW_AT]:], *hands)


# ---- Sequence Stacks --------------------------------------------------------------------------

class SequenceStacksHidden(TurnBasedHidden):
    name = "sequence-stacks"
    players = 4
    redealt = ("m", "rngs")

    def prepare(self, rules, setup):
        rs, families, params, s = self.game.prepare(rules, setup)
        return Prepared((s,), rs, families, params)

    def play(self, table, seed, game, check, decide_for):
        out = sequence_stacks_play.new_results(1, self.players)
        seats = {seat: (lambda seat: check(seat, decide_for(seat, "move")))
                 for seat in range(self.players)}
        sequence_stacks_play.play_python(table.parts[0], table.rs, table.families, table.params,
                                         seed, game, out, 0, seats)

    def choose(self, s, rs, seat, family, params):
        sequence_stacks_bots.choose(s, rs, seat, family, params, s.move)

    def legal_moves(self, s, rs, seat):
        return sequence_stacks_engine.legal_moves(s.m, rs, s.moves, seat)

    @staticmethod
    def _v(parts):
        return sequence_stacks_state.views(parts[0])

    peeks = {
        "another seat's hand": lambda parts, seat: int(
            SequenceStacksHidden._v(parts).held[_next(parts, seat)]),
        "the draw pile": lambda parts, seat: _top(  # drawn from the top, DRAW_N - 1
            SequenceStacksHidden._v(parts).draw, max(SequenceStacksHidden._v(parts).g[
                sequence_stacks_state.DRAW_N] - 1, 0)),
        "the cards as dealt": lambda parts, seat: int(SequenceStacksHidden._v(parts).draw[
            SequenceStacksHidden._v(parts).g[sequence_stacks_state.DRAW_N]:][:5].sum()),
        "another seat's bot stream": lambda parts, seat: _bits(
            parts[0].rngs[1 + _next(parts, seat)]),
    }

    def known(self, parts, seat):
        public = copy(parts)
        v = self._v(public)
        v.draw[:] = 0  # the draw pile's cards (its size is a scalar)
        v.hand[:] = 0  # the hands' cards (their sizes are kept)
        v.held[:] = 0
        return {"public table": public[0].m, "own hand": self._v(parts).hand[seat].copy(),
                "own bot stream": int(parts[0].rngs[1 + seat, 0])}

    def hidden(self, parts, seat):
        s, v = parts[0], self._v(parts)
        others = _others(v.hand.shape[0], seat)
        return {"other hands": v.hand[others].copy(),
                "draw pile": v.draw[:v.g[sequence_stacks_state.DRAW_N]].copy(),
                "deal stream": int(s.rngs[0, 0]),
                "other bot streams": s.rngs[[1 + q for q in others]].copy()}

    def hidden_cards(self, parts, seat):
        v = self._v(parts)
        cards = list(v.draw[:v.g[sequence_stacks_state.DRAW_N]])
        for q in _others(v.hand.shape[0], seat):
            for t, n in enumerate(v.hand[q]):
                cards += [t] * int(n)
        return _sorted(cards)


# ---- Deep Space -------------------------------------------------------------------------------

class DeepSpaceHidden(TurnBasedHidden):
    name = "deep-space"
    players = 3
    redealt = ("hand", "deck", "bot_rng", "deal_rng", "dice_rng")

    def prepare(self, rules, setup):
        rs, _, self.kinds, families, params, s = self.game.prepare(rules, setup)
        return Prepared((s,), rs, families, params)

    def play(self, table, seed, game, check, decide_for):
        s = table.parts[0]
        out = deep_space_play.new_results(1, self.players, s.units.shape[1], self.kinds)
        seats = {seat: (lambda seat: check(seat, decide_for(seat, "move")))
                 for seat in range(self.players)}
        deep_space_play.play_python(s, table.rs, table.families, table.params, seed, game, out, 0,
                                    seats)

    def choose(self, s, rs, seat, family, params):
        deep_space_bots.choose(s, rs, seat, family, params, s.move)

    def legal_moves(self, s, rs, seat):
        return deep_space_engine.legal_moves(s, rs, seat)

    peeks = {
        "another seat's hand": lambda parts, seat: int(parts[0].hand[_next(parts, seat)].max()),
        "the draw pile": lambda parts, seat: _top(parts[0].deck,
                                                  parts[0].g[deep_space_state.DRAW_AT]),
        "the order cards were dealt in": lambda parts, seat: int(parts[0].deck[0]),
        "the dice": lambda parts, seat: _bits(parts[0].dice_rng),
    }

    def known(self, parts, seat):
        s = parts[0]
        return {"own hand": s.hand[seat].copy(), "empty hand slots": (s.hand < 0).copy(),
                "own bot stream": int(s.bot_rng[seat, 0])}

    def hidden(self, parts, seat):
        s = parts[0]
        others = _others(s.hand.shape[0], seat)
        return {"other hands": s.hand[others].copy(),
                "draw pile": s.deck[s.g[deep_space_state.DRAW_AT]:].copy(),
                "other bot streams": s.bot_rng[others].copy(), "deal stream": int(s.deal_rng[0]),
                "dice": int(s.dice_rng[0])}

    def hidden_cards(self, parts, seat):
        s = parts[0]
        hands = [s.hand[q, :s.hand_n[q]] for q in _others(s.hand.shape[0], seat)]
        return _sorted(s.deck[s.g[deep_space_state.DRAW_AT]:], *hands)


# ---- Spit and Speed ---------------------------------------------------------------------------

class RealTimeHidden(Adapter):
    """Spit's and Speed's shared part: two seats, a clock, plans instead of moves."""

    players = 2

    def prepare(self, rules, setup):
        rs, _, families, params, s, c, _, _ = self.game.prepare(rules, setup)
        return Prepared((s, c), rs, families, params)

    def resample(self, parts, rs, seat, r):
        sampler = self.game.sampler
        sampler.resample(parts[0], rs, seat, r)
        sampler.resample_clock(parts[1], r)

    def play(self, table, seed, game, check, decide_for):
        s, c = table.parts
        out = self.game.loop.new_results(1)
        seats = {seat: _RealTimeSeat(check, decide_for) for seat in range(2)}
        self.game.loop.play_python(s, table.rs, c, table.families, table.params, seed, game, out,
                                   0, seats)

    def builtin(self, rs, families, params):
        bots = self.game.bots.strategies

        def decide_for(seat, what):
            def decide(parts):
                s, c = parts
                if what == "pile":
                    return int(bots.choose_pile(s, rs, seat, families[seat], params[seat]))
                planned = bots.choose(s, rs, seat, families[seat], params[seat], c.plan[seat])
                return (bool(planned),) + tuple(c.plan[seat].tolist())
            return decide
        return decide_for

    def peeking(self, rs, peek):
        legal_moves = self.game.loop.engine.legal_moves

        def decide_for(seat, what):
            def decide(parts):
                s, c = parts
                if what == "pile":
                    return peek(parts, seat) % 2
                n = legal_moves(s, rs, seat)
                if n == 0:
                    return (False,)
                c.plan[seat, :] = s.moves[peek(parts, seat) % n]
                return (True,) + tuple(c.plan[seat].tolist())
            return decide
        return decide_for

    def clock(self, parts) -> dict[str, object]:
        c = parts[1]
        return {"reaction times": c.time_rng.copy(), "coin": int(c.coin_rng[0])}


class _RealTimeSeat:
    """A real-time game's Python seat whose plans (and, in Spit, pile choice) are checked."""

    def __init__(self, check, decide_for):
        self.check, self.decide_for = check, decide_for

    def __call__(self, seat):
        return self.check(seat, self.decide_for(seat, "move"))[0]

    def pile(self, seat):
        return self.check(seat, self.decide_for(seat, "pile"))


class SpitHidden(RealTimeHidden):
    name = "spit"
    redealt = ("g", "stock", "spit", "hold", "bot_rng", "deal_rng", "time_rng", "coin_rng")

    @staticmethod
    def _face_down(s, q):
        return [s.stock[q, p, :s.stock_n[q, p] - s.stock_up[q, p]].copy()
                for p in range(s.stock_n.shape[1])]

    peeks = {
        "the other seat's stock": lambda parts, seat: int(parts[0].stock[1 - seat].sum()),
        "its own face-down cards": lambda parts, seat: int(parts[0].stock[seat, :, 0].sum()),
        "the spit cards": lambda parts, seat: int(parts[0].spit[:, :2].sum()),
        "the cards as dealt": lambda parts, seat: int(parts[0].hold[1, :5].sum()),
    }

    def known(self, parts, seat):
        s = parts[0]
        public_g = s.g.copy()
        public_g[spit_state.SEED] = 0
        face_up = [s.stock[q, p, s.stock_n[q, p] - s.stock_up[q, p]:s.stock_n[q, p]].copy()
                   for q in range(2) for p in range(s.stock_n.shape[1])]
        return {"g": public_g, "face-up stock cards": face_up,
                "own bot stream": int(s.bot_rng[seat, 0])}

    def hidden(self, parts, seat):
        s = parts[0]
        return {"own face-down stock": self._face_down(s, seat),
                "other face-down stock": self._face_down(s, 1 - seat),
                "spit cards": [s.spit[q, :s.spit_n[q]].copy() for q in range(2)],
                "other bot stream": int(s.bot_rng[1 - seat, 0]), "deal stream": int(s.deal_rng[0]),
                "later deals": int(s.g[spit_state.SEED]), **self.clock(parts)}

    def hidden_cards(self, parts, seat):
        s = parts[0]
        return _sorted(*self._face_down(s, 0), *self._face_down(s, 1),
                       *[s.spit[q, :s.spit_n[q]] for q in range(2)])


class SpeedHidden(RealTimeHidden):
    name = "speed"
    redealt = ("g", "hand", "draw", "side", "deck", "bot_rng", "deal_rng", "time_rng",
               "coin_rng")

    peeks = {
        "the other seat's hand": lambda parts, seat: int(parts[0].hand[1 - seat].max()),
        "its own draw pile": lambda parts, seat: int(parts[0].draw[seat, :3].sum()),
        "the side piles": lambda parts, seat: int(parts[0].side[:, :2].sum()),
        "the cards as dealt": lambda parts, seat: int(parts[0].deck[:5].sum()),
    }

    def known(self, parts, seat):
        s = parts[0]
        public_g = s.g.copy()
        public_g[speed_state.SEED] = 0
        return {"g": public_g, "own hand": s.hand[seat].copy(),
                "empty hand slots": (s.hand < 0).copy(), "own bot stream": int(s.bot_rng[seat, 0])}

    def hidden(self, parts, seat):
        s = parts[0]
        return {"other hand": s.hand[1 - seat].copy(),
                "draw piles": [s.draw[q, :s.draw_n[q]].copy() for q in range(2)],
                "side piles": [s.side[q, :s.side_n[q]].copy() for q in range(2)],
                "other bot stream": int(s.bot_rng[1 - seat, 0]), "deal stream": int(s.deal_rng[0]),
                "later hands": int(s.g[speed_state.SEED]), **self.clock(parts)}

    def hidden_cards(self, parts, seat):
        s = parts[0]
        other = s.hand[1 - seat]
        return _sorted(other[other >= 0], *[s.draw[q, :s.draw_n[q]] for q in range(2)],
                       *[s.side[q, :s.side_n[q]] for q in range(2)])


ADAPTERS = {a.name: a for a in (SaboteurHidden(), SequenceStacksHidden(), SpitHidden(),
                                 SpeedHidden(), DeepSpaceHidden())}
"""The adapter of each registered game, by name."""
