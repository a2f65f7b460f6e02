"""Deep Space boards as data: a TOML map of planets, links, homes, the gem warp and covers,
checked on load and turned into the arrays the engine reads."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np

from sim.games.deep_space import files
from sim.errors import UserError

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_PLANETS = 64
UNREACHABLE = 99
# What a planet yields under fixed mining (`resource` in the board file); 0: none named.
RESOURCES = {"gem": 1, "ore": 2}


def read(path: str | Path) -> dict:
    """Gives a board file's contents, checked (see `check`); one-line UserError otherwise."""
    return files.read(path, "board", check)


def check(board: dict, where: str) -> None:
    """Raises a one-line UserError naming the first problem of a board, if it has one."""
    def fail(problem: str):
        raise UserError(f"{where}: {problem}")

    for key in board:
        if key not in ("name", "links", "planets", "warp", "seats", "covers"):
            fail(f"unknown key {key!r} (expected name, links, planets, warp, seats, covers)")
    if not isinstance(board.get("name"), str) or not board["name"]:
        fail("needs a name")
    planets = board.get("planets")
    if not isinstance(planets, dict) or not planets:
        fail("needs [planets] with at least one planet")
    if len(planets) > MAX_PLANETS:
        fail(f"has {len(planets)} planets, at most {MAX_PLANETS} fit")
    for name, spec in planets.items():
        if not isinstance(spec, dict) or not all(
                isinstance(spec.get(k), (int, float)) and not isinstance(spec.get(k), bool)
                for k in ("x", "y")):
            fail(f"planet {name!r} needs numbers x and y")
        home = spec.get("home", False)
        if set(spec) - {"x", "y", "home", "resource"} or not isinstance(home, bool):
            fail(f"planet {name!r} takes only x, y, home = true/false and resource")
        if "resource" in spec:
            if spec["resource"] not in RESOURCES:
                fail(f"planet {name!r}: resource must be \"gem\" or \"ore\", "
                     f"got {spec['resource']!r}")
            if home:
                fail(f"home station {name!r} is never mined and takes no resource")

    def known(name, what: str) -> str:
        if name not in planets:
            fail(f"unknown planet {name!r} in {what}")
        return name

    links = board.get("links")
    if not isinstance(links, list) or not links:
        fail("needs links, a list of planet pairs")
    for pair in links:
        if not isinstance(pair, list) or len(pair) != 2:
            fail(f"a link is a pair of planets, got {pair!r}")
        a, b = known(pair[0], "links"), known(pair[1], "links")
        if a == b:
            fail(f"planet {a!r} is linked to itself")
    warp = board.get("warp", {"planets": [], "x": 0.0, "y": 0.0})
    if not isinstance(warp, dict) or not isinstance(warp.get("planets"), list):
        fail("[warp] needs planets, a list (may be empty), and x, y")
    for name in warp["planets"]:
        if planets[known(name, "warp.planets")].get("home", False):
            fail(f"home station {name!r} cannot be linked to the warp")
    homes = {name for name, spec in planets.items() if spec.get("home", False)}
    linked = {name for pair in links for name in pair}
    for name in sorted(homes - linked):
        fail(f"home station {name!r} is not linked to any planet")
    seats, covers = board.get("seats"), board.get("covers", {})
    if not isinstance(seats, dict) or not isinstance(covers, dict):
        fail("needs [seats] (and [covers]) with one entry per player count")
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        seat_homes = seats.get(str(n))
        if not isinstance(seat_homes, list) or len(seat_homes) != n:
            fail(f"seats.{n} must list {n} home stations, one per seat")
        for name in seat_homes:
            if known(name, f"seats.{n}") not in homes:
                fail(f"seats.{n}: {name!r} is not a home station (home = true)")
        if len(set(seat_homes)) != n:
            fail(f"seats.{n} names a home station twice")
        covered = covers.get(str(n), [])
        if not isinstance(covered, list):
            fail(f"covers.{n} must be a list of planets")
        for name in covered:
            if known(name, f"covers.{n}") in homes:
                fail(f"covers.{n}: home station {name!r} cannot be covered")
    counts = {str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    for key in sorted((set(seats) | set(covers)) - counts):
        fail(f"player count {key!r} in seats/covers: Deep Space takes 2-4 players")
    names = list(planets)
    cut_off = [names[i] for i, d in enumerate(_distances(board, names, ())[0]) if d == UNREACHABLE]
    if cut_off:
        fail(f"the map is disconnected: {', '.join(cut_off)} cannot be reached from {names[0]}")
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        # A seat that cannot reach every open planet is cut off from bases others can build:
        # with both its neighbours covered it could never win.
        covered = set(covers.get(str(n), []))
        dist = _distances(board, names, covered)
        open_planets = [i for i, name in enumerate(names) if name not in homes | covered]
        for seat, home in enumerate(seats[str(n)]):
            sealed = [names[i] for i in open_planets if dist[names.index(home), i] == UNREACHABLE]
            if sealed:
                fail(f"with {n} players the covers cut seat {seat}'s home {home} off from "
                     f"{', '.join(sealed)}")


def _distances(board: dict, names: list[str], covered) -> np.ndarray:
    """Gives the moves between every two planets (through planets only, never through a home
    station or a covered planet, the warp being one move); UNREACHABLE where there is no way."""
    index = {name: i for i, name in enumerate(names)}
    p = len(names)
    adj = _adjacency(board, index)
    passable = np.array([not board["planets"][n].get("home", False) and n not in covered
                         for n in names])
    dist = np.full((p, p), UNREACHABLE, np.int64)
    for start in range(p):
        dist[start, start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here != start and not passable[here]:
                continue  # a home station or a cover is an end, never a way through
            for there in np.flatnonzero(adj[here]):
                if dist[start, there] == UNREACHABLE:
                    dist[start, there] = dist[start, here] + 1
                    queue.append(there)
    return dist


def _adjacency(board: dict, index: dict[str, int]) -> np.ndarray:
    """Gives int8[P, P]: 1 where two planets are linked, or both linked to the warp."""
    p = len(index)
    adj = np.zeros((p, p), np.int8)
    for a, b in board["links"]:
        adj[index[a], index[b]] = adj[index[b], index[a]] = 1
    warp = [index[n] for n in board.get("warp", {}).get("planets", [])]
    for a in warp:
        for b in warp:
            if a != b:
                adj[a, b] = 1
    return adj


def arrays(board: dict) -> dict[str, np.ndarray]:
    """Gives the board as engine arrays (planets numbered in file order):
    link int8[P, P] (by a link), warp int8[P], home int8[P], seat_home int64[5, 4] (player count,
    seat -> home), covered int8[5, P], resource int8[P] (RESOURCES, 0 for none), dist
    int64[5, P, P] (moves, per player count)."""
    names = list(board["planets"])
    index = {name: i for i, name in enumerate(names)}
    p = len(names)
    link = np.zeros((p, p), np.int8)
    for a, b in board["links"]:
        link[index[a], index[b]] = link[index[b], index[a]] = 1
    warp = np.zeros(p, np.int8)
    for name in board.get("warp", {}).get("planets", []):
        warp[index[name]] = 1
    home = np.array([int(board["planets"][n].get("home", False)) for n in names], np.int8)
    resource = np.array([RESOURCES.get(board["planets"][n].get("resource"), 0) for n in names],
                        np.int8)
    seat_home = np.full((MAX_PLAYERS + 1, MAX_PLAYERS), -1, np.int64)
    covered = np.zeros((MAX_PLAYERS + 1, p), np.int8)
    dist = np.full((MAX_PLAYERS + 1, p, p), UNREACHABLE, np.int64)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for seat, name in enumerate(board["seats"][str(n)]):
            seat_home[n, seat] = index[name]
        cover = board.get("covers", {}).get(str(n), [])
        for name in cover:
            covered[n, index[name]] = 1
        dist[n] = _distances(board, names, set(cover))
    return {"link": link, "warp": warp, "home": home, "seat_home": seat_home,
            "covered": covered, "resource": resource, "dist": dist}
