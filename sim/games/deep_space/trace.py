"""Deep Space games as text: each turn's decisions in words, combats and the board each round."""

from typing import TextIO

from sim.games.deep_space.deck import EFFECTS
from sim.games.deep_space.engine import (
    BUILD,
    DISCARD,
    MOVE,
    PLAY,
    RECRUIT,
    TAKE,
    TRADE,
    mine_count,
    sacrifice_from,
)
from sim.games.deep_space.state import ACT, FIRST_SEAT, PHASE, PLAYERS, TURNS, WINNER


class Tracer:
    """Writes a game's events as text (the `watch` of play.play_python)."""

    def __init__(self, s, rs, planets: list[str], kinds: list[str], seats: tuple[str, ...],
                 out: TextIO):
        self.s, self.rs, self.planets, self.kinds, self.seats, self.out = s, rs, planets, kinds, seats, out
        self.turn = -1
        self.before = None
        self.phase = ACT
        self.mined = (s.gems_mined.copy(), s.ore_mined.copy())  # as last told

    def __call__(self, event: str, *args) -> None:
        getattr(self, "_" + event)(*args)

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def board(self) -> str:
        """Gives the board as lines: each planet with armies (seat x recruits, +dogs) or bases."""
        s = self.s
        lines = []
        for q, name in enumerate(self.planets):
            armies = [f"{seat}:{int(s.units[seat, q])}" + ("+dog" * int(s.dogs[seat, q]))
                      for seat in range(s.units.shape[0]) if s.units[seat, q]]
            bases = [str(seat) for seat in range(s.units.shape[0]) if s.base[seat, q]]
            if armies or bases:
                lines.append(f"  {name:>5}  {' '.join(armies) or '-':<16}"
                             + (f" bases of {','.join(bases)}" if bases else ""))
        return "\n".join(lines)

    def _start(self) -> None:
        self.say(f"seat {int(self.s.g[FIRST_SEAT])} rolled highest and starts")

    def _move(self, seat: int, move) -> None:
        s = self.s
        turn = int(s.g[TURNS])
        if turn != self.turn:
            self.turn = turn
            p = int(s.g[PLAYERS])
            if turn % p == 0:
                self.say(f"\n=== Round {turn // p + 1}\n{self.board()}")
            hand = ", ".join(self.kinds[self.rs.card_kind[c]] for c in s.hand[seat, :s.hand_n[seat]])
            self.say(f"-- turn {turn + 1}: seat {seat} ({self.seats[seat]}): {int(s.gems[seat])} gems,"
                     f" {int(s.ore[seat])} ore, {int(s.bases[seat])} bases, hand [{hand}]")
            gems, ore = self._mined_since(seat)
            if gems or ore:  # fixed mining happens as the turn begins, with no decision
                self.say(f"   seat {seat} mined {gems} gem(s), {ore} ore as the turn began (fixed mining)")
        self.phase = int(s.g[PHASE])
        self.before = (s.units.copy(), s.dogs.copy(), int(s.hand_n[seat]),
                       s.hand[seat].copy(), int(mine_count(s, self.rs, seat)),
                       int(sacrifice_from(s, self.rs, seat)), int(s.supply[seat]))

    def _after(self, seat: int, move) -> None:
        s, rs, names = self.s, self.rs, self.planets
        units, dogs, hand_n, hand, mined, source, supply = self.before
        action, a, b, c, d, e = (int(x) for x in move)
        if action == TAKE:
            text = f"mines {mined} planet(s): {a} gem(s), {mined - a} ore"
            self._mined_since(seat)
        elif action == MOVE:
            way = " through the warp" if e else ""
            text = f"moves {c}{' and ' + str(d) + ' dog(s)' if d else ''} from {names[a]}{way} to {names[b]}"
            text += self._combat(seat, b, units, dogs, c, d)
        elif action == RECRUIT:
            text = "recruits 1 with gems"
        elif action == TRADE:
            cards = [self.kinds[rs.card_kind[hand[k]]] for k in range(len(hand)) if a & (1 << k)]
            text = f"trades {', '.join(cards)} for a recruit"
        elif action == BUILD:
            text = f"builds a base on {names[a]} ({int(s.bases[seat])} bases)"
        elif action == PLAY:
            card = int(hand[a])
            kind, effect = self.kinds[rs.card_kind[card]], EFFECTS[rs.card_effect[card]]
            text = f"plays {kind}"
            if effect == "space_dog":
                text += f": a dog joins its army on {names[b]}"
            elif effect == "meteor_storm":
                text += (f" on seat {c}'s {int(units[c, b])} recruit(s) on {names[b]}"
                         f" (sacrificing 1 on {names[source]})")
        elif action == DISCARD:
            text = f"discards {self.kinds[rs.card_kind[hand[a]]]}"
        elif self.phase == ACT:
            gained = supply - int(s.supply[seat])
            text = "ends its actions" + (f"; reinforcements: +{gained} at home" if gained > 0 else "")
        else:
            text = "ends the turn"
        if s.hand_n[seat] > hand_n:
            drawn = ", ".join(self.kinds[rs.card_kind[k]] for k in s.hand[seat, hand_n:s.hand_n[seat]])
            text += f"; draws {drawn}"
        self.say(f"   seat {seat} {text}")
        if s.g[WINNER] >= 0:
            self.say(f"\nseat {int(s.g[WINNER])} wins with {int(s.bases[int(s.g[WINNER])])} bases")

    def _mined_since(self, seat: int) -> tuple[int, int]:
        """Gives the gems and ore `seat` mined since it was last told, and marks them told."""
        s, (gems, ore) = self.s, self.mined
        out = (int(s.gems_mined[seat] - gems[seat]), int(s.ore_mined[seat] - ore[seat]))
        gems[seat], ore[seat] = s.gems_mined[seat], s.ore_mined[seat]
        return out

    def _combat(self, seat, planet, units, dogs, moved, dogs_moved) -> str:
        """Gives the words for the combat a move started (empty when there was none)."""
        s = self.s
        defenders = [o for o in range(units.shape[0]) if o != seat and units[o, planet] > 0]
        if not defenders:
            return ""
        def losses(o, arrived, dogs_arrived):
            return int(units[o, planet] + arrived - s.units[o, planet]
                       + dogs[o, planet] + dogs_arrived - s.dogs[o, planet])

        lost = losses(seat, moved, dogs_moved)
        parts = [f"seat {o} loses {losses(o, 0, 0)}" for o in defenders]
        outcome = "holds the planet" if s.units[seat, planet] > 0 else "is wiped out"
        return f": combat! attacker loses {lost}, " + ", ".join(parts) + f"; the attacker {outcome}"

    def _end(self) -> None:
        s = self.s
        self.say(f"\n{self.board()}")
        if s.g[WINNER] < 0:
            self.say(f"the turn cap is reached: stalled after {int(s.g[TURNS])} turns")
        self.say("Final: " + ", ".join(
            f"seat {seat} {int(s.bases[seat])} bases" + (" (wins)" if seat == s.g[WINNER] else "")
            for seat in range(int(s.g[PLAYERS]))))

