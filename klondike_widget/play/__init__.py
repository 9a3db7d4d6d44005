"""Helps for the player at the table, independent of any widget library.

:mod:`~klondike_widget.play.scoring`
    Standard and Vegas scores of a game (Windows Solitaire's conventions).
:mod:`~klondike_widget.play.stats`
    Statistics per draw mode, kept in the user's data directory (one file, written atomically).
:mod:`~klondike_widget.play.assist`
    One-click targets, the auto-complete offer and safe foundation cards, all from the engine's
    legal moves (the front end never decides them).

Nothing here imports traitlets, ipywidgets or anywidget; :mod:`~klondike_widget.play.assist`
loads the solver's compiled core only when asked whether a card is safe.
"""
