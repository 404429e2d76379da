"""Computer players. Pure functions of a game state: they import only the engine."""
