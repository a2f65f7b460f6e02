"""`simulate tune`: the objective plays the same deals for every candidate, the presets file
loads, the gain is measured on other seeds, a tuning resumes, bad input is one line."""

import json

import numpy as np
import pytest

from sim.run import cluster

from sim import games

from sim.studies import tune
from strategies import presets

SABOTEUR = games.get("saboteur")
RULES = SABOTEUR.load_rules(None, [])
SABOTEUR_KINDS = ("path", "dead_end", "break", "repair", "map", "rockfall", "pass")


def settings(side, **changes) -> tune.Settings:
    values = dict(game="saboteur", players=4, family="default", rules=RULES, side=side,
                  trials=3, games=40, gain_games=60, seed=11)
    return tune.Settings(**{**values, **changes})


def saboteurs() -> tune.Side:
    return tune.make_side(SABOTEUR, RULES, 4, "default", None, "saboteur", None, "default")


def same(a: tune.Scores, b: tune.Scores) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[c], b[c]) for c in a)


def test_the_objective_is_the_same_for_the_same_candidate_and_deals():
    side = saboteurs()
    values = {**dict(side.start), "strike_distance": 20.0}
    first = tune.Players(1).play(tune.tasks(settings(side), side, values, 11, 0, 30, 1))
    again = tune.Players(1).play(tune.tasks(settings(side), side, values, 11, 0, 30, 1))
    assert same(first, again)


def test_a_slice_of_games_scores_as_those_games_of_the_whole():
    side = saboteurs()
    whole = tune.Players(1).play(tune.tasks(settings(side), side, dict(side.start), 11, 0, 40, 1))
    halves = tune.Players(1).play(tune.tasks(settings(side), side, dict(side.start), 11, 0, 40, 2))
    late = tune.Players(1).play(tune.tasks(settings(side), side, dict(side.start), 11, 25, 40, 1))
    assert same(whole, halves) and same({c: v[25:] for c, v in whole.items()}, late)


def test_every_candidate_plays_the_same_deals():
    # Roles are dealt with the cards: two candidates see the same saboteur seats in every
    # game (the same trials), and differ only in how many of those rounds they win.
    side = saboteurs()
    start = dict(side.start)
    bold = tune.Players(1).play(tune.tasks(settings(side), side, {**start, "strike_distance": 30.0},
                                           11, 0, 60, 1))
    timid = tune.Players(1).play(tune.tasks(settings(side), side, {**start, "strike_distance": 0.0},
                                            11, 0, 60, 1))
    assert np.array_equal(bold["t"], timid["t"]) and bold["t"].sum() > 0
    assert not np.array_equal(bold["s"], timid["s"])


@pytest.mark.parametrize("role, seat, against, strategies", [
    ("saboteur", None, "default", None),  # every seat the candidate, scored in its role
    ("miner", None, "default", {"saboteur": "random"}),  # the other role plays its own bot
    (None, 2, "random", None),  # one seat
    (None, None, "random", None),  # each seat in turn
])
def test_the_engines_arrays_score_as_the_tables_do(role, seat, against, strategies):
    # tune scores Saboteur's slices from the engine's arrays (Saboteur.outcomes), not from the
    # tables the runs write: both give the same scores, game by game, the moves counted too
    side = tune.make_side(SABOTEUR, RULES, 5, "default", None, role, seat, against, strategies)
    values = {**dict(side.start), "noise": 0.5} if role is None else dict(side.start)
    for task in tune.tasks(settings(side, players=5), side, values, 11, 3, 43, 1, True):
        arrays, tables = tune.score(task), tune.score_tables(task)
        assert same(arrays, tables) and arrays["t"].sum() > 0
        assert 0 < arrays["s"].sum() < arrays["t"].sum()
        # every seat the candidate plays is counted, with --role-strategy too (its seats'
        # labels name both roles' bots: counting by label found none, and printed nan)
        assert (arrays["seats"] == (5 if role else 1)).all()
        assert arrays["uses_path"].sum() > 0


def test_two_workers_score_as_one_and_start_one_process():
    # the tuning process plays every other task itself: one worker process to start, not two
    import multiprocessing

    side = saboteurs()
    tasks = tune.tasks(settings(side), side, dict(side.start), 11, 0, 60, 2, True)
    before = set(multiprocessing.active_children())
    with tune.Players(2) as players:
        assert len(tasks) == 2 and same(players.play(tasks), tune.Players(1).play(tasks))
        assert len(set(multiprocessing.active_children()) - before) == 1


def test_with_a_role_only_that_roles_parameters_are_searched():
    side = saboteurs()
    assert side.names == ("strike_distance", "cover", "fellow_at")
    assert tune.setups(side, 4)[0].seats == (tune.CANDIDATE,) * 4


def test_without_a_seat_the_candidate_sits_in_each_seat_in_turn():
    side = tune.make_side(SABOTEUR, RULES, 3, "default", "noise", None, None, "random")
    assert [s.seats for s in tune.setups(side, 3)] == [
        (tune.CANDIDATE, "random", "random"), ("random", tune.CANDIDATE, "random"),
        ("random", "random", tune.CANDIDATE)]


def test_usage_counts_the_tuned_seats_moves_of_each_kind_per_seat_game():
    side = tune.make_side(SABOTEUR, RULES, 4, "default", None, None, 1, "random")
    start = dict(side.start)
    with tune.Players(1) as players:
        gain = tune.measure(settings(side, gain_games=30), side, start,
                            {**start, "noise": 2.0}, 11, players)
    seats = SABOTEUR.play(tune.rules_with(RULES, "default", side, start),
                          tune.setups(side, 4)[0], 11, 0, 30, 0)["seats"]
    kinds = [c.removeprefix("uses_") for c in seats.columns if c.startswith("uses_")]
    tuned_seat = seats.filter(seat=1)
    assert gain.usage.kinds == tuple(kinds) and gain.usage.seat_games == 30
    assert gain.usage.start == pytest.approx([tuned_seat[f"uses_{k}"].mean() for k in kinds])
    assert gain.usage.start != gain.usage.tuned


def test_a_tuned_preset_equal_to_the_start_uses_the_same():
    side = saboteurs()
    with tune.Players(1) as players:
        gain = tune.measure(settings(side, gain_games=30), side, dict(side.start),
                            dict(side.start), 11, players)
    assert gain.usage.start == gain.usage.tuned and gain.usage.seat_games == 4 * 30
    assert gain.usage.kinds == SABOTEUR_KINDS and sum(gain.usage.start) > 0


def test_held_out_seeds_are_not_the_searchs():
    seeds = {tune.held_out_seed(seed) for seed in range(50)}
    assert len(seeds) == 50 and not seeds & set(range(50))


@pytest.mark.parametrize("sampler", ["tpe", "cmaes"])
def test_a_run_seed_of_63_bits_seeds_the_samplers(sampler):
    tune._sampler(sampler, 2 ** 63 - 25)  # optuna's generators take 32 bits: this raised


def test_a_resumed_search_keeps_its_finished_trials(tmp_path):
    side = saboteurs()
    with tune.Players(1) as players:
        tune.search(settings(side, trials=2), side, tmp_path, "step-1", players, True)
        import optuna

        before = [t.params for t in optuna.load_study(
            study_name="step-1", storage=tune.storage(tmp_path)).trials]
        tune.search(settings(side, trials=4), side, tmp_path, "step-1", players, True)
    after = optuna.load_study(study_name="step-1", storage=tune.storage(tmp_path))
    assert len(after.trials) == 4 and [t.params for t in after.trials[:2]] == before
    assert before[0] == {n: dict(side.start)[n] for n in side.names}  # the start is tried first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study.log"]  # a journal, not SQLite


def test_a_search_begun_in_sqlite_continues_there(tmp_path):
    # tunings before the journal kept their trials in study.db: rerunning one resumes it
    import optuna

    side = saboteurs()
    optuna.create_study(study_name="step-1", storage=f"sqlite:///{tmp_path / 'study.db'}",
                        direction="maximize").enqueue_trial({n: dict(side.start)[n]
                                                             for n in side.names})
    with tune.Players(1) as players:
        tune.search(settings(side, trials=2), side, tmp_path, "step-1", players, True)
    study = optuna.load_study(study_name="step-1", storage=f"sqlite:///{tmp_path / 'study.db'}")
    assert len(study.trials) == 2 and not (tmp_path / "study.log").exists()


def test_a_tuning_writes_presets_that_load_and_a_held_out_gain(simulate, tmp_path):
    code, out, err = simulate("tune", "saboteur", "--players", "4", "--role", "saboteur",
                              "--trials", "3", "--games", "40", "--gain-games", "60",
                              "--seed", "5", "--workers", "1", "--out", "t")
    assert (code, err) == (0, "")
    assert "gain" in out and "tuned-saboteur" in out
    loaded = presets.load(SABOTEUR, tmp_path / "t" / "tuned.toml")
    assert loaded["tuned-saboteur"]["family"] == "default"
    gain = json.loads((tmp_path / "t" / "gain.json").read_text())["steps"][0]
    assert gain["search"]["seed"] == 5 and gain["held_out"]["seed"] != 5
    assert gain["held_out"]["low"] <= gain["held_out"]["gain"] <= gain["held_out"]["high"]
    usage = gain["held_out"]["usage"]
    assert tuple(usage["per_seat_game"]) == SABOTEUR_KINDS and usage["seat_games"] == 4 * 60
    # a role moves between seats, and a seat's moves are counted over its game: every seat's
    assert "uses per seat-game of every seat, in whichever role it held" in out
    assert "rockfall" in out and usage["every_seat"]
    code, listed, err = simulate("strategies", "saboteur", "--strategies-file", "t/tuned.toml")
    assert code == 0 and "tuned-saboteur" in listed
    # the same command again continues the tuning: every trial is there, none is played
    tuned = (tmp_path / "t" / "tuned.toml").read_text().splitlines()[1:]  # after the command
    code, again, err = simulate("tune", "saboteur", "--players", "4", "--role", "saboteur",
                                "--trials", "3", "--games", "40", "--gain-games", "60",
                                "--workers", "1", "--out", "t")
    assert code == 0 and "0 games in" in again
    assert (tmp_path / "t" / "tuned.toml").read_text().splitlines()[1:] == tuned


def test_alternation_writes_every_steps_presets(simulate, tmp_path):
    code, out, err = simulate("tune", "saboteur", "--players", "4", "--alternate", "2",
                              "--role", "saboteur", "--trials", "2", "--games", "24",
                              "--gain-games", "40", "--seed", "3", "--workers", "1",
                              "--out", "alt", "--quiet")
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("step ")]
    assert out.count("uses per seat-game of every seat") == 2 + 1  # each step, the last
    assert lines[0].startswith("step 1: saboteurs' round-win rate per saboteur seat")
    assert lines[1].startswith("step 2: miners' round-win rate per miner seat")
    assert "miners' round-win rate" in lines[1]
    for step in (1, 2):
        assert f"tuned-saboteur-step-{step}" in presets.load(SABOTEUR, tmp_path / "alt" /
                                                              f"step-{step}.toml")
    # the final presets file records every step's held-out gain, as data the ladder reads
    gains = json.loads((tmp_path / "alt" / "gain.json").read_text())["steps"]
    held = tune.held_out(tmp_path / "alt" / "tuned.toml")
    assert list(held) == ["tuned-saboteur"]
    assert [(s["step"], s["tuned"], s["games"], s["gain"], s["low"], s["high"], s["p"])
            for s in held["tuned-saboteur"]] == [
        (g["step"], g["tuned"], 40, g["held_out"]["gain"], g["held_out"]["low"],
         g["held_out"]["high"], g["held_out"]["p"]) for g in gains]
    text = (tmp_path / "alt" / "tuned.toml").read_text()
    assert text.count("# gain on held-out seed") == 2 and "--alternate 2" in text.splitlines()[0]
    assert list(tune.held_out(tmp_path / "alt" / "step-1.toml")) == ["tuned-saboteur-step-1"]


def test_a_presets_files_tuning_table_that_does_not_read_is_one_line(tmp_path):
    from sim.errors import UserError

    (tmp_path / "t.toml").write_text('[preset.x]\nfamily = "default"\n\n'
                                     '[tuning.x]\nheld_out = [{ tuned = "a", gain = 0.1 }]\n')
    with pytest.raises(UserError, match=r"\[tuning.x\] needs held_out"):
        tune.held_out(tmp_path / "t.toml")
    assert presets.load(SABOTEUR, tmp_path / "t.toml") == {"x": {"family": "default"}}


@pytest.mark.parametrize("args, message", [
    (["saboteur", "--family", "wild"], "no bot family 'wild'"),
    (["saboteur", "--family", "random"], "no parameters to tune"),
    (["saboteur", "--params", "courage"], "no parameter 'courage'"),
    (["saboteur", "--role", "wizard"], "no role 'wizard'"),
    (["saboteur", "--role", "miner", "--params", "noise"], "also changes how the other roles"),
    (["sequence-stacks", "--role", "miner"], "sequence-stacks has no roles"),
    (["saboteur", "--trials", "0"], "--trials must be at least 1"),
    (["saboteur", "--games", "-5"], "--games must be at least 1"),
    (["saboteur", "--against", "nobody"], "unknown strategy 'nobody'"),
    (["saboteur", "--strategies-file", "missing.toml"], "missing.toml"),
    (["saboteur", "--seat", "9"], "no seat 9"),
    (["saboteur", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler needs --backend dask"),
    (["saboteur", "--backend", "spark"], "--backend must be one of local, dask"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(simulate, tmp_path, args, message):
    code, _, err = simulate("tune", *args[:1], "--players", "4", *args[1:], "--out", "t")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t").exists()


def test_a_tuning_on_dask_is_the_tuning_played_here(simulate, tmp_path):
    distributed = pytest.importorskip("distributed")
    tuning = ("tune", "saboteur", "--players", "4", "--role", "saboteur", "--trials", "2",
              "--games", "24", "--gain-games", "30", "--seed", "5", "--quiet")
    code, here, err = simulate(*tuning, "--workers", "1", "--out", "here")
    assert code == 0, err
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as running:
        code, there, err = simulate(*tuning, "--backend", "dask", "--scheduler",
                                    running.scheduler_address, "--out", "there")
    assert code == 0, err

    def steps(folder):
        gain = json.loads((tmp_path / folder / "gain.json").read_text())["steps"]
        for step in gain:
            del step["search"]["seconds"]
        return gain

    assert steps("there") == steps("here")
    assert there.split("search:")[1].split(";")[0] == here.split("search:")[1].split(";")[0]


def test_an_unreachable_scheduler_is_one_line_and_writes_nothing(simulate, tmp_path,
                                                                 monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    code, _, err = simulate("tune", "saboteur", "--players", "4", "--trials", "1", "--games", "10",
                            "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--out", "t")
    assert code == 2 and "cannot reach the Dask scheduler" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "t").exists()


def test_the_tuned_preset_of_a_game_named_with_no_is_not_read_as_a_restriction():
    from sim.studies.tune import tuned_name
    from strategies.seats import parse

    assert tuned_name("saboteur") == "tuned-saboteur"
    assert parse(tuned_name("no-thanks")) == (tuned_name("no-thanks"), ())
