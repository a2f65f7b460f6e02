"""The player process of `python -m benchmarks.compare`: plays the configurations it is sent,
in whichever copy of the project is first on its PYTHONPATH, and answers with the CPU seconds
they took and a hash of the tables they made.

Run as a script (`python benchmarks/player.py`), so that it imports nothing of the copy the
comparing process runs from. It uses only what every revision compared has kept the same:
`sim.games.get`, `Game.load_rules`, `Game.check`, `Game.play` and `sim.game.Setup`.

The protocol is one JSON object a line. It first writes {"sim": sim's folder, "games": the
game names, "strategies": {game: strategy names}}; then, for each request line {"game",
"seats", "games", "seed", "dose"}, plays games [0, games) of that configuration and writes
{"cpu": CPU seconds, "hash": the tables' SHA-256}. An empty line ends it. A "dose" above 0
burns that fraction of the games' CPU seconds more within the timing (see `burn`).
"""

import hashlib
import json
import sys
import time
from pathlib import Path


def burn(seconds: float) -> None:
    """Spends `seconds` of this process's CPU on busy work: a slowdown of known size, outside
    the engines (which it must not change), that `compare --dose` checks the gate catches."""
    end = time.process_time() + seconds
    state = 1
    while time.process_time() < end:
        for _ in range(200):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64


def main() -> None:
    import sim
    from sim import games
    from sim.game import Setup

    def reply(answer: dict) -> None:
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()

    strategies = {}
    for name in games.names():
        try:
            strategies[name] = games.get(name).strategy_names()
        except Exception:  # noqa: BLE001 - a plugin newer than this revision's sim: not timed
            continue
    reply({"sim": str(Path(sim.__file__).resolve().parent), "games": list(strategies),
           "strategies": strategies})
    for line in sys.stdin:
        if not line.strip():
            break
        asked = json.loads(line)
        game = games.get(asked["game"])
        rules = game.load_rules(None, [])
        setup = Setup(len(asked["seats"]), tuple(asked["seats"]))
        game.check(rules, setup)
        start = time.process_time()
        tables = game.play(rules, setup, asked["seed"], 0, asked["games"], 0)
        burn((time.process_time() - start) * asked.get("dose", 0))
        cpu = time.process_time() - start
        digest = hashlib.sha256()
        for name in sorted(tables):
            digest.update(name.encode())
            digest.update(tables[name].write_csv().encode())
        reply({"cpu": cpu, "hash": digest.hexdigest()})


if __name__ == "__main__":
    main()
