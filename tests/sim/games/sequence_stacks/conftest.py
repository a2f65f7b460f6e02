"""Fixtures: Sequence Stacks tables built by hand (see sequence_stacks_positions.py)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests here import the builder by name
from sequence_stacks_positions import Table



@pytest.fixture
def new_table():
    """Gives the Table class, to build a table with other players or rule options."""
    return Table
