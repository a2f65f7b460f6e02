"""A plugin game that breaks the interface ends the command in one line naming the plugin and
what broke (exit 2): a simple-level game's rules or bots giving what the interface does not
allow (checked at every move, as the built-in games check theirs), an entry point giving no
game or another game, a name that is no game name or that another package registers, an
import calling sys.exit. `simulate games` says why in one line and lists the other games."""

import pytest

from sim.new_game import write

PLAY = ["card-race", "--players", "2", "--games", "3", "--seed", "1", "--workers", "1",
        "--quiet", "--out", "run"]


def broken(own_game, tmp_path, rules: str) -> dict:
    """Gives the environment of a `simulate` that has Card Race installed (`simulate new-game`'s
    game) with `rules` added at the end of its rules module, replacing what they redefine."""
    folder = tmp_path / "card-race"
    write("card-race", folder)
    with open(folder / "card_race" / "rules.py", "a") as module:
        module.write("\n\n" + rules)
    return own_game.installed(folder, {"card-race": "card_race:GAME"})


def one_line(done) -> str:
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


@pytest.mark.parametrize("bots", ["default", "random"])
@pytest.mark.parametrize("rules, says", [
    # The default bot's move was applied (a ValueError traceback with random bots), exit 0.
    ("_listed = legal_moves\n"
     "def legal_moves(state):\n    return () if len(state.deck) < 38 else _listed(state)",
     "card_race.rules.legal_moves() gave no moves before the game was over in game 0"),
    # "first player's win share 0.0%", exit 0.
    ("def result(state):\n    return Result((99,), tuple(state.scores))",
     "card_race.rules.result() named 99 among the winners, not a seat (0 to 1) in game 0"),
    ("def result(state):\n    return Result((0,), (1.0,))",
     "card_race.rules.result() gave the scores (1.0,), not a number per seat (2) in game 0"),
    # tracebacks
    ("def apply(state, move):\n    return None",
     "card_race.rules.apply() gave no state (None) in game 0"),
    ("def to_move(state):\n    return 99",
     "card_race.rules.to_move() gave 99, not a seat (0 to 1) in game 0"),
    ("def deal(players, rules, rng):\n    raise RuntimeError('no deck')",
     "card_race.rules.deal() failed: RuntimeError: no deck (rules.py:"),
], ids=["no-legal-moves", "winner-99", "scores", "apply-none", "to-move-99", "deal-raises"])
def test_a_rules_function_giving_what_the_interface_forbids_is_one_line(own_game, tmp_path,
                                                                         rules, says, bots):
    done = own_game.simulate(broken(own_game, tmp_path, rules), tmp_path, *PLAY, "--strategy", bots)
    assert one_line(done).startswith(f"error: game card-race: {says}"), done.stderr
    assert not (tmp_path / "run").exists()


FLIES = ("class Default(Default):\n"
         "    def choose(self, view, legal_moves, rng):\n"
         "        return 'fly'\n\n\n"
         "BOTS = (Default,)")


def test_a_plugins_own_bot_playing_no_legal_move_is_one_line(own_game, tmp_path):
    # "fly" was applied (as a stop) and the run ended well, exit 0.
    done = own_game.simulate(broken(own_game, tmp_path, FLIES), tmp_path, *PLAY)
    assert one_line(done) == ("error: game card-race: card_race.rules.Default.choose() (seat 0) "
                              "played 'fly', not one of its legal moves ('draw', 'stop') in "
                              "game 0\n")


def test_a_plugins_own_bot_playing_no_legal_move_in_a_search_rollout_is_one_line(own_game,
                                                                                 tmp_path):
    # Every seat searches: the default bot plays only in the search's rollouts, where "fly"
    # was applied unchecked.
    done = own_game.simulate(broken(own_game, tmp_path, FLIES), tmp_path, *PLAY,
                             "--strategy", "search")
    assert one_line(done) == ("error: game card-race: card_race.rules.Default.choose() (seat 1) "
                              "played 'fly', not one of its legal moves ('draw', 'stop') in a "
                              "rollout of the search in game 0\n")


def test_trace_says_a_broken_rule_in_one_line(own_game, tmp_path):
    env = broken(own_game, tmp_path, "def to_move(state):\n    return -1")
    done = own_game.simulate(env, tmp_path, "trace", "card-race", "--players", "2",
                             "--seed", "1")
    assert one_line(done) == ("error: game card-race: card_race.rules.to_move() gave -1, not a "
                              "seat (0 to 1) in game 0\n")


PLUGIN = "card_race:GAME"


def plugin(own_game, tmp_path, entries: dict[str, str], package: str = "card-race",
           init: str | None = None) -> dict:
    """Gives the environment of a `simulate` that has `package` installed, registering
    `entries` (name -> "module:GAME"); its module card_race is Card Race, or `init`."""
    folder = tmp_path / package
    write("card-race", folder)
    if init is not None:
        (folder / "card_race" / "__init__.py").write_text(init)
    return own_game.installed(folder, entries, package)


@pytest.mark.parametrize("entries, init, says", [
    ({"forty-two": PLUGIN}, "GAME = 42\n",
     "error: game 'forty-two' from package 'card-race': its entry point card_race:GAME gives "
     "42, not a game (sim.game.Game)"),
    ({"other-name": PLUGIN}, None,
     "error: game 'other-name' from package 'card-race': its entry point card_race:GAME gives "
     "the game named 'card-race'; an entry point is named as its game"),
    ({"card-race": PLUGIN}, "import sys\nsys.exit(3)\n",
     "error: game 'card-race' from package 'card-race' failed to load: it called sys.exit(3)"),
    ({"../../escaped": PLUGIN}, None,
     "error: package 'card-race' registers a game named '../../escaped', which is not a game "
     "name (lower-case letters and digits, words joined by '-' (e.g. my-game)); it is left "
     "out"),
    ({"saboteur": PLUGIN}, None,
     "error: packages 'card-race' and 'tabletop-balance' both register a game named "
     "'saboteur'; uninstall one of them (or rename its entry point) to play it"),
], ids=["not-a-game", "other-name", "sys-exit", "path-name", "built-in-name"])
def test_a_broken_plugin_is_one_line_naming_it_and_the_others_are_listed(own_game, tmp_path,
                                                                          entries, init, says):
    env = plugin(own_game, tmp_path, entries, init=init)
    listed = own_game.simulate(env, tmp_path, "games")
    assert (listed.returncode, listed.stderr) == (0, says + "\n")
    name = next(iter(entries))
    assert "deep-space" in listed.stdout and name not in listed.stdout
    played = own_game.simulate(env, tmp_path, name, "--players", "3", "--games", "2")
    assert played.returncode == 2 and played.stderr.count("\n") == 1, played.stderr
    if "/" not in name:  # a name no command has is click's complaint
        assert played.stderr == says + "\n"
    assert not (tmp_path / "runs").exists() and not (tmp_path.parent / "escaped").exists()
