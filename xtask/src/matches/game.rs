//! One game between two engine processes: the opening, the move loop with clocks, rule checks and optional
//! adjudication, and the record of how it ended. Every fault ends the game with a loss for the engine at fault
//! and a reason, and tells the caller to restart an engine whose state can no longer be trusted.

use super::adjudication::{
    DrawRule, Repetitions, ResignRule, RuleEnding, Score, ScoreAdjudicator, ScoreEnding, rule_ending,
};
use super::clock::{GameClock, Limit};
use super::engine::{Decision, EngineProcess, FaultKind, SearchRequest};
use super::openings::Opening;
use crate::stats::elo::Outcome;
use eldest_board::{Color, UciMoveError};
use std::time::{Duration, Instant, SystemTime};

/// Settings shared by every game of a match.
#[derive(Debug, Clone, Copy)]
pub struct GameSettings {
    /// How far past its clock a move may arrive before it loses on time.
    pub margin: Duration,
    /// How long past the time it was allowed an engine that has not answered is declared hung.
    pub hang_grace: Duration,
    /// How long a move without a clock (`nodes`, `depth`) may take before the engine is declared hung.
    pub unclocked_hang: Duration,
    /// Optional draw adjudication.
    pub draw: Option<DrawRule>,
    /// Optional resign adjudication.
    pub resign: Option<ResignRule>,
}

/// Which game of the match to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameJob {
    /// 1-based game number in the match.
    pub number: usize,
    /// 0-based round: the two games of a round share an opening and swap colours.
    pub round: usize,
    /// Index of the engine pairing.
    pub pairing: usize,
    /// Index of the opening.
    pub opening: usize,
    /// Index of the engine with White.
    pub white: usize,
    /// Index of the engine with Black.
    pub black: usize,
}

/// A game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// ½-½.
    Draw,
}

impl GameResult {
    /// The result for a game lost by `loser`.
    pub fn loss_for(loser: Color) -> GameResult {
        match loser {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        }
    }

    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result from `color`'s side.
    pub fn outcome_for(self, color: Color) -> Outcome {
        match (self, color) {
            (GameResult::Draw, _) => Outcome::Draw,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => Outcome::Win,
            _ => Outcome::Loss,
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of chess.
    Rule(RuleEnding),
    /// By the optional adjudication on scores.
    Adjudication(ScoreEnding),
    /// The engine resigned (xboard engines can).
    Resignation,
    /// A move came after the mover's time (and margin) ran out.
    TimeForfeit,
    /// The engine played an illegal move, or no move with legal moves available.
    IllegalMove,
    /// The engine process died.
    Crash,
    /// The engine stopped answering.
    Hang,
    /// The engine's answer broke the protocol.
    MalformedOutput,
}

impl Termination {
    /// A short fixed name for counting terminations in the summary and the JSON.
    pub fn key(self) -> &'static str {
        match self {
            Termination::Rule(RuleEnding::Checkmate { .. }) => "checkmate",
            Termination::Rule(RuleEnding::Stalemate) => "stalemate",
            Termination::Rule(RuleEnding::InsufficientMaterial) => "insufficient material",
            Termination::Rule(RuleEnding::FiftyMoves) => "fifty moves",
            Termination::Rule(RuleEnding::ThreefoldRepetition) => "threefold repetition",
            Termination::Adjudication(ScoreEnding::Draw) => "draw adjudication",
            Termination::Adjudication(ScoreEnding::Resign { .. }) => "resign adjudication",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "crash",
            Termination::Hang => "hang",
            Termination::MalformedOutput => "malformed output",
        }
    }

    /// The PGN `Termination` tag value (PGN standard, section 9.8.1).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::Rule(_) | Termination::Resignation => "normal",
            Termination::Adjudication(_) => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "rules infraction",
            Termination::Crash | Termination::Hang | Termination::MalformedOutput => "abandoned",
        }
    }
}

/// One move an engine played.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayedMove {
    /// The move in SAN.
    pub san: String,
    /// The score the engine reported last.
    pub score: Option<Score>,
    /// The depth it reported last.
    pub depth: Option<u32>,
    /// The time the move took.
    pub elapsed: Duration,
}

/// Everything about one finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// Which game this was.
    pub job: GameJob,
    /// The engines' names, White first.
    pub names: [String; 2],
    /// The engines' limits, White first.
    pub limits: [Limit; 2],
    /// The opening's name.
    pub opening_name: String,
    /// The start position's FEN when it is not the standard start.
    pub start_fen: Option<String>,
    /// The opening moves in SAN.
    pub book: Vec<String>,
    /// The engines' moves.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// The side whose engine was at fault (time forfeit, illegal move, crash, hang, malformed output).
    pub at_fault: Option<Color>,
    /// The ending in words, for the PGN and the logs.
    pub reason: String,
    /// Per side (White first): the lowest clock after a move, in seconds, when playing on a clock.
    pub lowest_clock: [Option<f64>; 2],
    /// Per side: the longest move.
    pub longest_move: [Duration; 2],
    /// Protocol warnings (unrecognised or malformed output that did not end the game), prefixed by engine.
    pub warnings: Vec<String>,
    /// Per side: how many warnings its engine caused (kept or not).
    pub warning_counts: [usize; 2],
    /// When the game started.
    pub started: SystemTime,
    /// How long it took.
    pub duration: Duration,
    /// Per side: whether its engine must be restarted before it plays again.
    pub restart: [bool; 2],
}

impl GameRecord {
    /// Whether White is to move in the start position, and its move number (from the FEN; the standard start
    /// otherwise).
    pub fn start_turn(&self) -> (bool, u32) {
        match &self.start_fen {
            Some(fen) => {
                let fields: Vec<&str> = fen.split_whitespace().collect();
                (
                    fields.get(1) != Some(&"b"),
                    fields.get(5).and_then(|n| n.parse::<u32>().ok()).unwrap_or(1),
                )
            }
            None => (true, 1),
        }
    }

    /// The moves `color`'s engine played (the book's moves are nobody's).
    pub fn engine_moves(&self, color: Color) -> impl Iterator<Item = &PlayedMove> {
        let (white_starts, _) = self.start_turn();
        let white_plays_first = white_starts == self.book.len().is_multiple_of(2);
        let first = usize::from(white_plays_first != (color == Color::White));
        self.moves.iter().skip(first).step_by(2)
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Plays one game of `opening` with `white` and `black`, whose limits are `limits` (White first).
pub fn play_game(
    job: GameJob,
    opening: &Opening,
    engines: [&mut EngineProcess; 2],
    limits: [Limit; 2],
    settings: &GameSettings,
) -> GameRecord {
    let [white, black] = engines;
    let names = [white.name().to_string(), black.name().to_string()];
    let started = SystemTime::now();
    let timer = Instant::now();
    let mut clock = GameClock::new(limits[0], limits[1], settings.margin);
    let mut adjudicator = ScoreAdjudicator::new(settings.draw, settings.resign);
    let mut position = opening.start;
    let mut repetitions = Repetitions::default();
    repetitions.record(&position);
    let mut book = Vec::new();
    let mut uci_moves = Vec::new();
    for &mv in &opening.moves {
        book.push(position.move_to_san(mv));
        uci_moves.push(position.move_to_uci(mv));
        position.play_unchecked(mv);
        repetitions.record(&position);
    }
    let mut moves = Vec::new();
    let mut restart = [false; 2];
    let engine_of = |color: Color| names[color as usize].clone();
    let who = |color: Color| format!("{} ({})", engine_of(color), color_name(color));

    let mut ending: Option<(GameResult, Termination, Option<Color>, String)> = None;
    for (color, engine) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if let Err(fault) = engine.new_game(opening.start_fen.as_deref(), limits[color as usize]) {
            restart[color as usize] = true;
            let termination = fault_termination(fault.kind);
            let reason = format!(
                "{} {} before the game: {}",
                who(color),
                termination.key(),
                fault.detail
            );
            ending = Some((GameResult::loss_for(color), termination, Some(color), reason));
            break;
        }
    }

    let (result, termination, at_fault, reason) = match ending {
        Some(ending) => ending,
        None => loop {
            if let Some(rule) = rule_ending(&position, &repetitions) {
                let result = match rule {
                    RuleEnding::Checkmate { winner } => GameResult::loss_for(!winner),
                    _ => GameResult::Draw,
                };
                let reason = match rule {
                    RuleEnding::Checkmate { winner } => format!("{} mates", who(winner)),
                    RuleEnding::Stalemate => "stalemate".into(),
                    RuleEnding::InsufficientMaterial => "insufficient material".into(),
                    RuleEnding::FiftyMoves => "fifty-move rule".into(),
                    RuleEnding::ThreefoldRepetition => "threefold repetition".into(),
                };
                break (result, Termination::Rule(rule), None, reason);
            }
            let mover = position.side_to_move();
            let engine = if mover == Color::White {
                &mut *white
            } else {
                &mut *black
            };
            let allowed = clock.allowed(mover);
            let hang_after = allowed.map_or(settings.unclocked_hang, |allowed| allowed + settings.hang_grace);
            let request = SearchRequest {
                start_fen: opening.start_fen.as_deref(),
                moves: &uci_moves,
                clock: &clock,
                mover,
                hang_after,
            };
            let reply = match engine.search(&request) {
                Ok(reply) => reply,
                Err(fault) => {
                    restart[mover as usize] = true;
                    let termination = fault_termination(fault.kind);
                    let reason = format!("{} {}: {}", who(mover), termination.key(), fault.detail);
                    break (GameResult::loss_for(mover), termination, Some(mover), reason);
                }
            };
            if clock.charge(mover, reply.elapsed) {
                // FIDE 6.9: a flag fall is a draw when the opponent could not mate by any series of legal moves;
                // eldest-board's test is the usual approximation (no pawn, rook or queen and at most one minor).
                let opponent_cannot_mate = position.has_insufficient_material(!mover);
                let result = if opponent_cannot_mate {
                    GameResult::Draw
                } else {
                    GameResult::loss_for(mover)
                };
                let mut reason = format!(
                    "{} lost on time: the move took {:.3} s with {:.3} s allowed ({} ms margin included)",
                    who(mover),
                    reply.elapsed.as_secs_f64(),
                    allowed.map_or(0.0, |a| a.as_secs_f64()),
                    settings.margin.as_millis()
                );
                if opponent_cannot_mate {
                    reason.push_str(", but the opponent cannot mate: draw");
                }
                break (result, Termination::TimeForfeit, Some(mover), reason);
            }
            let text = match &reply.decision {
                Decision::Move(text) => text,
                Decision::Resign => {
                    let reason = format!("{} resigns", who(mover));
                    break (
                        GameResult::loss_for(mover),
                        Termination::Resignation,
                        None,
                        reason,
                    );
                }
            };
            let parsed = match text.as_str() {
                "0000" | "(none)" => Err(UciMoveError::Illegal(text.clone())),
                // xboard engines may answer in SAN; UCI engines never do, so SAN is only the second reading.
                text => position
                    .parse_uci_move(text)
                    .or_else(|uci_error| position.parse_san(text).map_err(|_| uci_error)),
            };
            let mv = match parsed {
                Ok(mv) => mv,
                Err(UciMoveError::Syntax(text)) => {
                    restart[mover as usize] = true;
                    let reason = format!("{} malformed output: 'bestmove {text}' is not a move", who(mover));
                    break (
                        GameResult::loss_for(mover),
                        Termination::MalformedOutput,
                        Some(mover),
                        reason,
                    );
                }
                Err(UciMoveError::Illegal(text)) => {
                    let reason = format!("{} illegal move: '{text}' in {}", who(mover), position.to_fen());
                    break (
                        GameResult::loss_for(mover),
                        Termination::IllegalMove,
                        Some(mover),
                        reason,
                    );
                }
            };
            let full_move = u32::from(position.fullmove_number());
            moves.push(PlayedMove {
                san: position.move_to_san(mv),
                score: reply.score,
                depth: reply.depth,
                elapsed: reply.elapsed,
            });
            uci_moves.push(position.move_to_uci(mv));
            position.play_unchecked(mv);
            repetitions.record(&position);
            if let Some(adjudicated) = adjudicator.after_move(mover, reply.score, full_move) {
                let (result, reason) = match adjudicated {
                    ScoreEnding::Draw => (
                        GameResult::Draw,
                        "draw by adjudication: both engines' scores level".into(),
                    ),
                    ScoreEnding::Resign { loser } => (
                        GameResult::loss_for(loser),
                        format!("{} resigns by adjudication: both engines agree", who(loser)),
                    ),
                };
                break (result, Termination::Adjudication(adjudicated), None, reason);
            }
        },
    };
    let mut warnings = Vec::new();
    let mut warning_counts = [0; 2];
    for (count, engine) in warning_counts.iter_mut().zip([white, black]) {
        let (kept, dropped) = engine.take_warnings();
        *count = kept.len() + dropped;
        warnings.extend(kept.into_iter().map(|w| format!("{}: {w}", engine.name())));
    }
    GameRecord {
        job,
        names,
        limits,
        opening_name: opening.name.clone(),
        start_fen: opening.start_fen.clone(),
        book,
        moves,
        result,
        termination,
        at_fault,
        reason,
        lowest_clock: [
            clock.lowest_seconds(Color::White),
            clock.lowest_seconds(Color::Black),
        ],
        longest_move: [clock.longest_move(Color::White), clock.longest_move(Color::Black)],
        warnings,
        warning_counts,
        started,
        duration: timer.elapsed(),
        restart,
    }
}

fn fault_termination(kind: FaultKind) -> Termination {
    match kind {
        FaultKind::Crash => Termination::Crash,
        FaultKind::Hang => Termination::Hang,
        FaultKind::Malformed => Termination::MalformedOutput,
    }
}
