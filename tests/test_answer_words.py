"""Issue 60, defects 4 and 6 on the command line and in the registry: words read whole. Help
speaks of the rule, not of "the seed" (the source text the rules were read from); a reading
tells the flag that changes it, not a Python keyword; each command's `--compare` example uses
its own procedure's keywords; the settings an answer lists are named in words, not as
snake_case keys; a record's title (the sample's "invented") is shown with its result."""
import io
import re
from contextlib import redirect_stderr, redirect_stdout

import pytest

import odds
from odds import cli
from odds.registry import ENGINE, specs
from odds.tools.luck import samples
from odds.tools.questions.plans import plan

SPECS = specs()
SEED_WORDS = re.compile(r"\(as the seed does\)|\(seed\)|the seed:|\(other copy: \d+\)|\bother copy\b")
PYTHON_WORDS = re.compile(r"\w+='[^']*'|\w+=\"[^\"]*\"")
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(list(args))
        except SystemExit as e:  # --help
            code = e.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", SPECS)
def test_help_speaks_of_the_rule_not_of_the_seed(name):
    """'(as the seed does)', 'always (seed)', '(other copy: 2)' name the source text the rules
    were read from, which a player has never seen."""
    said = [f"{p.name}: {p.help}" for p in SPECS[name].params if SEED_WORDS.search(p.help)]
    assert not said, said


@pytest.mark.parametrize("name", [n for n, s in SPECS.items() if s.readings])
def test_a_reading_tells_the_flag_not_a_python_keyword(name):
    """Oath's reading said `give sacrifice='to-beat:P'` (Python) where `--sacrifice` is meant."""
    said = [f"{r.name}: {text}" for r in SPECS[name].readings
            for text in (r.what, r.none, r.source, r.tried) if text and PYTHON_WORDS.search(text)]
    assert not said, said


@pytest.mark.parametrize("name", [n for n, s in SPECS.items() if s.command])
def test_each_command_s_compare_example_uses_its_own_keywords(name):
    spec = SPECS[name]
    code, out, _ = run(*spec.command, "--help")
    flat = " ".join(out.split())
    match = re.search(r"--compare KEY=VALUE \[KEY=VALUE \.\.\.\] a plan: .*?\(e\.g\. (.*?)\)", flat)
    assert code == 0 and match, flat[-2000:]
    keys = {w.split("=")[0] for w in match[1].replace(";", " ").split() if "=" in w}
    names = {p.name for p in spec.params} | set(ENGINE)
    assert keys and keys <= names, (keys - names, match[1])
    words = [w for w in match[1].replace(";", " ").split() if "=" in w]
    base = dict(spec.examples[0].kwargs) if spec.examples else {}
    spec.check({**base, **plan(spec, " ".join(words))})  # a plan this procedure takes


@pytest.mark.parametrize("name", [n for n, s in SPECS.items() if s.examples and s.exact])
def test_the_settings_an_answer_lists_are_named_in_words(name):
    """Every answer ended in `settings: attacker_power=other, …` (snake_case keys)."""
    spec = SPECS[name]
    result = spec.call(**spec.examples[0].kwargs)
    line = next((x for x in result.summary().splitlines() if x.strip().startswith("settings:")), "")
    assert not SNAKE.findall(line) and not re.search(r"\b[a-z_]+=", line), line


def test_the_sample_record_s_title_is_shown_with_its_result():
    """The luck result of the invented sample carried no "invented" mark: a shared result
    looked real."""
    sample = next(iter(samples.__path__)) + "/his_1532.toml"
    code, out, err = run("luck", sample, "--brief")
    assert code == 0, err
    assert "invented" in out.splitlines()[0].lower(), out[:300]
    code, out, err = run("luck", sample, "--json")
    assert code == 0 and '"title": "An invented' in out, out[:300]
