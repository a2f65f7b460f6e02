"""What the reports' technical column headers mean, in a line each: the HTML report gives each
header a hover title and a link to its entry in the report's own "Words used" section (the
documentation's docs/glossary.md says more)."""

from __future__ import annotations

import re

WORDS: dict[str, str] = {
    "n": "how many trials the rate counts (games, rounds or seat-games: the note under the "
         "table says which)",
    "games": "games played",
    "wins": "trials won (seats that tie all win)",
    "rate": "the share of trials won: wins / n",
    "low": "lower end of the 95% interval: the lowest rate consistent with the games played",
    "high": "upper end of the 95% interval: the highest rate consistent with the games played",
    "target": "what balanced means for the headline (Saboteur: miners win 50% of rounds; "
              "elsewhere a fair share, 1 / players)",
    "vs target": "the rate minus the target, in percentage points",
    "vs target low": "lower end of the 95% interval of the distance to the target",
    "vs target high": "upper end of the 95% interval of the distance to the target",
    "verdict": "the interval read against the target: balanced within ±2 points, favouring a "
               "side when it excludes the target, else not yet distinguishable",
    "p": "how often chance alone would give a difference this large: below 0.05 is called "
         "significant",
    "significance": "the p-value in words",
    "fair share": "a seat's rate if every seat were equally placed: 1 / players",
    "even": "a seat's rate if all seats were equally strong (winning seats per game / seats)",
    "vs even": "the seat's rate minus even, in percentage points",
    "balance": "1 − the largest gap between two seats' win rates (1 = every seat equal)",
    "gap": "the best seat's win rate minus the worst seat's",
    "weight": "the rung's share of the empirical game's equilibrium mix (no rung beats the mix "
              "on average)",
    "played in": "the share of bootstrap resamples of the deals whose equilibrium plays the rung",
    "against the rung below": "whether the rung beats the one below it head to head (p < 5%)",
    "gap p": "could the gap between the best and the worst seat be luck?",
    "gap significance": "gap p in words",
    "Q": "Cochran's Q: how far the seats' wins are from equal, all seats at once",
    "dof": "degrees of freedom of Q: seats − 1",
    "seats differ": "could the seats all be equally strong? (Q's p in words)",
    "vs first": "the row's rate minus the first row's of its group, in percentage points",
    "vs baseline": "the variant's headline minus the baseline's, in percentage points",
    "vs baseline low": "lower end of the 95% interval of the difference from the baseline",
    "vs baseline high": "upper end of the 95% interval of the difference from the baseline",
    "pairing": "whether the difference compares the same deals (paired) or not",
    "width vs unpaired": "how much narrower pairing made the interval (0.5 = half as wide)",
    "paired deals": "the deals both rungs played, which the difference compares",
    "vs lower rung": "the top rung's headline minus the lower rung's, in percentage points",
    "across the top two rungs": "stable, depends on skill, or not settled (more games would "
                                "tell)",
    "conclusion": "what the rung's rate says against the target at the 5% level",
    "configuration": "one thing a run plays: player count, bots, rules and game options",
    "variant": "what keeps rows apart besides the player count: the rules changed, the run, "
               "the bots or the ladder's rung",
    "rung": "a level of play on the skill ladder (random, default, tuned, search)",
    "stalled": "games the rules could not finish (no winner)",
    "sd": "standard deviation: the spread of single values around the mean",
    "profile key": "the figure a designer's profile targets (docs: A designer's profile)",
    "estimate": "the figure as these games measure it",
    "range low": "the lowest value the profile accepts",
    "range high": "the highest value the profile accepts",
    "against its range": "met when the 95% interval lies inside the range, missed when wholly "
                         "outside it, else cannot tell at this sample size",
}
TERMS = {**WORDS, **{f"p{q}": f"{q}% of games end within this many turns"
                     for q in (10, 25, 50, 75, 90)}}


def meaning(header: str) -> str | None:
    """Gives a column header's one-line meaning, or None for a plain word."""
    return TERMS.get(header)


def anchor(header: str) -> str:
    """Gives the id of a header's entry in the report's "Words used" section."""
    return "w-" + re.sub(r"[^a-z0-9]+", "-", header.lower()).strip("-")
