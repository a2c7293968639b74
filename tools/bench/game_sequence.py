#!/usr/bin/env python3
"""Search the game set's positions in order over UCI, choosing what is carried from one position to the next.

`cargo xtask bench --set game` keeps the table and the histories between the positions; a `--positions` file
without `--keep-tables` clears both. This script adds the case between them, and any other engine build:

    kept      nothing sent between positions (table and histories kept, as --set game)
    tt-clear  `setoption name Clear Hash` before each position (the table cleared, the histories kept)
    new       `ucinewgame` before each position (both cleared)

It prints one line: the configuration, the total nodes and time (from each search's last `info` line) and the
nodes of each position in millions. Used in docs/parallel-search.md, *The carried table*:

    python3 tools/bench/game_sequence.py --engine target/release/eldest --algorithm abdada --threads 2 \\
        --depth 20 --carry tt-clear
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

GAME_SET = Path(__file__).resolve().parents[2] / "crates/search/bench/game.epd"
BETWEEN = {"kept": [], "tt-clear": ["setoption name Clear Hash"], "new": ["ucinewgame"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="the eldest binary")
    parser.add_argument("--algorithm", default="lazy", help="ParallelAlgorithm")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--hash", type=int, default=64, help="MiB")
    parser.add_argument("--carry", choices=sorted(BETWEEN), default="kept")
    parser.add_argument("--positions", type=Path, default=GAME_SET, help="FEN or EPD lines, # comments")
    args = parser.parse_args()
    if args.threads < 1 or args.depth < 1 or args.hash < 1:
        parser.error("--threads, --depth and --hash must be positive")
    try:
        lines = args.positions.read_text().splitlines()
    except OSError as error:
        parser.error(f"cannot read {args.positions}: {error}")
    fens = []
    for line in lines:
        fields = line.split(";")[0].split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) < 4:
            parser.error(f"not a FEN or EPD line in {args.positions}: {line.strip()!r}")
        # A FEN's two move counters, or an EPD's four fields (its operations dropped) with counters added.
        counters = fields[4:6] if len(fields) >= 6 and all(f.isdigit() for f in fields[4:6]) else ["0", "1"]
        fens.append(" ".join(fields[:4] + counters))
    if not fens:
        parser.error(f"no positions in {args.positions}")

    try:
        engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    except OSError as error:
        parser.error(f"cannot start {args.engine}: {error}")

    def send(command: str) -> None:
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    def read_until(prefix: str) -> list[str]:
        seen = []
        for line in engine.stdout:
            seen.append(line)
            if line.startswith(prefix):
                return seen
        raise RuntimeError(f"the engine ended before answering with {prefix!r}")

    send("uci")
    read_until("uciok")
    for name, value in [("Threads", args.threads), ("ParallelAlgorithm", args.algorithm), ("Hash", args.hash)]:
        send(f"setoption name {name} value {value}")
    send("isready")
    read_until("readyok")
    total_nodes, total_ms, per_position = 0, 0, []
    for fen in fens:
        for command in BETWEEN[args.carry]:
            send(command)
        send("isready")
        read_until("readyok")
        send(f"position fen {fen}")
        send(f"go depth {args.depth}")
        infos = [
            line
            for line in read_until("bestmove")
            if line.startswith("info") and " nodes " in line and " time " in line
        ]
        if not infos:
            raise RuntimeError(f"no info line with nodes for {fen}")
        nodes = int(re.search(r" nodes (\d+)", infos[-1]).group(1))
        time_ms = int(re.search(r" time (\d+)", infos[-1]).group(1))
        total_nodes += nodes
        total_ms += time_ms
        per_position.append(nodes)
    send("quit")
    engine.wait()
    print(
        f"{args.algorithm} threads {args.threads} carry {args.carry} depth {args.depth}: "
        f"nodes {total_nodes / 1e6:.1f}M time {total_ms / 1e3:.1f}s positions "
        + " ".join(f"{n / 1e6:.2f}" for n in per_position)
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, BrokenPipeError) as error:
        sys.exit(f"game_sequence.py: error: {error}")
