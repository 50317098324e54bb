"""The command line's tools in Russian (issue 61): every tool command's --help, a run of each
quick tool and the pictures they draw say no English word but the codes a user types and
proper names (tests/russian.py). The commands come from the CLI's own parser."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from odds import files, i18n, registry
from odds.errors import OddsError
from odds.frontends.cli.sweep import read_frame
from odds.frontends.cli import main as cli
from russian import english_words, tool_commands

SAMPLE = Path(__file__).parents[1] / "odds" / "tools" / "luck" / "samples" / "his_1532.toml"
SCENARIO = Path(__file__).parents[1] / "odds" / "crusades" / "examples" / "field.toml"
CYRILLIC = re.compile("[а-яё]", re.I)


def _odds(capsys, *words) -> tuple[int, str]:
    """`odds --lang ru WORDS` in this process: (exit code, stdout and stderr)."""
    try:
        code = cli.main(["--lang", "ru", *map(str, words)])
    except SystemExit as done:  # --help
        code = done.code
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("words", [words for words, _parser in tool_commands()], ids=" ".join)
def test_each_tool_help_is_russian(capsys, words):
    code, text = _odds(capsys, *words, "--help")
    assert code == 0, text
    assert text.startswith("использование: odds ") and CYRILLIC.search(text)
    found = english_words(text)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("words", [("chart", "his.field"), ("sensitivity", "vq.naval")])
def test_a_tool_help_for_a_procedure_is_russian(capsys, words):
    code, text = _odds(capsys, *words, "--help")
    assert code == 0, text
    found = english_words(text)
    assert not found, "\n".join(found)


def test_the_quick_tools_run_in_russian(capsys, tmp_path):
    """A chart to a PNG, the sample record's luck with its plot, a sensitivity table, a
    crusades run of a few battles, one battle's trace and the crusades' settings: all their
    lines in Russian (a scenario's own unit names are its codes)."""
    from odds.crusades.scenario import load

    units = frozenset(load(SCENARIO).type_names)
    runs = [("chart", "his.field", "--attacker", "1..3", "--defender", "1..2", "--out",
             tmp_path / "chart.png"),
            ("luck", SAMPLE, "--plot", tmp_path / "luck.png"),
            ("sensitivity", "vq.naval", "--attacker-galleys", "2", "--defender-galleys", "2",
             "--location", "atlantic", "--method", "mc", "--trials", "2000"),
            ("crusades", "run", SCENARIO, "--battles", "20"), ("crusades", "trace", SCENARIO),
            ("crusades", "settings")]
    for words in runs:
        code, text = _odds(capsys, *words)
        assert code == 0, text
        assert CYRILLIC.search(text), text
        found = english_words(text, units)
        assert not found, f"odds {words[0]}:\n" + "\n".join(found)
    assert (tmp_path / "chart.png").stat().st_size and (tmp_path / "luck.png").stat().st_size


def _texts(fig) -> str:
    """Every text a figure shows: its own, its suptitle, and each axes' title, labels, tick
    labels left aside (numbers and codes), and legend."""
    texts = [t.get_text() for t in fig.texts]
    if fig._suptitle is not None:
        texts.append(fig._suptitle.get_text())
    for ax in fig.axes:
        texts += [ax.get_title(loc) for loc in ("left", "center", "right")]
        texts += [ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        texts += [t.get_text() for t in legend.get_texts()] if legend else []
    return "\n".join(t for t in texts if t)


def test_the_pictures_speak_russian():
    """The chart's title, axes and footnote, and the luck plot's titles, axes and legends."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from odds.tools.chart import draw
    from odds.tools.luck.plot import cumulative
    from odds.tools.luck.report import luck

    with i18n.using("ru"):
        spec = registry.get("his.field")
        figures = [draw(spec, ("attacker", (1, 2)), ("defender", (1, 2)), {}),
                   cumulative(luck(SAMPLE))]
        for fig in figures:
            text = _texts(fig)
            plt.close(fig)
            assert CYRILLIC.search(text), text
            found = english_words(text)
            assert not found, "\n".join(found)



def _written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


REFUSALS = {  # one call of each refusal odds.files gives a file a user named, in a folder `d`
    "not a path": lambda d: files.check_input(3, "record"),
    "missing": lambda d: files.check_input(d / "nope.toml", "record"),
    "a directory": lambda d: files.check_input(d, "record"),
    "wrong ending": lambda d: files.check_output(str(d / "a.txt"), "--out", (".csv", ".json")),
    "a directory written": lambda d: files.check_output(str(d) + "/", "--out", ("/",)),
    "no folder": lambda d: files.check_output(str(d / "no" / "a.csv"), "--out", (".csv",)),
    "too large": lambda d: files.read_text(_written(d / "big.toml", b"x" * 30), "scenario", limit=20),
    "results read": lambda d: read_frame("his.field"),  # `odds table` given a procedure
    "not UTF-8": lambda d: files.read_text(_written(d / "l1.toml", "défense".encode("latin-1")),
                                           "scenario"),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_file_refusal_is_russian(tmp_path, case):
    """A path mistyped is the commonest refusal: each of odds.files' in Russian, the path kept."""
    with i18n.using("ru"), pytest.raises(OddsError) as refused:
        REFUSALS[case](tmp_path)
    text = str(refused.value)
    assert CYRILLIC.search(text), text
    without_paths = re.sub(re.escape(str(tmp_path)) + r"[^:\s]*", "", text)
    assert not english_words(without_paths, {"record", "scenario", "results"}), text
