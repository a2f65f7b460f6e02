"""The numbers a flag names: a number, a list or a range."""

import pytest

from sim.counts import parse_counts
from sim.errors import UserError


@pytest.mark.parametrize("text, counts", [
    ("7", [7]),
    ("5,7", [5, 7]),
    ("3-6", [3, 4, 5, 6]),
    ("3-4, 8,4", [3, 4, 8]),
])
def test_counts_are_a_number_a_list_or_a_range(text, counts):
    assert parse_counts("--players", text) == counts


@pytest.mark.parametrize("text", ["", "x", "3-", "5-3", "3,,4", "-2"])
def test_other_counts_are_refused_naming_the_flag(text):
    with pytest.raises(UserError, match="^--players"):
        parse_counts("--players", text)
