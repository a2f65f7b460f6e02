"""`simulate balance` under chosen bots: every game of the search and of the fresh measure is
played by the strategies --strategy and --role-strategy name, and the answer says which."""

import json

from sim.run.store import Run


def test_role_strategies_play_every_game_of_the_search_and_are_named(simulate, tmp_path):
    code, out, err = simulate("balance", "saboteur", "--players", "4", "--vary",
                              "hand_size.4=5,6", "--role-strategy", "miner=random",
                              "--strategy", "default", "--games", "20", "--precision", "0.3",
                              "--seed", "2", "--workers", "1", "--out", "b")
    assert code == 0, err
    assert "played by miner=random saboteur=default." in out.splitlines()[0]
    folders = [*(tmp_path / "b" / "search").iterdir(), tmp_path / "b" / "fresh"]
    assert len(folders) == 2
    for folder in folders:
        for setup in Run.open(folder).manifest["setups"]:
            assert setup["roles"] == [["miner", "random"], ["saboteur", "default"]]
    toml = (tmp_path / "b" / "balanced.toml").read_text()
    assert "played by miner=random saboteur=default" in toml


def test_an_unknown_role_is_one_line_and_writes_nothing(simulate, tmp_path):
    code, _, err = simulate("balance", "saboteur", "--players", "4", "--vary", "hand_size.4=5,6",
                            "--role-strategy", "thief=random", "--workers", "1", "--out", "b")
    assert code == 2
    assert err == "error: saboteur has no role 'thief'; its roles: miner, saboteur\n"
    assert not (tmp_path / "b").exists()


def test_the_api_takes_role_strategies(tmp_path):
    from sim import api

    text = api.balance("saboteur", players=4, vary=["hand_size.4=6"],
                       role_strategies={"saboteur": "random"}, games=20, precision=0.3, seed=2,
                       workers=1, out=tmp_path / "b")
    assert "played by miner=default saboteur=random." in text
    manifest = json.loads((tmp_path / "b" / "fresh" / "manifest.json").read_text())
    assert manifest["setups"][0]["roles"] == [["miner", "default"], ["saboteur", "random"]]
