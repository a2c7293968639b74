//! What a match reports: the running tallies (per pairing and per engine), the progress line after each game,
//! the summary at the end, and the JSON file.

use super::game::{GameRecord, Termination};
use crate::stats::elo::{EloEstimate, Outcome, Pentanomial, Wdl, signed, unsigned};
use crate::stats::sprt::{Sprt, SprtDecision};
use eldest_board::Color;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Two engines that play each other; every figure is from `first`'s side.
#[derive(Debug, Clone, Serialize)]
pub struct PairingTally {
    /// Index of the engine whose results are counted.
    #[serde(skip)]
    pub first: usize,
    /// The first engine's name.
    pub engine: String,
    /// The opponent's name.
    pub opponent: String,
    /// All games.
    pub wdl: Wdl,
    /// Games with White.
    pub as_white: Wdl,
    /// Games with Black.
    pub as_black: Wdl,
    /// Completed colour-swapped pairs.
    pub pentanomial: Pentanomial,
    /// The estimate from the pairs (what fastchess reports), when there is one.
    pub elo: Option<EloEstimate>,
    /// The estimate from single games.
    pub elo_wdl: Option<EloEstimate>,
    /// The test, when one runs on this pairing.
    pub sprt: Option<SprtState>,
    /// Rounds with one game finished: the first game's outcome, waiting for its partner.
    #[serde(skip)]
    waiting: HashMap<usize, Outcome>,
}

/// An SPRT's parameters and where it stands.
#[derive(Debug, Clone, Serialize)]
pub struct SprtState {
    /// The parameters.
    pub parameters: Sprt,
    /// The log-likelihood ratio now.
    pub llr: f64,
    /// The bound for H0.
    pub lower_bound: f64,
    /// The bound for H1.
    pub upper_bound: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl PairingTally {
    /// An empty tally of `first` against `second`.
    pub fn new(first: usize, second: usize, names: &[String], sprt: Option<Sprt>) -> PairingTally {
        PairingTally {
            first,
            engine: names[first].clone(),
            opponent: names[second].clone(),
            wdl: Wdl::default(),
            as_white: Wdl::default(),
            as_black: Wdl::default(),
            pentanomial: Pentanomial::default(),
            elo: None,
            elo_wdl: None,
            sprt: sprt.map(|parameters| SprtState {
                parameters,
                llr: 0.0,
                lower_bound: parameters.lower_bound(),
                upper_bound: parameters.upper_bound(),
                decision: SprtDecision::Continue,
            }),
            waiting: HashMap::new(),
        }
    }

    /// Counts a game of this pairing.
    pub fn record(&mut self, game: &GameRecord) {
        let first_color = if game.job.white == self.first {
            Color::White
        } else {
            Color::Black
        };
        self.record_outcome(game.job.round, first_color, game.result.outcome_for(first_color));
    }

    /// Counts a game of this pairing in `round` that the first engine played with `first_color` and ended
    /// with `outcome` for it.
    pub fn record_outcome(&mut self, round: usize, first_color: Color, outcome: Outcome) {
        self.wdl.record(outcome);
        match first_color {
            Color::White => self.as_white.record(outcome),
            Color::Black => self.as_black.record(outcome),
        }
        match self.waiting.remove(&round) {
            Some(partner) => self.pentanomial.record(partner, outcome),
            None => {
                self.waiting.insert(round, outcome);
            }
        }
        self.elo = EloEstimate::from_pentanomial(&self.pentanomial);
        self.elo_wdl = EloEstimate::from_wdl(&self.wdl);
        if let Some(state) = &mut self.sprt {
            state.llr = state.parameters.llr(&self.pentanomial);
            state.decision = state.parameters.decision(state.llr);
        }
    }

    /// `+5 =3 -2, 65.0%, Elo +108.4 ± 250.1 [..] LLR 0.42 (-2.94, 2.94)`.
    pub fn one_line(&self) -> String {
        let mut text = format!(
            "+{} ={} -{}, {:.1}%",
            self.wdl.wins,
            self.wdl.draws,
            self.wdl.losses,
            100.0 * self.wdl.score().unwrap_or(0.5)
        );
        if let Some(estimate) = self.elo.or(self.elo_wdl) {
            text.push_str(&format!(", Elo {}", estimate.display()));
        }
        if let Some(state) = &self.sprt {
            text.push_str(&format!(
                ", LLR {:.2} ({:.2}, {:.2})",
                state.llr, state.lower_bound, state.upper_bound
            ));
        }
        text
    }
}

/// Faults and clock use of one engine over the match.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EngineTally {
    /// The engine's name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games lost on time.
    pub time_forfeits: u64,
    /// Games lost by an illegal move (or no move).
    pub illegal_moves: u64,
    /// Games lost by a crash.
    pub crashes: u64,
    /// Games lost by a hang.
    pub hangs: u64,
    /// Games lost by malformed output.
    pub malformed_output: u64,
    /// Protocol warnings that did not end a game.
    pub warnings: u64,
    /// The lowest clock it had after a move, in seconds.
    pub lowest_clock_seconds: Option<f64>,
    /// Its longest move, in seconds.
    pub longest_move_seconds: f64,
    /// The moves it played (book moves not counted). Absent from the files of matches played before it was
    /// counted: a match resumed from one counts only its new games here.
    #[serde(default)]
    pub moves: u64,
    /// Of those, the moves it reported a depth for.
    #[serde(default)]
    pub moves_with_depth: u64,
    /// The sum of the depths it reported, one per move (its last `info depth`).
    #[serde(default)]
    pub depth_sum: u64,
    /// The time all its moves took, in seconds.
    #[serde(default)]
    pub move_seconds: f64,
}

impl EngineTally {
    /// Counts `game`, in which this engine had `color`.
    pub fn record(&mut self, game: &GameRecord, color: Color) {
        let side = color as usize;
        self.games += 1;
        if game.at_fault == Some(color) {
            let counter = match game.termination {
                Termination::TimeForfeit => &mut self.time_forfeits,
                Termination::IllegalMove => &mut self.illegal_moves,
                Termination::Crash => &mut self.crashes,
                Termination::Hang => &mut self.hangs,
                _ => &mut self.malformed_output,
            };
            *counter += 1;
        }
        self.warnings += game.warning_counts[side] as u64;
        if let Some(lowest) = game.lowest_clock[side] {
            self.lowest_clock_seconds = Some(self.lowest_clock_seconds.map_or(lowest, |l| l.min(lowest)));
        }
        self.longest_move_seconds = self
            .longest_move_seconds
            .max(game.longest_move[side].as_secs_f64());
        for played in game.engine_moves(color) {
            self.moves += 1;
            self.move_seconds += played.elapsed.as_secs_f64();
            if let Some(depth) = played.depth {
                self.moves_with_depth += 1;
                self.depth_sum += u64::from(depth);
            }
        }
    }

    /// The mean of the depths it reported with its moves; `None` before it reported one.
    pub fn mean_depth(&self) -> Option<f64> {
        (self.moves_with_depth > 0).then(|| self.depth_sum as f64 / self.moves_with_depth as f64)
    }

    /// `mean depth 15.88, mean move 85 ms (3412 moves)`: the depth it reached and the time it took, over its moves.
    pub fn search_line(&self) -> String {
        if self.moves == 0 {
            return "no moves".into();
        }
        let depth = self
            .mean_depth()
            .map_or("no depth reported".into(), |d| format!("mean depth {d:.2}"));
        format!(
            "{depth}, mean move {:.0} ms ({} move{})",
            1000.0 * self.move_seconds / self.moves as f64,
            self.moves,
            if self.moves == 1 { "" } else { "s" }
        )
    }

    /// `time forfeits 0, illegal moves 0, crashes 1, hangs 0, malformed output 0, warnings 2`.
    pub fn faults_line(&self) -> String {
        format!(
            "time forfeits {}, illegal moves {}, crashes {}, hangs {}, malformed output {}, warnings {}",
            self.time_forfeits,
            self.illegal_moves,
            self.crashes,
            self.hangs,
            self.malformed_output,
            self.warnings
        )
    }
}

/// One game in the JSON file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameSummary {
    /// Game number.
    pub number: usize,
    /// Round (games of a round share the opening).
    pub round: usize,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Opening name.
    pub opening: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The termination's short name.
    pub termination: String,
    /// `white` or `black` when an engine's fault ended the game.
    pub at_fault: Option<String>,
    /// The ending in words.
    pub reason: String,
    /// Plies played by the engines (book moves not counted).
    pub plies: usize,
    /// Seconds the game took.
    pub seconds: f64,
    /// Protocol warnings.
    pub warnings: Vec<String>,
}

impl GameSummary {
    /// The summary of `game`.
    pub fn of(game: &GameRecord) -> GameSummary {
        GameSummary {
            number: game.job.number,
            round: game.job.round,
            white: game.names[0].clone(),
            black: game.names[1].clone(),
            opening: game.opening_name.clone(),
            result: game.result.pgn().to_string(),
            termination: game.termination.key().to_string(),
            at_fault: game
                .at_fault
                .map(|c| if c == Color::White { "white" } else { "black" }.to_string()),
            reason: game.reason.clone(),
            plies: game.moves.len(),
            seconds: (game.duration.as_secs_f64() * 1000.0).round() / 1000.0,
            warnings: game.warnings.clone(),
        }
    }
}

/// The progress line after a game.
pub fn progress_line(
    game: &GameRecord,
    finished: usize,
    planned: Option<usize>,
    pairing: &PairingTally,
) -> String {
    let count = match planned {
        Some(planned) => format!("{finished}/{planned}"),
        None => finished.to_string(),
    };
    format!(
        "[{count}] game {} {} vs {}: {} {} ({} plies, {:.1} s) | {} vs {}: {}",
        game.job.number,
        game.names[0],
        game.names[1],
        game.result.pgn(),
        game.termination.key(),
        game.book.len() + game.moves.len(),
        game.duration.as_secs_f64(),
        pairing.engine,
        pairing.opponent,
        pairing.one_line()
    )
}

/// The summary printed at the end.
pub fn summary_text(
    pairings: &[PairingTally],
    engines: &[EngineTally],
    terminations: &BTreeMap<String, u64>,
    stop_reason: &str,
) -> String {
    let mut text = format!("\nMatch {stop_reason}.\n");
    for pairing in pairings {
        let games = pairing.wdl.games();
        text.push_str(&format!(
            "\n{} vs {}: {games} games, {} complete pairs\n",
            pairing.engine,
            pairing.opponent,
            pairing.pentanomial.pairs()
        ));
        let wdl = |w: &Wdl| format!("{}/{}/{}", w.wins, w.draws, w.losses);
        text.push_str(&format!(
            "  W/D/L {} (with White {}, with Black {}), score {:.1}%\n",
            wdl(&pairing.wdl),
            wdl(&pairing.as_white),
            wdl(&pairing.as_black),
            100.0 * pairing.wdl.score().unwrap_or(0.5)
        ));
        for estimate in [pairing.elo, pairing.elo_wdl].into_iter().flatten() {
            text.push_str(&format!(
                "  Elo {} from {}, nElo {} ± {}, LOS {:.1}%\n",
                estimate.display(),
                if estimate.model == "pentanomial" {
                    "pairs"
                } else {
                    "single games"
                },
                signed(estimate.normalized_elo),
                unsigned(estimate.normalized_elo_error),
                100.0 * estimate.los
            ));
        }
        let p = &pairing.pentanomial;
        text.push_str(&format!(
            "  pairs LL/LD/WL/DD/WD/WW: {}/{}/{}/{}/{}/{}\n",
            p.loss_loss, p.loss_draw, p.win_loss, p.draw_draw, p.win_draw, p.win_win
        ));
        if let Some(state) = &pairing.sprt {
            text.push_str(&format!(
                "  SPRT {}: LLR {:.2} ({:.2}, {:.2}): {}\n",
                state.parameters.describe(),
                state.llr,
                state.lower_bound,
                state.upper_bound,
                state.decision
            ));
        }
    }
    let endings: Vec<String> = terminations
        .iter()
        .map(|(key, count)| format!("{key} {count}"))
        .collect();
    text.push_str(&format!("\nTerminations: {}\n", endings.join(", ")));
    text.push_str("Faults (games lost), clocks and depths by engine:\n");
    for engine in engines {
        let lowest = engine
            .lowest_clock_seconds
            .map_or("no clock".into(), |s| format!("{s:.3} s"));
        text.push_str(&format!(
            "  {}: {}; lowest clock {lowest}, longest move {:.3} s; {}\n",
            engine.name,
            engine.faults_line(),
            engine.longest_move_seconds,
            engine.search_line()
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::clock::Limit;
    use crate::matches::game::{GameJob, GameResult, PlayedMove};
    use std::time::{Duration, SystemTime};

    fn played(depth: Option<u32>, ms: u64) -> PlayedMove {
        PlayedMove {
            san: "a3".into(),
            score: None,
            depth,
            elapsed: Duration::from_millis(ms),
        }
    }

    fn game(start_fen: Option<&str>, book: &[&str], moves: Vec<PlayedMove>) -> GameRecord {
        GameRecord {
            job: GameJob {
                number: 1,
                round: 0,
                pairing: 0,
                opening: 0,
                white: 0,
                black: 1,
            },
            names: ["w".into(), "b".into()],
            limits: [Limit::MoveTime(Duration::from_millis(50)); 2],
            opening_name: String::new(),
            start_fen: start_fen.map(String::from),
            book: book.iter().map(|s| s.to_string()).collect(),
            moves,
            result: GameResult::Draw,
            termination: Termination::Resignation,
            at_fault: None,
            reason: String::new(),
            lowest_clock: [None; 2],
            longest_move: [Duration::ZERO; 2],
            warnings: Vec::new(),
            warning_counts: [0; 2],
            started: SystemTime::UNIX_EPOCH,
            duration: Duration::ZERO,
            restart: [false; 2],
        }
    }

    fn tallies(record: &GameRecord) -> [EngineTally; 2] {
        let mut white = EngineTally::default();
        let mut black = EngineTally::default();
        white.record(record, Color::White);
        black.record(record, Color::Black);
        [white, black]
    }

    #[test]
    fn each_engine_is_credited_with_its_own_moves_depths_and_times() {
        // The standard start and two book plies: White's engine moves first.
        let record = game(
            None,
            &["e4", "e5"],
            vec![played(Some(10), 100), played(Some(7), 40), played(Some(12), 60)],
        );
        let [white, black] = tallies(&record);
        assert_eq!((white.moves, white.moves_with_depth, white.depth_sum), (2, 2, 22));
        assert_eq!((black.moves, black.moves_with_depth, black.depth_sum), (1, 1, 7));
        assert_eq!(white.mean_depth(), Some(11.0));
        assert_eq!(white.search_line(), "mean depth 11.00, mean move 80 ms (2 moves)");

        // Black to move in the FEN and one book ply: White's engine again moves first; Black's reported no depth.
        let fen = "4k3/8/8/8/8/8/8/4K3 b - - 0 1";
        let record = game(
            Some(fen),
            &["Kd7"],
            vec![played(Some(5), 10), played(None, 30), played(Some(9), 20)],
        );
        let [white, black] = tallies(&record);
        assert_eq!((white.moves, white.depth_sum), (2, 14));
        assert_eq!(black.mean_depth(), None);
        assert_eq!(black.search_line(), "no depth reported, mean move 30 ms (1 move)");
        // No book: Black's engine moves first.
        let record = game(Some(fen), &[], vec![played(Some(4), 10)]);
        let [white, black] = tallies(&record);
        assert_eq!((white.moves, black.moves), (0, 1));
        assert_eq!(white.search_line(), "no moves");
    }

    #[test]
    fn tallies_from_files_without_the_move_counts_still_load() {
        let old = r#"{"name":"x","games":2,"time_forfeits":0,"illegal_moves":0,"crashes":0,"hangs":0,
            "malformed_output":0,"warnings":0,"lowest_clock_seconds":null,"longest_move_seconds":0.5}"#;
        let tally: EngineTally = serde_json::from_str(old).unwrap();
        assert_eq!((tally.games, tally.moves), (2, 0));
        assert_eq!(tally.search_line(), "no moves");
    }
}
