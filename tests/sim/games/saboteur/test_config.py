"""Rule changes the engine cannot play are refused with one clear line, before any game."""

import pytest

from sim.errors import UserError
from sim.games.saboteur import GAME


@pytest.mark.parametrize("change, message", [
    ("hand_size.7=9", "hand_size.7 must be between 1 and 8"),
    ("hand_size.5=0", "hand_size.5 must be between 1 and 8"),
    ("path_cards.cross.count=30", "at most 52 path cards fit the maze"),
    ("goals.distance=60", "goals.distance and goals.spacing"),
    ("gold.miner_draw_cap=100", "gold.miner_draw_cap must be at most 64"),
    ("options.round_end=never", "options.round_end must be one of hands_empty, all_pass"),
    ("miner_cards.6=1", "6 players need at least 6 role cards"),
    ("options.gold_share=all", "options.gold_share must be one of one_each, cards_per_player"),
])
def test_an_unplayable_rule_change_is_refused(change, message):
    with pytest.raises(UserError, match=message):
        GAME.load_rules(None, [change])


def test_a_playable_rule_change_is_kept():
    assert GAME.load_rules(None, ["hand_size.7=6"])["hand_size"]["7"] == 6


def test_the_gold_is_shared_one_card_per_miner_unless_told_otherwise():
    assert GAME.load_rules(None, [])["options"]["gold_share"] == "one_each"
    assert GAME.load_rules(None, ["options.gold_share=cards_per_player"])["options"]["gold_share"] \
        == "cards_per_player"
