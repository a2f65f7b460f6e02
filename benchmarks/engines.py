"""Per-core speed of each engine: the CPU seconds of this process playing a fixed number of
games of one configuration, so games/s per core = that number / the time."""

import itertools

from benchmarks.common import (COMPILE_TIMEOUT, PLAYERS, PYTHON_BOT, SEED, configured,
                               process_cpu)
from sim import games


class _Playing:
    """Times `games` games of the configuration `table(*params)`."""

    timer = staticmethod(process_cpu)
    games: int

    def setup_cache(self):
        """Compiles what the benchmarks play (or loads it from numba's cache) once, before any
        timing, so that a cold cache costs no benchmark its timeout."""
        for args in itertools.product(*self.params):
            game, rules, setup = configured(args[0], self.table(*args))
            game.play(rules, setup, SEED, 0, 1, 0)

    setup_cache.timeout = COMPILE_TIMEOUT

    def setup(self, *args):
        self.game, self.rules, self.config = configured(args[0], self.table(*args))
        self.game.play(self.rules, self.config, SEED, 0, 2, 0)  # loads what it plays

    def play(self):
        self.game.play(self.rules, self.config, SEED, 0, self.games, 0)


class Engine(_Playing):
    """Every seat a built-in jitted bot: games/s per core = 1,000 / time."""

    params = [list(PLAYERS), ["random", "default"]]
    param_names = ["game", "strategy"]
    games = 1_000

    @staticmethod
    def table(name, strategy):
        return (strategy,) * PLAYERS[name]

    def time_1000_games(self, name, strategy):
        self.play()


class SearchSeat(_Playing):
    """One `search` seat among `default` bots: games/s per core = 10 / time."""

    params = [[name for name in PLAYERS if "search" in games.get(name).strategy_names()]]
    param_names = ["game"]
    games = 10

    @staticmethod
    def table(name):
        return ("search",) + ("default",) * (PLAYERS[name] - 1)

    def time_10_games(self, name):
        self.play()


class PythonDriver(_Playing):
    """A Python strategy (`FirstMove`) in every seat: games/s per core = 100 / time."""

    params = [list(PLAYERS)]
    param_names = ["game"]
    games = 100

    @staticmethod
    def table(name):
        return (PYTHON_BOT,) * PLAYERS[name]

    def time_100_games(self, name):
        self.play()
