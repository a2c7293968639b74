#!/usr/bin/env python3
"""Regenerate Eldest's perft reference suites (see README.md in this directory).

    perft.epd      standard chess: hand-picked tricky positions + seeded random play
    perft960.epd   Chess960 (Shredder-FEN castling): random starts, random play, hand-picked
    perft-cpw.epd  the Chess Programming Wiki positions with their published counts

Counts come from Stockfish (`go perft N`, Threads 1).  Every position is also checked by
python-chess: FEN validity, root move list == Stockfish's depth-1 divide, and every depth
<= 3 plus every depth whose count is <= --py-max-nodes.  Any disagreement aborts before a
file is written.

Usage:  python3 make_perft_suite.py [--stockfish /usr/games/stockfish] [--seed N]
"""
import argparse
import os
import random
import subprocess
import sys
import time

import chess

MAX_LEAF = 3_000_000      # deepest listed depth is the largest with <= this many nodes
SUITE_BUDGET = 250_000_000  # perft.epd + perft960.epd, summed over each line's deepest depth

# ---------------------------------------------------------------------------------------
# Hand-picked positions.  Written verbatim (after validation); the en passant field is kept
# as given, so a few of these carry an ep square whose capture is pseudo-legal but illegal.
HAND_STANDARD = [
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", "d7-d5 then cxd6 e.p. would expose Ka5 to Rh5 along the rank"),
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", "d2-d4 then cxd3 e.p. would unpin c4 from the a2-e6 diagonal"),
    ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", "ep field set but exd3 e.p. exposes Ka4 to Qh4 along the rank"),
    ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "ep field set but exd6 e.p. exposes Ka5 to Rh5 along the rank"),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", "en passant capture gives check"),
    ("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "en passant captures the checking pawn"),
    ("8/7k/8/8/3Pp3/8/8/1B2K3 b - d3 0 1", "pinned pawn captures e.p. along its pin diagonal (legal)"),
    ("B7/8/8/8/3Pp3/8/8/4K2k b - d3 0 1", "pinned pawn may not capture e.p. off its pin diagonal"),
    ("8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3", "en passant evades check"),
    ("2r5/3pk3/8/2P5/8/2K5/8/8 w - - 5 4", "double push next move allows e.p."),
    ("rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "legal e.p. capture in the opening"),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "GUI-style ep field with no pawn able to capture"),
    ("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2", "GUI-style ep field with no pawn able to capture"),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "short castling gives check"),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "long castling gives check"),
    ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "both castlings, bare board"),
    ("4k3/8/8/8/8/2r5/8/R3K2R w KQ - 0 1", "c1 attacked: no long castling"),
    ("4k3/8/8/8/8/1r6/8/R3K2R w KQ - 0 1", "only b1 attacked: long castling still legal"),
    ("4k3/8/8/8/8/8/8/Rn2K2R w KQ - 0 1", "b1 occupied: no long castling"),
    ("4k3/8/8/8/8/8/7r/R3K2R w KQ - 0 1", "castling rook attacked: castling still legal"),
    ("8/8/8/8/8/8/1k6/R3K3 w Q - 0 1", "enemy king guards c1: no long castling"),
    ("8/8/8/8/8/8/6k1/4K2R w K - 0 1", "enemy king guards f1/g1: no short castling"),
    ("r3k2r/8/8/8/8/8/8/3RK1R1 b kq - 0 1", "black castling through / into check"),
    ("r3k2r/1b4bq/8/8/7B/8/8/R3K2R w KQkq - 0 1", "castling rights lost by captures"),
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", "castling prevented by attacks"),
    ("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", "Bxh1 removes white's short castling right"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "partial castling rights"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b Qk - 0 1", "partial castling rights"),
    ("r3k2r/1P6/8/8/8/8/8/4K3 w kq - 0 1", "promotion by capturing a castling rook"),
    ("r6r/1b2k1bq/8/8/7B/8/8/R3K2R b KQ - 3 2", "in check, castling pieces around"),
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", "promote out of check"),
    ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", "promotion gives check"),
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", "under-promotion gives check"),
    ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "capture-promotions and under-promotions"),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "promotion storm"),
    ("8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1", "promotion race"),
    ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", "self stalemate in the tree"),
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", "stalemate and checkmate in the tree"),
    ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", "stalemate and checkmate in the tree"),
    ("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", "discovered check"),
    ("k3r3/8/8/8/8/5n2/8/4K3 w - - 0 1", "double check: rook and knight"),
    ("4k3/8/4r3/8/8/8/3p4/4K3 w - - 0 1", "double check: rook and pawn"),
    ("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "absolutely pinned knight"),
    ("4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1", "queen pinned along a file"),
    ("4k3/8/8/8/8/2b5/3Q4/4K3 w - - 0 1", "queen pinned along a diagonal"),
    ("8/3K4/2p5/p2b1p2/2k5/8/8/8 w - - 0 1", "pawn endgame with bishop"),
    ("r1bqkbnr/pppppppp/n7/8/8/P7/1PPPPPPP/RNBQKBNR w KQkq - 2 2", "early opening"),
    ("r3k2r/p1pp1pb1/bn2Qnp1/2qPN3/1p2P3/2N5/PPPBBPPP/R3K2R b KQkq - 3 2", "Kiwipete descendant"),
    ("2kr3r/p1ppqpb1/bn2Qnp1/3PN3/1p2P3/2N5/PPPBBPPP/R3K2R b KQ - 3 2", "Kiwipete descendant"),
    ("rnb2k1r/pp1Pbppp/2p5/q7/2B5/8/PPPQNnPP/RNB1K2R w KQ - 3 9", "CPW position 5 descendant"),
    ("rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6", "fork on the castling square"),
]

HAND_960 = [
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "published Chess960 perft position"),
    ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", "published Chess960 perft position"),
    ("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", "published Chess960 perft position"),
    ("qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", "published Chess960 perft position"),
    ("6k1/8/8/8/8/8/8/qRK4R w HB - 0 1", "Kc1 on its destination; Rb1 leaving uncovers Qa1: no long castling"),
    ("Qrk4r/8/8/8/8/8/8/6K1 b hb - 0 1", "black mirror: Rb8 leaving uncovers Qa8"),
    ("6k1/8/8/8/8/8/8/RKR5 w CA - 0 1", "king passes its own castling rook; long castling blocked by the other rook"),
    ("4k3/8/8/8/8/8/8/NRK1B1RN w GB - 0 1", "castling rooks between other pieces; Be1 blocks short castling"),
    ("1r2k2r/8/8/8/8/8/8/RR2K2R w HAh - 0 1", "outer a1 rook holds the right, inner b1 rook blocks it"),
    ("4k3/8/8/8/8/8/8/4KR1R w F - 0 1", "inner f1 rook holds the right, h1 rook is not the castling rook"),
    ("2r1k3/8/8/8/8/8/8/1R1K1R2 w FB - 0 1", "c1 attacked: no long castling; short castling over the own rook"),
    ("1rk4r/8/8/8/8/8/8/1RK4R w HBhb - 0 1", "kings already on the long-castling square"),
    ("r5kr/8/8/8/8/8/8/R5KR w HAha - 0 1", "kings already on the short-castling square"),
]

# Chess Programming Wiki "Perft Results" with the counts published there.
CPW = [
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     [20, 400, 8902, 197281, 4865609, 119060324]),
    ("position 2 (Kiwipete)", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     [48, 2039, 97862, 4085603, 193690690]),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     [14, 191, 2812, 43238, 674624, 11030083, 178633661]),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     [6, 264, 9467, 422333, 15833292]),
    ("position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     [6, 264, 9467, 422333, 15833292]),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     [44, 1486, 62379, 2103487, 89941194]),
    ("position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     [46, 2079, 89890, 3894594, 164075551]),
]

# How many random positions of each kind to take (first match wins, no position twice).
QUOTA_STANDARD = [
    ("opening", 20), ("middlegame", 24), ("endgame", 16), ("endgame <= 6 men", 8),
    ("en passant capture legal", 12), ("promotion available", 12), ("in check", 10),
    ("double check", 6), ("castling rights partially lost", 10), ("castling legal", 8),
    ("pinned piece", 10),
]
QUOTA_960 = [
    ("castling legal", 14), ("king or castling rook on its destination", 6),
    ("in check, castling rights", 3), ("en passant capture legal", 3), ("castling rights", 8),
]


def die(msg):
    sys.exit("FATAL: " + msg)


# ---------------------------------------------------------------------------------------
class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.name = [l for l in self.until("uciok") if l.startswith("id name")][0][8:]
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 1")
        self.chess960 = None

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                die("stockfish exited unexpectedly")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def position(self, fen, chess960):
        if chess960 != self.chess960:
            self.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
            self.chess960 = chess960
        self.send(f"position fen {fen}")
        self.send("d")
        return [l[5:] for l in self.until("Checkers:") if l.startswith("Fen: ")][-1]

    def perft(self, depth):
        self.send(f"go perft {depth}")
        divide, total = {}, None
        for l in self.until("Nodes searched:"):
            if l.startswith("Nodes searched:"):
                total = int(l.split(":")[1])
            elif ": " in l and len(l.split(":")[0]) in (4, 5):
                mv, n = l.split(": ")
                divide[mv] = int(n)
        return total, divide

    def close(self):
        self.send("quit")
        self.p.wait()


def py_perft_levels(board, depth):
    """[perft(1), ..., perft(depth)] with python-chess legal_moves."""
    counts = [0] * depth

    def rec(d):
        moves = list(board.legal_moves)
        counts[depth - d] += len(moves)
        if d > 1:
            for m in moves:
                board.push(m)
                rec(d - 1)
                board.pop()

    rec(depth)
    return counts


def write_fen(board, chess960, ep):
    return board.fen(shredder=chess960, en_passant=ep)


def validate(fen, chess960, verbatim):
    board = chess.Board(fen, chess960=chess960)
    if board.status() != chess.STATUS_VALID:
        die(f"invalid position ({board.status()!r}): {fen}")
    if board.is_game_over():
        die(f"game-over position: {fen}")
    if len(fen.split()) != 6:
        die(f"FEN must have 6 fields: {fen}")
    if verbatim and write_fen(board, chess960, "fen") != fen:
        die(f"FEN does not round-trip through python-chess: {fen} -> {write_fen(board, chess960, 'fen')}")
    return board


def check_sf_fen(ours, sf, board):
    a, b = ours.split(), sf.split()
    ok = a[:2] == b[:2] and a[4:] == b[4:] and sorted(a[2]) == sorted(b[2])
    ep_expected = a[3] if board.has_pseudo_legal_en_passant() else "-"
    if not ok or b[3] != ep_expected:
        die(f"stockfish parsed the FEN differently:\n  ours: {ours}\n  sf:   {sf}")


def reference_counts(sf, fen, chess960, py_max, depths=None):
    """Stockfish counts for depths 1..max (max chosen by MAX_LEAF unless `depths` given),
    cross-checked by python-chess."""
    board = validate(fen, chess960, verbatim=False)
    check_sf_fen(fen, sf.position(fen, chess960), board)
    counts, d = [], 1
    while True:
        if depths is not None and d > depths:
            break
        total, divide = sf.perft(d)
        if d == 1:
            ours = sorted(board.uci(m, chess960=chess960) for m in board.legal_moves)
            if ours != sorted(divide):
                die(f"root moves differ for {fen}:\n  python-chess: {ours}\n  stockfish:    {sorted(divide)}")
        if depths is None and total > MAX_LEAF:
            break
        counts.append(total)
        d += 1
    py_depth = max([k + 1 for k, n in enumerate(counts) if k < 3 or n <= py_max], default=0)
    py = py_perft_levels(board.copy(stack=False), py_depth)
    if py != counts[:py_depth]:
        die(f"Stockfish and python-chess disagree on {fen}:\n  stockfish:    {counts[:py_depth]}\n  python-chess: {py}")
    return counts, py_depth


# ---------------------------------------------------------------------------------------
def features(board, moves, ply):
    f = set()
    men = chess.popcount(board.occupied)
    if ply <= 12:
        f.add("opening")
    elif men >= 20 and ply <= 70:
        f.add("middlegame")
    if 7 <= men <= 12:
        f.add("endgame")
    if men <= 6:
        f.add("endgame <= 6 men")
    if any(board.is_en_passant(m) for m in moves):
        f.add("en passant capture legal")
    if any(m.promotion for m in moves):
        f.add("promotion available")
    checkers = len(board.checkers())
    if checkers == 1:
        f.add("in check")
    if checkers >= 2:
        f.add("double check")
    rights = chess.popcount(board.castling_rights)
    if rights:
        f.add("castling rights")
        if checkers:
            f.add("in check, castling rights")
        if rights < 4 and not board.chess960:
            f.add("castling rights partially lost")
    if any(board.is_castling(m) for m in moves):
        f.add("castling legal")
    us = board.occupied_co[board.turn] & ~board.kings
    if any(board.is_pinned(board.turn, sq) for sq in chess.scan_forward(us)):
        f.add("pinned piece")
    for rook in chess.scan_forward(board.castling_rights):
        color = chess.square_rank(rook) == 0
        king = board.king(color)
        short = chess.square_file(rook) > chess.square_file(king)
        kdest, rdest = (6, 5) if short else (2, 3)
        if chess.square_file(king) == kdest or chess.square_file(rook) == rdest:
            f.add("king or castling rook on its destination")
    return f


def choose(rng, board, moves, policy):
    if policy == "capture":
        caps = [m for m in moves if board.is_capture(m)]
        if caps and rng.random() < 0.75:
            return rng.choice(caps)
    elif policy == "sharp":
        r = rng.random()
        if r < 0.35:
            checks = [m for m in moves if board.gives_check(m)]
            if checks:
                return rng.choice(checks)
        elif r < 0.7:
            pawns = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            if pawns:
                return rng.choice(pawns)
    elif policy == "keep-castling":
        keep = chess.BB_EMPTY
        for rook in chess.scan_forward(board.castling_rights):
            keep |= chess.BB_SQUARES[rook]
        if keep:
            keep |= board.kings & board.occupied_co[board.turn]
        quiet = [m for m in moves if not (chess.BB_SQUARES[m.from_square] & keep)
                 and not (chess.BB_SQUARES[m.to_square] & board.castling_rights)]
        if quiet and rng.random() < 0.93:
            return rng.choice(quiet)
    return rng.choice(moves)


def playout_pool(rng, starts, n_playouts, max_plies, policies, chess960):
    """Every position along seeded random games: {key: (fen, features, label)}."""
    pool = {}
    for i in range(n_playouts):
        start_id, board = starts(i)
        policy = policies[i % len(policies)]
        length = rng.randint(1, max_plies)
        for ply in range(1, length + 1):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            if not moves:
                break
            board.push(choose(rng, board, moves, policy))
            fen = write_fen(board, chess960, "legal")
            key = " ".join(fen.split()[:4])
            b = chess.Board(fen, chess960=chess960)
            if key in pool or b.is_game_over() or b.status() != chess.STATUS_VALID:
                continue
            legal = list(b.legal_moves)
            where = f"from {start_id}" if chess960 else "from the start position"
            pool[key] = (fen, features(b, legal, ply), f"{policy} random play, {ply} plies {where}")
    return pool


def pick(rng, pool, quota, taken):
    chosen = []
    keys = list(pool)
    for category, n in quota:
        cands = [k for k in keys if k not in taken and category in pool[k][1]]
        got = rng.sample(cands, min(n, len(cands)))
        if len(got) < n:
            print(f"  note: only {len(got)}/{n} candidates for '{category}'", file=sys.stderr)
        for k in got:
            taken.add(k)
            fen, feats, label = pool[k]
            chosen.append((fen, f"{category}: {label}; features: {', '.join(sorted(feats))}"))
    return chosen


def build_suite(sf, entries, chess960, py_max, title):
    lines, total, seen, t0, full = [], 0, set(), time.time(), 0
    for idx, (fen, comment) in enumerate(entries):
        key = " ".join(fen.split()[:4])
        if key in seen:
            die(f"duplicate position: {fen}")
        seen.add(key)
        counts, py_depth = reference_counts(sf, fen, chess960, py_max)
        total += counts[-1]
        full += py_depth == len(counts)
        lines.append(f"# {comment} [python-chess checked D1-D{py_depth}]")
        lines.append(fen + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1)))
        if idx % 20 == 0:
            print(f"  {title}: {idx}/{len(entries)} ({time.time() - t0:.0f}s)", file=sys.stderr)
    print(f"  {title}: python-chess recomputed every listed depth on {full}/{len(entries)} lines", file=sys.stderr)
    return lines, total


def header(title, sf, n, total, extra, py_max):
    return [
        f"# {title}",
        "# Generated by make_perft_suite.py (see README.md); do not edit by hand.",
        f"# Counts: {sf.name} `go perft N` (Threads 1); python-chess {chess.__version__} recomputed",
        f"# every depth <= 3 and every depth with <= {py_max} nodes (see [python-chess checked ...]).",
        f"# {n} positions; {total} leaf nodes summed over each line's deepest depth.",
        *extra,
        "# Format: <FEN> ;D1 <n> ;D2 <n> ...",
        "",
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--seed", type=int, default=20250)
    ap.add_argument("--py-max-nodes", type=int, default=1_000_000)
    ap.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sf = Stockfish(args.stockfish)
    t0 = time.time()
    print(f"{sf.name}, python-chess {chess.__version__}, seed {args.seed}", file=sys.stderr)

    # --- standard -------------------------------------------------------------------
    hand = [(fen, "hand-picked: " + why) for fen, why in HAND_STANDARD]
    for fen, _ in hand:
        validate(fen, False, verbatim=True)
    taken = {" ".join(f.split()[:4]) for f, _ in hand}
    taken |= {" ".join(f.split()[:4]) for _, f, _ in CPW}
    pool = playout_pool(rng, lambda i: ("start", chess.Board()), 1500, 160,
                        ["uniform", "capture", "sharp", "capture", "uniform"], False)
    print(f"standard pool: {len(pool)} positions ({time.time() - t0:.0f}s)", file=sys.stderr)
    std_entries = hand + pick(rng, pool, QUOTA_STANDARD, taken)

    # --- Chess960 -------------------------------------------------------------------
    hand960 = [(fen, "hand-picked: " + why) for fen, why in HAND_960]
    for fen, _ in hand960:
        validate(fen, True, verbatim=True)
    taken960 = {" ".join(f.split()[:4]) for f, _ in hand960}

    def files(sp):
        b = chess.Board.from_chess960_pos(sp)
        k = chess.square_file(b.king(chess.WHITE))
        rooks = sorted(chess.square_file(s) for s in chess.scan_forward(b.rooks & b.occupied_co[chess.WHITE]))
        return k, rooks[0], rooks[-1]

    wanted = [("king on its short-castling square", lambda k, a, h: k == 6),
              ("king on its long-castling square", lambda k, a, h: k == 2),
              ("h-side rook on its destination f", lambda k, a, h: h == 5),
              ("a-side rook on its destination d", lambda k, a, h: a == 3),
              ("king b, rook a", lambda k, a, h: k == 1 and a == 0),
              ("king and h-side rook adjacent", lambda k, a, h: h == k + 1),
              ("king and a-side rook adjacent", lambda k, a, h: a == k - 1)]
    start_ids = [518]
    for _, cond in wanted:
        start_ids.append(rng.choice([sp for sp in range(960) if cond(*files(sp)) and sp not in start_ids]))
    while len(start_ids) < 14:
        sp = rng.randrange(960)
        if sp not in start_ids:
            start_ids.append(sp)
    starts960 = []
    for j, sp in enumerate(start_ids):
        fen = write_fen(chess.Board.from_chess960_pos(sp), True, "legal")
        why = "standard array" if j == 0 else (wanted[j - 1][0] if j <= len(wanted) else "random")
        starts960.append((fen, f"Chess960 start position #{sp} ({why})"))
        taken960.add(" ".join(fen.split()[:4]))
    ids = [rng.randrange(960) for _ in range(600)]
    pool960 = playout_pool(rng, lambda i: (f"Chess960 #{ids[i]}", chess.Board.from_chess960_pos(ids[i], )),
                           600, 40, ["keep-castling", "keep-castling", "uniform"], True)
    pool960 = {k: v for k, v in pool960.items() if "castling rights" in v[1]}
    print(f"Chess960 pool: {len(pool960)} positions with castling rights ({time.time() - t0:.0f}s)", file=sys.stderr)
    c960_entries = hand960 + starts960 + pick(rng, pool960, QUOTA_960, taken960)

    # --- reference counts -------------------------------------------------------------
    std_lines, std_total = build_suite(sf, std_entries, False, args.py_max_nodes, "perft.epd")
    c960_lines, c960_total = build_suite(sf, c960_entries, True, args.py_max_nodes, "perft960.epd")
    if std_total + c960_total > SUITE_BUDGET:
        die(f"suite too large: {std_total} + {c960_total} leaf nodes > {SUITE_BUDGET}")

    cpw_lines, cpw_total = [], 0
    for name, fen, published in CPW:
        validate(fen, False, verbatim=True)
        counts, py_depth = reference_counts(sf, fen, False, args.py_max_nodes, depths=len(published))
        if counts != published:
            die(f"Stockfish disagrees with the published CPW counts for {name}: {counts} vs {published}")
        cpw_total += counts[-1]
        cpw_lines.append(f"# {name} [Stockfish == published for D1-D{len(counts)}; python-chess checked D1-D{py_depth}]")
        cpw_lines.append(fen + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1)))

    rule = [f"# Depths: every depth up to the largest whose count is <= {MAX_LEAF}.",
            f"# Random positions: seed {args.seed}; ep field written only when an e.p. capture is legal;",
            "# hand-picked positions are kept verbatim (some carry an ep square whose capture is illegal)."]
    out = {
        "perft.epd": header("Eldest perft suite: standard chess", sf, len(std_entries), std_total, rule, args.py_max_nodes) + std_lines,
        "perft960.epd": header("Eldest perft suite: Chess960 (Shredder-FEN castling: file letters of the castling rooks)",
                               sf, len(c960_entries), c960_total, rule, args.py_max_nodes) + c960_lines,
        "perft-cpw.epd": header("Chess Programming Wiki perft positions (https://www.chessprogramming.org/Perft_Results)",
                                sf, len(CPW), cpw_total, ["# Counts are the published ones; Stockfish reproduced every one."],
                                args.py_max_nodes) + cpw_lines,
    }
    sf.close()
    for name, lines in out.items():
        with open(os.path.join(args.out_dir, name), "w") as fh:
            fh.write("\n".join(lines) + "\n")
    print(f"perft.epd: {len(std_entries)} positions, {std_total} leaves at deepest depths", file=sys.stderr)
    print(f"perft960.epd: {len(c960_entries)} positions, {c960_total} leaves at deepest depths", file=sys.stderr)
    print(f"perft-cpw.epd: {len(CPW)} positions, {cpw_total} leaves at deepest depths", file=sys.stderr)
    print(f"done in {time.time() - t0:.0f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
