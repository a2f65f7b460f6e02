"""A sweep's report leads with its response: the headline against the swept value, against
the target band (issue 40 item 3), not the What-if forest."""

import polars as pl
import pytest

from reports import whatif


def _frame(variants: list[str], setting: str = "7p default") -> pl.DataFrame:
    return pl.DataFrame({"setting": [setting] * len(variants), "variant": variants,
                         "rate": [0.5] * len(variants)})


@pytest.mark.parametrize("variants, key", [
    (["hand_size.7=5 (default)", "hand_size.7=4", "hand_size.7=6"], "hand_size.7"),
    (["bias=0.5 (default)", "bias=0.25"], "bias"),
    (["hand_size.7=5 (default)", "rounds=2"], None),  # two keys
    (["name=coins (default)", "name=dice"], None),  # words
    (["default rules", "fix"], None),  # rule files
])
def test_a_sweep_is_one_numeric_key_over_a_settings_variants(variants, key):
    found = whatif.sweep(pl.concat([_frame(variants), _frame(["default rules"], "5p default")]))
    assert (found and found[0]) == key
    if key:  # a setting of one variant (another player count) is no part of it
        assert found[1]["setting"].unique().to_list() == ["7p default"]


def test_a_sweeps_report_leads_with_its_response_against_the_target(simulate, tmp_path):
    code, _, err = simulate("saboteur", "--players", "7", "--set", "hand_size.7=4-6",
                            "--games", "30", "--seed", "1", "--workers", "1", "--quiet",
                            "--out", "sw")
    assert code == 0, err
    code, _, err = simulate("report", "sw", "--out", "rep")
    assert code == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    answer = text.split("## ")[1]
    assert "(charts/whatif_response.png)" in answer and "whatif_forest" not in answer
    whatif_part = text[text.index("## What-if"):]
    # the comparisons first (the terminal shows them), the response after them
    assert whatif_part.index("by variant, against") < whatif_part.index("rate against hand_size.7")
