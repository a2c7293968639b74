#!/usr/bin/env python3
"""Time to depth, node overhead and NPS of cluster runs against a one-process baseline, from `cargo xtask bench`
bench.json files: the first file's 1-thread run is the baseline; every run of every file is compared with it,
position by position (geometric means over the positions, as `cargo xtask bench` reports them).

    tools/cluster/compare.py BASELINE/bench.json OTHER/bench.json [...]
"""
import gzip
import json
import math
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main(paths):
    files = [(path, load(path)) for path in paths]
    base = next(run for run in files[0][1]["runs"] if run["threads"] == 1)
    base_positions = {p["index"]: p for p in base["positions"]}
    base_time = sum(p["time_us"] for p in base["positions"]) / 1e6
    base_nodes = sum(p["nodes"] for p in base["positions"])
    print(f"baseline: {base['algorithm']} x1 of {paths[0]}: {base_time:.1f} s, {base_nodes / 1e6:.1f} M nodes")
    print("| configuration | total time s | time-to-depth speedup (geo. mean) | node overhead | NPS x |")
    print("|---|---:|---:|---:|---:|")
    for path, data in files:
        launcher = " ".join(data["settings"].get("launcher") or [])
        for run in data["runs"]:
            if run is base:
                continue
            speedups, overheads = [], []
            for p in run["positions"]:
                b = base_positions.get(p["index"])
                if b is None or p["time_us"] == 0 or p["nodes"] == 0:
                    continue
                speedups.append(b["time_us"] / p["time_us"])
                overheads.append(p["nodes"] / b["nodes"])
            time = sum(p["time_us"] for p in run["positions"]) / 1e6
            nodes = sum(p["nodes"] for p in run["positions"])
            nps = (nodes / time) / (base_nodes / base_time)
            where = f" under `{launcher}`" if launcher else ""
            print(
                f"| {run['algorithm']} x{run['threads']}{where} | {time:.1f} | {geomean(speedups):.2f} | "
                f"{geomean(overheads):.2f} | {nps:.2f} |"
            )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
