"""Restricted play in Speed: `--forbid play_up` / `play_down` (Speed's only moves are plays; the
side-pile cards are turned up by both players at a stall, not chosen), as State.forbid bits."""

from functools import partial

from sim.spit import forbid

names = partial(forbid.names, kinds=forbid.DIRECTIONS)
mask = partial(forbid.mask, kinds=forbid.DIRECTIONS)
