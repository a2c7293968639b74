#!/usr/bin/env python3
"""A deliberately faulty UCI engine for checking match.py's referee (not a chess engine).

    fake_uci.py MODE [AFTER]

plays random legal moves at once for its first AFTER moves of a game (default 3), then misbehaves:
  random   keep playing random legal moves (control)
  slow     think until its clock has run out, plus 0.2 s       -> time forfeit
  hang     never answer `go`                                    -> time forfeit (hung)
  illegal  answer an illegal move                               -> illegal move
  crash    exit with status 3                                   -> engine crash
  null     answer `bestmove 0000`                               -> no move

Example: python3 tools/strength/match.py --engine "tools/strength/fake_uci.py" \\
             --engine-option Mode=slow --opponent fairymax --games 2 --tc 1+0.01
"""

import random
import sys
import time

import chess

mode = sys.argv[1] if len(sys.argv) > 1 else "random"
after = int(sys.argv[2]) if len(sys.argv) > 2 else 3
board = chess.Board()
rng = random.Random(1)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    tokens = line.split()
    if not tokens:
        continue
    command = tokens[0]
    if command == "uci":
        say("id name Fake " + mode)
        say("option name Threads type spin default 1 min 1 max 1")
        say("option name Hash type spin default 16 min 1 max 1024")
        say("option name Mode type combo default random var random var slow var hang var illegal var crash var null")
        say("uciok")
    elif command == "setoption" and "Mode" in tokens and "value" in tokens:
        mode = tokens[tokens.index("value") + 1]
    elif command == "isready":
        say("readyok")
    elif command == "position":
        if tokens[1] == "startpos":
            board = chess.Board()
            rest = tokens[2:]
        else:
            board = chess.Board(" ".join(tokens[2:8]))
            rest = tokens[8:]
        for uci in rest[1:] if rest and rest[0] == "moves" else []:
            board.push_uci(uci)
    elif command == "go":
        own_moves = (board.ply() + (0 if board.turn == chess.WHITE else -1)) // 2
        misbehave = mode != "random" and own_moves >= after
        if misbehave and mode == "slow":
            key = "wtime" if board.turn == chess.WHITE else "btime"
            clock_ms = int(tokens[tokens.index(key) + 1]) if key in tokens else 1000
            time.sleep(clock_ms / 1000 + 0.2)
        elif misbehave and mode == "hang":
            continue
        elif misbehave and mode == "illegal":
            say("bestmove a1a8" if not board.is_legal(chess.Move.from_uci("a1a8")) else "bestmove h1h8")
            continue
        elif misbehave and mode == "crash":
            sys.exit(3)
        elif misbehave and mode == "null":
            say("bestmove 0000")
            continue
        move = rng.choice(list(board.legal_moves))
        say(f"info depth 1 score cp 0 nodes 1 pv {move.uci()}")
        say(f"bestmove {move.uci()}")
    elif command == "quit":
        break
