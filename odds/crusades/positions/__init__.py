"""A crusades battle in play: the position file (position.py), its odds from here and the
moderator's options (from_here.py), the fair auto-battle (autobattle.py), and positions
written from a stopped battle (saved.py)."""
