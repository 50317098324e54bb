"""Work said as it is (issue 59): text that is no record is refused by its first line, never
counted as rolls (the web counted 104,856 lines of text as "104,856 rolls": a 413), and a
compare interrupted after its base says how many of its plans were computed ("0 of 2 plans",
never "0 plan(s) against the base")."""
import pytest

from odds import OddsError
from odds.core.montecarlo import stop_when
from odds.frontends.web.limits import TooLarge
from odds.frontends.web.luck import report
from odds.tools.questions.compare import compare


@pytest.mark.parametrize("text", ["hello\n" * 6000, "a,b\n" + "1,2\n" * 6000, "\x00\n" * 6000])
def test_text_that_is_no_record_is_refused_not_counted(text):
    with pytest.raises(OddsError) as e:
        report(text.encode(), 20.0)
    assert "rolls" not in str(e.value) and "is not a field of a roll" in str(e.value)


def test_a_record_of_too_many_rolls_is_still_counted():
    with pytest.raises(TooLarge, match="6,000 rolls"):
        report(("procedure,attacker_dice\n" + "his.field,6\n" * 6000).encode(), 20.0)


def test_an_interrupted_compare_says_how_many_plans_it_computed():
    with stop_when(lambda sampling: True):  # every Monte Carlo run stops at its first batch
        frame = compare("his.field", {"attacker": 5, "defender": 4},
                        {"more": {"attacker": 6}, "fewer": {"attacker": 4}},
                        method="mc", trials=10**6, seed=1)
    assert frame.attrs["partial"] is True
    text = frame.summary()
    assert "0 plan(s)" not in text and "0 of 2 plans against the base" in text
    assert "interrupted: 0 of 2 plans computed" in frame.attrs["notes"]
