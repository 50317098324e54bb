"""The ipywidgets calculator: every procedure computes from its starting form; bad input shows a message."""
import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

pytest.importorskip("ipywidgets")

from odds import registry  # noqa: E402
from odds.frontends.calculator import Calculator  # noqa: E402


@pytest.mark.parametrize("name", list(registry.specs()))
def test_every_procedure_computes_from_the_starting_form(name):
    calc = Calculator(name)
    assert calc.last is not None, calc.error.value
    assert calc.error.value == "" and name in calc.result.value


def test_a_changed_field_recomputes_and_matches_the_library():
    import odds

    calc = Calculator("his.field")
    calc.widgets["attacker"].value = "8"
    assert calc.last.p == pytest.approx(odds.his.field_battle(8, 4).p)


def test_bad_input_shows_the_one_line_error_and_no_result():
    calc = Calculator("his.field")
    calc.widgets["defender"].value = "many"
    assert calc.last is None and calc.result.value == ""
    assert "defender: &#x27;many&#x27; is not a whole number" in calc.error.value
    calc.widgets["defender"].value = "3"
    assert calc.last is not None and calc.error.value == ""


def test_switching_procedure_rebuilds_the_form():
    calc = Calculator("his.field")
    calc.picker.value = "oath.campaign"
    assert "warbands" in calc.widgets and "attacker" not in calc.widgets
    assert calc.last.procedure == "oath.campaign"
