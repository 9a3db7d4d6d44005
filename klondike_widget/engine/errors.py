"""The engine's errors: all are ``ValueError`` subclasses with a specific meaning."""

from __future__ import annotations

__all__ = ["IllegalMoveError", "InvalidGameError", "InvalidMoveError", "InvalidStateError"]


class InvalidMoveError(ValueError):
    """Text that is not a move in our notation (``"t3-t6"``, ``"s"``, ...)."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in the given position.

    ``reason`` holds the explanation, also used as the message.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidStateError(ValueError):
    """A position that cannot occur: wrong or duplicate cards, a face-down card on top, ..."""


class InvalidGameError(ValueError):
    """A saved game that is malformed, tampered with or of an unknown format version."""
