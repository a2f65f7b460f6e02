"""A bot that changes one habit of the built-in `default` and keeps the rest: as a miner it
never breaks another player's tools (as a saboteur it plays exactly as `default`).

    simulate compare saboteur --players 7 \
        --strategies default,strategies/examples/peaceful_miner.py:PeacefulMiner

`view.suggest(strategy)` gives the move a built-in strategy would play in this position: here
`default`, or `default` restricted from breaking tools (`default-no-break`, the same strings as
`--forbid` makes). The bot plays the same games as `--strategy default --forbid miner:break`.
"""


class PeacefulMiner:
    def choose(self, view, legal_moves, rng):
        return view.suggest("default-no-break" if view.role == "miner" else "default")
