"""Speed's own report sections: those of Spit (reports/spit.py), in hands instead of deals."""

from reports.sections import game_section
from reports.spit import SECTIONS
from reports.verdicts import Target, declare

declare("speed", Target(None, above="seat 0", below="seat 1"))

for _section in SECTIONS:
    game_section("speed")(_section)
