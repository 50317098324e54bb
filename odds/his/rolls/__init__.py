"""The chance sequence of a Here I Stand battle's rolls, shared below every concept: the main
roll (with Surprise Attack) and the after-roll cards, written once, `sequence` for the exact
engines (numpy), `sequence_kernel` for the numba kernels, `reading` for a game's record of
one roll (core.rolled). Field battles, assaults, sieges and
naval combat import it; it imports no concept (only cards.py and core/). Registers nothing."""
