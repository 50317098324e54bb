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
    from .his import naval_battle

    yield ("Virgin Queen naval combat in the Atlantic: 3 English race-built galleons + leader 1 "
           "attack 4 Spanish galleons",
           naval_battle(attacker_race_built=3, attacker_leader=1, attacker_power="england",
                        defender_galleons=4, defender_power="hapsburg", location="atlantic"))
    yield ("Here I Stand naval combat: 3 squadrons attack 2 Ottoman squadrons + 2 corsairs in port "
           "(Janissaries if needed), Monte Carlo",
           naval_battle(ruleset="his", attacker_squadrons=3, attacker_leader=1,
                        defender_squadrons=2, defender_corsairs=2, defender_power="ottoman",
                        defender_cards=["janissaries:if-needed"], port=True, method="mc", seed=1))
