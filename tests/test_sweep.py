"""Sweeps: grid order, per-cell seeds, the vectorised exact path, dask, the spec CLI."""
import json
import re

import numpy as np
import pandas as pd
import pytest

import odds
from odds.frontends.cli.main import main
from odds.tools.sweep import row, sweep

GRID = {"attacker": [2, 5, 9], "defender": [1, 4]}


def test_rows_come_in_grid_order_with_parameters_first():
    df = sweep("his.field", GRID, {"attacker_leader": 1})
    assert list(df.attacker) == [2, 2, 5, 5, 9, 9] and list(df.defender) == [1, 4] * 3
    assert list(df.columns[:3]) == ["attacker_leader", "attacker", "defender"]
    for _, r in df.iterrows():
        single = odds.his.field_battle(r.attacker, r.defender, attacker_leader=1)
        assert r.attacker_win == pytest.approx(single.p, abs=1e-12)
        assert r.expected_defender_losses == pytest.approx(single.expected("defender_losses"))


def test_vectorised_exact_path_matches_single_queries_with_cards():
    grid = {"attacker": list(range(1, 9)), "defender": list(range(1, 8)),
            "attacker_cards": [[], ["landsknechts"], ["tercios"]]}
    fixed = {"attacker_power": "hapsburg", "defender_mercenaries": 0}
    fast = sweep("his.field", grid, fixed)
    slow = pd.DataFrame([row("his.field", {**fixed, "attacker": a, "defender": d, "attacker_cards": c},
                             {"method": "exact"})
                         for a in grid["attacker"] for d in grid["defender"] for c in grid["attacker_cards"]])
    numbers = [c for c in fast.columns if fast[c].dtype.kind in "fi" and c in slow]
    assert len(numbers) > 10
    np.testing.assert_allclose(fast[numbers].to_numpy(float), slow[numbers].to_numpy(float), atol=1e-12)


def test_monte_carlo_cells_do_not_depend_on_the_grid():
    a = sweep("his.field", {"attacker": [3, 4], "defender": [3]}, method="mc", trials=50_000, seed=9)
    b = sweep("his.field", {"defender": [3, 2], "attacker": [4]}, method="mc", trials=50_000, seed=9)
    assert a.attacker_win[1] == b.attacker_win[0]
    again = sweep("his.field", {"attacker": [3, 4], "defender": [3]}, method="mc", trials=50_000, seed=9)
    pd.testing.assert_frame_equal(a, again)
    other = sweep("his.field", {"attacker": [3, 4], "defender": [3]}, method="mc", trials=50_000, seed=10)
    assert (other.attacker_win != a.attacker_win).any()


@pytest.mark.parametrize("grid, fixed, words", [
    ({}, {}, "grid: empty"),
    ({"attackers": [1]}, {}, "grid.attackers: unknown parameter"),
    ({"attacker": [1]}, {"colour": "red"}, "fixed.colour: unknown parameter"),
    ({"attacker": [1]}, {}, "defender: missing"),
    ({"attacker": "five"}, {"defender": 1}, "grid.attacker"),
    ({"attacker": [1, "two"]}, {"defender": 1}, "attacker: 'two' is not a whole number"),
    ({"attacker": [1], "attacker_leader": [1, 2.5]}, {"defender": 1}, "grid.attacker_leader: 2.5 has the wrong type"),
    ({"attacker": []}, {"defender": 1}, "grid.attacker"),
])
def test_bad_grids(grid, fixed, words):
    with pytest.raises(odds.OddsError, match=words):
        sweep("his.field", grid, fixed)
    with pytest.raises(odds.OddsError, match="procedure"):
        sweep("chess.opening", {"attacker": [1]})


def test_spec_cli_writes_results_and_a_heatmap(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "his.field"\n[grid]\nattacker = [1, 2, 3]\ndefender = [1, 2]\n'
                    '[fixed]\nattacker_leader = 1\n')
    out = tmp_path / "r.parquet"
    assert main(["sweep", str(spec), "--out", str(out)]) == 0
    df = pd.read_parquet(out)
    assert len(df) == 6 and df.attacker_win.between(0, 1).all()
    png = tmp_path / "h.png"
    assert main(["plot", str(out), "--x", "attacker", "--y", "defender", "--out", str(png)]) == 0
    assert png.stat().st_size > 5000
    assert main(["sweep", str(spec), "--out", str(tmp_path / "r.csv")]) == 0


@pytest.mark.parametrize("text, words", [
    ('procedure = "his.field"\ncolour = 1\n[grid]\nattacker = [1]\n', "colour: unknown key"),
    ('[grid]\nattacker = [1]\n', "procedure: missing"),
    ('procedure = "his.nope"\n[grid]\nattacker = [1]\n', "procedure"),
    ('procedure = "his.field"\n[grid]\n', "grid: empty"),
    ('procedure = "his.field"\n[grid]\nattacker = ["x"]\ndefender = [1]\n', "attacker: 'x'"),
    ('procedure = "his.field"\n[grid\n', "not valid TOML"),
])
def test_bad_specs_exit_2_with_one_line(tmp_path, capsys, text, words):
    spec = tmp_path / "spec.toml"
    spec.write_text(text)
    assert main(["sweep", str(spec)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as c, distributed.Client(c) as client:
        yield c, client


def test_dask_cluster_gives_the_same_numbers(cluster):
    _, client = cluster
    grid = {"attacker": [2, 3, 4, 5], "defender": [2, 3, 4]}
    here = sweep("his.field", grid, method="mc", trials=20_000, seed=4)
    there = sweep("his.field", grid, method="mc", trials=20_000, seed=4, client=client)
    pd.testing.assert_frame_equal(here, there)


def kill_a_busy_worker(c, client, running) -> int | None:
    """SIGKILL a worker of cluster `c` while it holds unfinished cells; its pid, or None when
    the sweep (`running`, a thread) ended before any worker was seen busy."""
    import os
    import signal

    from hang import poll

    def kill():
        busy = {address for address, tasks in client.processing().items() if tasks}
        for nanny in c.workers.values():
            if nanny.worker_address in busy and nanny.process and nanny.process.process:
                os.kill(nanny.process.process.pid, signal.SIGKILL)
                return nanny.process.process.pid
        return None if running.is_alive() else "ended"

    killed = poll(kill, "a busy worker, or the sweep's end")
    return None if killed == "ended" else killed


def test_a_lost_worker_is_recomputed(cluster):
    """A worker killed while it holds cells: its cells are computed again, and the frame is
    the in-process one. A machine that finishes before a worker is seen busy gets a sweep ten
    times longer."""
    import threading

    c, client = cluster
    grid = {"attacker": list(range(2, 12)), "defender": list(range(2, 8))}
    for trials in (300_000, 3_000_000, 30_000_000):
        there = {}
        run = threading.Thread(target=lambda: there.setdefault("df", sweep(
            "his.field", grid, method="mc", trials=trials, seed=2, client=client)))
        run.start()
        killed = kill_a_busy_worker(c, client, run)
        run.join(timeout=600)
        if killed is not None:
            break
    assert killed is not None, "no worker was busy to be killed"
    here = sweep("his.field", grid, method="mc", trials=trials, seed=2)
    pd.testing.assert_frame_equal(here, there["df"])


def test_ctrl_c_returns_the_finished_cells(monkeypatch):
    from odds import sweep as sweep_module

    real, calls = sweep_module.row, []

    def interrupted(procedure, params, engine):
        calls.append(params)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(procedure, params, engine)

    monkeypatch.setattr(sweep_module, "row", interrupted)
    df = sweep("his.field", {"attacker": [1, 2, 3, 4]}, {"defender": 2}, method="mc", trials=1000)
    assert df.attrs["partial"] and list(df.attacker) == [1, 2]


def test_spec_cli_on_a_local_cluster_and_a_bad_scheduler(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "his.field"\nmethod = "mc"\ntrials = 20000\nseed = 3\n'
                    '[grid]\nattacker = [2, 3]\ndefender = [2]\n')
    out = tmp_path / "r.csv"
    assert main(["sweep", str(spec), "--workers", "1", "--out", str(out)]) == 0
    here = sweep("his.field", {"attacker": [2, 3], "defender": [2]}, method="mc", trials=20000, seed=3)
    assert pd.read_csv(out).attacker_win.tolist() == here.attacker_win.tolist()
    capsys.readouterr()
    assert main(["sweep", str(spec), "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "--scheduler: cannot reach" in err and err.count("\n") == 1


def test_plot_needs_one_row_per_cell(tmp_path, capsys):
    df = sweep("his.field", {"attacker": [2, 4], "defender": [1, 3], "attacker_leader": [0, 2]})
    path = tmp_path / "r.csv"
    df.to_csv(path, index=False)
    assert main(["plot", str(path), "--x", "attacker", "--y", "defender"]) == 2
    assert "they differ in attacker_leader" in capsys.readouterr().err
    assert main(["plot", str(path), "--x", "attacker", "--y", "defender",
                 "--where", "attacker_leader=2", "--out", str(tmp_path / "h.png")]) == 0


def test_rule_variants_side_by_side():
    variants = {"plain": {}, "artillery": {"attacker_cards": ["field-artillery"]}}
    df = sweep("his.field", {"attacker": [3, 5], "variant": variants}, {"defender": 3})
    assert list(df.variant) == ["plain", "plain", "artillery", "artillery"]
    with_card = odds.his.field_battle(5, 3, attacker_cards=["field-artillery"]).p
    assert df.attacker_win[3] == pytest.approx(with_card)
    naval = sweep("vq.naval", {"variant": {"vq": {}, "galleys roll 1": {"dice_per": {"galley": 1}}}},
                  {"attacker_galleys": 4, "defender_galleys": 3, "location": "mediterranean"})
    one_die = odds.his.naval_battle(attacker_galleys=4, defender_galleys=3, dice_per={"galley": 1}).p
    assert naval.attacker_win[1] == pytest.approx(one_die) and naval.attacker_win[0] != naval.attacker_win[1]


@pytest.mark.parametrize("variant, words", [
    ([1, 2], "not a table of named variants"),
    ({"x": {"colour": 1}}, "grid.variant.x.colour: unknown parameter"),
    ({"x": {"attacker": 2}}, "grid.variant.x.attacker: also a grid parameter"),
    ({"x": {"attacker_leader": "two"}}, "grid.variant.x.attacker_leader"),
])
def test_bad_variants(variant, words):
    with pytest.raises(odds.OddsError, match=words):
        sweep("his.field", {"attacker": [3], "variant": variant}, {"defender": 2})


def test_spec_with_variants(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "his.field"\n[grid]\nattacker = [3, 5]\n[grid.variant.plain]\n'
                    '[grid.variant.artillery]\nattacker_cards = ["field-artillery"]\n[fixed]\ndefender = 3\n')
    assert main(["sweep", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "artillery" in out and "plain" in out


def test_ranges_include_stop_and_module_is_callable(tmp_path):
    df = odds.tools.sweep("his.field", {"attacker": {"start": 2, "stop": 6, "step": 2}}, {"defender": 3})
    assert list(df.attacker) == [2, 4, 6]
    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "his.field"\n[grid]\nattacker = {start = 1, stop = 3}\n'
                    '[fixed]\ndefender = 2\n')
    loaded = odds.tools.sweep.load(spec, progress=False)
    assert list(loaded.attacker) == [1, 2, 3]
    assert loaded.attacker_win[2] == pytest.approx(odds.his.field_battle(3, 2).p)


@pytest.mark.parametrize("grid, engine, words", [
    ({"attacker": {"start": 1}}, {}, "is not a range"),
    ({"attacker": {"start": 1, "stop": 5, "by": 2}}, {}, "is not a range"),
    ({"attacker": {"start": 1, "stop": 3, "step": 0}}, {}, "step: 0 is out of range"),
    ({"attacker": list(range(1, 201)), "defender": list(range(0, 201)),
      "attacker_leader": list(range(7))}, {}, "grid: 281,400 cells"),
    ({"attacker": list(range(1, 101))}, {"method": "mc", "trials": 10**11}, "more than"),
    ({"attacker": [1]}, {"seed": -1}, "seed: -1 is out of range"),
    ({"attacker": [1]}, {"seed": "x"}, "seed: 'x' is not a whole number"),
    ({"attacker": [1]}, {"method": "magic"}, "method"),
])
def test_sweeps_are_bounded_before_work_starts(grid, engine, words):
    with pytest.raises(odds.OddsError, match=words):
        sweep("his.field", grid, {"defender": 1} if "defender" not in grid else {}, **engine)


def test_a_variant_at_its_default_records_the_numbers_it_used():
    df = sweep("vq.naval", {"variant": {"vq": {}, "one": {"dice_per": {"galley": 1}}}},
               {"attacker_galleys": 3, "defender_galleys": 3, "location": "mediterranean"})
    used = [json.loads(v) for v in df.dice_per]
    assert used[0]["galley"] == 2 and used[1]["galley"] == 1
    assert used[0]["corsair"] == used[1]["corsair"] == 1
    cards = sweep("his.field", {"variant": {"plain": {}, "art": {"attacker_cards": ["field-artillery"]}}},
                  {"attacker": 3, "defender": 3})
    assert list(cards.attacker_cards) == [[], ["field-artillery"]]


def test_ctrl_c_inside_a_monte_carlo_cell_stops_the_sweep(monkeypatch):
    """The runner turns Ctrl-C into a partial cell result; the sweep must stop there."""
    from odds.core import montecarlo

    real, runs = montecarlo.run, []

    def interrupted(*args, **kwargs):
        run = real(*args, **kwargs)
        runs.append(run)
        if len(runs) == 2:
            run.partial = True
        return run

    monkeypatch.setattr(montecarlo, "run", interrupted)
    df = sweep("his.field", {"attacker": [1, 2, 3, 4]}, {"defender": 2}, method="mc", trials=1000)
    assert df.attrs["partial"] and df.attrs["missing"] == 3 and list(df.attacker) == [1]
    assert len(runs) == 2


@pytest.mark.parametrize("argv, words", [
    (["--out", "r.txt"], "must end in .parquet or .csv"),
    (["--out", "missing-dir/r.csv"], "no such directory"),
    (["--out", "."], "must end in"),
    (["--workers", "0"], "--workers: 0 is out of range"),
    (["--workers", "1000"], "--workers: 1000 is out of range"),
    (["--scheduler", "nonsense"], "is not an address"),
])
def test_sweep_options_are_checked_before_the_sweep(tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "his.field"\n[grid]\nattacker = [1]\n[fixed]\ndefender = 1\n')
    assert main(["sweep", str(spec), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_a_server_that_speaks_first_is_not_a_scheduler(capsys):
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def banner():
        conn, _ = server.accept()
        conn.sendall(b"SSH-2.0-banner\r\n" + b"\xff" * 64)
        conn.close()

    threading.Thread(target=banner, daemon=True).start()
    spec_dir = __import__("tempfile").mkdtemp()
    spec = f"{spec_dir}/spec.toml"
    open(spec, "w").write('procedure = "his.field"\n[grid]\nattacker = [1]\n[fixed]\ndefender = 1\n')
    port = server.getsockname()[1]
    assert main(["sweep", spec, "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    assert "not a dask scheduler" in capsys.readouterr().err
    server.close()


def test_sigint_stops_a_sweep_and_keeps_the_finished_cells(tmp_path):
    """A real Ctrl-C once a cell is done: the command exits 130 and writes the finished cells."""
    from terminal import Run

    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "his.field"\nmethod = "mc"\ntrials = 100000000\n'
                    '[grid]\nattacker = {start = 1, stop = 60}\n[fixed]\ndefender = 4\n')
    out = tmp_path / "r.csv"
    run = Run("sweep", spec, "--out", out)
    run.wait_for(re.compile(r"\b[1-9]\d*/60"))  # the progress bar (stderr is a terminal): a cell is done
    code, _ = run.interrupt()
    assert code == 130, run.err[-500:]
    written = pd.read_csv(out)
    assert 1 <= len(written) < 60 and "cells missing" in run.err


def test_a_sweep_of_few_long_cells_shows_its_progress_too(tmp_path):
    """Two cells of a billion trials each: the bar shows (after its first seconds) though the
    sweep is small, and a Ctrl-C then keeps what is done."""
    from terminal import Run

    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "his.field"\nmethod = "mc"\ntrials = 1000000000\n'
                    '[grid]\nattacker = [3, 4]\n[fixed]\ndefender = 4\n')
    run = Run("sweep", spec, "--out", tmp_path / "r.csv")
    run.wait_for(re.compile(r"\b[01]/2 \["))
    code, _ = run.interrupt()
    assert code == 130 and "interrupted: partial result" in run.err, run.err[-500:]


def test_diff_accepts_list_values_in_where_spellings(tmp_path, capsys):
    df = sweep("his.field", {"attacker": [3, 5], "defender": [2, 3],
                             "attacker_cards": [[], ["field-artillery"]]})
    path = tmp_path / "r.parquet"
    df.to_parquet(path)
    assert main(["plot", str(path), "--x", "attacker", "--y", "defender", "--diff",
                 'attacker_cards=["field-artillery"],[]', "--out", str(tmp_path / "d.png")]) == 0
    assert "minus" in capsys.readouterr().out


@pytest.mark.parametrize("grid, fixed, words", [
    ({"attacker": [1, 2, 3, 500], "defender": [1, 2]}, {},
     "cell 7 of 8 (attacker=500, defender=1): attacker: 500 is out of range"),
    ({"attacker_race_built": [1, 0], "attacker_power": ["england", "spain"]},
     {"defender_galleys": 2, "location": "atlantic"},
     "cell 2 of 4 (attacker_race_built=1, attacker_power='spain'): attacker_race_built: 1 for the spain side"),
    ({"variant": {"a": {"attacker_leader": 1}, "b": {"attacker_leader": 9}}},
     {"attacker": 3, "defender": 2}, "cell 2 of 2 (variant='b', attacker_leader=9): attacker_leader"),
])
def test_every_cell_is_checked_before_the_first_runs(monkeypatch, grid, fixed, words):
    procedure = "vq.naval" if "location" in fixed else "his.field"
    monkeypatch.setattr(odds.tools.sweep, "row", lambda *a, **k: pytest.fail("a cell ran"))
    with pytest.raises(odds.OddsError, match=re.escape(words)):
        sweep(procedure, grid, fixed, method="mc", trials=1000, progress=False)


def test_a_bad_last_cell_writes_nothing_and_names_the_cell(tmp_path, capsys):
    (tmp_path / "s.toml").write_text('procedure = "his.field"\nmethod = "mc"\ntrials = 1000\n'
                                     '[grid]\nattacker = [3, 2, 1]\nattacker_mercenaries = [0, 2]\n'
                                     '[fixed]\ndefender = 2\n')
    assert main(["sweep", str(tmp_path / "s.toml"), "--out", str(tmp_path / "r.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cell 6 of 6 (attacker=1, attacker_mercenaries=2): attacker_mercenaries" in err
    assert not (tmp_path / "r.csv").exists()


def test_a_bad_cell_of_a_vectorised_exact_grid_is_named_too(monkeypatch):
    monkeypatch.setattr(odds.tools.sweep, "row", lambda *a, **k: pytest.fail("a cell ran"))
    with pytest.raises(odds.OddsError, match=re.escape("cell 3 of 3 (attacker=500): attacker: 500")):
        sweep("his.field", {"attacker": [1, 2, 500]}, {"defender": 1})


def test_a_long_sweep_draws_no_bar_when_stderr_is_not_a_terminal(capsys):
    odds.tools.sweep("his.field", {"attacker": range(1, 11), "defender": range(1, 7)}, method="mc",
               trials=100)  # 60 cells: a bar on a terminal
    assert capsys.readouterr().err == ""


def test_common_seeds_make_equal_cells_equal_and_cell_seeds_do_not():
    """A turn limit no battle reaches changes nothing: with one seed for every cell the two
    cells agree exactly; with a seed per cell they differ by seed noise."""
    from odds import crusades
    from odds.tools.sweep import sweep
    field = str(crusades.EXAMPLES / "field.toml")
    grid = {"turn_limit": [30, 40]}
    common = sweep("crusades.battle", grid, {"scenario": field}, trials=500, seed=3, seeds="common")
    assert common.attacker_win[0] == common.attacker_win[1]
    cell = sweep("crusades.battle", {"turn_limit": [30, 40, 50]}, {"scenario": field}, trials=500, seed=3)
    assert cell.attacker_win.nunique() > 1


def test_a_scenario_draws_the_same_seeds_from_any_folder(tmp_path, monkeypatch):
    """A cell's seed follows the scenario file's text, not its path: the same sweep run from
    another folder (or machine) gives the same numbers; a changed file draws other seeds."""
    from odds import crusades
    from odds.tools.sweep import sweep
    text = (crusades.EXAMPLES / "field.toml").read_text()
    (tmp_path / "deep").mkdir()
    for path in ("field.toml", "deep/field.toml", "other.toml"):
        (tmp_path / path).write_text(text)
    (tmp_path / "edited.toml").write_text(text + "\n# a note\n")
    monkeypatch.chdir(tmp_path)
    runs = {path: sweep("crusades.battle", {"turn_limit": [30, 40]}, {"scenario": path}, trials=100,
                        seed=3).drop(columns="scenario")
            for path in ("field.toml", str(tmp_path / "deep/field.toml"), "other.toml", "edited.toml")}
    first, *same, edited = runs.values()
    for frame in same:
        pd.testing.assert_frame_equal(frame, first)
    assert set(edited.seed).isdisjoint(first.seed)


VARIANTS = ('procedure = "his.field"\nmethod = "mc"\ntrials = 1000\n[grid]\nattacker = {start = 1, '
            'stop = 8}\n[grid.variant.plain]\n[grid.variant.artillery]\nattacker_cards = '
            '["field-artillery"]\n[fixed]\ndefender = 3\n')


@pytest.mark.parametrize("flags", [["--table"], []])
def test_a_table_column_not_there_is_refused_before_the_cells(tmp_path, capsys, monkeypatch, flags):
    """--value is checked on one probing cell, before the sweep's 16 cells run."""
    spec = tmp_path / "spec.toml"
    spec.write_text(VARIANTS)
    computed = []
    monkeypatch.setattr(odds.tools.sweep, "row", lambda *a: computed.append(a) or row(*a))
    assert main(["sweep", str(spec), *flags, "--value", "nope"]) == 2
    err = capsys.readouterr().err
    assert "value: 'nope' is not in the results (allowed: attacker_win, " in err
    assert len(computed) == 1 and computed[0][2]["trials"] == odds.tools.sweep.PROBE_TRIALS
    computed.clear()
    assert main(["sweep", str(spec), *flags, "--value", "expected_defender_losses"]) == 0
    assert len(computed) == 1 + 16 and "**E defender losses** (his.field)" in capsys.readouterr().out


def test_a_value_with_no_table_to_show_it_is_refused(tmp_path, capsys):
    spec = tmp_path / "spec.toml"
    spec.write_text(VARIANTS)
    assert main(["sweep", str(spec), "--out", str(tmp_path / "r.csv"), "--value", "attacker_win"]) == 2
    assert "--value: 'attacker_win' names a column of the table, and none is printed" in capsys.readouterr().err
    assert not (tmp_path / "r.csv").exists()
