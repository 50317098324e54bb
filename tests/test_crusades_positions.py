"""Crusades positions (docs/rules_crusades.md, "A battle in play"): a saved position played on
is the battle never stopped (every example, turns 1, 3 and 7), every impossible position is
refused by line naming the unit and the rule, a decided position answers at once, the odds
are the position's battles played by hand, the morale tests due now, the fair auto-battle."""
import json
import math
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import pytest

from odds import OddsError, crusades
from odds.crusades.battles.battle import one_battle, script
from odds.crusades.battles.inputs import scenario_of
from odds.crusades.positions.autobattle import autobattle, digest_of
from odds.crusades.positions.from_here import (answer_json, morale_now, options, pending,
                                               play_on, position_odds)
from odds.crusades.positions.position import load_position
from odds.crusades.positions.saved import stopped
from odds.crusades.simulator import state as S
from odds.frontends.cli.main import main

EXAMPLES = {name: str(crusades.EXAMPLES / f"{name}.toml") for name in ("field", "assault", "sortie")}
EVENTS = 200_000
SEED = 11
UNITS = {S.EV_MOVE: (1,), S.EV_SHOT: (1, 2), S.EV_MELEE: (1, 2), S.EV_HIT: (1,),
         S.EV_MORALE: (1,), S.EV_ESCAPE: (1,)}  # the event columns that hold a unit


def long_battle(sc, rounds):
    """The first battle of SEED lasting more than `rounds` rounds: (index, final, events)."""
    for index in range(200):
        _, final, log = one_battle(sc, script(None), SEED, index, events=EVENTS)
        if final[S.NFU, 1] > rounds:
            return index, final, log[1:log[0, 0] + 1]
    raise AssertionError("no battle lasts that long")


def mapped(events, idx):
    """Events with the units renumbered from the stopped battle's to the position's."""
    back = {old: new for new, old in enumerate(idx)}
    out = []
    for row in events.tolist():
        for c in UNITS.get(row[0], ()):
            row[c] = back[row[c]]
        out.append(row)
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_resume_is_the_battle_never_stopped(name):
    sc = scenario_of(EXAMPLES[name])
    index, full, events = long_battle(sc, 7)
    start_of = {int(r[1]): k for k, r in reversed(list(enumerate(events.tolist()))) if r[0] == S.EV_TURN}
    for turn in (1, 3, 7):
        text = stopped(sc, turn=turn, seed=SEED, index=index)
        pos = load_position(text, name=f"{name}@{turn}")
        assert pos.turn == turn + 1
        _, cut, _ = one_battle(sc, script(None), SEED, index, stop=turn)
        idx = [j for j in range(int(cut[S.NFU, 4])) if cut[S.UST, j] <= S.FLEEING]
        assert pos.n == len(idx) > 0
        _, again, log = play_on(pos, events=EVENTS)
        assert again[S.NFU, :2].tolist() == full[S.NFU, :2].tolist()  # outcome, round
        assert again[S.NFU, 3] == 1  # every invariant held after every side's turn
        fields = [f for f in range(S.NFU) if f != S.UMOVED]  # UMOVED: a count within a turn
        assert (again[fields, :pos.n] == full[fields][:, idx]).all()
        after = events[start_of[turn + 1]:]
        assert log[1:log[0, 0] + 1].tolist() == mapped(after, idx)


def test_a_battle_decided_before_the_stop_is_saved_as_it_ended():
    sc = scenario_of(EXAMPLES["field"])
    _, full, _ = one_battle(sc, script(None), SEED, 0)
    rnd = int(full[S.NFU, 1])
    assert full[S.NFU, 0] != 4 and rnd < 19
    pos = load_position(stopped(sc, turn=rnd + 1, seed=SEED, index=0), name="ended")
    _, again, _ = play_on(pos)
    assert again[S.NFU, :2].tolist() == full[S.NFU, :2].tolist()
    res = position_odds(pos, progress=False)
    assert res.trials == 0 and max(res["attacker_win"], res["defender_win"], res["undecided"]) == 1


BASE = """title = "hand-written"
scenario = "assault"
turn = 5
to_move = "defender"

[gone.attacker]
killed = { spearmen = 1 }

[[unit]]
side = "attacker"
type = "spearmen"
cell = [2, 5]
health = 6

[[unit]]
side = "defender"
type = "spearmen"
cell = [2, 6]
health = 3
damage_this_turn = 4

[[unit]]
side = "attacker"
type = "knights"
cell = [8, 2]
health = 8
"""


def unit(**fields):
    return "\n[[unit]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items())


def refused(text, *words):
    with pytest.raises(OddsError) as e:
        load_position(text, name="pos.toml")
    message = str(e.value)
    assert "\n" not in message
    for word in words:
        assert word in message, (word, message)
    return message


def test_the_hand_written_position_is_read():
    pos = load_position(BASE, name="pos.toml")
    assert pos.n == 3 and pos.turn == 5 and pos.to_move == 1 and pos.first == 0
    assert pos.scenario.counts[0].sum() == 2 and pos.gone == {"attacker": {"killed": {"spearmen": 1}}}


def test_two_units_on_a_cell_are_refused_by_line():
    text = BASE + unit(side="defender", type="archers", cell=[8, 2], health=4)
    line = text.splitlines().index('cell = [8, 2]', len(BASE.splitlines())) + 1
    refused(text, f"line {line}:", "unit 4 (defender archers at [8, 2])", "holds unit 3",
            "one unit a cell")


def test_a_unit_on_a_wall_it_cannot_climb_is_refused():
    refused(BASE.replace("cell = [8, 2]", "cell = [8, 6]"), "line 25:",
            "unit 3 (attacker knights at [8, 6])", "wall", "mounted units cannot climb walls")


def test_health_above_the_type_is_refused():
    refused(BASE.replace("health = 8", "health = 9"), "line 26:", "unit 3 (attacker knights)",
            "9 is above the knights' health 8")


def test_a_mounted_unit_inside_walls_is_refused():
    refused(BASE.replace("cell = [8, 2]", "cell = [8, 8]"), "line 25:",
            "unit 3 (attacker knights at [8, 8])", "mounted unit inside walls")


def test_a_fleeing_unit_hit_this_turn_is_refused():
    text = BASE.replace("health = 3\n", 'health = 3\nstate = "fleeing"\n')
    refused(text, "line 21:", "unit 2 (defender spearmen at [2, 6])", "fleeing unit surrender")


@pytest.mark.parametrize("change, words", [
    (("turn = 5", "turn = 22"), ("line 3: turn", "22 is out of range (allowed: 1 to 21)")),
    (('to_move = "defender"', 'to_move = "nobody"'), ("line 4: to_move", "'nobody' is not allowed")),
    (('scenario = "assault"', 'scenario = "nowhere"'), ("line 2: scenario", "neither a file")),
    (('type = "knights"', 'type = "dragons"'), ("line 24:", "unit 3", "'dragons' is not allowed")),
    (("cell = [8, 2]", "cell = [12, 2]"), ("line 25:", "cell x", "12 is out of range")),
    (("health = 6", "health = 0"), ("line 13:", "unit 1", "0 is out of range")),
    (("health = 6", 'health = 6\nmorale = 3'), ("line 14:", "morale: unknown key")),
    (("killed = { spearmen = 1 }", "slain = { spearmen = 1 }"), ("gone.attacker.slain",)),
])
def test_a_mistake_is_refused_naming_its_field(change, words):
    refused(BASE.replace(*change), *words)


def test_too_many_units_and_a_bad_stream_are_refused():
    cells = [[x, y] for y in (0, 1) for x in range(12)][:21]
    many = 'scenario = "field"\n' + "".join(unit(side="attacker", type="militia", cell=c, health=4)
                                            for c in cells)
    refused(many, "21 units on the board")
    refused(BASE.replace("turn = 5", 'stream = ["0x1", "2"]\nturn = 5'), "stream")


def test_a_random_first_player_must_be_named():
    import tomllib

    scenario = tomllib.loads(open(EXAMPLES["assault"]).read())
    scenario["rules"] = {"first_player": "random"}
    table = tomllib.loads(BASE.replace('scenario = "assault"', ""))
    refused_table = {**table, "scenario": scenario}
    with pytest.raises(OddsError, match="first_player: missing: the rules draw who moves first"):
        load_position(refused_table)
    assert load_position({**refused_table, "first_player": "defender"}).first == 1


@pytest.mark.parametrize("edit, outcome", [
    (("cell = [8, 2]", "cell = [5, 9]"), "attacker_win"),  # the knights... on the city's HQ
    (("damage_this_turn = 4", 'state = "fleeing"'), "attacker_win"),  # no active defender
    (("turn = 5", "turn = 21"), "undecided"),  # past the turn limit
])
def test_a_decided_position_answers_at_once(edit, outcome):
    text = BASE.replace(*edit)
    if edit[1] == "cell = [5, 9]":  # a foot unit: the knights cannot get there
        text = text.replace('type = "knights"', 'type = "militia"').replace("health = 8", "health = 4")
    pos = load_position(text, name="p")
    res = position_odds(pos, progress=False)
    assert res.trials == 0 and res[outcome] == 1
    assert res.notes[0].startswith("decided already") and not any("morale test" in n for n in res.notes)
    assert answer_json(pos, res)["morale_tests_now"] == []  # nothing is left to test for


def test_the_morale_tests_due_now_by_hand_and_by_the_kernel():
    # defender spearmen (morale 4), 4 damage (> 3): -1 in melee, +1 on the wall: flees on 5-6
    pos = load_position(BASE, name="p")
    assert [(j, mod, p) for j, mod, p in pending(pos)] == [(1, 0, 2 / 6)]
    assert "flees 33.3% (2 of 6)" in morale_now(pos)[0]
    sieged = load_position(BASE.replace("turn = 5", "turn = 5\nsiege_turn = 2"), name="p")
    assert pending(sieged)[0][1:] == (-1, 3 / 6)  # the besieged's -1 after the first turn
    flees = []
    for index in range(600):
        _, _, log = play_on(sieged, seed=3, index=index, events=50, stream=False)
        first = log[1]
        assert first[0] == S.EV_MORALE and first[1] == 1 and first[3] == -1
        flees.append(first[5])
    se = math.sqrt(0.25 / len(flees))
    assert abs(np.mean(flees) - 0.5) < 4 * se


def test_the_odds_are_the_position_played_on_by_hand():
    pos = load_position(stopped(EXAMPLES["field"], turn=2, seed=0, index=0), name="p")
    res = position_odds(pos, battles=300, seed=9, progress=False, threads=1)
    hist = sum(play_on(pos, seed=9, index=b, stream=False)[0] for b in range(300))
    assert res["attacker_win"] == (hist[0, 0] + hist[0, 1]) / 300  # battle b: the stream (9, b)
    big = position_odds(pos, battles=4000, seed=1, progress=False)
    wins = [play_on(pos, seed=5, index=b, stream=False)[1][S.NFU, 0] in (0, 1) for b in range(400)]
    p1, p2 = big["attacker_win"], np.mean(wins)
    assert 0.2 < p1 < 0.8
    assert abs(p1 - p2) < 4 * math.sqrt(p1 * (1 - p1) / 4000 + p2 * (1 - p2) / 400)


def test_the_moderators_options_add_up():
    pos = load_position(stopped(EXAMPLES["field"], turn=2, seed=0, index=0), name="p")
    res = position_odds(pos, battles=2000, seed=1, progress=False)
    o = options(pos, res)
    assert o["award"]["by"] == pytest.approx(abs(res["attacker_win"] - res["defender_win"]))
    assert o["award"]["ahead"] == ("attacker" if res["attacker_win"] > res["defender_win"] else "defender")
    for side in ("attacker", "defender"):
        assert sum(o["separate"][side]["per_type"].values()) == pytest.approx(o["separate"][side]["units"])
    auto = o["auto_battle"]
    assert auto["attacker_win"] + auto["defender_win"] + auto["undecided"] == pytest.approx(1)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("pos") / "field2.toml"
    assert main(["crusades", "run", EXAMPLES["field"], "--stop-at-turn", "2", "--seed", "0",
                 "--save", str(path)]) == 0
    return path


def test_the_same_draw_is_the_same_battle_on_the_cli_and_in_python(saved, capsys):
    assert main(["crusades", "autobattle", str(saved), "--draw", "post 4411", "--battles", "500",
                 "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    text = saved.read_text()
    by_path = autobattle(saved, draw="post 4411", battles=500)
    by_text = autobattle(text, draw="post 4411", battles=500)
    assert cli["digest"] == by_path.digest == by_text.digest == digest_of(text, "post 4411")
    assert cli["rounds"] == by_path.rounds == by_text.rounds
    assert cli["losses"] == by_path.losses and cli["outcome"] == by_text.outcome
    assert f"--draw 'post 4411'" in cli["command"]


def test_another_draw_or_text_is_another_battle(saved):
    text = saved.read_text()
    draws = [autobattle(text, draw=f"post {k}", battles=200) for k in range(6)]
    assert len({d.seed for d in draws}) == 6
    assert len({(d.outcome, d.round, json.dumps(d.losses)) for d in draws}) > 1
    edited = autobattle(text + "# a comment\n", draw="post 0", battles=200)
    assert edited.digest != draws[0].digest
    for d in draws:
        assert 0 <= d.percentile["attacker"] <= 1 and 0 < d.p_outcome <= 1


def test_the_position_command(saved, capsys):
    assert main(["crusades", "position", str(saved), "--battles", "500", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["battles"] == 500 and set(out["options"]) == {"award", "auto_battle", "separate"}
    assert main(["crusades", "position", str(saved), "--battles", "500"]) == 0
    assert "The moderator's three options:" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["--stop-at-turn", "2"], "give both"),
    (["--stop-at-turn", "20", "--save", "X.toml"], "--stop-at-turn: 20 is out of range"),
    (["--stop-at-turn", "2", "--save", "X.txt"], "--save"),
])
def test_stop_at_turn_mistakes_exit_2(argv, words, tmp_path, capsys):
    argv = [a.replace("X", str(tmp_path / "x")) for a in argv]
    assert main(["crusades", "run", EXAMPLES["field"], *argv]) == 2
    assert words in capsys.readouterr().err


def test_an_empty_draw_is_refused(saved, capsys):
    assert main(["crusades", "autobattle", str(saved), "--draw", " "]) == 2
    assert "--draw" in capsys.readouterr().err


@pytest.fixture
def post(page_base):
    """(status, JSON) of a request to the page tests' server (conftest.page_base)."""
    def post(path, query, data, method="POST"):
        url = f"{page_base.rstrip('/')}{path}?{urlencode(query)}"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method),
                                        timeout=600) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            text = e.read()
            return e.code, json.loads(text) if e.code != 405 else text.decode()
    return post


def test_the_same_draw_is_the_same_battle_over_the_api(saved, post, capsys):
    data = saved.read_bytes()
    status, web = post("/api/crusades.autobattle", {"draw": "post 4411", "battles": 500}, data)
    assert status == 200, web
    here = autobattle(saved, draw="post 4411", battles=500)
    assert web["digest"] == here.digest and web["rounds"] == here.rounds
    assert web["losses"] == here.losses and web["outcome"] == here.outcome
    status, other = post("/api/crusades.autobattle", {"draw": "post 4412", "battles": 500}, data)
    assert status == 200 and other["digest"] != web["digest"] and other["seed"] != web["seed"]


def test_the_position_over_the_api(saved, post):
    status, out = post("/api/crusades.position", {"battles": 500, "seed": 1}, saved.read_bytes())
    assert status == 200, out
    assert out["battles"] == 500 and out["options"]["award"]["ahead"] in ("attacker", "defender")
    here = position_odds(saved, battles=500, seed=1, threads=1, progress=False)
    assert out["attacker_win"] == here["attacker_win"] and out["intervals"]
    pos = load_position(saved)
    board = out["board"]
    assert len(board["units"]) == pos.n and len(board["terrain"]) == board["height"] == 10
    assert [(u["x"], u["y"], u["health"]) for u in board["units"]] == [
        (int(pos.units[S.UX, j]), int(pos.units[S.UY, j]), int(pos.units[S.UHP, j])) for j in range(pos.n)]


@pytest.mark.parametrize("query, body, words", [
    ({"battles": 500}, BASE.replace('"assault"', '"/etc/passwd"'), "neither a file"),
    ({"battles": 10**6}, BASE, "battles"),
    ({"trials": 5}, BASE, "trials: not a parameter"),
    ({}, "", "body is empty"),
])
def test_the_api_refuses_a_bad_position_in_one_line(post, query, body, words):
    status, out = post("/api/crusades.position", query, body.encode())
    assert status == 400 and words in out["error"] and "\n" not in out["error"]


def test_the_api_takes_posts_only(post):
    assert post("/api/crusades.position", {}, None, method="GET")[0] == 405
    status, out = post("/api/crusades.autobattle", {}, BASE.encode())
    assert status == 400 and "draw: missing" in out["error"]


def test_a_fresh_compile_of_the_position_modes_is_announced(tmp_path, saved):
    """A first autobattle with an empty kernel cache says it compiles, before the compile."""
    code = ("from odds.crusades.positions.autobattle import autobattle; "
            f"print(autobattle({str(saved)!r}, draw='x', battles=200, progress=True).digest)")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    notes = [line for line in out.stderr.splitlines() if "compiling a Monte Carlo kernel" in line]
    assert notes and out.stderr.splitlines()[0] == notes[0]  # said before anything else


@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_shows_the_positions_board_beside_its_odds(page_browser, width):
    """The sample position at a phone's and a desktop's width: every unit drawn on its cell,
    the fleeing ones dashed, a ring on each unit that tests morale now, the odds and the three
    options shown, nothing wider than the screen."""
    sample = Path(__file__).parents[1] / "odds/frontends/web/static/position-sample.toml"
    pos = load_position(sample)
    page = page_browser.new_page(viewport={"width": width, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(page_browser.base + "position")
    page.click("#sample")
    page.wait_for_selector("#result:not([hidden])", timeout=300_000)
    drawn = page.evaluate("""() => [...document.querySelectorAll('#board circle:not(.ring)')].map(
        c => [c.getAttribute('cx') - 0.5, c.getAttribute('cy') - 0.5, c.getAttribute('class')])""")
    assert [(x, y) for x, y, _ in drawn] == [(int(pos.units[S.UX, j]), int(pos.units[S.UY, j]))
                                             for j in range(pos.n)]
    fleeing = [j for j in range(pos.n) if pos.units[S.UST, j] == S.FLEEING]
    assert [j for j, (_, _, cls) in enumerate(drawn) if "fleeing" in cls] == fleeing
    assert page.locator("#board circle.ring").count() == len(pending(pos)) == 2
    assert page.locator("#options dt").all_inner_texts() == ["Award", "Auto-battle", "Separate"]
    assert "attacker wins" in page.inner_text("#headline")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("#board").bounding_box()
    odds = page.locator("#headline").bounding_box()
    beside = odds["x"] >= board["x"] + board["width"]  # a desktop: beside; a phone: below
    assert beside if width == 1280 else odds["y"] >= board["y"] + board["height"]
    assert not errors
    page.close()
