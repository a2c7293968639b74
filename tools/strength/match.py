#!/usr/bin/env python3
"""Play a match between an engine under test and one opponent, and measure the Elo difference.

Colour-swapped game pairs from a set of openings; the script keeps both clocks itself and
adjudicates by the rules of chess (python-chess). Every game's end is recorded with its reason;
time forfeits, illegal moves, crashes and hangs count as losses for the engine at fault and are
reported, never hidden. See tools/strength/README.md for the formulas and the issue's matches.

Examples:
    python3 tools/strength/match.py --opponent fairymax --games 40 --tc 8+0.08 --concurrency 4 \\
        --pgn fairymax.pgn --json fairymax.json
    python3 tools/strength/match.py --opponent stockfish --elo 2100 --games 100 --tc 8+0.08
    python3 tools/strength/match.py --self-test
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import datetime
import json
import logging
import math
import os
import pathlib
import random
import shutil
import socket
import sys
import time
from typing import Any, Optional

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("match.py needs python-chess: pip install -r tools/strength/requirements.txt")

HERE = pathlib.Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
DEFAULT_ENGINE = REPO_ROOT / "target" / "release" / "eldest"
DEFAULT_OPENINGS = HERE / "openings.epd"

# Two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054
# How long past its own clock a silent engine is given before it is declared hung (seconds).
HANG_GRACE = 5.0
# Hard limit per move in --nodes mode, where there is no clock (seconds).
NODES_MOVE_TIMEOUT = 120.0


class MatchError(Exception):
    """A problem that stops the match (an engine that cannot be started or configured)."""


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in (0, 1): -400 * log10(1/s - 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))  # = -400 * log10(1/s - 1), without a -0.0 at 50%


@dataclasses.dataclass
class EloEstimate:
    games: int
    wins: int
    draws: int
    losses: int
    score: float  # mean points per game, 0..1
    stdev: float  # standard error of the mean score
    elo: float
    elo_low: float  # 95% interval
    elo_high: float
    los: float  # likelihood of superiority, from wins and losses only

    @property
    def margin(self) -> float:
        """Half the width of the 95% interval, the "±" figure."""
        return (self.elo_high - self.elo_low) / 2.0

    def as_dict(self) -> dict[str, Any]:
        def finite(x: float) -> Optional[float]:
            return None if math.isinf(x) or math.isnan(x) else round(x, 2)

        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score, 5),
            "score_stderr": round(self.stdev, 5),
            "elo": finite(self.elo),
            "elo_95_low": finite(self.elo_low),
            "elo_95_high": finite(self.elo_high),
            "elo_95_margin": finite(self.margin),
            "los": round(self.los, 5),
        }


def estimate_elo(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo difference with a 95% interval from a trinomial (win/draw/loss) model.

    s = (W + D/2) / N; per-game variance var = (W(1-s)^2 + D(1/2-s)^2 + L(0-s)^2) / N;
    standard error of s: sqrt(var / N); interval: Elo(s -/+ 1.96 * stderr), clamped to (0, 1).
    """
    n = wins + draws + losses
    if n == 0:
        return EloEstimate(0, 0, 0, 0, 0.5, 0.0, 0.0, -math.inf, math.inf, 0.5)
    score = (wins + 0.5 * draws) / n
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    stdev = math.sqrt(variance / n)
    low = elo_from_score(max(0.0, score - Z95 * stdev))
    high = elo_from_score(min(1.0, score + Z95 * stdev))
    decisive = wins + losses
    los = 0.5 if decisive == 0 else 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * decisive)))
    return EloEstimate(n, wins, draws, losses, score, stdev, elo_from_score(score), low, high, los)


def format_elo(est: EloEstimate) -> str:
    """'Elo +35.2 ± 48 [-13, +83]'; with a 100% or 0% score the point estimate is infinite."""
    if est.games == 0:
        return "Elo n/a"
    if math.isinf(est.elo):
        return f"Elo {est.elo:+} [{est.elo_low:+.0f}, {est.elo_high:+.0f}]"
    margin = "inf" if math.isinf(est.margin) else f"{est.margin:.0f}"
    return f"Elo {est.elo:+.1f} ± {margin} [{est.elo_low:+.0f}, {est.elo_high:+.0f}]"


# --------------------------------------------------------------------------------------------
# Time control and clocks
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """Exactly one of: base+increment clock, fixed time per move, fixed nodes per move."""

    base: Optional[float] = None  # seconds
    increment: float = 0.0  # seconds
    movetime: Optional[float] = None  # seconds
    nodes: Optional[int] = None
    margin: float = 0.0  # seconds an engine may overrun before it forfeits

    @staticmethod
    def parse_tc(text: str) -> tuple[float, float]:
        """'8+0.08' -> (8.0, 0.08); '10' -> (10.0, 0.0). Seconds."""
        base_text, _, inc_text = text.partition("+")
        try:
            base = float(base_text)
            inc = float(inc_text) if inc_text else 0.0
        except ValueError:
            raise argparse.ArgumentTypeError(f"bad time control {text!r}, want BASE+INC in seconds, e.g. 8+0.08")
        if base <= 0 or inc < 0:
            raise argparse.ArgumentTypeError(f"bad time control {text!r}: base must be > 0 and increment >= 0")
        return base, inc

    def pgn_tag(self) -> str:
        if self.base is not None:
            return f"{self.base:g}+{self.increment:g}"
        if self.movetime is not None:
            return f"{self.movetime:g}/move"  # not PGN-standard, but says what happened
        return f"{self.nodes} nodes/move"

    def describe(self) -> str:
        if self.base is not None:
            return f"{self.base:g}s + {self.increment:g}s"
        if self.movetime is not None:
            return f"{self.movetime * 1000:g} ms/move"
        return f"{self.nodes} nodes/move"


class GameClock:
    """Both players' clocks for one game, kept by the referee (this script).

    Each move: the mover's wall time is measured, subtracted from its clock, and the increment is
    added afterwards. A clock below -margin after the subtraction means the flag fell.
    """

    def __init__(self, tc: TimeControl, game_key: object):
        self.tc = tc
        self.game_key = game_key
        start = tc.base if tc.base is not None else 0.0
        self.remaining = {chess.WHITE: start, chess.BLACK: start}
        self.min_remaining = {chess.WHITE: start, chess.BLACK: start}  # lowest clock seen before increments
        self.max_move_time = {chess.WHITE: 0.0, chess.BLACK: 0.0}
        self.total_time = {chess.WHITE: 0.0, chess.BLACK: 0.0}
        self.moves = {chess.WHITE: 0, chess.BLACK: 0}

    def limit(self) -> chess.engine.Limit:
        """The search limit to send for the side to move (clock_id keeps xboard's `level` to one per game)."""
        tc = self.tc
        if tc.base is not None:
            return chess.engine.Limit(
                white_clock=max(0.001, self.remaining[chess.WHITE]),
                black_clock=max(0.001, self.remaining[chess.BLACK]),
                white_inc=tc.increment,
                black_inc=tc.increment,
                clock_id=self.game_key,
            )
        if tc.movetime is not None:
            return chess.engine.Limit(time=tc.movetime)
        return chess.engine.Limit(nodes=tc.nodes)

    def allowed(self, color: chess.Color) -> Optional[float]:
        """Seconds the mover may use before it forfeits, or None with no clock (nodes mode)."""
        if self.tc.base is not None:
            return self.remaining[color] + self.tc.margin
        if self.tc.movetime is not None:
            return self.tc.movetime + self.tc.margin
        return None

    def hard_timeout(self, color: chess.Color) -> float:
        """How long to wait for a reply before declaring the engine hung."""
        allowed = self.allowed(color)
        return NODES_MOVE_TIMEOUT if allowed is None else max(0.0, allowed) + HANG_GRACE

    def charge(self, color: chess.Color, elapsed: float) -> bool:
        """Book one move's wall time to `color`. Returns True when the flag fell."""
        self.moves[color] += 1
        self.total_time[color] += elapsed
        self.max_move_time[color] = max(self.max_move_time[color], elapsed)
        allowed = self.allowed(color)
        if self.tc.base is not None:
            self.remaining[color] -= elapsed
            self.min_remaining[color] = min(self.min_remaining[color], self.remaining[color])
            if self.remaining[color] < -self.tc.margin:
                return True
            self.remaining[color] += self.tc.increment
            return False
        return allowed is not None and elapsed > allowed


# --------------------------------------------------------------------------------------------
# Openings
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Opening:
    name: str
    fen: str  # the root position: the standard start when `moves` are given
    moves: tuple[str, ...]  # UCI moves from `fen`

    def board(self) -> chess.Board:
        board = chess.Board(self.fen)
        for uci in self.moves:
            board.push_uci(uci)
        return board


def load_openings(path: pathlib.Path) -> list[Opening]:
    """Read an EPD file. A `moves "<uci ...>"` operation is played from the standard start position
    (and must reach the EPD's position); without it the EPD position itself is the root."""
    openings: list[Opening] = []
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board, ops = chess.Board.from_epd(line)
        except ValueError as err:
            raise SystemExit(f"{path}:{lineno}: bad EPD: {err}")
        name = str(ops.get("id", f"{path.name}:{lineno}"))
        moves = tuple(str(ops["moves"]).split()) if "moves" in ops else ()
        if moves:
            opening = Opening(name, chess.STARTING_FEN, moves)
            try:
                reached = opening.board()
            except ValueError as err:
                raise SystemExit(f"{path}:{lineno}: {name}: bad move list: {err}")
            if reached.epd() != board.epd():
                raise SystemExit(f"{path}:{lineno}: {name}: moves reach {reached.epd()}, EPD says {board.epd()}")
        else:
            opening = Opening(name, board.fen(), ())
        if opening.board().is_game_over():
            raise SystemExit(f"{path}:{lineno}: {name}: the game is already over")
        openings.append(opening)
    if not openings:
        raise SystemExit(f"{path}: no openings")
    return openings


# --------------------------------------------------------------------------------------------
# Adjudication
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Ending:
    result: str  # "1-0", "0-1", "1/2-1/2"
    reason: str  # human-readable, e.g. "checkmate", "black lost on time"
    kind: str  # the category counted in the summary, e.g. "checkmate", "time forfeit"
    pgn_termination: str  # PGN Termination tag: normal, time forfeit, adjudication, rules infraction
    culprit: Optional[chess.Color] = None  # the side that forfeited (time, illegal move, crash, ...)


def win_for(color: chess.Color) -> str:
    return "1-0" if color == chess.WHITE else "0-1"


def color_name(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


def rules_ending(board: chess.Board) -> Optional[Ending]:
    """The game's end by the rules of chess, or None. Draws are taken as soon as they are
    claimable: threefold repetition of the current position, or 50 moves without capture or pawn move."""
    if board.is_checkmate():
        return Ending(win_for(not board.turn), "checkmate", "checkmate", "normal")
    if board.is_stalemate():
        return Ending("1/2-1/2", "stalemate", "stalemate", "normal")
    if board.is_insufficient_material():
        return Ending("1/2-1/2", "insufficient material", "insufficient material", "normal")
    if board.is_repetition(3):
        return Ending("1/2-1/2", "threefold repetition", "threefold repetition", "normal")
    if board.halfmove_clock >= 100:
        return Ending("1/2-1/2", "fifty-move rule", "fifty-move rule", "normal")
    return None


def forfeit(loser: chess.Color, board: chess.Board, kind: str, detail: str) -> Ending:
    """A loss for `loser`; on time, a draw if the opponent could not mate by any series of legal moves."""
    if kind == "time forfeit" and board.has_insufficient_material(not loser):
        return Ending("1/2-1/2", f"{color_name(loser)} {detail}, but {color_name(not loser)} cannot mate",
                      kind, "time forfeit", loser)
    termination = "time forfeit" if kind == "time forfeit" else "rules infraction"
    return Ending(win_for(not loser), f"{color_name(loser)} {detail}", kind, termination, loser)


@dataclasses.dataclass(frozen=True)
class AdjudicationRules:
    resign_score: Optional[int] = None  # centipawns
    resign_moves: int = 4
    draw_score: Optional[int] = None  # centipawns
    draw_moves: int = 8
    draw_after: int = 40  # full move number from which draw adjudication may start


class ScoreAdjudicator:
    """Resign/draw adjudication from both engines' reported scores (white's point of view).

    Resign: each engine's last `resign_moves` scores all >= resign_score for the same side
    (the winner thinks it wins and the loser agrees). Draw: from move `draw_after`, each engine's
    last `draw_moves` scores all within +-draw_score. A move without a score breaks the run.
    """

    def __init__(self, rules: AdjudicationRules):
        self.rules = rules
        keep = max(rules.resign_moves, rules.draw_moves, 1)
        self.history = {c: collections.deque(maxlen=keep) for c in chess.COLORS}

    def update(self, mover: chess.Color, white_score: Optional[int], board: chess.Board) -> Optional[Ending]:
        self.history[mover].append(white_score)
        rules = self.rules
        if rules.resign_score is not None:
            for winner in chess.COLORS:
                sign = 1 if winner == chess.WHITE else -1
                if all(self._last(c, rules.resign_moves, lambda s: sign * s >= rules.resign_score) for c in chess.COLORS):
                    return Ending(win_for(winner),
                                  f"adjudicated: both engines score >= {rules.resign_score} cp for "
                                  f"{color_name(winner)} for {rules.resign_moves} moves",
                                  "adjudication: resign", "adjudication")
        if rules.draw_score is not None and board.fullmove_number >= rules.draw_after:
            if all(self._last(c, rules.draw_moves, lambda s: abs(s) <= rules.draw_score) for c in chess.COLORS):
                return Ending("1/2-1/2",
                              f"adjudicated: both engines within ±{rules.draw_score} cp for {rules.draw_moves} moves",
                              "adjudication: draw", "adjudication")
        return None

    def _last(self, color: chess.Color, count: int, test) -> bool:
        scores = list(self.history[color])[-count:]
        return len(scores) == count and all(s is not None and test(s) for s in scores)


# --------------------------------------------------------------------------------------------
# Engines
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class EngineSpec:
    label: str  # short name used in logs and the summary ("engine", "opponent")
    protocol: str  # "uci" or "xboard"
    command: list[str]
    options: dict[str, str]
    name: Optional[str] = None  # display name; default: the engine's own id name (+ suffix)
    name_suffix: str = ""


def coerce_option(option: chess.engine.Option, value: str) -> chess.engine.ConfigValue:
    """Turn a command-line string into the value python-chess expects for this option type."""
    if option.type == "check":
        lowered = value.strip().lower()
        if lowered in ("true", "1", "yes", "on"):
            return True
        if lowered in ("false", "0", "no", "off"):
            return False
        raise MatchError(f"option {option.name}: expected true/false, got {value!r}")
    if option.type == "spin":
        try:
            return int(value)
        except ValueError:
            raise MatchError(f"option {option.name}: expected an integer, got {value!r}")
    if option.type in ("button", "reset", "save"):
        return None
    return value


@dataclasses.dataclass
class MoveReply:
    move: Optional[chess.Move] = None
    elapsed: float = 0.0
    white_score: Optional[int] = None  # centipawns from white's side, mates as +-100000 minus distance
    score_text: str = ""  # e.g. "+0.35", "-M4" (the mover's point of view, as GUIs show it)
    depth: Optional[int] = None
    resigned: bool = False
    failure: Optional[str] = None  # "engine crash", "engine hung", "illegal move", "no move", "protocol error"
    detail: str = ""


class MovesOnlyXBoardProtocol(chess.engine.XBoardProtocol):
    """An xboard engine that declares `feature setboard=0`, such as fairymax.

    python-chess refuses such engines outright, although it only sends `setboard` when the game's root
    is not the standard start position. This script always starts xboard games from the start position
    and plays the opening's moves (it refuses FEN-only openings for these engines), so the declaration
    is read as setboard=1 and `setboard` is never actually sent.
    """

    def _line_received(self, line: str) -> None:
        if line.startswith("feature") and "setboard=0" in line:
            line = line.replace("setboard=0", "setboard=1")
        super()._line_received(line)


async def popen_engine(protocol: str, command: list[str]) -> tuple[asyncio.SubprocessTransport, chess.engine.Protocol]:
    """Start and initialize an engine in its own process group, so Ctrl-C reaches only this script
    (which then shuts the engines down) and never kills an engine mid-game."""
    cls = chess.engine.UciProtocol if protocol == "uci" else MovesOnlyXBoardProtocol
    transport, engine = await cls.popen(command, setpgrp=True)
    try:
        await engine.initialize()
    except BaseException:
        transport.close()
        raise
    return transport, engine


class Player:
    """One engine process with its protocol; restarted after a crash or a hang."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.protocol: Optional[chess.engine.Protocol] = None
        self.name = spec.name or spec.label
        self.broken = False

    async def start(self) -> None:
        try:
            self.transport, self.protocol = await popen_engine(self.spec.protocol, self.spec.command)
        except (OSError, chess.engine.EngineError, asyncio.TimeoutError) as err:
            raise MatchError(f"cannot start {self.spec.label} {' '.join(self.spec.command)}: {err!r}")
        config: dict[str, chess.engine.ConfigValue] = {}
        for key, value in self.spec.options.items():
            option = self.protocol.options.get(key)
            if option is None:
                known = ", ".join(sorted(self.protocol.options)) or "none"
                raise MatchError(f"{self.spec.label}: unknown option {key!r} (the engine offers: {known})")
            config[option.name] = coerce_option(option, value)
        try:
            await self.protocol.configure(config)
            await self.protocol.ping()
        except chess.engine.EngineError as err:
            raise MatchError(f"{self.spec.label}: cannot set options {config}: {err}")
        if not self.spec.name:
            self.name = (self.protocol.id.get("name") or pathlib.Path(self.spec.command[0]).name) + self.spec.name_suffix
        self.broken = False

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    async def stop(self) -> None:
        if self.protocol is not None:
            try:
                await asyncio.wait_for(self.protocol.quit(), 2.0)
            except Exception:  # already dead, hung, or mid-command: kill it below
                pass
        if self.transport is not None:
            try:
                self.transport.kill()
            except ProcessLookupError:
                pass
            self.transport.close()
        self.transport = self.protocol = None

    async def new_game(self, game_key: object) -> None:
        """Prepare for a new game outside the clock: UCI `ucinewgame` + `isready`/`readyok` now, so the
        first move's time is only the search. xboard engines get `new` with the first move (cheap)."""
        for attempt in range(2):
            if self.broken or self.protocol is None:
                await self.restart()
            if not isinstance(self.protocol, chess.engine.UciProtocol):
                return
            try:
                # python-chess sends ucinewgame itself when `game` changes, but inside the timed play();
                # doing it here and telling the protocol object keeps setup time off the clock.
                self.protocol.send_line("ucinewgame")
                self.protocol.game = game_key
                self.protocol.first_game = False
                await asyncio.wait_for(self.protocol.ping(), 30.0)
                return
            except (chess.engine.EngineError, asyncio.TimeoutError) as err:
                print(f"warning: {self.name} did not answer ucinewgame/isready ({err!r}); restarting it",
                      file=sys.stderr)
                self.broken = True
        raise MatchError(f"{self.name} does not answer isready after ucinewgame, even after a restart")

    async def think(self, board: chess.Board, limit: chess.engine.Limit, game_key: object, timeout: float) -> MoveReply:
        assert self.protocol is not None
        reply = MoveReply()
        start = time.perf_counter()
        try:
            result = await asyncio.wait_for(
                self.protocol.play(board, limit, game=game_key, info=chess.engine.INFO_SCORE | chess.engine.INFO_BASIC),
                timeout)
        except asyncio.TimeoutError:
            reply.elapsed = time.perf_counter() - start
            reply.failure, reply.detail = "engine hung", f"no move within {timeout:.1f} s"
            self.broken = True
            return reply
        except chess.engine.EngineTerminatedError as err:
            reply.elapsed = time.perf_counter() - start
            reply.failure, reply.detail = "engine crash", f"engine process ended ({err})"
            self.broken = True
            return reply
        except chess.engine.EngineError as err:
            reply.elapsed = time.perf_counter() - start
            text = str(err)
            illegal = any(word in text.lower() for word in ("illegal", "invalid"))
            reply.failure = "illegal move" if illegal else "protocol error"
            reply.detail = text
            self.broken = True  # its idea of the position may now differ from ours
            return reply
        reply.elapsed = time.perf_counter() - start
        reply.resigned = bool(result.resigned)
        score = result.info.get("score")
        if score is not None:
            reply.white_score = score.white().score(mate_score=100_000)
            own = score.pov(board.turn)
            mate = own.mate()
            reply.score_text = f"{own.score() / 100:+.2f}" if mate is None else f"{'+' if mate > 0 else '-'}M{abs(mate)}"
        reply.depth = result.info.get("depth")
        if result.move is not None and result.move and result.move not in board.legal_moves:
            reply.failure, reply.detail = "illegal move", f"illegal move {result.move.uci()}"
            self.broken = True
        elif not result.move and not reply.resigned:
            reply.failure, reply.detail = "no move", "returned no move in a position with legal moves"
        else:
            reply.move = result.move or None
        return reply


# --------------------------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class GameRecord:
    number: int
    opening: str
    white: str
    black: str
    engine_color: chess.Color
    ending: Ending
    game: chess.pgn.Game
    plies: int
    clock: GameClock
    seconds: float

    @property
    def engine_points(self) -> float:
        if self.ending.result == "1/2-1/2":
            return 0.5
        return 1.0 if self.ending.result == win_for(self.engine_color) else 0.0

    def culprit_name(self) -> Optional[str]:
        if self.ending.culprit is None:
            return None
        return self.white if self.ending.culprit == chess.WHITE else self.black


def format_comment(reply: MoveReply) -> str:
    parts = []
    if reply.score_text:
        parts.append(reply.score_text + (f"/{reply.depth}" if reply.depth is not None else ""))
    parts.append(f"{reply.elapsed:.3f}s")
    return " ".join(parts)


async def play_game(number: int, opening: Opening, white: Player, black: Player, engine_color: chess.Color,
                    tc: TimeControl, rules: AdjudicationRules, event: str) -> GameRecord:
    game_key = object()
    started = time.perf_counter()
    for player in (white, black):
        await player.new_game(game_key)
    board = opening.board()
    book_plies = len(board.move_stack)
    clock = GameClock(tc, game_key)
    adjudicator = ScoreAdjudicator(rules)
    comments: list[str] = []
    late_note = ""  # for a move that came after the flag fell

    ending = rules_ending(board)
    while ending is None:
        mover = board.turn
        player = white if mover == chess.WHITE else black
        reply = await player.think(board, clock.limit(), game_key, clock.hard_timeout(mover))
        allowed = clock.allowed(mover)
        flag_fell = clock.charge(mover, reply.elapsed)
        if reply.failure is not None and reply.failure != "engine hung":
            ending = forfeit(mover, board, reply.failure, f"{reply.failure}: {reply.detail}")
            break
        if reply.failure == "engine hung":
            ending = forfeit(mover, board, "time forfeit", f"lost on time: {reply.detail}")
            break
        if flag_fell:
            ending = forfeit(mover, board, "time forfeit",
                             f"lost on time ({reply.elapsed:.3f} s used, {allowed:.3f} s allowed)")
            if reply.move is not None:
                late_note = f" (its move {board.san(reply.move)} came too late and was not played)"
            break
        if reply.resigned:
            ending = Ending(win_for(not mover), f"{color_name(mover)} resigned", "resignation", "normal")
            break
        assert reply.move is not None
        board.push(reply.move)
        comments.append(format_comment(reply))
        ending = rules_ending(board) or adjudicator.update(mover, reply.white_score, board)

    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = event
    game.headers["Site"] = socket.gethostname()
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    game.headers["Round"] = str(number)
    game.headers["White"] = white.name
    game.headers["Black"] = black.name
    game.headers["Result"] = ending.result
    game.headers["TimeControl"] = tc.pgn_tag()
    game.headers["Opening"] = opening.name
    game.headers["Termination"] = ending.pgn_termination
    game.headers["TerminationDetails"] = ending.reason
    game.headers["PlyCount"] = str(len(board.move_stack))
    node = game
    for ply, _ in enumerate(board.move_stack):
        node = node.variations[0]
        if ply < book_plies:
            node.comment = "book" if ply == book_plies - 1 else ""
        else:
            node.comment = comments[ply - book_plies]
    node.comment = (node.comment + " " if node.comment else "") + ending.reason + late_note

    return GameRecord(number, opening.name, white.name, black.name, engine_color, ending, game,
                      len(board.move_stack), clock, time.perf_counter() - started)


# --------------------------------------------------------------------------------------------
# The match
# --------------------------------------------------------------------------------------------


class Match:
    """Runs the games on `concurrency` workers and keeps the tally and the output files."""

    def __init__(self, args: argparse.Namespace, engine: EngineSpec, opponent: EngineSpec,
                 openings: list[Opening], tc: TimeControl, rules: AdjudicationRules):
        self.args = args
        self.engine_spec = engine
        self.opponent_spec = opponent
        self.tc = tc
        self.rules = rules
        self.total = args.games
        # Game 2k and 2k+1 share opening k; the engine under test is white in the first of the pair.
        self.schedule = [(n + 1, openings[(n // 2) % len(openings)], chess.WHITE if n % 2 == 0 else chess.BLACK)
                         for n in range(self.total)]
        self.records: list[GameRecord] = []
        self.engine_name = engine.label
        self.opponent_name = opponent.label
        self.started = time.time()
        self.event = args.event

    async def run(self) -> None:
        queue: asyncio.Queue = asyncio.Queue()
        for item in self.schedule:
            queue.put_nowait(item)
        workers = [asyncio.create_task(self.worker(queue, i)) for i in range(self.args.concurrency)]
        try:
            await asyncio.gather(*workers)
        finally:
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)

    async def worker(self, queue: asyncio.Queue, index: int) -> None:
        engine = Player(self.engine_spec)
        opponent = Player(self.opponent_spec)
        try:
            await engine.start()
            await opponent.start()
            if opponent.name == engine.name:  # the tables below are keyed by name
                opponent.name += " (opponent)"
            self.engine_name, self.opponent_name = engine.name, opponent.name
            while not queue.empty():
                number, opening, engine_color = queue.get_nowait()
                white, black = (engine, opponent) if engine_color == chess.WHITE else (opponent, engine)
                record = await play_game(number, opening, white, black, engine_color, self.tc, self.rules, self.event)
                self.record(record)
        finally:
            await asyncio.shield(asyncio.gather(engine.stop(), opponent.stop(), return_exceptions=True))

    def tally(self) -> EloEstimate:
        points = [r.engine_points for r in self.records]
        return estimate_elo(points.count(1.0), points.count(0.5), points.count(0.0))

    def record(self, rec: GameRecord) -> None:
        self.records.append(rec)
        est = self.tally()
        outcome = {1.0: "win", 0.5: "draw", 0.0: "loss"}[rec.engine_points]
        side = "white" if rec.engine_color == chess.WHITE else "black"
        width = len(str(self.total))
        print(f"[{len(self.records):>{width}}/{self.total}] game {rec.number:>{width}}: engine {side} "
              f"{outcome:<4} {rec.ending.result:>7} {rec.ending.reason} ({rec.plies} plies, {rec.seconds:.0f} s) "
              f"| W/D/L {est.wins}/{est.draws}/{est.losses} {100 * est.score:.1f}% {format_elo(est)}", flush=True)
        if self.args.pgn:
            with open(self.args.pgn, "a", encoding="utf-8") as f:
                print(rec.game, file=f, end="\n\n")
        if self.args.json:
            self.write_json()

    # --- summary ---------------------------------------------------------------------------

    def reasons(self) -> collections.Counter:
        return collections.Counter(r.ending.kind for r in self.records)

    def forfeits(self) -> dict[str, dict[str, int]]:
        """Per engine: how many games it lost (or drew) by forfeit, by kind."""
        table: dict[str, dict[str, int]] = {self.engine_name: {}, self.opponent_name: {}}
        for rec in self.records:
            name = rec.culprit_name()
            if name is not None:
                table.setdefault(name, {})
                table[name][rec.ending.kind] = table[name].get(rec.ending.kind, 0) + 1
        return table

    def clock_figures(self) -> dict[str, dict[str, Optional[float]]]:
        """Per engine: lowest clock seen, longest move, mean time per move (seconds)."""
        figures: dict[str, dict[str, Any]] = {}
        for rec in self.records:
            for color in chess.COLORS:
                name = rec.white if color == chess.WHITE else rec.black
                f = figures.setdefault(name, {"min_clock": math.inf, "max_move": 0.0, "time": 0.0, "moves": 0})
                if self.tc.base is not None and rec.clock.moves[color]:
                    f["min_clock"] = min(f["min_clock"], rec.clock.min_remaining[color])
                f["max_move"] = max(f["max_move"], rec.clock.max_move_time[color])
                f["time"] += rec.clock.total_time[color]
                f["moves"] += rec.clock.moves[color]
        return {name: {"lowest_clock_s": None if math.isinf(f["min_clock"]) else round(f["min_clock"], 4),
                       "longest_move_s": round(f["max_move"], 4),
                       "mean_move_s": round(f["time"] / f["moves"], 4) if f["moves"] else None,
                       "moves": f["moves"]}
                for name, f in figures.items()}

    def summary(self) -> dict[str, Any]:
        est = self.tally()
        return {
            "engine": self.engine_name,
            "opponent": self.opponent_name,
            "engine_command": self.engine_spec.command,
            "engine_options": self.engine_spec.options,
            "opponent_command": self.opponent_spec.command,
            "opponent_options": self.opponent_spec.options,
            "time_control": self.tc.describe(),
            "time_margin_s": self.tc.margin,
            "games_planned": self.total,
            "games_played": len(self.records),
            "concurrency": self.args.concurrency,
            "openings": str(self.args.openings),
            "adjudication": dataclasses.asdict(self.rules),
            "result": est.as_dict(),
            "score_pct": round(100 * est.score, 2),
            "engine_as_white": self._by_color(chess.WHITE),
            "engine_as_black": self._by_color(chess.BLACK),
            "terminations": dict(self.reasons().most_common()),
            "forfeits": self.forfeits(),
            "clocks": self.clock_figures(),
            "started": datetime.datetime.fromtimestamp(self.started).isoformat(timespec="seconds"),
            "wall_seconds": round(time.time() - self.started, 1),
            "games": [{
                "number": r.number, "opening": r.opening, "white": r.white, "black": r.black,
                "result": r.ending.result, "engine_points": r.engine_points, "reason": r.ending.reason,
                "kind": r.ending.kind, "culprit": r.culprit_name(), "plies": r.plies,
                "lowest_clock_s": ({r.white: round(r.clock.min_remaining[chess.WHITE], 4),
                                    r.black: round(r.clock.min_remaining[chess.BLACK], 4)}
                                   if self.tc.base is not None else None),
            } for r in sorted(self.records, key=lambda r: r.number)],
        }

    def _by_color(self, color: chess.Color) -> dict[str, int]:
        pts = [r.engine_points for r in self.records if r.engine_color == color]
        return {"wins": pts.count(1.0), "draws": pts.count(0.5), "losses": pts.count(0.0)}

    def write_json(self) -> None:
        tmp = pathlib.Path(str(self.args.json) + ".tmp")
        tmp.write_text(json.dumps(self.summary(), indent=2) + "\n")
        os.replace(tmp, self.args.json)

    def print_summary(self) -> None:
        est = self.tally()
        print()
        print(f"{self.engine_name} vs {self.opponent_name}, {self.tc.describe()}, "
              f"{len(self.records)} of {self.total} games")
        if not self.records:
            return
        white, black = self._by_color(chess.WHITE), self._by_color(chess.BLACK)
        print(f"  W/D/L        {est.wins}/{est.draws}/{est.losses}  (as white {white['wins']}/{white['draws']}/"
              f"{white['losses']}, as black {black['wins']}/{black['draws']}/{black['losses']})")
        print(f"  score        {100 * est.score:.1f}% ± {100 * Z95 * est.stdev:.1f}% (95%)")
        print(f"  {format_elo(est)}  (95% interval; LOS {100 * est.los:.1f}%)")
        print("  terminations " + ", ".join(f"{kind} {n}" for kind, n in self.reasons().most_common()))
        forfeits = self.forfeits()
        for name in forfeits:
            kinds = forfeits[name]
            time_losses = kinds.get("time forfeit", 0)
            other = ", ".join(f"{k} {n}" for k, n in kinds.items() if k != "time forfeit")
            print(f"  forfeits     {name}: time {time_losses}" + (f", {other}" if other else ""))
        for name, f in self.clock_figures().items():
            lowest = "n/a" if f["lowest_clock_s"] is None else f"{f['lowest_clock_s']:.3f} s"
            mean = "n/a" if f["mean_move_s"] is None else f"{f['mean_move_s']:.3f} s"
            print(f"  clock        {name}: lowest clock {lowest}, longest move {f['longest_move_s']:.3f} s, "
                  f"mean move {mean} over {f['moves']} moves")
        if self.args.pgn:
            print(f"  PGN          {self.args.pgn}")
        if self.args.json:
            print(f"  JSON         {self.args.json}")


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def find_program(name: str, fallbacks: list[str]) -> str:
    found = shutil.which(name)
    if found:
        return found
    for path in fallbacks:
        if os.access(path, os.X_OK):
            return path
    raise SystemExit(f"cannot find {name} (looked in PATH and {', '.join(fallbacks)})")


def parse_options(pairs: list[str], what: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise SystemExit(f"{what}: expected Name=Value, got {pair!r}")
        options[name.strip()] = value.strip()
    return options


def build_specs(args: argparse.Namespace) -> tuple[EngineSpec, EngineSpec]:
    engine_path = pathlib.Path(args.engine)
    if not os.access(engine_path, os.X_OK):
        raise SystemExit(f"engine {engine_path} is not an executable file (cargo build --release -p eldest?)")
    engine_opts = {"Threads": str(args.threads), "Hash": str(args.hash)}
    engine_opts.update(parse_options(args.engine_option, "--engine-option"))
    engine = EngineSpec("engine", "uci", [str(engine_path)], engine_opts, name=args.engine_name)

    opp_opts = parse_options(args.opponent_option, "--opponent-option")
    kind, _, path = args.opponent.partition(":")
    if kind == "stockfish":
        command = [path or args.opponent_path or find_program("stockfish", ["/usr/games/stockfish"])]
        base = {"Threads": "1", "Hash": "16"}
        suffix = ""
        if args.elo is not None:
            base.update({"UCI_LimitStrength": "true", "UCI_Elo": str(args.elo)})
            suffix = f" (UCI_Elo {args.elo})"
        base.update(opp_opts)
        opponent = EngineSpec("opponent", "uci", command, base, name=args.opponent_name, name_suffix=suffix)
    elif kind == "fairymax":
        command = [path or args.opponent_path or find_program("fairymax", ["/usr/games/fairymax"])]
        opponent = EngineSpec("opponent", "xboard", command, opp_opts, name=args.opponent_name)
    elif kind in ("uci", "xboard") and path:
        opponent = EngineSpec("opponent", kind, [path], opp_opts, name=args.opponent_name)
    else:
        raise SystemExit(f"--opponent {args.opponent!r}: want stockfish, fairymax, uci:PATH or xboard:PATH")
    if args.elo is not None and kind != "stockfish":
        raise SystemExit("--elo applies to --opponent stockfish only")
    return engine, opponent


def build_time_control(args: argparse.Namespace) -> TimeControl:
    chosen = [x is not None for x in (args.tc, args.movetime, args.nodes)]
    if sum(chosen) > 1:
        raise SystemExit("give only one of --tc, --movetime, --nodes")
    if args.movetime is not None:
        margin = 0.05 if args.time_margin is None else args.time_margin / 1000
        return TimeControl(movetime=args.movetime / 1000, margin=margin)
    if args.nodes is not None:
        return TimeControl(nodes=args.nodes)
    base, inc = TimeControl.parse_tc(args.tc or "8+0.08")
    return TimeControl(base=base, increment=inc, margin=(args.time_margin or 0) / 1000)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--self-test", action="store_true", help="check the Elo arithmetic and exit")
    g = p.add_argument_group("engine under test (UCI)")
    g.add_argument("--engine", default=str(DEFAULT_ENGINE), help="path (default: %(default)s)")
    g.add_argument("--engine-name", help="name in PGN and output (default: its UCI id name)")
    g.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE",
                   help="UCI option for the engine under test (repeatable)")
    g.add_argument("--threads", type=int, default=1, help="its Threads option (default 1)")
    g.add_argument("--hash", type=int, default=16, help="its Hash option in MiB (default 16)")
    g = p.add_argument_group("opponent")
    g.add_argument("--opponent", default="fairymax",
                   help="stockfish | fairymax | uci:PATH | xboard:PATH (default: %(default)s)")
    g.add_argument("--opponent-path", help="path of stockfish or fairymax (default: PATH, then /usr/games)")
    g.add_argument("--opponent-name", help="name in PGN and output")
    g.add_argument("--elo", type=int, help="stockfish: UCI_LimitStrength=true and UCI_Elo=N (1350..2850 in 15.1)")
    g.add_argument("--opponent-option", action="append", default=[], metavar="NAME=VALUE",
                   help="option for the opponent (repeatable)")
    g = p.add_argument_group("games")
    g.add_argument("--games", type=int, default=100, help="number of games, rounded up to pairs (default 100)")
    g.add_argument("--tc", help="BASE+INC in seconds (default 8+0.08)")
    g.add_argument("--movetime", type=float, metavar="MS", help="fixed time per move in milliseconds instead")
    g.add_argument("--nodes", type=int, help="fixed nodes per move instead (UCI opponents; xboard's nps mode varies)")
    g.add_argument("--time-margin", type=float, metavar="MS",
                   help="overrun allowed before a time forfeit (default 0 with --tc, 50 with --movetime)")
    g.add_argument("--concurrency", type=int, default=1, help="games at once, each with its own processes")
    g.add_argument("--openings", type=pathlib.Path, default=DEFAULT_OPENINGS, help="EPD file (default: %(default)s)")
    g.add_argument("--seed", type=int, default=1, help="seed for the opening order (default 1)")
    g.add_argument("--no-shuffle", action="store_true", help="play the openings in file order")
    g = p.add_argument_group("adjudication (off unless given)")
    g.add_argument("--resign-score", type=int, metavar="CP", help="resign when both engines agree on >= CP ...")
    g.add_argument("--resign-moves", type=int, default=4, help="... for this many moves each (default 4)")
    g.add_argument("--draw-score", type=int, metavar="CP", help="draw when both engines are within +-CP ...")
    g.add_argument("--draw-moves", type=int, default=8, help="... for this many moves each (default 8)")
    g.add_argument("--draw-after", type=int, default=40, help="... from this move number on (default 40)")
    g = p.add_argument_group("output")
    g.add_argument("--pgn", help="append every game to this PGN file")
    g.add_argument("--json", help="write the summary (rewritten after every game) to this JSON file")
    g.add_argument("--event", default="Eldest strength match", help="PGN Event tag")
    g.add_argument("--log", help="write python-chess's protocol log (every line to and from the engines) here")
    args = p.parse_args(argv)
    if args.games < 1 or args.concurrency < 1:
        p.error("--games and --concurrency must be at least 1")
    args.games += args.games % 2
    return args


def self_test() -> int:
    """Known values of the Elo arithmetic."""
    checks = [
        ("Elo(75%)", elo_from_score(0.75), 190.848501887865),
        ("Elo(50%)", elo_from_score(0.50), 0.0),
        ("Elo(25%)", elo_from_score(0.25), -190.848501887865),
        ("Elo(90%)", elo_from_score(0.90), 381.697003775730),
    ]
    # 30 wins, 60 draws, 10 losses: s = 0.6, per-game variance 0.09, stderr 0.03.
    est = estimate_elo(30, 60, 10)
    checks += [
        ("score 30/60/10", est.score, 0.6),
        ("stderr 30/60/10", est.stdev, 0.03),
        ("Elo 30/60/10", est.elo, elo_from_score(0.6)),
        ("low 30/60/10", est.elo_low, elo_from_score(0.6 - Z95 * 0.03)),
        ("high 30/60/10", est.elo_high, elo_from_score(0.6 + Z95 * 0.03)),
        ("LOS 30/60/10", est.los, 0.5 * (1 + math.erf(20 / math.sqrt(80)))),
        ("even match Elo", estimate_elo(10, 20, 10).elo, 0.0),
        ("all draws stderr", estimate_elo(0, 50, 0).stdev, 0.0),
    ]
    failed = 0
    for label, got, want in checks:
        ok = math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9)
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {label}: {got:.6f} (want {want:.6f})")
    print(f"rounded: 75% -> {elo_from_score(0.75):+.1f} Elo, 50% -> {elo_from_score(0.5):+.1f} Elo; "
          f"30/60/10 -> {format_elo(est)}")
    # Clock keeping: 1 s + 0.1 s, moves of 0.5 s then 0.7 s: 0.6 left, then -0.1 -> flag.
    clock = GameClock(TimeControl(base=1.0, increment=0.1), None)
    flags = [clock.charge(chess.WHITE, 0.5), clock.charge(chess.WHITE, 0.7)]
    ok = flags == [False, True] and math.isclose(clock.remaining[chess.WHITE], -0.1, abs_tol=1e-9)
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} clock: flags {flags}, remaining {clock.remaining[chess.WHITE]:.3f}")
    # A flag fall loses, except against a side that cannot mate (here: the bare black king).
    board = chess.Board("8/8/4k3/8/8/8/4K3/4Q3 w - - 0 1")
    ok = forfeit(chess.BLACK, board, "time forfeit", "lost on time").result == "1-0" and \
        forfeit(chess.WHITE, board, "time forfeit", "lost on time").result == "1/2-1/2"
    failed += not ok
    print(f"{'ok  ' if ok else 'FAIL'} time forfeit against a side that cannot mate is a draw")
    print("self-test " + ("passed" if not failed else f"FAILED ({failed})"))
    return 1 if failed else 0


async def amain(match: Match) -> int:
    args = match.args
    print(f"{match.engine_spec.command[0]} vs {' '.join(match.opponent_spec.command)}: {args.games} games "
          f"({args.games // 2} openings x 2 colours), {match.tc.describe()}, concurrency {args.concurrency}",
          flush=True)
    status = 0
    try:
        await match.run()
    except asyncio.CancelledError:
        print("\ninterrupted", file=sys.stderr)
        status = 130
    except MatchError as err:
        print(f"error: {err}", file=sys.stderr)
        status = 2
    finally:
        match.print_summary()
        if args.json:
            match.write_json()
    return status


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.self_test:
        return self_test()
    logging.basicConfig(level=logging.ERROR, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.log:
        handler = logging.FileHandler(args.log, mode="w")
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        logger = logging.getLogger("chess.engine")
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
        logger.propagate = False
    engine, opponent = build_specs(args)
    tc = build_time_control(args)
    rules = AdjudicationRules(args.resign_score, args.resign_moves, args.draw_score, args.draw_moves, args.draw_after)
    openings = load_openings(args.openings)
    if not args.no_shuffle:
        random.Random(args.seed).shuffle(openings)
    if opponent.protocol == "xboard" and any(not o.moves for o in openings):
        raise SystemExit(f"{args.openings}: with an xboard opponent every opening needs a `moves` list "
                         "(games start from the standard position; fairymax has no setboard)")
    for path in (args.pgn, args.json):
        if path and os.path.exists(path):
            print(f"note: {path} exists; " + ("games are appended" if path == args.pgn else "it is overwritten"),
                  file=sys.stderr)
    match = Match(args, engine, opponent, openings, tc, rules)
    try:
        return asyncio.run(amain(match))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
