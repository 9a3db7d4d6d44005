"""The command line `python -m klondike_widget`: the study, summary and ratings commands.

Examples::

    python -m klondike_widget study --draw 1 --deals 1-2000 --seconds 60 --out results.csv
    python -m klondike_widget study --draw 3 --deals 1-200 --seconds 10 --out r.csv --dask local
    python -m klondike_widget study --draw 1 --solvitaire reference.jsonl --seconds 60 --out s.csv
    python -m klondike_widget study --draw 3 --solvitaire r.jsonl --deals 2 --seconds 9 --out t.csv
    python -m klondike_widget summary results.csv --plot results.png
    python -m klondike_widget ratings d1.csv d3.csv --out klondike_widget/engine/ratings.json

Exit status: 0 done, 1 some deals failed in their worker, 2 bad arguments or an unusable result
file, 130 interrupted (rows already written are kept; the same command resumes).
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m klondike_widget``."""
    parser = argparse.ArgumentParser(
        prog="python -m klondike_widget", description="Klondike solitaire tools."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    study = sub.add_parser(
        "study",
        help="solve many deals and write one CSV row per deal",
        description="Solve many deals; rows stream to --out as deals finish. Running the same "
        "command again resumes: finished deals are skipped.",
    )
    study.add_argument("--draw", type=int, choices=(1, 3), required=True, help="cards per tap")
    study.add_argument(
        "--deals",
        help="deal numbers, e.g. 1-2000 or 1-100,250,300-310 (with --solvitaire: which seeds)",
    )
    study.add_argument(
        "--solvitaire",
        metavar="FILE",
        help="deals from Solvitaire JSON/JSONL (records of the other draw mode are skipped)",
    )
    study.add_argument(
        "--seconds", type=_positive_float, required=True, help="time budget per solve"
    )
    study.add_argument("--nodes", type=_positive_int, help="node budget per solve (optional)")
    study.add_argument("--out", required=True, help="result CSV (resumed if it exists)")
    study.add_argument(
        "--workers",
        type=_positive_int,
        default=None,
        help=f"processes (or Dask workers with --dask local); default {os.cpu_count()}",
    )
    study.add_argument(
        "--dask", metavar="local|ADDRESS", help="run on Dask: a LocalCluster or a scheduler"
    )
    study.add_argument(
        "--no-foundation-return-check",
        dest="check",
        action="store_false",
        help="do not re-solve won deals with foundation-to-column moves forbidden",
    )
    study.add_argument("--no-progress", action="store_true", help="no progress bar")
    study.add_argument("--plot", metavar="FILE", help="also save the figures (png/svg/pdf)")

    ratings = sub.add_parser(
        "ratings",
        help="rate the won deals of studies (easy/medium/hard) and write the ratings table",
        description="Rate the won deals of one study per draw mode (numbered deals, checked "
        "without foundation-to-column moves) and write the table of deal ratings.",
    )
    ratings.add_argument("studies", nargs="+", help="result CSV files of the study command")
    ratings.add_argument("--out", required=True, help="the ratings table to write (JSON)")
    ratings.add_argument("--no-progress", action="store_true", help="no progress line")

    summary = sub.add_parser("summary", help="summarize a result file")
    summary.add_argument("results", help="result CSV written by the study command")
    summary.add_argument("--plot", metavar="FILE", help="also save the figures (png/svg/pdf)")
    return parser


def _study(args: argparse.Namespace) -> int:
    from klondike_widget.engine.deals import parse_deal_numbers
    from klondike_widget.study import StudyError, read_solvitaire_deals, run_study

    deals: object = args.deals
    if args.solvitaire is not None:
        imported = read_solvitaire_deals(args.solvitaire, args.draw)
        if args.deals is not None:
            wanted = set(parse_deal_numbers(args.deals))
            imported = [d for d in imported if d.label in wanted]
            if not imported:
                raise ValueError(f"{args.solvitaire}: no seeds {args.deals} for draw {args.draw}")
        deals = imported
    elif args.deals is None:
        raise ValueError("give the deals: --deals 1-2000, or --solvitaire FILE")
    try:
        results = run_study(
            deals,  # type: ignore[arg-type]
            draw=args.draw,
            seconds=args.seconds,
            nodes=args.nodes,
            check_without_f2t=args.check,
            out=args.out,
            workers=args.workers,
            dask=args.dask,
            progress=not args.no_progress,
        )
    except StudyError as exc:
        print(exc.results.report())
        print(f"error: {exc}", file=sys.stderr)
        print("rerun the same command to retry the failed deals", file=sys.stderr)
        return 1
    print(results.report())
    if args.plot:
        results.plot(args.plot)
    return 0


def _summary(args: argparse.Namespace) -> int:
    from klondike_widget.study.results import read_results

    results = read_results(args.results)
    print(f"{args.results}: draw {results.settings.draw}, {results.settings.seconds:g} s per solve")
    print(results.report())
    if args.plot:
        results.plot(args.plot)
    return 0


def _ratings(args: argparse.Namespace) -> int:
    from klondike_widget.study.difficulty import write_ratings

    print(write_ratings(args.studies, args.out, progress=not args.no_progress))
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    command = {"study": _study, "summary": _summary, "ratings": _ratings}[args.command]
    # `kill PID` stops a study as Ctrl-C does: deals in progress are dropped, rows already
    # written stay, and the same command resumes.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        return command(args)
    except KeyboardInterrupt:
        print(
            "\ninterrupted: finished deals are saved; run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    except (ValueError, ImportError, ConnectionError) as exc:
        # StudyFileError and bad deal lists are ValueErrors: a clear message, nothing written.
        print(f"{parser.prog} {args.command}: error: {exc}", file=sys.stderr)
        return 2
