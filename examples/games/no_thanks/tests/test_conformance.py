"""No Thanks! keeps every promise of a tabletop-balance game (sim/testing.py)."""

import pytest

from no_thanks import GAME
from sim import testing


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
def test_conformance(check):
    check(GAME)
