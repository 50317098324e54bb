"""Built-in examples for `odds demo`: one real analysis per procedure."""


def examples():
    """(title, Result) pairs."""
    from . import crusades
    from .his import assault, field_battle, naval_battle, siege
    from .oath import campaign

    yield ("Here I Stand field battle: 5 units + leader 2 attack 5 Ottoman units (Janissaries if needed)",
           field_battle(5, 5, attacker_leader=2, defender_power="ottoman",
                        defender_cards=["janissaries:if-needed"]))
    yield ("The same battle by Monte Carlo (10^6 trials)",
           field_battle(5, 5, attacker_leader=2, defender_power="ottoman",
                        defender_cards=["janissaries:if-needed"], method="mc", seed=1))
    yield ("Here I Stand assault: 7 units (2 cavalry) + leader 1 assault 3 defenders + leader 1, "
           "Siege Artillery if needed, 10% Foul Weather",
           assault(7, 3, attacker_cavalry=2, attacker_leader=1, defender_leader=1,
                   attacker_cards=["siege-artillery:if-needed"], cancel_probability=0.1))
    yield ("Here I Stand siege: the same forces assault up to 6 times (Siege Artillery held, played once)",
           siege(7, 3, attacker_cavalry=2, attacker_leader=1, defender_leader=1, assaults=6,
                 attacker_cards_every=["siege-artillery:if-needed"]))
    yield ("Oath campaign: 8 warbands against two sites and 2 defending warbands, sacrificing at "
           "most 1: the dice count that wins most is not the one that loses fewest",
           campaign(8, sites=[1, 1], defenders=2, sacrifice="at-most:1", optimise=True))
    yield ("Oath: 6 warbands against a 2-shield site and a relic of the Usurper (2 warbands), "
           "New Foundations, committing at most 2 sacrifices, Monte Carlo",
           campaign(6, sites=[2], relics=[1], title="usurper", defenders=2,
                    edition="new-foundations", sacrifice="at-most:2", method="mc", seed=1))
    yield ("Virgin Queen naval combat in the Atlantic: 3 English race-built galleons + leader 1 "
           "attack 4 Spanish galleons",
           naval_battle(attacker_race_built=3, attacker_leader=1, attacker_power="england",
                        defender_galleons=4, defender_power="hapsburg", location="atlantic"))
    yield ("Here I Stand naval combat: 3 squadrons attack 2 Ottoman squadrons + 2 corsairs in port "
           "(Janissaries if needed), Monte Carlo",
           naval_battle(ruleset="his", attacker_squadrons=3, attacker_leader=1,
                        defender_squadrons=2, defender_corsairs=2, defender_power="ottoman",
                        defender_cards=["janissaries:if-needed"], port=True, method="mc", seed=1))
    yield ("Crusades: assault on a walled city (illustrative units, 20,000 battles)",
           crusades.run(crusades.EXAMPLES / "assault.toml"))
    yield ("Crusades: the same city besieged: wait a turn, then assault twice (no port)",
           crusades.siege(crusades.EXAMPLES / "assault.toml", sieges=20000))
