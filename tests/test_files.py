"""Reading users' files: regular files only, bounded size and nesting, one-line errors."""
import os

import pytest

from odds import OddsError
from odds.errors import MAX_NESTING
from odds.files import parse_toml, read_text, read_toml


@pytest.mark.parametrize("path, words", [
    ("/dev/zero", "not a regular file"),
    (".", "a directory"),
    ("no-such-file.toml", "no such file"),
    (0, "is not a file path"),
    (True, "is not a file path"),
])
def test_paths_that_are_not_regular_files(path, words):
    with pytest.raises(OddsError, match=words):
        read_text(path, "spec")


def test_size_encoding_and_symlink_loops(tmp_path):
    big = tmp_path / "big.toml"
    big.write_bytes(b"a = 1\n" * 10)
    with pytest.raises(OddsError, match="larger than 20 bytes"):
        read_text(big, "spec", limit=20)
    latin = tmp_path / "latin.toml"
    latin.write_bytes("name = 'caf\xe9'".encode("latin-1"))
    with pytest.raises(OddsError, match="not UTF-8"):
        read_text(latin, "spec")
    loop = tmp_path / "loop.toml"
    os.symlink(loop, loop)
    with pytest.raises(OddsError, match="cannot be read"):
        read_text(loop, "spec")


@pytest.mark.parametrize("text", [
    "[" + ".".join(["a"] * (MAX_NESTING + 1)) + "]\nx = 1\n",
    ".".join(["a"] * (MAX_NESTING + 1)) + " = 1\n",
    "x = " + "[" * 5000 + "]" * 5000 + "\n",
    "x = " + "{a = " * 50 + "1" + "}" * 50 + "\n",
])
def test_deep_nesting_is_refused_before_parsing(text):
    with pytest.raises(OddsError, match="nested"):
        parse_toml(text, "spec")


def test_good_toml_reads(tmp_path):
    f = tmp_path / "ok.toml"
    f.write_text('a.b = [1, [2, 3]]\n[c]\nd = "x # not a comment ["\n')
    assert read_toml(f, "spec") == {"a": {"b": [1, [2, 3]]}, "c": {"d": "x # not a comment ["}}
    with pytest.raises(OddsError, match="not valid TOML"):
        parse_toml("a = ", "spec")
