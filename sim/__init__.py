"""tabletop-balance: Monte Carlo balance simulation for tabletop games."""

__version__ = "0.1.0"
