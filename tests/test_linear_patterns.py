"""Every regular expression in odds/ runs in time linear in its text (issue 47: `_DOTTED`'s
`^\\s*` under re.M took time growing with the square of a whitespace run, and froze the web
server). Each pattern, read from the source (a literal at its call, or a module's compiled
pattern), must pass two checks:
- regexploit (PyPI) finds no ReDoS: no nested or overlapping quantifiers over one run;
- ours, for what regexploit does not model: under re.MULTILINE a search restarts at every
  line, so no unbounded repeat may match a line break (each try would scan past its line:
  lines x length).
Both are shown to catch the patterns they exist for."""
import ast
import importlib
import re
import re._constants as C
import re._parser as sre
from pathlib import Path

import pytest
from regexploit.ast.sre import SreOpParser
from regexploit.redos import find

ROOT = Path(__file__).resolve().parents[1]
FUNCTIONS = {"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall",
             "finditer"}
FLAG_NAMES = {"M": re.M, "MULTILINE": re.M, "S": re.S, "DOTALL": re.S, "I": re.I,
              "IGNORECASE": re.I, "X": re.X, "VERBOSE": re.X, "A": re.A, "ASCII": re.A}
REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT}
NEWLINE = ord("\n")


def _flags(node: ast.Call) -> int:
    flags = 0
    for sub in ast.walk(ast.Module(body=[ast.Expr(a) for a in node.args[1:]] +
                                   [ast.Expr(k.value) for k in node.keywords], type_ignores=[])):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) \
                and sub.value.id == "re" and sub.attr in FLAG_NAMES:
            flags |= FLAG_NAMES[sub.attr]
    return flags


def patterns() -> list:
    """(where, pattern, flags) of every re call in odds/; a pattern that is not a literal must be
    a module's compiled pattern (assigned at the top), read from the imported module."""
    found = []
    for path in sorted((ROOT / "odds").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        top = {id(n.value): n.targets[0].id for n in tree.body if isinstance(n, ast.Assign)
               and isinstance(n.targets[0], ast.Name)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                    and node.func.attr in FUNCTIONS and node.args):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((where, first.value, _flags(node)))
            elif node.func.attr == "compile" and id(node) in top:
                compiled = getattr(importlib.import_module(module), top[id(node)])
                found.append((where, compiled.pattern, compiled.flags))
            else:
                found.append((where, None, 0))  # unreadable: fails test_every_pattern_is_read
    return found


PATTERNS = patterns()
IDS = [where for where, _, _ in PATTERNS]


def _matches_newline(op, av, flags: int) -> bool:
    """Whether a one-character item can match a line break."""
    if op == C.LITERAL:
        return av == NEWLINE
    if op == C.NOT_LITERAL:
        return av != NEWLINE
    if op == C.ANY:
        return bool(flags & re.S)
    if op == C.IN:
        negate = any(o == C.NEGATE for o, _ in av)
        hit = any(_in_item(o, a) for o, a in av if o != C.NEGATE)
        return hit != negate
    return False


def _in_item(op, av) -> bool:
    if op == C.LITERAL:
        return av == NEWLINE
    if op == C.RANGE:
        return av[0] <= NEWLINE <= av[1]
    if op == C.CATEGORY:
        return av in (C.CATEGORY_SPACE, C.CATEGORY_NOT_DIGIT, C.CATEGORY_NOT_WORD,
                      C.CATEGORY_LINEBREAK, C.CATEGORY_UNI_SPACE, C.CATEGORY_UNI_NOT_DIGIT,
                      C.CATEGORY_UNI_NOT_WORD, C.CATEGORY_UNI_LINEBREAK)
    return False


def crossing_repeats(pattern: str, flags: int) -> list:
    """The unbounded repeats of a MULTILINE pattern that can match a line break."""
    parsed = sre.parse(pattern, flags)
    flags |= parsed.state.flags
    if not flags & re.M:
        return []
    out = []

    def walk(items):
        for op, av in items:
            if op in REPEATS:
                low, high, body = av
                if high == C.MAXREPEAT and any(_matches_newline(o, a, flags) for o, a in body):
                    out.append(str(body))
                walk(body)
            elif op == C.SUBPATTERN:
                walk(av[3])
            elif op == C.BRANCH:
                for branch in av[1]:
                    walk(branch)
            elif op in (C.ASSERT, C.ASSERT_NOT):
                walk(av[1])
    walk(parsed)
    return out


def redos(pattern: str, flags: int) -> list:
    return [r.example() for r in find(SreOpParser().parse_sre(pattern, flags))]


def test_every_pattern_is_read():
    assert len(PATTERNS) > 10, "the scan found too few patterns: it reads nothing"
    unread = [where for where, pattern, _ in PATTERNS if pattern is None]
    assert not unread, f"write these patterns as literals or module-level re.compile: {unread}"


@pytest.mark.parametrize("where,pattern,flags", PATTERNS, ids=IDS)
def test_pattern_is_linear(where, pattern, flags):
    if pattern is None:
        pytest.skip("not readable (test_every_pattern_is_read fails)")
    assert not redos(pattern, flags), f"{where}: {pattern!r} backtracks (regexploit)"
    assert not crossing_repeats(pattern, flags), \
        f"{where}: {pattern!r} under re.MULTILINE repeats over line breaks"


# the checks catch what they exist for: the patterns issue 47 found, and a classic
@pytest.mark.parametrize("pattern,flags", [
    (r"^\s*\[{1,2}([^\]]*)\]{1,2}|^\s*([\w\-\"'. ]+)=", re.M),  # files._DOTTED before
    (r"^\s*\[\[\s*roll\s*\]\]", re.M),  # records.record._sniff before
    (r"(?m)^\s*x", 0),
    (r"^\s*([^=:,]+?)\s*=\s*(\d+)\s*:\s*(\d+)\s*(?::\s*(out)\s*)?$", 0),  # his targets before
    (r"(a+)+$", 0),
])
def test_the_checks_catch_a_slow_pattern(pattern, flags):
    assert redos(pattern, flags) or crossing_repeats(pattern, flags)


@pytest.mark.parametrize("pattern,flags", [
    (r"^[ \t]*import[ \t]+([\w., \t]+)", re.M), (r"[ \t]*\[\[[ \t]*roll[ \t]*\]\]", 0),
    (r"-?\d+", 0), (r"^(?:a|b)\n?c", re.M)])
def test_the_checks_pass_a_linear_pattern(pattern, flags):
    assert not redos(pattern, flags) and not crossing_repeats(pattern, flags)
