"""A Deep Space strategy in plain Python: settle the nearest free planets, never pick a fight.

    simulate deep-space --players 4 --seat-strategy 0=strategies/examples/deep_space_settler.py:Settler
    simulate compare deep-space --players 4 --games 500 \
        --strategies default,strategies/examples/deep_space_settler.py:Settler

`view` is a sim.games.deep_space.view.View (what this player may know), `legal_moves` a list of
sim.games.deep_space.view.Move (read their docstrings), `rng` a random.Random seeded for this seat and
game: use it for every random choice and runs stay reproducible.
"""


class Settler:
    def choose(self, view, legal_moves, rng):
        board, me = view.board, view.seat

        def moves(action):
            return [m for m in legal_moves if m.action == action]

        if view.phase == "mine":  # ore until the next base is paid for, then gems
            need = max(0, board.base_ore - view.ore[me])
            return max(moves("take"), key=lambda m: (min(m.ore, need), m.gems))
        if view.phase == "redraw":
            return moves("end")[0]
        planets = {p.name: p for p in view.planets}

        def mine(name):
            return planets[name].recruits[me]

        if moves("build"):
            return moves("build")[0]
        cards = [m for m in moves("play") if view.cards[m.card].effect != "meteor_storm"]
        if cards:  # a dog joins its largest army
            return max(cards, key=lambda m: mine(m.planet) if m.planet else 0)
        if moves("recruit"):
            return moves("recruit")[0]
        if moves("trade"):  # cards it cannot play now are worth a recruit
            return moves("trade")[0]

        home = board.homes[me]

        def enemies(name):
            return sum(n for seat, n in enumerate(planets[name].recruits) if seat != me)

        sites = [name for name, p in planets.items() if name not in board.homes and me not in
                 p.bases and name not in board.covered and enemies(name) == 0]
        if not sites:
            return moves("end")[0]
        # gather where most of its recruits already are, else on the free planet nearest home
        target = max(sites, key=lambda n: (mine(n), -board.distance[home][n], n))

        def spare(name):  # recruits that may leave a planet: a settled one keeps its miners
            if name == target:
                return 0
            return mine(name) - (board.mine_recruits if me in planets[name].bases else 0)

        squads = [m for m in moves("move") if not m.warp and enemies(m.planet) == 0
                  and m.recruits == spare(m.origin)
                  and board.distance[m.planet][target] < board.distance[m.origin][target]]
        if squads:
            return max(squads, key=lambda m: (m.recruits, m.dogs, rng.random()))
        return moves("end")[0]
