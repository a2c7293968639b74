#!/usr/bin/env python3
"""Draw candidate positions for the long set, and time them, by a rule fixed before any is timed.

The long set (crates/search/bench/long.epd) holds middlegames from Eldest's own games that take 5-30 s each with
one thread at the set's depth. This script makes the draw of new positions reproducible:

    draw    two candidates per opening (the `Opening` tag's ECO code) not yet in the set, one with White and one
            with Black to move, from the games of docs/strength/*.pgn.gz: a game of that opening picked at
            random and a full move number from 13 to 28 at random; the candidate is the position before that
            side's move, kept only with 24 men or more, the side not in check and the game not over (up to five
            draws per opening and side). The candidates are shuffled, all with one fixed seed, and written as EPD
            lines with a comment naming the game.
    time    searches the candidates in their shuffled order, one `eldest bench DEPTH --hash 64 --positions`
            process each (killed past the upper limit), and accepts each that takes LOW-HIGH seconds while its
            side still has room (`--white N --black N`), until both sides are full. Every timing is printed and
            the accepted lines are written to --out.

    python3 tools/bench/long_candidates.py draw --out /tmp/candidates.epd
    python3 tools/bench/long_candidates.py time --engine target/release/eldest --candidates /tmp/candidates.epd \\
        --white 6 --black 6 --out /tmp/accepted.epd

Needs python-chess (tools/strength/requirements.txt). Used on 2026-12-05 to widen the long set from 12 positions
to 24 (docs/bench.md).
"""

import argparse
import gzip
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parents[2]
LONG_SET = ROOT / "crates/search/bench/long.epd"
GAMES = sorted((ROOT / "docs/strength").glob("*.pgn.gz"))
SEED = 20261205
# Draws per opening and side until one gives a position with enough men.
ATTEMPTS = 5


def position_before(game: chess.pgn.Game, move_number: int, white: bool) -> str | None:
    """The FEN before `white`'s (or Black's) move `move_number`, if the game got there with 24 men or more, the
    side not in check and the game not over."""
    ply = 2 * (move_number - 1) + (0 if white else 1)
    moves = list(game.mainline_moves())
    if ply >= len(moves):
        return None
    board = game.board()
    for move in moves[:ply]:
        board.push(move)
    if len(board.piece_map()) < 24 or board.is_check() or board.is_game_over():
        return None
    return board.fen()


def openings_in_set() -> set[str]:
    """The ECO codes named in the long set's comments."""
    return set(re.findall(r"game \d+, [^,]+, ([A-E]\d\d) ", LONG_SET.read_text()))


def read_games() -> list[tuple[str, int, chess.pgn.Game]]:
    games = []
    for path in GAMES:
        with gzip.open(path, "rt") as handle:
            number = 0
            while (game := chess.pgn.read_game(handle)) is not None:
                number += 1
                games.append((path.name, number, game))
    return games


def draw(out: Path) -> int:
    rng = random.Random(SEED)
    taken = openings_in_set()
    by_opening: dict[str, list] = {}
    for entry in read_games():
        opening = entry[2].headers.get("Opening", "")
        eco = opening[:3]
        if re.fullmatch(r"[A-E]\d\d", eco) and eco not in taken:
            by_opening.setdefault(eco, []).append(entry)
    lines = []
    for eco in sorted(by_opening):
        for white in (True, False):
            for _attempt in range(ATTEMPTS):
                name, number, game = rng.choice(by_opening[eco])
                move_number = rng.randint(13, 28)
                candidate = position_before(game, move_number, white)
                if candidate is None:
                    continue
                side = "White" if white else "Black"
                headers = game.headers
                comment = (
                    f"# {name} game {number}, {headers.get('White', '?')} - {headers.get('Black', '?')}, "
                    f"{headers.get('Opening', '?')}; {side} to play move {move_number}."
                )
                lines.append((comment, candidate))
                break
    rng.shuffle(lines)
    out.write_text("".join(f"{comment}\n{fen}\n" for comment, fen in lines))
    print(f"{len(lines)} candidates from {len(by_opening)} openings not in the set -> {out}")
    return 0


def time_candidates(args: argparse.Namespace) -> int:
    text = args.candidates.read_text().splitlines()
    pairs = [(text[i], text[i + 1]) for i in range(0, len(text) - 1, 2)]
    room = {"w": args.white, "b": args.black}
    accepted = []
    for index, (comment, fen) in enumerate(pairs, 1):
        side = fen.split()[1]
        if room[side] == 0:
            print(f"{index:3} skipped (side full) {fen}", flush=True)
            continue
        one = Path(args.scratch)
        one.write_text(fen + "\n")
        started = time.monotonic()
        try:
            subprocess.run(
                [args.engine, "bench", str(args.depth), "--hash", "64", "--positions", str(one)],
                check=True,
                capture_output=True,
                timeout=args.high + 5,
            )
            seconds = time.monotonic() - started
        except subprocess.TimeoutExpired:
            seconds = None
        verdict = "accepted" if seconds is not None and args.low <= seconds <= args.high else "rejected"
        shown = f"{seconds:6.1f} s" if seconds is not None else f">{args.high + 5} s"
        print(f"{index:3} {shown} {verdict} {fen}", flush=True)
        if verdict == "accepted":
            room[side] -= 1
            accepted.append(f"{comment}\n{fen}\n")
        if not any(room.values()):
            break
    args.out.write_text("".join(accepted))
    print(f"accepted {len(accepted)}; room left {room}")
    return 0 if not any(room.values()) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    draw_parser = commands.add_parser("draw", help="write the shuffled candidates")
    draw_parser.add_argument("--out", type=Path, required=True)
    time_parser = commands.add_parser("time", help="time the candidates in order and accept by the rule")
    time_parser.add_argument("--engine", required=True)
    time_parser.add_argument("--candidates", type=Path, required=True)
    time_parser.add_argument("--out", type=Path, required=True)
    time_parser.add_argument("--depth", type=int, default=22)
    time_parser.add_argument("--low", type=float, default=5.0)
    time_parser.add_argument("--high", type=float, default=30.0)
    time_parser.add_argument("--white", type=int, default=6)
    time_parser.add_argument("--black", type=int, default=6)
    time_parser.add_argument("--scratch", default="/tmp/long_candidate.epd")
    args = parser.parse_args()
    if args.command == "draw":
        return draw(args.out)
    return time_candidates(args)


if __name__ == "__main__":
    sys.exit(main())
