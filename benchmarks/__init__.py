"""The benchmark suite of airspeed velocity (asv): `asv run`, `asv continuous main HEAD`.

Every timing is CPU time (of this process, or of the `simulate` command it starts), so that a
busy shared machine does not distort it. docs/development.md#benchmark-history says how to run it.
"""
