"""A report's aggregations by game read a slab of chunks at a time (flat memory on huge runs):
summed over the slabs, they are the aggregations of the whole run in one pass."""

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from reports import sections
from reports.report import report_context
from reports.runs import game_named, open_runs


@pytest.fixture
def context(simulate, tmp_path):
    """Gives a report context of two runs of 600 games per configuration in chunks of 100,
    seats playing two strategies (so that strategies are ranked with their covariance)."""
    for seed in (1, 2):
        code, _, err = simulate("saboteur", "--players", "3,5", "--games", 600, "--chunk-size", 100,
                                "--seed", seed, "--workers", 1, "--quiet",
                                "--seat-strategy", "0=random", "--out", f"run{seed}")
        assert code == 0, err
    runs = open_runs([tmp_path / "run1", tmp_path / "run2"])
    return report_context(runs, game_named("saboteur"), tmp_path / "charts")


def aggregations(ctx) -> list[pl.DataFrame]:
    keys = ["configuration", "strategy"]
    totals = sections.with_wilson(sections.clustered_totals(ctx, "seats", keys, pl.col("won"))
                                  ).sort(keys)
    cov = sections.rate_covariance(ctx, "seats", totals, keys, pl.col("won"))
    fairness, _ = sections.seat_fairness(ctx, "configuration")
    return [totals, pl.DataFrame(cov), fairness.sort("configuration", "seat")]


def test_slabs_of_chunks_sum_to_one_pass_over_the_runs(context, monkeypatch):
    monkeypatch.setattr(sections, "SLAB", 10**9)
    whole = aggregations(context)
    assert len(context.slabs()) == 2  # a slab per run
    monkeypatch.setattr(sections, "SLAB", 250)
    context._once.clear()
    assert [len(chunks) for _, chunks in context.slabs()] == [2] * 12  # 1,200 games a run
    for sliced, one in zip(aggregations(context), whole):
        assert_frame_equal(sliced, one, check_exact=False, rel_tol=1e-12)


def test_quantiles_from_counts_are_polars_nearest(context):
    lf = context.scan("games", ["game_id"]).with_columns((pl.col("game_id") % 37).alias("x"))
    frame = context.collect(lf.group_by("configuration").agg(pl.len()), "games")
    qs = (0.1, 0.25, 0.5, 0.75, 0.9)
    want = context.collect(lf.group_by("configuration").agg(
        *[pl.col("x").quantile(q, "nearest").alias(f"p{int(100 * q)}") for q in qs]), "games")
    got = sections.with_quantiles(context, frame, lf, ["configuration"], "x", qs)
    assert_frame_equal(got.drop("len").sort("configuration"), want.sort("configuration"),
                       check_dtypes=False)
