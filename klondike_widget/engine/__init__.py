"""The rules engine, the single authority on what is legal; imports nothing else of the package.

``cards`` (card ints, names, "can stack on"), ``rules`` (the variant as data), ``errors``,
``state`` (:class:`GameState`), ``moves`` (:class:`Move`, legal moves, apply), ``game`` (a game
with history and undo), ``deals`` (numbered and Solvitaire deals), ``notation`` (plain-JSON
positions), ``line`` (a line of moves checked against a position), ``perft`` (move-tree counts)
and ``packed`` (an ``int8`` array form of a position).
"""
