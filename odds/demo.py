"""Built-in examples for `odds demo`: one real analysis per procedure."""


def examples():
    """(title, Result) pairs."""
    from . import crusades
    from .his import field_battle

    yield ("Here I Stand field battle: 5 units + leader 2 attack 5 Ottoman units (Janissaries if needed)",
           field_battle(5, 5, attacker_leader=2, defender_power="ottoman",
                        defender_cards=["janissaries:if-needed"]))
    yield ("The same battle by Monte Carlo (10^6 trials)",
           field_battle(5, 5, attacker_leader=2, defender_power="ottoman",
                        defender_cards=["janissaries:if-needed"], method="mc", seed=1))
    yield ("Crusades: assault on a walled city (illustrative units, 20,000 battles)",
           crusades.run(crusades.EXAMPLES / "assault.toml"))
    yield ("Crusades: the same city besieged: wait a turn, then assault twice (no port)",
           crusades.siege(crusades.EXAMPLES / "assault.toml", sieges=20000))
