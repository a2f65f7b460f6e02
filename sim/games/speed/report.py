"""Speed's own report sections: those of Spit (sim/games/spit/report.py), in hands instead of deals."""

from reports.sections import game_section
from sim.games.spit.report import SECTIONS


for _section in SECTIONS:
    game_section("speed")(_section)
