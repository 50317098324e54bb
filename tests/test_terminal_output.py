"""On a player's terminal (stdout and stderr a terminal, as a shell runs odds) a command shows
only its own words: no library writes there behind its back. The kind of defect: a library's
exit handler or colouring writing to our stdout, which shows it escaped ("\\x1b[0m" after every
Monte Carlo answer, numba's colorama). One Monte Carlo answer of each game, a crusades run and
a sweep."""
from pathlib import Path

import pytest

from odds import registry
from terminal import on_terminal
from test_registry import argv_of

FIELD = Path(registry.__file__).parent / "crusades" / "examples" / "field.toml"

FIRST = {game: first for game in registry.games()
         if (first := next((s for s in registry.specs(game).values() if s.examples and s.command),
                           None))}  # crusades battles: `odds crusades run` below


def assert_only_words(code: int, shown: str):
    assert code == 0, shown[-500:]
    assert "\\x1b" not in shown and "\x1b" not in shown, shown[-300:]


@pytest.mark.parametrize("game", FIRST)
def test_a_monte_carlo_answer_shows_nothing_but_its_words(game):
    spec = FIRST[game]
    code, shown = on_terminal(*argv_of(spec, spec.examples[0].kwargs), "--method", "mc",
                              "--trials", "2000")
    assert_only_words(code, shown)
    assert "Monte Carlo" in shown


def test_a_crusades_run_shows_nothing_but_its_words():
    code, shown = on_terminal("crusades", "run", FIELD, "--battles", "200")
    assert_only_words(code, shown)


def test_a_sweep_shows_nothing_but_its_words(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text('procedure = "his.field"\nmethod = "mc"\ntrials = 500\n[grid]\n'
                    'attacker = {start = 1, stop = 60}\n[fixed]\ndefender = 3\n')
    code, shown = on_terminal("sweep", spec, "--out", tmp_path / "r.csv")
    assert_only_words(code, shown)
    assert "60 cells -> " in shown
