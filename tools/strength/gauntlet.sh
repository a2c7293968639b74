#!/usr/bin/env bash
# Issue 13's gauntlet: Eldest at 8+0.08 (one thread, Hash 16) against Stockfish 15.1 at UCI_Elo 2100 and 2400
# and against the revision issue 13 started from, 100 games each by default, the openings and clock rules of
# docs/strength.md's first gauntlet (openings.epd, no margin after the clock runs out). An opponent sf-N is
# Stockfish at UCI_Elo N, 1350 to 2850 (Stockfish 15.1's range; issue 14 asks for a first look at sf-2850).
#
#   tools/strength/gauntlet.sh                   # build this checkout and the start revision, play all three
#   ELDEST=path/to/eldest tools/strength/gauntlet.sh    # a prebuilt engine under test instead of this checkout
#   OUT=runs/gauntlet GAMES=100 CONCURRENCY=2 OPPONENTS="sf-2400 start" tools/strength/gauntlet.sh
#
# Stopped part-way, the same command goes on where it stopped: the engines are copied into $OUT/bin once and
# reused, and every match whose JSON exists is resumed (`cargo xtask match --resume`). Remove $OUT to start over.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The last commit before issue 13's first (8a12f57, cargo xtask sprt): the search of Bench 5,083,724.
start_revision=dbad1ddd6b1e37e73f92ce2a6bdb045da1d73668
out=${OUT:-runs/gauntlet}
games=${GAMES:-100}
concurrency=${CONCURRENCY:-2}
opponents=${OPPONENTS:-sf-2100 sf-2400 start}

for opponent in $opponents; do
    if [ "$opponent" = start ]; then continue; fi
    elo=${opponent#sf-}
    if [ "$opponent" = "$elo" ] || ! [[ $elo =~ ^[0-9]{4}$ ]] || [ "$elo" -lt 1350 ] || [ "$elo" -gt 2850 ]; then
        echo "unknown opponent '$opponent': want start or sf-N, N the UCI_Elo from 1350 to 2850" >&2
        exit 2
    fi
done

if ! command -v stockfish >/dev/null 2>&1 && [ ! -x /usr/games/stockfish ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
    $sudo apt-get install -y -qq stockfish >/dev/null 2>&1 || { $sudo apt-get update -qq && $sudo apt-get install -y -qq stockfish; }
fi

mkdir -p "$out/bin"
if [ -n "${ELDEST:-}" ] && [ -x "$out/bin/eldest" ] && ! cmp -s "$ELDEST" "$out/bin/eldest"; then
    echo "$out/bin/eldest is another engine than $ELDEST: its games are in $out; remove $out to start over" >&2
    exit 2
fi
if [ ! -x "$out/bin/eldest" ]; then
    if [ -n "${ELDEST:-}" ]; then
        cp "$ELDEST" "$out/bin/eldest"
    else
        cargo build --release -p eldest
        cp target/release/eldest "$out/bin/eldest"
    fi
fi
wants_start=false
for opponent in $opponents; do
    if [ "$opponent" = start ]; then wants_start=true; fi
done
if $wants_start && [ ! -x "$out/bin/eldest-start" ]; then
    # A worktree of its own and a target folder of its own: a shared one could hand back this checkout's binary.
    worktree=$(mktemp -d)
    git worktree add --detach "$worktree" "$start_revision"
    CARGO_TARGET_DIR="$worktree-target" cargo build --release -p eldest --manifest-path "$worktree/Cargo.toml"
    cp "$worktree-target/release/eldest" "$out/bin/eldest-start"
    git worktree remove --force "$worktree"
    rm -rf "$worktree-target"
fi
for engine in eldest eldest-start; do
    if [ -x "$out/bin/$engine" ]; then
        echo "$engine: $("$out/bin/$engine" bench 2>/dev/null | tail -n 1)"
    fi
done

# Debian installs it as /usr/games/stockfish, which a root shell's PATH often lacks.
stockfish_cmd=$(command -v stockfish || echo /usr/games/stockfish)
stockfish="cmd=$stockfish_cmd,option.Threads=1,option.Hash=16,option.UCI_LimitStrength=true"
for opponent in $opponents; do
    case $opponent in
        sf-*) spec="$stockfish,option.UCI_Elo=${opponent#sf-},name=$opponent" ;;
        start) spec="cmd=$out/bin/eldest-start,name=eldest-start,option.Hash=16" ;;
    esac
    resume=()
    if [ -f "$out/$opponent.json" ]; then resume=(--resume); fi
    cargo xtask match --no-build --concurrency "$concurrency" --tc 8+0.08 --margin 0 \
        --openings tools/strength/openings.epd --games "$games" \
        --engine "cmd=$out/bin/eldest,name=eldest,option.Hash=16" --engine "$spec" \
        --pgn "$out/$opponent.pgn" --json "$out/$opponent.json" "${resume[@]}"
done
