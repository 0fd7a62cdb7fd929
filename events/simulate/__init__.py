"""Simulated Saboteur: bots that play plausible, legal games, and whole tournaments.

The simulator writes logs through the same replay engine that audits them: every event
it writes is fed to a :class:`~events.replay.Replay`, whose state is the table the bots
look at (through :class:`~events.simulate.knowledge.View`, which shows a player only
what that player could know).
"""
