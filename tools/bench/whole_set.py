#!/usr/bin/env python3
"""Whole-set ratios of one or more `cargo xtask bench` runs of one table size, pooled repeat by repeat.

`cargo xtask bench --pool` reads ratios as geometric means over the positions; this script gives the ratios of the
set's totals instead, as Kerrigan and Hyatt quote them: for each multi-thread run, the median one-thread total time
(over every one-thread run of the files) divided by the run's total, likewise the nodes (overhead) and the NPS,
then the median and range over the runs. It also gives the summary's own speedup over the pooled runs (per run, the
geometric mean over the positions of the median one-thread time ÷ the run's time; median over the runs) and the
node overhead taken the same way. Used in docs/parallel-search.md to pool the game set's five repeats:

    python3 tools/bench/whole_set.py docs/bench/zen4-2026-12-05/game-d23-r3/bench.json.gz \\
        docs/bench/zen4-2026-12-05/game-d23-r2/bench.json.gz
"""

import argparse
import gzip
import json
import math
import statistics
import sys


def load_bench(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt") as file:
            bench = json.load(file)
        bench["runs"][0]["positions"][0]["fen"]
        return bench
    except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
        sys.exit(f"error: {path} is not a readable `cargo xtask bench` bench.json ({error!r})")


def comparable_key(bench):
    """What must agree between files for their runs to be pooled: the search limit, the table and the positions."""
    settings = bench["settings"]
    fens = [position["fen"] for position in bench["runs"][0]["positions"]]
    return (settings.get("depth"), settings.get("movetime_ms"), settings.get("hash_mib"), fens)


def load_runs(paths):
    benches = [(path, load_bench(path)) for path in paths]
    first_path, first = benches[0]
    for path, bench in benches:
        for run in bench["runs"]:
            if [position["fen"] for position in run["positions"]] != comparable_key(first)[3]:
                sys.exit(f"error: {path} holds a run of other positions than {first_path}; pool runs of one set only")
        if comparable_key(bench) != comparable_key(first):
            sys.exit(f"error: {path} was searched with another depth, move time or table size than {first_path}")
    return [run for _, bench in benches for run in bench["runs"]]


def total(run, key):
    return sum(position[key] for position in run["positions"])


def position_medians(runs, key):
    return [statistics.median(run["positions"][index][key] for run in runs) for index in range(len(runs[0]["positions"]))]


def geometric_ratio(serial_values, run, key):
    """The geometric mean over the positions of the one-thread value ÷ the run's (a speedup for times)."""
    return math.exp(
        statistics.mean(
            math.log(serial / max(position[key], 1)) for serial, position in zip(serial_values, run["positions"])
        )
    )


def spread(values):
    values = sorted(values)
    return f"{statistics.median(values):.2f} ({values[0]:.2f}–{values[-1]:.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="bench.json or bench.json.gz files of one set and table size")
    args = parser.parse_args()
    runs = load_runs(args.files)
    serial = [run for run in runs if run["threads"] == 1]
    if not serial:
        sys.exit("error: no one-thread run in the files; the ratios need one")
    serial_time = statistics.median(total(run, "time_us") for run in serial)
    serial_nodes = statistics.median(total(run, "nodes") for run in serial)
    serial_position_times = position_medians(serial, "time_us")
    serial_position_nodes = position_medians(serial, "nodes")
    print(f"one thread: {len(serial)} runs, median {serial_time / 1e6:.1f} s, {serial_nodes / 1e6:.1f} M nodes")
    configurations = sorted({(run["algorithm"], run["threads"]) for run in runs if run["threads"] > 1})
    for algorithm, threads in configurations:
        parallel = [run for run in runs if (run["algorithm"], run["threads"]) == (algorithm, threads)]
        speedups = [serial_time / total(run, "time_us") for run in parallel]
        overheads = [total(run, "nodes") / serial_nodes for run in parallel]
        nps_ratios = [s * o for s, o in zip(speedups, overheads)]
        per_position = [geometric_ratio(serial_position_times, run, "time_us") for run in parallel]
        per_position_overheads = [1.0 / geometric_ratio(serial_position_nodes, run, "nodes") for run in parallel]
        print(
            f"{algorithm} {threads} threads, {len(parallel)} runs: time to depth {spread(speedups)}, "
            f"node overhead {spread(overheads)}, NPS × {spread(nps_ratios)}; "
            f"geometric means over the positions: time to depth {spread(per_position)}, "
            f"node overhead {spread(per_position_overheads)}; "
            f"runs {' '.join(f'{s:.2f}' for s in speedups)}"
        )


if __name__ == "__main__":
    main()
