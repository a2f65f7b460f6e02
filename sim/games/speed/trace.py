"""Speed games as text: each hand's deal, then the race event by event with timestamps."""

from sim.games.speed import engine
from sim.games.speed.state import HAND_NO, HAND_WINNER, WINNER
from sim.games.spit.trace import RaceTracer


class Tracer(RaceTracer):
    """Writes a Speed game's events: hands (both shown), plans, plays or drops, stalls, scores."""

    def _hand(self, seat: int) -> str:
        s = self.s
        cards = " ".join(self.names[int(c)] if c >= 0 else "__" for c in s.hand[seat])
        return f"seat {seat}: {cards} | draw pile {int(s.draw_n[seat])}"

    def _centre(self) -> str:
        s = self.s
        return " | ".join(f"pile {b}: {self.names[int(s.centre[b, s.centre_n[b] - 1])]} "
                          f"({int(s.centre_n[b])})" for b in range(2))

    def _deal(self) -> None:
        s = self.s
        print(f"\n=== Hand {int(s.g[HAND_NO]) + 1}; side piles {int(s.side_n[0])}/"
              f"{int(s.side_n[1])}; scores {int(s.score[0])}-{int(s.score[1])}", file=self.out)
        for seat in range(2):
            print("  " + self._hand(seat), file=self.out)
        self._print("go! " + self._centre())

    def _play_text(self, seat: int, card: int) -> str:
        return f"{self.names[card]} onto centre pile {int(self.c.plan[seat, 2])}"

    def _plan(self, seat: int) -> None:
        card = int(self.s.hand[seat, self.c.plan[seat, 1]])
        self._print(f"seat {seat} plans to play {self._play_text(seat, card)} "
                    f"(lands at {self.c.due[seat]:.3f}s)")

    def _land(self, seat: int, status: int, card: int) -> None:
        if status == engine.DROPPED:
            self._print(f"seat {seat}'s {self._play_text(seat, card)} is dropped: no longer legal "
                        f"({self._centre()})")
            return
        self._print(f"seat {seat} plays {self._play_text(seat, card)}; {self._centre()}; "
                    f"{self._hand(seat)}")
        if status == engine.CAPPED:
            self._print("the move cap is reached: the game is recorded as stalled")

    def _stall(self, over: bool) -> None:
        if over:
            self._print("stall that no side pile can resolve: the game is recorded as stalled")
        else:
            s = self.s
            self._print(f"stall: nobody can play; side-pile cards turned up: {self._centre()}; "
                        f"side piles {int(s.side_n[0])}/{int(s.side_n[1])}")

    def _hand_end(self, over: bool) -> None:
        s = self.s
        winner = int(s.g[HAND_WINNER])
        self._print(f"seat {winner} is out of cards and wins the hand; scores "
                    f"{int(s.score[0])}-{int(s.score[1])}")
        if over:
            self._print(f"seat {int(s.g[WINNER])} wins the game" if s.g[WINNER] >= 0
                        else "the hand cap is reached: the game stalled")
