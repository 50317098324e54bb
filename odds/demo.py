"""Built-in examples for `odds demo`: one real analysis per procedure."""


def examples():
    """(title, Result) pairs."""
    from .his import field_battle

    yield ("Here I Stand field battle: 5 units + leader 2 attack 5 Ottoman units (Janissaries if needed)",
           field_battle(5, 5, attacker_leader=2, defender_power="ottoman",
                        defender_cards=["janissaries:if-needed"]))
    yield ("The same battle by Monte Carlo (10^6 trials)",
           field_battle(5, 5, attacker_leader=2, defender_power="ottoman",
                        defender_cards=["janissaries:if-needed"], method="mc", seed=1))
