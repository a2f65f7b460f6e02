"""Bad input a user can give any game's commands ends in one line on stderr and exit code 2,
and leaves nothing behind."""

import pytest

from sim import games


def bad_inputs(name: str) -> list[tuple[list[str], str]]:
    """Gives (arguments, what the one line says) for bad input every game refuses alike."""
    game = games.get(name)
    forbiddable = ", ".join(game.bots.forbiddable(game.load_rules(None, [])))
    unknown = (f"error: unknown strategy 'clever'; known strategies: "
               f"{', '.join(game.strategy_names())} (or a Python bot: path/to/file.py:ClassName)")
    players = ["--players", str(game.min_players)]
    two_player = game.min_players == game.max_players  # `bench` takes no --players then

    def refused(n):
        if two_player:
            return f"error: {name} is a game for two players: --players takes only 2, got {n}"
        return f"error: {name} takes {game.min_players}–{game.max_players} players, got {n}"

    above, below = game.max_players + 1, game.min_players - 1
    span = f"{game.min_players}-{above + 2}"  # refused at its first count out of range
    return [
        ([name, "--players", str(above)], refused(above)),
        ([name, "--players", str(below)], refused(below)),
        ([name, "--players", span], refused(span if two_player else above)),
        ([name, "--players", "four"], "error: --players takes a number (7), a list (5,7) or a "
                                      "range (3-10), got 'four'"),
        ([name, *players, "--strategy", "clever"], unknown),
        ([name, *players, "--seat-strategy", "0=clever"], unknown),
        ([name, *players, "--seat-strategy", f"{game.min_players}=random"],
         f"error: --seat-strategy: there is no seat {game.min_players} with {game.min_players} "
         f"players (seats are 0–{game.min_players - 1})"),
        ([name, *players, "--set", "no_such.rule=1"], "error: unknown rule 'no_such"),
        ([name, *players, "--set", "no_equals_sign"], "error: --set"),
        ([name, *players, "--seed", "-1"], "error: --seed must be between 0 and 2**63-1, got -1"),
        ([name, *players, "--seed", str(2**63)], "error: --seed must be between 0 and 2**63-1"),
        ([name, *players, "--games", "0"], "error: --games must be at least 1, got 0"),
        ([name, *players, "--forbid", "teleport"],
         f"error: {name} cannot forbid 'teleport'; it can forbid: {forbiddable}"),
        ([name, *players, "--config", "missing.toml"], "missing.toml"),
        (["trace", name, "--players", str(above)], refused(above)),
        (["trace", name, "--players", str(below)], refused(below)),
        (["trace", name, *players, "--strategy", "clever"], unknown),
        (["trace", name, *players, "--forbid", "teleport"],
         f"error: {name} cannot forbid 'teleport'"),
        (["trace", name, *players, "--seed", "-1"], "error: --seed must be between 0 and 2**63-1"),
        (["bench", name, *([] if two_player else players), "--strategies", "clever"], unknown),
    ] + ([] if two_player else [(["bench", name, "--players", str(n)], refused(n))
                                for n in (above, below)])


CASES = [(args, says) for name in games.names() for args, says in bad_inputs(name)]


@pytest.mark.parametrize("args, says", CASES, ids=[" ".join(args) for args, _ in CASES])
def test_bad_input_is_one_line_and_exit_code_2_and_leaves_nothing(simulate, tmp_path, args,
                                                                  says):
    code, out, err = simulate(*args)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and says in err, err
    assert list(tmp_path.iterdir()) == [], "nothing was written"
