"""The crusades battle simulator: the state as arrays (state.py, shared with Python), the AI's
scans (ai.py) and the numba kernel of one battle (kernel.py)."""
