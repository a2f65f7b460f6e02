"""No Thanks! for tabletop-balance: a simple-level game (sim/simple.py), found through the
`tabletop_balance.games` entry point in this package's pyproject."""

from sim.simple import SimpleGame

from no_thanks import rules

GAME = SimpleGame(rules)
