"""Per-core speed of each engine: the CPU seconds of this process playing a fixed number of
games of one configuration, so games/s per core = that number / the time. Each configuration
plays as many games as take about 0.3 CPU-s on the project's machine (at least 0.2 s: a
shorter timing is start-up and timer noise rather than a rate; Speed's 1,000 games took 11 ms)."""

import itertools

from benchmarks.common import (COMPILE_TIMEOUT, PLAYERS, PYTHON_BOT, SEED, configured,
                               process_cpu)
from sim import games


class _Playing:
    """Times `count(*params)` games of the configuration `table(*params)`."""

    timer = staticmethod(process_cpu)
    GAMES: dict
    """Games a timing plays, by the benchmark's parameters."""

    def count(self, *args) -> int:
        return self.GAMES[args if len(args) > 1 else args[0]]

    def setup_cache(self):
        """Compiles what the benchmarks play (or loads it from numba's cache) once, before any
        timing, so that a cold cache costs no benchmark its timeout."""
        for args in itertools.product(*self.params):
            game, rules, setup = configured(args[0], self.table(*args))
            game.play(rules, setup, SEED, 0, 1, 0)

    setup_cache.timeout = COMPILE_TIMEOUT

    def setup(self, *args):
        self.game, self.rules, self.config = configured(args[0], self.table(*args))
        self.games = self.count(*args)
        self.game.play(self.rules, self.config, SEED, 0, 2, 0)  # loads what it plays

    def play(self):
        self.game.play(self.rules, self.config, SEED, 0, self.games, 0)


class Engine(_Playing):
    """Every seat a built-in jitted bot: games/s per core = GAMES[game, strategy] / time."""

    params = [list(PLAYERS), ["random", "default"]]
    param_names = ["game", "strategy"]
    GAMES = {("saboteur", "random"): 6_000, ("saboteur", "default"): 1_500,
             ("deep-space", "random"): 2_500, ("deep-space", "default"): 5_000,
             ("sequence-stacks", "random"): 10_000, ("sequence-stacks", "default"): 10_000,
             ("spit", "random"): 5_000, ("spit", "default"): 3_000,
             ("speed", "random"): 100_000, ("speed", "default"): 80_000}

    @staticmethod
    def table(name, strategy):
        return (strategy,) * PLAYERS[name]

    def time_games(self, name, strategy):
        self.play()


class SearchSeat(_Playing):
    """One `search` seat among `default` bots: games/s per core = GAMES[game] / time."""

    params = [[name for name in PLAYERS if "search" in games.get(name).strategy_names()]]
    param_names = ["game"]
    GAMES = {"saboteur": 20, "deep-space": 10, "sequence-stacks": 20, "spit": 50, "speed": 150}

    @staticmethod
    def table(name):
        return ("search",) + ("default",) * (PLAYERS[name] - 1)

    def time_games(self, name):
        self.play()


class PythonDriver(_Playing):
    """A Python strategy (`FirstMove`) in every seat: games/s per core = GAMES[game] / time."""

    params = [list(PLAYERS)]
    param_names = ["game"]
    GAMES = {"saboteur": 400, "deep-space": 20, "sequence-stacks": 800, "spit": 100,
             "speed": 1_500}

    @staticmethod
    def table(name):
        return (PYTHON_BOT,) * PLAYERS[name]

    def time_games(self, name):
        self.play()
