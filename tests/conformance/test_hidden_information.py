"""No built-in bot reads hidden information (issue 19).

Before every decision of every built-in bot, in games played through each registered game's
Python driver, the game's information-set sampler (sim/games/<game>/sampler.py) re-deals what the
deciding seat cannot know on copies of the state, and the bot, with the same stream of its own,
must decide on each copy as it decides on the real state. A bot that peeks is caught by the
same check. The samplers themselves keep what the seat knows and the hidden cards, and re-deal
every hidden thing. Per-game adapters: hidden_positions.py.
"""

from collections import Counter

import numpy as np
import pytest

from sim import games, testing
from sim.game import Setup
from sim.games.saboteur import engine as saboteur_engine
from sim.games.saboteur import play as saboteur_play

from game_adapters import fast_level

from .builtin_seats import SEARCH_PLAYED
from .hidden_positions import ADAPTERS, Checker, copy, stream

SEED = 3
SAMPLES = 3  # re-deals per decision
# The search presets but SEARCH_PLAYED (which every game plays) play the same code with a larger
# budget: each in one game, Sequence Stacks, whose short rollouts keep it under a second of CPU.
LONGER_SEARCHES = {"search": "sequence-stacks", "search-strong": "sequence-stacks",
                   "search-belief": "saboteur", "search-belief-strong": "saboteur"}


SAMPLER_CASES = [(name, options) for name in sorted(ADAPTERS)
                 for options in ADAPTERS[name].option_cases]
SAMPLER_IDS = ["-".join([name] + [f"{k}={v}" for k, v in options])
               for name, options in SAMPLER_CASES]


@pytest.fixture(scope="module")
def rules():
    """Gives each game's default rules, by name."""
    return {name: games.get(name).load_rules(None, []) for name in fast_level()}


def checked_games(name, rules, strategy, games=1, peek=None, inspect=None, options=()):
    """Gives the Checker of `games` games of `name` played by `strategy` at every seat (by the
    control bot peeking with `peek` instead, if given)."""
    adapter = ADAPTERS[name]
    table = adapter.prepare(rules[name], Setup(adapter.players, (strategy,) * adapter.players,
                                               options))
    checker = Checker(adapter, table.parts, table.rs, SAMPLES, inspect)
    decide_for = (adapter.builtin(table.rs, table.families, table.params) if peek is None
                  else adapter.peeking(table.rs, peek))
    for game in range(games):
        adapter.play(table, SEED, game, checker, decide_for)
    return checker


def test_every_fast_level_game_has_a_sampler_and_an_adapter():
    assert sorted(ADAPTERS) == fast_level()
    for name in fast_level():
        assert callable(games.get(name).sampler.resample), name


def test_every_search_preset_is_played_in_some_game():
    presets = {preset for name in fast_level()
               for preset, (family, _) in games.get(name).bots.presets.items()
               if family == "search"}
    assert presets == {SEARCH_PLAYED, *LONGER_SEARCHES}
    for preset, name in LONGER_SEARCHES.items():
        assert games.get(name).bots.presets[preset][0] == "search", (name, preset)


@pytest.mark.parametrize("name, strategy", [
    *[(name, strategy) for name in sorted(ADAPTERS) for strategy in ADAPTERS[name].strategies()],
    *[(name, preset) for preset, name in LONGER_SEARCHES.items()]])
def test_no_built_in_bot_reads_hidden_information(rules, name, strategy):
    checker = checked_games(name, rules, strategy, games=2)
    assert checker.decisions >= 20
    assert checker.differing == [], (f"{len(checker.differing)} of {checker.decisions} decisions "
                                     f"changed with what the seat cannot know; the first "
                                     f"(decision, seat, real, re-dealt): {checker.differing[:3]}")


@pytest.mark.parametrize("name, peek", [(name, peek) for name in sorted(ADAPTERS)
                                        for peek in ADAPTERS[name].peeks])
def test_a_bot_that_peeks_is_caught(rules, name, peek):
    checker = checked_games(name, rules, "random", peek=ADAPTERS[name].peeks[peek])
    assert checker.differing, f"a bot reading {peek} went unnoticed in {checker.decisions} " \
                              "decisions"


@pytest.mark.parametrize("name", ["saboteur"])  # with Saboteur's tests (tests/conftest.py)
def test_the_same_control_reading_only_its_own_hand_passes(rules, name):
    # What makes a control fail is what it reads, not the copying or the re-dealing itself.
    checker = checked_games(name, rules, "random",
                            peek=lambda parts, seat: int(parts[0].hand[seat, 0]))
    assert checker.decisions >= 20 and checker.differing == []


@pytest.mark.parametrize("name, options", SAMPLER_CASES, ids=SAMPLER_IDS)
def test_the_sampler_keeps_what_the_seat_knows_and_reads_nothing_else(rules, name, options):
    # The public suite's re-deal check (sim/testing.py), which every simple-level game passes,
    # on the sampler: a state the seat cannot tell from the real one, re-dealt with the same
    # stream as the real one, gives the same world.
    adapter = ADAPTERS[name]
    rs = adapter.prepare(rules[name], Setup(adapter.players, ("default",) * adapter.players,
                                            options)).rs
    inspected = Counter()

    def redeal(parts, seat, r):
        world = copy(parts)
        adapter.resample(world, rs, seat, r)
        return world

    def inspect(real, redealt, seat, _):
        for part, other in zip(real, redealt):
            for field in part._fields:
                if field not in adapter.redealt:
                    assert np.array_equal(getattr(part, field), getattr(other, field)), field
        assert adapter.hidden_cards(real, seat) == adapter.hidden_cards(redealt, seat)
        inspected[seat] += 1
        call = sum(inspected.values())
        if call % SAMPLES == 1:  # one of each decision's re-deals
            testing.redeal_is_independent(redeal, adapter.known, real, seat,
                                          lambda k: stream(call, SAMPLES + k), f"re-deal {call}")

    checked_games(name, rules, "default", inspect=inspect, options=options)
    assert sorted(inspected) == list(range(adapter.players))


@pytest.mark.parametrize("name, options", SAMPLER_CASES, ids=SAMPLER_IDS)
def test_the_sampler_re_deals_everything_the_seat_cannot_know(rules, name, options):
    adapter = ADAPTERS[name]
    changed, seen = Counter(), set()

    def inspect(real, redealt, seat, _):
        before, after = adapter.hidden(real, seat), adapter.hidden(redealt, seat)
        seen.update(before)
        changed.update(key for key in before
                       if testing.difference(before[key], after[key]) is not None)

    checked_games(name, rules, "default", inspect=inspect, options=options)
    assert seen and [key for key in sorted(seen) if not changed[key]] == []


SEARCHING = sorted(name for name in ADAPTERS if hasattr(games.get(name), "search"))


@pytest.mark.parametrize("name", SEARCHING)
def test_a_search_that_rolls_out_the_real_deal_is_caught(rules, name):
    # The search bot's own pieces (sim/games/<game>/search.py), less the re-deal: each candidate
    # rolled out from the real position (what the seat cannot know included). The control plays
    # the legal move numbered by the candidate that wins.
    adapter, pieces = ADAPTERS[name], games.get(name).search
    table = adapter.prepare(rules[name], Setup(adapter.players,
                                               ("search-fast",) * adapter.players))
    r = np.zeros(1, np.uint64)

    def peek(parts, seat):
        s = parts[0]
        kept = [a.copy() for a in s]
        n = pieces.candidates(s, table.rs, seat, table.params[seat], s.search_moves)
        score = []
        for c in range(n):
            r[0] = 7
            score.append(pieces.play_out(s, table.rs, seat, s.search_moves[c].copy(),
                                         table.params[seat], r))
            for a, b in zip(s, kept):
                a[...] = b
        return int(np.argmax(score))

    checker = checked_games(name, rules, "random", peek=peek)
    assert checker.differing, f"a search rolling out the real deal went unnoticed in " \
                              f"{checker.decisions} decisions"


def test_saboteurs_public_records_are_the_same_in_every_world_another_seat_could_be_in(rules):
    # The records a move adds to the table's public record (suspicion, the log-likelihood ratio
    # of being a saboteur, the lean towards the goals the mover looked at: sim/games/saboteur/bots.py
    # `observe`) come out the same on the real state and on copies re-dealt for another seat
    # (the mover's hand as it is): what every seat reads there holds nothing hidden from it
    # (the goals the mover saw, say, through its lean).
    adapter = ADAPTERS["saboteur"]
    rs = adapter.prepare(rules["saboteur"],
                         Setup(adapter.players, ("deduce",) * adapter.players)).rs
    compared, leaning, calls = Counter(), Counter(), Counter()

    def inspect(real, _, seat, __):
        calls[0] += 1
        observer = (seat + 1 + calls[0] % (adapter.players - 1)) % adapter.players
        world = copy(real)
        adapter.resample(world, rs, observer, stream(calls[0], 0))
        world[0].hand[seat] = real[0].hand[seat]
        listing = copy(real)[0]
        n = saboteur_engine.legal_moves(listing, rs, seat)
        places = [m for m in listing.moves[:n] if m[0] == saboteur_engine.PLACE][:8]
        for move in places:
            a, b = copy(real)[0], copy(world)[0]
            if saboteur_play.play_turn(a, rs, seat, move.copy(), True) \
                    or saboteur_play.play_turn(b, rs, seat, move.copy(), True):
                continue  # a round over (the gold found) is dealt afresh: nothing to compare
            for field in ("suspicion", "llr", "lean"):
                assert np.array_equal(getattr(a, field), getattr(b, field)), field
            compared[seat] += 1
            leaning[seat] += not np.array_equal(a.lean, real[0].lean)

    checked_games("saboteur", rules, "deduce", inspect=inspect)
    assert sorted(compared) == list(range(adapter.players)) and sum(leaning.values()) >= 20
