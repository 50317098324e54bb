"""The small things a result says so that it does not mislead (issue: small lies and gaps)."""
import pytest

from odds.registry import specs

EXACT = [name for name, spec in specs().items() if spec.exact]


@pytest.mark.parametrize("name", EXACT)
def test_monte_carlo_options_given_to_an_exact_answer_are_named_as_unused(name):
    spec = specs()[name]
    r = spec.call(**spec.start, trials=1000, seed=5)
    assert r.method == "exact"
    assert any(note.startswith("trials, seed: Monte Carlo options, not used") for note in r.notes)
    assert not any("Monte Carlo options" in note for note in spec.call(**spec.start).notes)


def test_a_need_answer_names_what_it_held_fixed():
    import odds
    n = odds.need("his.field", {"defender": 4, "defender_leader": 1}, vary="attacker", target=0.8)
    sentence = n.sentence()
    assert sentence.endswith(", with no attacker leader, no attacker cards, defender=4, "
                             "defender_leader=1, no defender cards")
    assert "attacker_cavalry" not in sentence  # left at its default: not named
