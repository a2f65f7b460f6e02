"""Saboteur games as text: the maze drawn with characters, and each move in words."""

from typing import TextIO

from sim.games.saboteur.cards import BREAK, MAP, REPAIR, ROCKFALL, TOOL_NAMES
from sim.games.saboteur.engine import PLACE
from sim.games.saboteur.state import (DEAD_END, EMPTY, FINDER, GOAL_HIDDEN, GOAL_SHOWN, MINERS_WON,
                                ORIGIN, ROUND_TURNS, START, THROUGH, TURN_SEAT)

ROLES = ("miner", "saboteur")
CENTRES = {START: "S", THROUGH: "+", DEAD_END: "x"}


def sides(exits: int) -> str:
    """Gives a card's open sides as letters, e.g. 'NEW'."""
    return "".join(c for bit, c in ((1, "N"), (2, "E"), (4, "S"), (8, "W")) if exits & bit) or "-"


def draw_maze(s, rs) -> str:
    """Gives the maze as text, three characters a side per card (x grows east, y grows south):
    S start, + through card, x dead end, ? goal face down, G gold, c coal."""
    ys, xs = s.cell.nonzero()
    goal_cells = {(ORIGIN + int(rs.goal_xy[i, 0]), ORIGIN + int(rs.goal_xy[i, 1])): i for i in range(3)}
    lines = ["     " + "".join(f"{x - ORIGIN:^3d}" for x in range(xs.min(), xs.max() + 1))]
    for y in range(ys.min(), ys.max() + 1):
        rows = ["", "", ""]
        for x in range(xs.min(), xs.max() + 1):
            kind, e = int(s.cell[y, x]), int(s.exits[y, x])
            if kind == EMPTY:
                block = ("   ", " . ", "   ")
            elif kind == GOAL_HIDDEN:
                block = ("   ", " ? ", "   ")
            else:
                centre = CENTRES.get(kind, "")
                if kind == GOAL_SHOWN:
                    centre = "G" if s.goal_kind[goal_cells[(x, y)]] == 0 else "c"
                block = (" | " if e & 1 else "   ",
                         ("-" if e & 8 else " ") + centre + ("-" if e & 2 else " "),
                         " | " if e & 4 else "   ")
            for i in range(3):
                rows[i] += block[i]
        lines.append(f"     {rows[0]}".rstrip())
        lines.append(f"{y - ORIGIN:+4d} {rows[1]}".rstrip())
        lines.append(f"     {rows[2]}".rstrip())
    return "\n".join(lines)


class Tracer:
    """Writes a game's events as text: roles each round, every move, the maze, gold paid."""

    def __init__(self, s, rs, names: list[str], seats: tuple[str, ...], out: TextIO,
                 by_role: list[tuple[str, ...]]):
        """by_role[role][seat]: the bot the seat plays in that role, named with its moves."""
        self.s, self.rs, self.names, self.seats, self.out = s, rs, names, seats, out
        self.by_role = by_role

    def __call__(self, event: str, *args) -> None:
        getattr(self, "_" + event)(*args)

    def _round(self, r: int) -> None:
        s = self.s
        roles = ", ".join(f"{seat}:{ROLES[int(s.role[seat])]}" for seat in range(len(self.seats)))
        print(f"\n=== Round {r + 1} — {int(s.role.sum())} saboteur(s) in play; seat "
              f"{int(s.g[TURN_SEAT])} starts\nroles: {roles}", file=self.out)
        print(draw_maze(s, self.rs), file=self.out)

    def _move(self, seat: int, move, card: int) -> None:
        s = self.s
        action, a, b, c = int(move[0]), int(move[2]), int(move[3]), int(move[4])
        role = int(s.role[seat])
        who = f"seat {seat} ({ROLES[role]}, {self.by_role[role][seat]})"
        name = self.names[card]
        if action == PLACE:
            text = f"places {name} [{sides(c)}] at ({a - ORIGIN},{b - ORIGIN})"
        elif action == BREAK:
            text = f"breaks the {TOOL_NAMES[c]} of seat {a}" if a != seat else f"breaks own {TOOL_NAMES[c]}"
        elif action == REPAIR:
            text = f"repairs the {TOOL_NAMES[c]} of seat {a} ({name})"
        elif action == MAP:
            gx, gy = int(self.rs.goal_xy[a, 0]), int(self.rs.goal_xy[a, 1])
            found = "gold" if s.goal_kind[a] == 0 else "coal"
            text = f"looks at the goal at ({gx},{gy}) with a map: {found}"
        elif action == ROCKFALL:
            text = f"drops a rockfall on ({a - ORIGIN},{b - ORIGIN})"
        else:
            text = f"passes, discarding {name}"
        print(f"[{int(s.g[ROUND_TURNS])}] {who} {text}", file=self.out)
        if action in (PLACE, ROCKFALL):
            print(draw_maze(s, self.rs), file=self.out)

    def _round_end(self, r: int) -> None:
        s = self.s
        if s.g[MINERS_WON]:
            print(f"The gold is reached by seat {int(s.g[FINDER])}: the miners win round {r + 1}.",
                  file=self.out)
        else:
            print(f"The cards are out: the saboteurs win round {r + 1}.", file=self.out)
        paid = ", ".join(f"{seat}:+{int(g)}" for seat, g in enumerate(s.round_gold) if g)
        totals = " ".join(f"{seat}:{int(g)}" for seat, g in enumerate(s.gold))
        print(f"gold paid: {paid or 'none'}; totals: {totals}", file=self.out)
