"""The configs, presets and example bots ship in the package and are found from any folder."""

from pathlib import Path

from sim import games, packaged
from sim.rules import load_rules

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_reads_its_configs_file_from_the_package():
    shipped = packaged.configs()
    for name in games.names():
        assert (shipped / f"{name.replace('-', '_')}.toml").is_file()
    assert (shipped / "deep_space" / "board.toml").is_file()


def test_docs_paths_fall_back_to_the_installed_copies_outside_a_clone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    presets = packaged.user_file("configs/saboteur-presets.toml")
    assert presets.is_file() and presets.is_absolute()
    bot = packaged.user_file("strategies/examples/saboteur_digger.py")
    assert bot.read_text() == (ROOT / "strategies" / "examples" / "saboteur_digger.py").read_text()


def test_a_users_own_file_comes_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "configs").mkdir()
    mine = tmp_path / "configs" / "saboteur.toml"
    mine.write_text("rounds = 1\n")
    assert packaged.user_file("configs/saboteur.toml") == Path("configs/saboteur.toml")
    assert load_rules("saboteur", "configs/saboteur.toml", [])["rounds"] == 1
    assert packaged.user_file("configs/nothing.toml") == Path("configs/nothing.toml")
    assert packaged.user_file("elsewhere/saboteur.toml") == Path("elsewhere/saboteur.toml")
