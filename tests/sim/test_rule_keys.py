"""`simulate rules GAME`: every key the rules loader takes is listed, with a meaning, and
nothing else."""

import json
import re

import pytest

from sim import games, rules
from sim.rule_keys import describe, rule_keys


def as_set(value) -> str:
    """Gives a default value as --set takes it (TOML)."""
    return json.dumps(value) if not isinstance(value, bool) else str(value).lower()


@pytest.mark.parametrize("name", games.names())
def test_every_key_the_loader_takes_is_listed_and_nothing_else(name):
    game = games.get(name)
    entries = rule_keys(name)
    listed = [key for entry in entries for key in entry.keys]
    # The loader takes exactly the keys of the game's configs file (it refuses any other).
    assert sorted(listed) == sorted(rules.leaves(rules.defaults(name)))
    for entry in entries:
        assert entry.meaning, entry.name
        for key in entry.keys:
            value = rules.value_at(rules.defaults(name), key)
            game.load_rules(None, [f"{key}={as_set(value)}"])
        for choice in entry.choices:  # what the comment names is what the game takes
            game.load_rules(None, [f"{entry.keys[0]}={choice}"])
    text = describe(name, game.title)
    assert all(f"  {entry.name}  " in text for entry in entries)


def test_the_built_in_rules_are_named_as_a_user_without_a_clone_knows_them():
    # a wheel's user has no configs/ folder: the package's own file is the defaults
    first = describe("saboteur", "Saboteur").splitlines()[0]
    assert first == ("Saboteur rules (built-in defaults): the keys --set KEY=VALUE and "
                     "--config FILE take.")


def test_a_per_player_count_table_reads_as_one_entry():
    (entry,) = [e for e in rule_keys("saboteur") if e.name == "hand_size.N"]
    assert entry.keys[4] == "hand_size.7"
    assert entry.default == "3p 6 · 4p 6 · 5p 6 · 6p 5 · 7p 5 · 8p 4 · 9p 4 · 10p 4"
    assert "hand" in entry.meaning


def test_a_text_key_lists_the_values_its_comment_names():
    (entry,) = [e for e in rule_keys("saboteur") if e.name == "options.round_end"]
    assert entry.choices == ("hands_empty", "all_pass")
    assert entry.takes == "one of hands_empty, all_pass"


def test_an_integer_says_the_most_it_takes():
    (rounds,) = [e for e in rule_keys("saboteur") if e.name == "rounds"]
    assert rounds.takes == "an integer, at most 30"  # the game's [limits]


def test_the_command_lists_the_keys_and_refuses_an_unknown_game(simulate):
    code, out, err = simulate("rules", "sequence-stacks")
    assert (code, err) == (0, "")
    assert re.search(r"\n  hand_size +5  \(an integer, at most 500\)\n", out)
    assert simulate("rules", "chess")[0] == 2
