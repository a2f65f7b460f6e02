"""Two different strategies of equal strength, for the head-to-head null that
record_head_to_head_null.py records: both play a uniformly random legal move, each from its
own random stream (`Uniform` from its seat's, `OwnStream` from one drawn afresh from it at
every decision), so neither ever replays the other's game."""

import random

SALT = 0x5DEECE66D


class Uniform:
    def choose(self, view, legal_moves, rng):
        return legal_moves[rng.randrange(len(legal_moves))]


class OwnStream:
    def choose(self, view, legal_moves, rng):
        own = random.Random(rng.getrandbits(64) ^ SALT)
        return legal_moves[own.randrange(len(legal_moves))]
