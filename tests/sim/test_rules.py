"""Rules files: defaults, a user's file and --set overrides, checked key by key."""

import pytest

from sim import rules
from sim.errors import UserError


@pytest.fixture(autouse=True)
def fake_configs(fake_game):
    """Every test reads configs/fake.toml of the test game."""


def load(config=None, *overrides):
    return rules.load_rules("fake", config, list(overrides))


def test_defaults_come_from_the_games_toml():
    loaded = load()
    assert loaded["flips"] == 5
    assert loaded["hand_size"] == {"3": 6, "7": 5}


def test_user_file_merges_into_tables_key_by_key(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text("bias = 0.25\n[hand_size]\n7 = 6\n")
    loaded = load(str(mine))
    assert loaded["bias"] == 0.25
    assert loaded["hand_size"] == {"3": 6, "7": 6}
    assert loaded["flips"] == 5


def test_set_with_a_dotted_numeric_key_sets_one_entry_of_a_table():
    assert load(None, "hand_size.7=6")["hand_size"] == {"3": 6, "7": 6}


def test_set_comes_after_the_user_file(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text("flips = 8\n")
    assert load(str(mine), "flips=9")["flips"] == 9


@pytest.mark.parametrize("override, key, value", [
    ("bias=0.75", "bias", 0.75),
    ("fast=true", "fast", True),
    ("name=short", "name", "short"),  # a bare word needs no TOML quotes
    ('name="two words"', "name", "two words"),
    ("scoring.weights=[3, 4]", "scoring", {"win": 1.0, "weights": [3, 4]}),
])
def test_set_values_are_read_as_toml(override, key, value):
    assert load(None, override)[key] == value


def test_an_integer_is_accepted_where_a_number_is_expected():
    loaded = load(None, "bias=1")
    assert loaded["bias"] == 1.0 and isinstance(loaded["bias"], float)


@pytest.mark.parametrize("override, message", [
    ("flips=true", "rule 'flips' in --set must be an integer, got True"),
    ("flips=1.5", "rule 'flips' in --set must be an integer"),
    ("flips=x", "rule 'flips' in --set must be an integer, got 'x'"),
    ("fast=1", "rule 'fast' in --set must be true or false"),
    ("hand_size=3", "rule 'hand_size' in --set must be a table"),
    ("name.x=3", "rule 'name' in --set must be a string"),
])
def test_a_value_of_another_type_than_the_default_is_refused(override, message):
    with pytest.raises(UserError, match="^" + message.replace("[", r"\[").replace(".", r"\.")):
        load(None, override)


def test_an_unknown_key_is_named_with_a_suggestion():
    with pytest.raises(UserError) as e:
        load(None, "flipz=3")
    assert str(e.value) == "unknown rule 'flipz' in --set (did you mean 'flips'?)"


def test_an_unknown_key_inside_a_table_is_named_in_full():
    with pytest.raises(UserError, match=r"unknown rule 'hand_size\.8' in --set"):
        load(None, "hand_size.8=4")


def test_an_unknown_key_in_the_users_file_names_the_file(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text("[scoring]\nwins = 2.0\n")
    with pytest.raises(UserError) as e:
        load(str(mine))
    assert str(e.value) == f"unknown rule 'scoring.wins' in {mine} (did you mean 'scoring.win'?)"


def test_a_near_miss_inside_a_table_is_suggested_in_full_as_set_takes_it():
    with pytest.raises(UserError) as e:
        load(None, "scoring.wins=2.0")
    assert str(e.value) == "unknown rule 'scoring.wins' in --set (did you mean 'scoring.win'?)"


def test_malformed_toml_is_one_line_naming_the_file(tmp_path):
    mine = tmp_path / "broken.toml"
    mine.write_text("flips = = 3\n")
    with pytest.raises(UserError) as e:
        load(str(mine))
    assert str(e.value).startswith(f"{mine}: malformed TOML: ")
    assert "\n" not in str(e.value)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(UserError, match="cannot read .*nowhere.toml: No such file"):
        load(str(tmp_path / "nowhere.toml"))


def test_set_without_a_value_is_refused():
    with pytest.raises(UserError, match="--set expects KEY=VALUE, got 'flips'"):
        load(None, "flips")


@pytest.mark.parametrize("overrides, fixed, swept", [
    (["flips=5,6"], [], [["flips=5", "flips=6"]]),
    (["flips=3-5"], [], [["flips=3", "flips=4", "flips=5"]]),
    (["flips=2-3,7"], [], [["flips=2", "flips=3", "flips=7"]]),
    (["flips=-2"], ["flips=-2"], []),  # a negative number, not a range
    (["name=a-b"], ["name=a-b"], []),  # a range only of integers
    (["scoring.weights=[3, 4]"], ["scoring.weights=[3, 4]"], []),  # a list is one value
    (["scoring.weights=[3, 4],[5, 6]"], [], [["scoring.weights=[3, 4]", "scoring.weights=[5, 6]"]]),
    (['name="a,b"'], ['name="a,b"'], []),
    (["flips=5,6", "flips=7"], ["flips=7"], []),  # a later --set of a key replaces it
    (["hand_size.7=5,6", "bias=0.5"], ["bias=0.5"], [["hand_size.7=5", "hand_size.7=6"]]),
])
def test_split_sweeps_tells_swept_keys_from_fixed_ones(overrides, fixed, swept):
    assert rules.split_sweeps("fake", overrides) == (fixed, swept)


@pytest.mark.parametrize("override, value", [("flips=5,5", "5"), ("flips=4-6,5", "5")])
def test_a_sweep_that_names_a_value_twice_is_refused(override, value):
    # issue 40: --set hand_size.7=5,5 silently played one configuration
    with pytest.raises(UserError, match=f"--set flips: the value {value} is named twice"):
        rules.split_sweeps("fake", [override])


def test_with_values_replaces_dotted_keys_in_a_copy():
    base = load()
    changed = rules.with_values(base, (("hand_size.7", 6), ("scoring.weights", (3, 4))))
    assert changed["hand_size"] == {"3": 6, "7": 6} and changed["scoring"]["weights"] == [3, 4]
    assert base == load()
