"""Speed's own report sections: those of Spit (reports/spit.py), in hands instead of deals."""

from reports.sections import game_section
from reports.spit import SECTIONS

for _section in SECTIONS:
    game_section("speed")(_section)
