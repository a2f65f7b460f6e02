"""A Saboteur strategy in plain Python: miners dig straight at the goals, saboteurs wall them off.

    simulate saboteur --players 5 --seat-strategy 0=strategies/examples/saboteur_digger.py:Digger
    simulate compare saboteur --players 5 --games 500 \
        --strategies default,strategies/examples/saboteur_digger.py:Digger

`view` is a sim.games.saboteur.view.View (what this player may know), `legal_moves` a list of
sim.games.saboteur.view.Move (read their docstrings), `rng` a random.Random seeded for this seat and
game: use it for every random choice and runs stay reproducible.
"""


class Digger:
    def choose(self, view, legal_moves, rng):
        # Goals that may still hide the gold: not known to be coal.
        targets = [g for g in view.goals if g.kind != "coal"]
        knows_gold = any(g.kind == "gold" for g in view.goals)

        def distance(move):
            return min(abs(move.x - g.x) + abs(move.y - g.y) for g in targets)

        def moves(action, **wanted):
            return [m for m in legal_moves if m.action == action
                    and all(getattr(m, k) == v for k, v in wanted.items())]

        def through(move):
            return view.cards[move.card].through

        if view.role == "miner":
            if view.broken[view.seat] and moves("repair", target=view.seat):
                return rng.choice(moves("repair", target=view.seat))
            if not knows_gold:
                unknown = [m for m in moves("map") if view.goals[m.goal].kind is None]
                if unknown:
                    return rng.choice(unknown)
            digs = [m for m in moves("place") if through(m)]
            if digs:  # nearest the goals first, then cards that lead on east, towards them
                return min(digs, key=lambda m: (distance(m), "E" not in m.exits, rng.random()))
            passes = moves("pass")
            # Discard what a miner needs least: dead ends first, then broken tools.
            return min(passes, key=lambda m: (view.cards[m.card].through, m.card != "rockfall",
                                              view.cards[m.card].kind != "break"))

        walls = [m for m in moves("place") if not through(m)]
        if walls:
            return min(walls, key=lambda m: (distance(m), rng.random()))
        others = [m for m in moves("break") if m.target != view.seat]
        if others:
            return rng.choice(others)
        return rng.choice(moves("pass") or legal_moves)
