"""Crusades answers from the simulator: the kernel's arguments (inputs.py), Monte Carlo in
short slices (runner.py), the public battle functions (battle.py: run, play, sensitivity),
strategic siege turns (siege_turns.py), one battle told (narration.py), and the Result they
share (results.py)."""
