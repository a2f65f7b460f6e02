"""Python bots that build on the built-ins: View.suggest, the lazily worded legal moves, and
`--forbid ROLE:NAME`."""

import numpy as np
import polars as pl
import pytest

from strategies import python_bots

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
PEACEFUL = f"{REPO}/strategies/examples/peaceful_miner.py:PeacefulMiner"


def tables(folder):
    return {name: pl.read_parquet(f"{folder}/{name}/*.parquet").sort("game_id", *(
        ["seat"] if name == "seats" else [])) for name in ("games", "seats")}


def test_a_bot_following_suggestions_plays_the_games_of_the_restricted_built_in(simulate, tmp_path):
    """PeacefulMiner asks `default-no-break` as a miner and `default` as a saboteur: exactly
    what `--forbid miner:break` makes of the jitted default, game for game."""
    common = ["saboteur", "--players", 5, "--games", 12, "--seed", 3, "--workers", 1, "--quiet"]
    assert simulate(*common, "--strategy", PEACEFUL, "--out", tmp_path / "python")[0] == 0
    assert simulate(*common, "--forbid", "miner:break", "--out", tmp_path / "jitted")[0] == 0
    python, jitted = tables(tmp_path / "python"), tables(tmp_path / "jitted")
    assert python["games"].drop("setup").equals(jitted["games"].drop("setup"))
    assert python["seats"].drop("strategy").equals(jitted["seats"].drop("strategy"))


def test_forbidding_a_card_to_one_role_leaves_it_to_the_other(simulate, tmp_path):
    code, out, _ = simulate("trace", "saboteur", "--players", 5, "--seed", 4,
                            "--forbid", "miner:break")
    assert code == 0
    moves = [line for line in out.splitlines() if "breaks" in line or " break" in line]
    assert moves and all("(saboteur," in line for line in moves)


@pytest.mark.parametrize("args, message", [
    (["saboteur", "--forbid", "thief:break"], "saboteur has no role 'thief'; --forbid ROLE:NAME "
                                              "takes miner, saboteur"),
    (["sequence-stacks", "--forbid", "miner:skip"], "sequence-stacks has no role 'miner'; give "
                                                    "--forbid NAME without a role"),
    (["saboteur", "--forbid", "miner:fly"], "saboteur cannot forbid 'fly'"),
])
def test_a_role_restriction_the_game_cannot_take_is_one_line(simulate, tmp_path, args, message):
    code, out, err = simulate(*args, "--players", 4, "--games", 5, "--out", tmp_path / "r")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def bot_file(tmp_path, body):
    file = tmp_path / "asker.py"
    file.write_text("class Asker:\n    def choose(self, view, legal_moves, rng):\n" + body)
    return f"{file}:Asker"


@pytest.mark.parametrize("body, message", [
    ("        return view.suggest('genius')\n",
     "ValueError: no built-in strategy 'genius'; the game's are random, default"),
    ("        return view.suggest('default-no-fly')\n", "ValueError: cannot forbid 'fly'"),
])
def test_asking_a_strategy_the_game_lacks_stops_the_run_in_one_line(simulate, tmp_path, body,
                                                                     message):
    code, _, err = simulate("saboteur", "--players", 3, "--games", 2, "--workers", 1,
                            "--strategy", bot_file(tmp_path, body), "--out", tmp_path / "r")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_view_advises_only_while_its_bot_chooses(simulate, tmp_path):
    body = ("        if hasattr(self, 'old'):\n"
            "            return self.old.suggest('default')\n"
            "        self.old = view\n"
            "        return legal_moves[0]\n")
    code, _, err = simulate("saboteur", "--players", 3, "--games", 1, "--workers", 1,
                            "--strategy", bot_file(tmp_path, body), "--out", tmp_path / "r")
    assert code == 2 and "RuntimeError: suggest() works only while choose() runs" in err


def test_legal_moves_are_worded_as_read_and_found_by_identity():
    worded = []

    def word(row):
        worded.append(row)
        return tuple(row)

    rows = np.array([[0, 1], [2, 3], [4, 5]])
    moves = python_bots.LegalMoves(rows, word)
    first = moves[0]
    assert worded == [[0, 1]] and moves.index(first) == 0 and worded == [[0, 1]]
    assert moves.index((4, 5)) == 2 and moves[-1] == (4, 5) and moves[1:] == [(2, 3), (4, 5)]
    assert len(moves) == 3 and list(moves) == [(0, 1), (2, 3), (4, 5)] and moves == list(moves)
    with pytest.raises(ValueError):
        moves.index((9, 9))
    kept = python_bots.LegalMoves(rows, word)
    kept.keep()
    rows[:] = 0  # the position moves on: a kept list says what it was
    assert list(kept) == [(0, 1), (2, 3), (4, 5)]


def test_kept_legal_moves_name_the_cards_held_when_they_were_listed(simulate, tmp_path):
    """A bot may keep last turn's list: its moves still name the cards of that turn."""
    body = ("        if hasattr(self, 'kept'):\n"
            "            assert all(m.card == self.hand[m.slot] for m in self.kept), 'changed'\n"
            "        self.kept, self.hand = legal_moves, view.hand\n"
            "        return legal_moves[-1]\n")
    code, _, err = simulate("saboteur", "--players", 3, "--games", 2, "--workers", 1,
                            "--strategy", bot_file(tmp_path, body), "--out", tmp_path / "r")
    assert code == 0, err


@pytest.mark.parametrize("game, players", [("saboteur", 4), ("sequence-stacks", 3),
                                           ("deep-space", 2), ("spit", 2), ("speed", 2)])
def test_a_bot_playing_the_suggestion_of_default_plays_defaults_games(simulate, tmp_path, game,
                                                                      players):
    follower = bot_file(tmp_path, "        return view.suggest('default')\n")
    common = [game, "--players", players, "--games", 6, "--seed", 8, "--workers", 1, "--quiet"]
    assert simulate(*common, "--strategy", follower, "--out", tmp_path / "python")[0] == 0
    assert simulate(*common, "--out", tmp_path / "jitted")[0] == 0
    python, jitted = tables(tmp_path / "python"), tables(tmp_path / "jitted")
    assert python["games"].drop("setup").equals(jitted["games"].drop("setup"))
    assert python["seats"].drop("strategy").equals(jitted["seats"].drop("strategy"))


def test_a_restricted_built_in_with_no_move_suggests_none(simulate, tmp_path):
    """In Spit a restricted bot waits when it has no move: its suggestion is None."""
    body = ("        move = view.suggest('default-no-uncover')\n"
            "        self.waited = getattr(self, 'waited', 0) + (move is None)\n"
            "        assert self.waited < 1, 'waits'\n"
            "        return move\n")
    code, _, err = simulate("spit", "--games", 1, "--seed", 1, "--workers", 1, "--strategy",
                            bot_file(tmp_path, body), "--out", tmp_path / "r")
    assert code == 2 and "AssertionError: waits" in err
