#!/usr/bin/env python3
"""Regenerate openings.epd from the SAN main lines below.

Each line is a mainstream opening (ECO code, name, 4-8 plies of SAN). python-chess checks
every move, and the script refuses duplicate end positions, lines shorter than 4 or longer
than 8 plies, and end positions where the game is already over. The EPD records the
position reached plus two operations:

    id "<ECO> <name>"; moves "<the same moves in UCI notation>";

`cargo xtask match` plays the `moves` from the standard start position (so engines without `setboard`,
such as fairymax, can be used) and checks that they lead to the EPD position.

Usage: python3 tools/strength/make_openings.py [--out tools/strength/openings.epd]
       python3 tools/strength/make_openings.py --check /usr/games/stockfish [--depth 14]
       python3 tools/strength/make_openings.py --extend target/release/eldest \
           [--out tools/strength/openings-wide.epd] [--depth 12] [--multipv 4] [--window 30] [--max-cp 60]
The second form prints Stockfish's evaluation of every position (white's view), sorted,
to check that none is lopsided; it writes nothing.

The third form writes the wider set that `cargo xtask match` plays by default: every line
above is extended by one move of each side (10 plies). At each of the two plies a UCI engine
(eldest: Threads 1, Hash 16, MultiPV N, fixed depth, so the result is reproducible for a given
binary) lists its N best moves; a move is kept when it is within WINDOW centipawns of the best
one and the evaluation stays within MAX_CP of equality (white's view). Duplicate positions are
dropped. Each record is named "<ECO> <name>: <move 9> <move 10>" and carries all ten moves.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import chess

# (ECO, name, SAN moves). Balanced, well-known main lines; no gambits that lose material
# for nothing and no lines where one side is clearly worse by theory.
LINES: list[tuple[str, str, str]] = [
    # Open games (1.e4 e5)
    ("C60", "Ruy Lopez", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6"),
    ("C65", "Ruy Lopez, Berlin Defence", "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4"),
    ("C68", "Ruy Lopez, Exchange Variation", "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6"),
    ("C62", "Ruy Lopez, Steinitz Defence", "e4 e5 Nf3 Nc6 Bb5 d6 d4 Bd7"),
    ("C50", "Italian Game, Giuoco Piano", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6"),
    ("C55", "Italian Game, Two Knights", "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7"),
    ("C45", "Scotch Game", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6"),
    ("C47", "Four Knights, Scotch Variation", "e4 e5 Nf3 Nc6 Nc3 Nf6 d4 exd4"),
    ("C48", "Four Knights, Spanish Variation", "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4"),
    ("C42", "Petrov Defence", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4"),
    ("C41", "Philidor Defence", "e4 e5 Nf3 d6 d4 Nf6 Nc3 Nbd7"),
    ("C46", "Three Knights Game", "e4 e5 Nf3 Nc6 Nc3 g6 d4 exd4"),
    ("C25", "Vienna Game", "e4 e5 Nc3 Nf6 f4 d5 fxe5 Nxe4"),
    ("C23", "Bishop's Opening", "e4 e5 Bc4 Nf6 d3 c6 Nf3 d5"),
    ("C44", "Ponziani Opening", "e4 e5 Nf3 Nc6 c3 Nf6 d4 Nxe4"),
    # Sicilian
    ("B90", "Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6"),
    ("B33", "Sicilian, Sveshnikov", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6"),
    ("B40", "Sicilian, Kan", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6"),
    ("B46", "Sicilian, Taimanov", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6"),
    ("B35", "Sicilian, Accelerated Dragon", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6"),
    ("B22", "Sicilian, Alapin", "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4"),
    ("B23", "Sicilian, Closed", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("B51", "Sicilian, Moscow Variation", "e4 c5 Nf3 d6 Bb5+ Nc6 O-O Bd7"),
    ("B30", "Sicilian, Rossolimo", "e4 c5 Nf3 Nc6 Bb5 g6 O-O Bg7"),
    # French, Caro-Kann, other semi-open
    ("C11", "French, Classical", "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7"),
    ("C15", "French, Winawer", "e4 e6 d4 d5 Nc3 Bb4 e5 c5"),
    ("C02", "French, Advance", "e4 e6 d4 d5 e5 c5 c3 Nc6"),
    ("C07", "French, Tarrasch", "e4 e6 d4 d5 Nd2 c5 exd5 Qxd5"),
    ("C01", "French, Exchange", "e4 e6 d4 d5 exd5 exd5 Nf3 Nf6"),
    ("B18", "Caro-Kann, Classical", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5"),
    ("B12", "Caro-Kann, Advance", "e4 c6 d4 d5 e5 Bf5 Nf3 e6"),
    ("B13", "Caro-Kann, Exchange", "e4 c6 d4 d5 exd5 cxd5 Bd3 Nc6"),
    ("B10", "Caro-Kann, Two Knights", "e4 c6 Nc3 d5 Nf3 Bg4 h3 Bxf3"),
    ("B07", "Pirc Defence", "e4 d6 d4 Nf6 Nc3 g6 Be2 Bg7"),
    ("B06", "Modern Defence", "e4 g6 d4 Bg7 Nc3 d6 Be3 a6"),
    ("B01", "Scandinavian Defence", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6"),
    ("B04", "Alekhine Defence, Modern", "e4 Nf6 e5 Nd5 d4 d6 Nf3 Bg4"),
    # Closed games (1.d4 d5)
    ("D37", "Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6 Nf3 Be7"),
    ("D35", "QGD, Exchange Variation", "d4 d5 c4 e6 Nc3 Nf6 cxd5 exd5"),
    ("D27", "Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6"),
    ("D15", "Slav Defence", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4"),
    ("D45", "Semi-Slav Defence", "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6"),
    ("D32", "Tarrasch Defence", "d4 d5 c4 e6 Nc3 c5 cxd5 exd5"),
    ("D07", "Chigorin Defence", "d4 d5 c4 Nc6 Nc3 dxc4 Nf3 Nf6"),
    ("D02", "London System", "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5"),
    ("D05", "Colle System", "d4 d5 Nf3 Nf6 e3 e6 Bd3 c5"),
    # Indian defences
    ("E32", "Nimzo-Indian, Classical", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O"),
    ("E41", "Nimzo-Indian, Rubinstein", "d4 Nf6 c4 e6 Nc3 Bb4 e3 c5"),
    ("E15", "Queen's Indian Defence", "d4 Nf6 c4 e6 Nf3 b6 g3 Ba6"),
    ("E11", "Bogo-Indian Defence", "d4 Nf6 c4 e6 Nf3 Bb4+ Bd2 Qe7"),
    ("E04", "Catalan, Open", "d4 Nf6 c4 e6 g3 d5 Bg2 dxc4"),
    ("E70", "King's Indian, Main Line", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6"),
    ("E61", "King's Indian, Nf3 System", "d4 Nf6 c4 g6 Nc3 Bg7 Nf3 O-O"),
    ("E62", "King's Indian, Fianchetto", "d4 Nf6 c4 g6 Nf3 Bg7 g3 O-O"),
    ("D85", "Gruenfeld, Exchange", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5"),
    ("D91", "Gruenfeld, Russian System", "d4 Nf6 c4 g6 Nc3 d5 Nf3 Bg7"),
    ("A57", "Benko Gambit Declined", "d4 Nf6 c4 c5 d5 b5 Nf3 g6"),
    ("A61", "Modern Benoni", "d4 Nf6 c4 c5 d5 e6 Nc3 exd5"),
    ("A48", "London System vs King's Indian", "d4 Nf6 Nf3 g6 Bf4 Bg7 e3 O-O"),
    ("A53", "Old Indian Defence", "d4 Nf6 c4 d6 Nc3 e5 Nf3 Nbd7"),
    ("A81", "Dutch, Leningrad", "d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7"),
    ("A90", "Dutch, Stonewall", "d4 e6 c4 f5 g3 Nf6 Bg2 d5"),
    ("A46", "Torre Attack", "d4 Nf6 Nf3 e6 Bg5 c5 e3 h6"),
    ("A45", "Trompowsky Attack", "d4 Nf6 Bg5 e6 e4 h6 Bxf6 Qxf6"),
    # Flank openings
    ("A30", "English, Symmetrical", "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("A29", "English, Four Knights", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5"),
    ("A22", "English, Reversed Sicilian", "c4 e5 Nc3 Nf6 g3 d5 cxd5 Nxd5"),
    ("A16", "English, Anglo-Gruenfeld", "c4 Nf6 Nc3 d5 cxd5 Nxd5 g3 g6"),
    ("A13", "English, Agincourt", "c4 e6 Nf3 d5 g3 Nf6 Bg2 Be7"),
    ("A04", "Reti, Symmetrical", "Nf3 Nf6 c4 c5 Nc3 Nc6 g3 g6"),
    ("A09", "Reti, Advance", "Nf3 d5 c4 d4 e3 Nc6 exd4 Nxd4"),
    ("A07", "King's Indian Attack", "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4"),
    ("A02", "Bird's Opening", "f4 d5 Nf3 Nf6 e3 g6 b3 Bg7"),
    ("A01", "Nimzowitsch-Larsen Attack", "b3 e5 Bb2 Nc6 e3 d5 Bb5 Bd6"),
]


def build(lines: list[tuple[str, str, str]]) -> list[str]:
    """Play every line with python-chess and return EPD records; raise on any problem."""
    records: list[str] = []
    seen: dict[str, str] = {}
    for eco, name, san_moves in lines:
        board = chess.Board()
        sans = san_moves.split()
        if not 4 <= len(sans) <= 8:
            raise ValueError(f"{eco} {name}: {len(sans)} plies, want 4-8")
        for san in sans:
            board.push_san(san)  # raises on an illegal or ambiguous move
        if board.is_game_over():
            raise ValueError(f"{eco} {name}: game over after the opening")
        key = board.epd()
        if key in seen:
            raise ValueError(f"{eco} {name}: same position as {seen[key]}")
        seen[key] = f"{eco} {name}"
        uci = " ".join(move.uci() for move in board.move_stack)
        records.append(board.epd(id=f"{eco} {name}", moves=uci))
    return records


def check(records: list[str], engine_path: str, depth: int) -> int:
    import chess.engine

    scores = []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        for record in records:
            board, ops = chess.Board.from_epd(record)
            info = engine.analyse(board, chess.engine.Limit(depth=depth))
            scores.append((info["score"].white().score(mate_score=100_000), ops["id"]))
    for score, name in sorted(scores):
        print(f"{score:+5d} {name}")
    print(f"mean {sum(s for s, _ in scores) / len(scores):+.1f} cp, largest |score| {max(abs(s) for s, _ in scores)} cp")
    return 0


def extend(records: list[str], engine_path: str, depth: int, multipv: int, window: int, max_cp: int) -> list[str]:
    """Two more plies on every record, chosen as the module docstring says."""
    import chess.engine

    def candidates(engine: chess.engine.SimpleEngine, board: chess.Board) -> list[chess.Move]:
        lines = engine.analyse(board, chess.engine.Limit(depth=depth), multipv=multipv)
        scored = []
        for info in lines:
            if "pv" not in info or not info["pv"]:
                continue
            mover_view = info["score"].pov(board.turn).score(mate_score=100_000)
            white_view = info["score"].white().score(mate_score=100_000)
            scored.append((info["pv"][0], mover_view, white_view))
        if not scored:
            return []
        best = max(mover for _, mover, _ in scored)
        return [move for move, mover, white in scored if mover >= best - window and abs(white) <= max_cp]

    extended: list[str] = []
    seen: set[str] = set()
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for record in records:
            board, ops = chess.Board.from_epd(record)
            base = chess.Board()
            for uci in ops["moves"].split():
                base.push_uci(uci)
            for first in candidates(engine, base):
                first_san = base.san(first)
                base.push(first)
                for second in candidates(engine, base):
                    second_san = base.san(second)
                    base.push(second)
                    key = base.epd()
                    if key not in seen and not base.is_game_over():
                        seen.add(key)
                        uci = " ".join(move.uci() for move in base.move_stack)
                        extended.append(base.epd(id=f"{ops['id']}: {first_san} {second_san}", moves=uci))
                    base.pop()
                base.pop()
    return extended


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="default: openings.epd, or openings-wide.epd with --extend")
    parser.add_argument("--check", metavar="UCI_ENGINE", help="print this engine's evaluation of each position")
    parser.add_argument("--extend", metavar="UCI_ENGINE", help="write the 10-ply set chosen with this engine")
    parser.add_argument("--depth", type=int, help="search depth (default 14 with --check, 12 with --extend)")
    parser.add_argument("--multipv", type=int, default=4)
    parser.add_argument("--window", type=int, default=30, help="centipawns behind the best move (--extend)")
    parser.add_argument("--max-cp", type=int, default=60, help="largest |evaluation| kept (--extend)")
    args = parser.parse_args()
    records = build(LINES)
    if args.check:
        return check(records, args.check, args.depth or 14)
    if args.extend:
        records = extend(records, args.extend, args.depth or 12, args.multipv, args.window, args.max_cp)
        args.out = args.out or str(pathlib.Path(__file__).with_name("openings-wide.epd"))
    args.out = args.out or str(pathlib.Path(__file__).with_name("openings.epd"))
    pathlib.Path(args.out).write_text("".join(r + "\n" for r in records))
    print(f"wrote {len(records)} positions to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
