"""Declarative presets from a TOML file: checked against the game's families, carried in the
rules, listed by `simulate strategies`."""

from pathlib import Path

import numpy as np
import pytest

from sim.errors import UserError
from sim.games.saboteur import GAME, bots
from strategies import presets

EXAMPLE = Path(__file__).parents[2] / "configs" / "saboteur-presets.toml"


def test_the_example_file_loads_and_its_presets_resolve_to_their_parameters():
    loaded = presets.load(GAME, EXAMPLE)
    assert loaded["patient-saboteurs"] == {"family": "default", "strike_distance": 4.0, "cover": 0.8}
    family, values = bots.resolve("patient-saboteurs", loaded)
    default = bots.resolve("default")[1]
    assert family == presets.DEFAULT
    changed = {p.name: v for p, v, d in zip(bots.PARAMETERS, values, default) if v != d}
    assert changed == {"strike_distance": 4.0, "cover": 0.8}


def test_a_preset_of_the_random_family_plays_random():
    assert bots.resolve("dice", {"dice": {"family": "random"}})[0] == presets.RANDOM


def test_the_presets_ride_in_the_rules_only_when_there_are_some():
    rules = GAME.load_rules(None, [])
    assert presets.with_presets(rules, {}) is rules
    carried = presets.with_presets(rules, {"x": {"family": "random"}})
    assert presets.user_presets(carried) == {"x": {"family": "random"}}
    assert presets.PRESETS_KEY not in rules


@pytest.mark.parametrize("text, message", [
    ('[preset.x]\nfamily = "clever"\n', "family must be one of random, default, search, got 'clever'"),
    ('[preset.x]\nfamily = "default"\nboldness = 1\n',
     "family 'default' has no parameter 'boldness'; its parameters: strike_distance, "),
    ('[preset.x]\nfamily = "default"\ncover = 2\n', "cover must be a number in 0–1, got 2"),
    ('[preset.x]\nfamily = "default"\ncover = "high"\n', "cover must be a number in 0–1, got 'high'"),
    ('[preset.x]\nfamily = "random"\nnoise = 1\n',
     "family 'random' has no parameter 'noise'; its parameters: none"),
    ('[preset.default]\nfamily = "default"\n', "'default' is a built-in strategy"),
    ('[preset.my-no-map]\nfamily = "default"\n', "no '-no-', which marks a restriction"),
    ('[presets.x]\nfamily = "default"\n',
     "only [preset.NAME] and [tuning.NAME] tables are allowed, found ['presets']"),
    ('[preset.x\n', "malformed TOML"),
])
def test_a_bad_presets_file_is_one_line_naming_the_file(tmp_path, text, message):
    file = tmp_path / "mine.toml"
    file.write_text(text)
    with pytest.raises(UserError) as e:
        presets.load(GAME, file)
    assert str(e.value).startswith(str(file)) and message in str(e.value)


def test_strategies_lists_families_parameters_presets_and_restrictions():
    rules = presets.with_presets(GAME.load_rules(None, []), presets.load(GAME, EXAMPLE))
    text = presets.describe(GAME, rules)
    for p in bots.PARAMETERS:
        assert f"{p.name} " in text and p.meaning in text
    for name in [*bots.strategy_names(), "patient-saboteurs", "suspicious-miners"]:
        assert f"  {name} " in text
    assert "strike_distance = 4, cover = 0.8   (--strategies-file)" in text
    assert "  rockfall " in text and "  pass " in text


def test_resolving_without_presets_is_unchanged():
    for name in bots.strategy_names():
        a, b = bots.resolve(name), bots.resolve(name, {})
        assert a[0] == b[0] and np.array_equal(a[1], b[1])
