"""The command line: JSON shape, text summary, one-line errors with exit code 2."""
import json
import subprocess
import sys

import pytest

import odds
from odds.frontends.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_field_json_has_the_promised_keys(capsys):
    code, out, _ = run(capsys, "his", "field", "--attacker", "5", "--attacker-leader", "2",
                       "--defender", "4", "--json")
    assert code == 0
    j = json.loads(out)
    for key in ("procedure", "method", "trials", "seed", "attacker_win", "attacker_win_se",
                "attacker_losses", "defender_losses", "attacker_eliminated", "defender_eliminated"):
        assert key in j
    assert j["method"] == "exact" and j["trials"] is None
    want = odds.his.field_battle(5, 4, attacker_leader=2)
    assert j["attacker_win"] == pytest.approx(want.p)
    assert j["attacker_losses"]["2"] == pytest.approx(want["attacker_losses"][2])


def test_field_monte_carlo_json(capsys):
    code, out, _ = run(capsys, "his", "field", "--attacker", "3", "--defender", "3", "--method", "mc",
                       "--trials", "100000", "--seed", "4", "--json",
                       "--defender-power", "ottoman", "--defender-card", "janissaries:if-needed")
    j = json.loads(out)
    assert code == 0 and j["method"] == "mc" and j["trials"] == 100_000 and j["seed"] == 4
    assert j["partial"] is False and 0 < j["attacker_win_se"] < 0.01


def test_text_summary_has_bars(capsys):
    code, out, _ = run(capsys, "his", "field", "--attacker", "4", "--defender", "3")
    assert code == 0 and "attacker win" in out and "#" in out


@pytest.mark.parametrize("argv, words", [
    (["his", "field", "--attacker", "-2", "--defender", "3"], "attacker"),
    (["his", "field", "--attacker", "x", "--defender", "3"], "not a whole number"),
    (["his", "field", "--attacker", "3"], "defender: missing (required by his.field)"),
    (["his", "field", "--attacker", "3", "--defender", "3", "--attacker-card", "nope"], "unknown card"),
    (["his", "field", "--attacker", "3", "--defender", "3", "--attacker-card", "janissaries"], "ottoman"),
    (["his", "field", "--attacker", "3", "--defender", "3", "--attacker-leader", "9"], "0 to 6"),
    (["his", "field", "--attacker", "3", "--defender", "3", "--trials", "0", "--method", "mc"], "trials"),
    (["his", "field", "--attacker", "3", "--defender", "3", "--method", "magic"], "method"),
    (["his", "nothing"], "invalid choice"),
    (["chess"], "invalid choice"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_console_script_exit_code_and_demo():
    bad = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "his", "field", "--attacker", "1",
                          "--defender", "-1"], capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and bad.stderr.startswith("odds: error: --defender: -1")
    demo = subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "demo"], capture_output=True, text=True,
                          timeout=600)  # it may compile kernels
    assert demo.returncode == 0 and "field battle" in demo.stdout


def test_demo_of_chosen_procedures_prints_theirs_in_order(capsys):
    code, out, _ = run(capsys, "demo", "crusades.battle", "vq.naval")  # crusades: a second process
    titles = [line for line in out.splitlines() if line.startswith("== ")]
    assert code == 0 and len(titles) == 2
    assert titles[0].startswith("== Virgin Queen") and titles[1].startswith("== Crusades")
    code, out, err = run(capsys, "demo", "his.nope")
    assert code == 2 and out == "" and err.count("\n") == 1 and "his.field" in err


def test_names_in_any_case_and_counts_in_any_spelling(capsys):
    code, out, _ = run(capsys, "his", "field", "--attacker", "7", "--attacker-power", "Ottoman",
                       "--attacker-card", "Janissaries:If-Needed", "--defender", "5",
                       "--defender-power", "HAPSBURG", "--method", "MC", "--trials", "1e5",
                       "--seed", "1_000", "--json")
    assert code == 0
    j = json.loads(out)
    assert j["trials"] == 100_000 and j["seed"] == 1000 and j["method"] == "mc"
    assert j["settings"]["attacker_power"] == "ottoman"
    assert j["settings"]["attacker_cards"] == ["janissaries:if-needed"]
    assert run(capsys, "his", "field", "--attacker", "3", "--defender", "3", "--trials", "2.5")[0] == 2


def test_help_lists_powers_cards_policies_and_what_counts_include(capsys):
    with pytest.raises(SystemExit):
        main(["his", "field", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("ottoman, hapsburg, england, france, papacy, protestant, other",
                  "janissaries[:always|if-needed]", "tercios", "mercenaries and cavalry included",
                  "(0 to 6, or one of: suleiman (2)"):
        assert words in text, words


def test_every_registered_procedure_has_a_command(capsys):
    for spec in odds.registry.specs().values():
        if spec.command:
            with pytest.raises(SystemExit):
                main([*spec.command, "--help"])
            assert spec.help in capsys.readouterr().out


def test_summary_starts_with_the_answer_in_words(capsys):
    _, out, _ = run(capsys, "his", "field", "--attacker", "5", "--defender", "4")
    p = odds.his.field_battle(5, 4).p
    assert out.splitlines()[0] == f"Attacker wins {p:.1%} (exact)  [his.field]"


def test_warmup_runs_every_kernel_once(capsys):
    assert main(["warmup"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # no progress bar: stderr is not a terminal here
    with_kernels = [s.name for s in odds.registry.specs().values() if s.kernels]
    assert [line.split()[0] for line in out.splitlines()] == with_kernels
    import inspect

    from numba import types

    from odds.crusades.simulator.kernel import kernel

    names = list(inspect.signature(kernel.py_func).parameters)
    at = [names.index(name) for name in ("siege", "final", "LOG", "start")]
    modes = {tuple(sig[i] == types.none for i in at) for sig in kernel.signatures}
    assert modes >= {(True, True, True, True), (False, True, True, True), (True, False, False, True),
                     (True, True, True, False), (True, False, False, False)}  # runs of battles,
    # sieges (siege), one battle (final and LOG), each of the two from a position (start):
    # warmup compiled each mode
