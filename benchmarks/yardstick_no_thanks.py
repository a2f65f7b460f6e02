"""The yardstick of a designer's game: No Thanks! as a hobbyist would write it in plain Python
(lists, one loop, no framework), timed in games per CPU-second.

    python -m benchmarks.yardstick_no_thanks [--players 3] [--policy pass] [--games 20000]
                                             [--repeat 5]

The rules are examples/games/no_thanks's at its default rules (cards 3 to 35, nine removed
unseen, 11 chips each at 3 to 5 players): the player to move pays a chip onto the face-up card
or takes it with its chips (and decides on the next card); a player without chips must take;
each run of cards scores its lowest card, chips subtract, the lowest total wins (ties share).
The policies are those No Thanks! ships, every seat playing the same one: `pass` (pass while
it has chips: the yardstick of issue 41), `default`, `greedy` and `stingy` (its `default`
family at greed 0.4, 0.2 and 0.7), and `random`. What the bundled game is measured against:
docs/own-game.md#speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

LOWEST, HIGHEST, REMOVED = 3, 35, 9
CHIPS = {3: 11, 4: 11, 5: 11, 6: 9, 7: 7}
GREED = {"default": 0.4, "greedy": 0.2, "stingy": 0.7}
RUN_WAIT, RESERVE = 1.0, 2.0  # the default family's other two parameters, at their defaults


def takes(policy: str, card: int, pot: int, chips: int, hand: list[int], rng) -> bool:
    """Gives whether a seat with `chips` (at least one) and `hand` takes `card` with `pot`."""
    if policy == "pass":
        return False
    if policy == "random":
        return rng.random() < 0.5
    if card - 1 in hand or card + 1 in hand:
        return pot >= RUN_WAIT
    if pot >= GREED[policy] * card:
        return True
    return chips <= RESERVE and card - pot <= card / 2


def score(hand: list[int]) -> int:
    """Gives the points of a hand: the lowest card of each run of consecutive cards."""
    return sum(card for card in hand if card - 1 not in hand)


def play(players: int, policy: str, rng: random.Random) -> list[int]:
    """Plays one game; gives its winners."""
    deck = list(range(LOWEST, HIGHEST + 1))
    rng.shuffle(deck)
    del deck[:REMOVED]
    chips = [CHIPS[players]] * players
    hands = [[] for _ in range(players)]
    seat, pot = 0, 0
    card = deck.pop()
    while True:
        if chips[seat] and not takes(policy, card, pot, chips[seat], hands[seat], rng):
            chips[seat] -= 1
            pot += 1
            seat = (seat + 1) % players
            continue
        hands[seat].append(card)
        chips[seat] += pot
        pot = 0
        if not deck:
            break
        card = deck.pop()
    totals = [score(hand) - chip for hand, chip in zip(hands, chips)]
    best = min(totals)
    return [s for s, total in enumerate(totals) if total == best]


def rate(players: int, policy: str, games: int, repeat: int, seed: int = 1) -> float:
    """Gives games per CPU-second: the median of `repeat` timings of `games` games."""
    rates = []
    for _ in range(repeat):
        rng = random.Random(seed)
        start = time.process_time()
        for _ in range(games):
            play(players, policy, rng)
        rates.append(games / (time.process_time() - start))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.yardstick_no_thanks",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3, choices=sorted(CHIPS))
    parser.add_argument("--policy", default="pass", choices=["pass", *GREED, "random"])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    games_per_s = rate(args.players, args.policy, args.games, args.repeat)
    print(f"plain-Python No Thanks!, {args.players} players, every seat {args.policy}: "
          f"{games_per_s:,.0f} games per CPU-second (median of {args.repeat} timings of "
          f"{args.games:,} games)")


if __name__ == "__main__":
    main()
