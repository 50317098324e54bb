"""The Oath campaign: its rules and dice, battle plans, the decision table, the exact engine
and the public `campaign` (procedure.py), the numba kernel and the roll's reader."""
