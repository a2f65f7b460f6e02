"""Every malformed invocation of every command ends in exactly one line on stderr and exit
code 2: no usage box, no traceback, and nothing written.

(`simulate` or `simulate trace` alone shows the help, exit code 2: asking for nothing is not
malformed, and is left out.)"""

import pytest

RUN = ["--games", "10", "--workers", "1", "--quiet"]

MALFORMED = [
    # the command itself
    ["nosuchgame"], ["--nosuchflag"], ["games", "extra"], ["games", "--players", "3"],
    ["trace", "nosuchgame"], ["bench", "nosuchgame"],
    # Saboteur's run command: every flag's bad values
    ["saboteur"], ["saboteur", "--players"], ["saboteur", "--players", "abc"],
    ["saboteur", "--players", "0"], ["saboteur", "--players", "11"],
    ["saboteur", "--players", "3-3000000000"], ["saboteur", "--players", "5-3"],
    ["saboteur", "--players", "3", "--games", "abc"], ["saboteur", "--players", "3", "--games", "0"],
    ["saboteur", "--players", "3", "--games", "-1"],
    ["saboteur", "--players", "3", "--games", str(10**19)],
    ["saboteur", "--players", "3", "--seed", "x"], ["saboteur", "--players", "3", "--seed", "-1"],
    ["saboteur", "--players", "3", "--seed", str(2**63)],
    ["saboteur", "--players", "3", "--workers", "0"],
    ["saboteur", "--players", "3", "--workers", "1000"],
    ["saboteur", "--players", "3", "--workers", "two"],
    ["saboteur", "--players", "3", "--out", ""], ["saboteur", "--players", "3", "--out", "afile"],
    ["saboteur", "--players", "3", "--out", "stuff"],
    ["saboteur", "--players", "3", "--strategy", "nosuch"],
    ["saboteur", "--players", "3", "--seat-strategy", "9=default"],
    ["saboteur", "--players", "3", "--seat-strategy", "x"],
    ["saboteur", "--players", "3", "--set", "nokey=1"],
    ["saboteur", "--players", "3", "--set", "rounds=1000000000"],
    ["saboteur", "--players", "3", "--set", "rounds=abc"],
    ["saboteur", "--players", "3", "--set", "noequals"],
    ["saboteur", "--players", "3", "--config", "missing.toml"],
    ["saboteur", "--players", "3", "--config", "malformed.toml"],
    ["saboteur", "--players", "3", "--until-ci", "2"],
    ["saboteur", "--players", "3", "--until-ci", "abc"],
    ["saboteur", "--players", "3", "--backend", "spark"],
    ["saboteur", "--players", "3", "--scheduler", "tcp://127.0.0.1:9"],
    ["saboteur", "--players", "3", "--resume"],
    ["saboteur", "--players", "3", "--resume", "--out", "nothing"],
    ["saboteur", "--players", "3", "--bot-timeout", "-1"],
    ["saboteur", "--players", "3", "--bot-timeout", "soon"],
    ["saboteur", "--players", "3", "--forbid", "nosuchcard"],
    ["saboteur", "--players", "3", "--strategies-file", "missing.toml"],
    ["saboteur", "--players", "3", "--strategy", "missing.py:Bot"],
    ["saboteur", "--players", "3", "--chunk-size", "0"],
    # the last of two strategies for one seat played, without a word
    ["saboteur", "--players", "3", "--seat-strategy", "0=random", "--seat-strategy", "0=default"],
    ["saboteur", "--players", "3", "--set", "path_cards.cross.exits=NNNN"],  # accepted
    ["saboteur", "--players", "3", "--bot-timeout", "0.00001"],  # the run froze
    ["saboteur", "--players", "3", "--config", "deep.toml"],  # RecursionError
    ["saboteur", "--players", "3", "--set", f"rounds={'[' * 5000}1{']' * 5000}"],
    ["saboteur", "--players", "3", "--config", "/dev/zero"],  # read until killed (22 GB)
    ["saboteur", "--players", "3", "--saboteurs", "abc"],
    ["saboteur", "--players", "3", "--saboteurs", "1-3000000000"],
    ["saboteur", "--players", "3", "--saboteurs", "9"],
    # the other games' run commands
    ["sequence-stacks"], ["sequence-stacks", "--players", "7"],
    ["sequence-stacks", "--players", "4", "--set", "turn_cap=1000000000"],
    ["sequence-stacks", "--players", "4", "--games", "abc"],
    ["deep-space", "--players", "9"], ["deep-space", "--players", "2", "--board", "missing.toml"],
    ["deep-space", "--players", "2", "--seed", str(10**30)],
    ["spit", "--players", "3"], ["spit", "--reaction", "0=abc"],
    ["spit", "--reaction-profile", "nosuch"], ["speed", "--players", "2-3000000000"],
    ["speed", "--out", ""],
    # trace
    ["trace", "saboteur"], ["trace", "saboteur", "--players", "11"],
    ["trace", "saboteur", "--players", "abc"],
    ["trace", "saboteur", "--players", "3", "--game-index", "-1"],
    ["trace", "saboteur", "--players", "3", "--game-index", str(10**19)],
    ["trace", "saboteur", "--players", "3", "--game-index", "x"],
    ["trace", "saboteur", "--players", "3", "--seed", str(2**64)],
    ["trace", "saboteur", "--players", "3", "--strategy", "nosuch"],
    ["trace", "spit", "--players", "3"],
    ["trace", "deep-space", "--players", "2", "--bot-timeout", "-5"],
    # bench
    ["bench", "saboteur", "--games", "0"], ["bench", "saboteur", "--repeat", "0"],
    ["bench", "saboteur", "--strategies", "nosuch"], ["bench", "saboteur", "--strategies", ","],
    ["bench", "saboteur", "--players", "11"], ["bench", "saboteur", "--players", "3-3000000000"],
    ["bench", "saboteur", "--games", "abc"], ["bench", "saboteur", "--games", str(10**19)],
    ["bench", "saboteur", "--games", "100001"],
    ["bench", "saboteur", "--scaling-games", str(10**19)],
    ["bench", "saboteur", "--memory-games", str(10**19)],
    # resume
    ["resume"], ["resume", "nothing"], ["resume", "afile"], ["resume", "stuff"],
    ["resume", ""],
    # report
    ["report"], ["report", "nothing"], ["report", "afile"], ["report", "stuff"],
    # compare
    ["compare"], ["compare", "saboteur"], ["compare", "saboteur", "--players", "3"],
    ["compare", "nosuchgame", "--strategies", "random,default", "--players", "3"],
    ["compare", "saboteur", "--strategies", "random", "--players", "3"],
    ["compare", "saboteur", "--strategies", "random,nosuch", "--players", "3"],
    ["compare", "saboteur", "--strategies", "random,default", "--players", "abc"],
    ["compare", "saboteur", "--strategies", "random,default", "--players", "11"],
    ["compare", "saboteur", "--strategies", "random,default", "--players", "3", "--games", "0"],
    ["compare", "saboteur", "--strategies", "random,default", "--players", "3", "--out", ""],
    # strategies
    ["strategies"], ["strategies", "nosuchgame"],
    ["strategies", "saboteur", "--strategies-file", "missing.toml"],
    ["strategies", "saboteur", "--strategies-file", "malformed.toml"],
    # new-game: names whose package cannot import, shadows a module, replaces an installed
    # package (pip install -e numpy uninstalled numpy) or is a command
    ["new-game", "class"], ["new-game", "for"], ["new-game", "numpy"], ["new-game", "os"],
    ["new-game", "sim"], ["new-game", "reports"], ["new-game", "strategies"],
    ["new-game", "games"], ["new-game", "report"], ["new-game", "new-game"],
]


@pytest.fixture
def folder(tmp_path):
    """Gives the working folder, holding a file, a folder that is no run, a malformed TOML, a
    file that is not UTF-8 text and a TOML array 5,000 deep."""
    (tmp_path / "afile").write_text("not a run")
    (tmp_path / "stuff").mkdir()
    (tmp_path / "stuff" / "notes.txt").write_text("not a run either")
    (tmp_path / "malformed.toml").write_text("rounds = [\n")
    (tmp_path / "notutf8.toml").write_bytes(b"\xff\xfe\x00bad")
    (tmp_path / "deep.toml").write_text(f"rounds = {'[' * 5000}1{']' * 5000}\n")
    return tmp_path


def _contents(path):
    return sorted((str(p.relative_to(path)), p.is_dir()) for p in path.rglob("*"))


@pytest.mark.parametrize("args", MALFORMED, ids=" ".join)
def test_a_malformed_invocation_is_one_line_and_exit_2(simulate_games, folder, args):
    before = _contents(folder)
    extra = RUN if args and args[0] in ("saboteur", "sequence-stacks", "deep-space", "spit",
                                        "speed") else []
    code, _, err = simulate_games(*args[:1], *extra, *args[1:])
    assert code == 2, err
    assert err.count("\n") == 1 and err.strip(), err
    assert "Traceback" not in err and "Usage:" not in err, err
    assert _contents(folder) == before


@pytest.mark.parametrize("out, message", [
    ("afile", "error: --out afile is a file; name a folder for the run"),
    ("stuff", "error: --out stuff is a folder of other files, not a run; name a new or empty folder"),
    ("", "error: Invalid value for '--out': an empty name is no folder "
         "(see 'simulate saboteur --help')"),
])
def test_an_out_that_cannot_be_a_run_says_so_without_advising_resume(simulate_games, folder,
                                                                     out, message):
    code, _, err = simulate_games("saboteur", "--players", "3", "--out", out, *RUN)
    assert (code, err) == (2, message + "\n")


@pytest.mark.parametrize("args, named", [
    (["saboteur", "--players", "3", *RUN, "--config", "notutf8.toml"], "notutf8.toml"),
    (["saboteur", "--players", "3", *RUN, "--strategies-file", "notutf8.toml"], "notutf8.toml"),
    (["deep-space", "--players", "2", *RUN, "--board", "notutf8.toml"], "board notutf8.toml"),
    (["deep-space", "--players", "2", *RUN, "--deck", "notutf8.toml"], "deck notutf8.toml"),
    (["ladder", "saboteur", "--players", "3", "--games", "10", "--tuned", "notutf8.toml"],
     "notutf8.toml"),
    (["trace", "saboteur", "--players", "3", "--config", "notutf8.toml"], "notutf8.toml"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_file_that_is_not_utf8_is_one_line_naming_it(simulate_games, folder, args, named):
    before = _contents(folder)
    code, _, err = simulate_games(*args)
    assert (code, err) == (2, f"error: {named}: not UTF-8 text (a TOML file is UTF-8)\n")
    assert _contents(folder) == before
