"""Every registered procedure function's docstring names its keywords in numpydoc sections
(`Parameters`, `Returns`), in the signature's order, each with the words and allowed values
its --help shows (registry._document writes them from the specs)."""
import inspect
import re

from odds import registry


def sections(doc: str) -> dict:
    """numpydoc section title -> its lines (a title is a line followed by a line of dashes)."""
    lines, out, title = doc.splitlines(), {}, None
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r"-{3,}", lines[i + 1]) and line.strip():
            title = line.strip()
            out[title] = []
        elif title and not re.fullmatch(r"-{3,}", line):
            out[title].append(line)
    return out


def entries(block: list) -> dict:
    """'name : type' or 'name' lines -> the description under them."""
    out, name = {}, None
    for line in block:
        if line and not line.startswith(" "):
            name = re.split(r"[ ,:]", line)[0]
            out[name] = ""
        elif name:
            out[name] += line.strip() + " "
    return {k: v.strip() for k, v in out.items()}


def test_every_procedure_function_has_numpydoc_sections():
    for spec in registry.specs().values():
        found = sections(inspect.getdoc(spec.function))
        assert {"Parameters", "Returns"} <= set(found), spec.name
        described = entries(found["Parameters"])
        keywords = [k for k, p in inspect.signature(spec.function).parameters.items()
                    if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
        assert list(described) == keywords, spec.name
        for param in (*spec.params, *registry.ENGINE_OPTIONS):
            if param.name in described:
                assert param.help + param.allowed() in described[param.name], param.name
        assert spec.main in " ".join(found["Returns"]), spec.name


def test_the_sections_reader_reads_numpydoc():
    doc = "Odds.\n\nParameters\n----------\na : int\n    units (1 to 6)\nb, default 'x'\n    " \
          "set by the procedure\n\nReturns\n-------\nResult\n    win"
    found = sections(doc)
    assert entries(found["Parameters"]) == {"a": "units (1 to 6)", "b": "set by the procedure"}
    assert entries(found["Returns"]) == {"Result": "win"}
