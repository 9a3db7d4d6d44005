"""``python -m klondike_widget``: runs the command line of :mod:`klondike_widget.study.cli`."""

from __future__ import annotations

import sys

from klondike_widget.study.cli import build_parser, main

__all__ = ["build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())
