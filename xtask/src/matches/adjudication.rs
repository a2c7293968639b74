//! Ending games: the rules of chess, decided by eldest-board, and the optional score-based draw and resign
//! adjudication.
//!
//! Rules are checked before every move, in this order: checkmate, stalemate, insufficient material (neither side
//! can ever mate), the fifty-move rule (100 plies without capture or pawn move; a mate on the hundredth ply
//! stands, since checkmate is checked first), threefold repetition. Draws are applied as soon as a player could
//! claim them, as engine matches do. Repetitions compare Zobrist keys, which include the side to move, castling
//! rights and an en-passant square only when a capture there is possible.

use eldest_board::{Color, Position};
use std::collections::HashMap;

/// A game ended by the rules of chess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleEnding {
    /// The side to move is checkmated; the other side wins.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has mating material.
    InsufficientMaterial,
    /// A hundred plies without a capture or a pawn move.
    FiftyMoves,
    /// The same position for the third time.
    ThreefoldRepetition,
}

/// The positions of one game since its start, to find repetitions.
#[derive(Debug, Clone, Default)]
pub struct Repetitions {
    /// How often each key has occurred since the last capture or pawn move.
    counts: HashMap<u64, u32>,
}

impl Repetitions {
    /// Records the position reached (call once for the start position and once after every move).
    pub fn record(&mut self, position: &Position) {
        // Positions before a capture or a pawn move can never recur.
        if position.halfmove_clock() == 0 {
            self.counts.clear();
        }
        *self.counts.entry(position.key()).or_insert(0) += 1;
    }

    /// How often the position with this key has occurred.
    fn count(&self, position: &Position) -> u32 {
        self.counts.get(&position.key()).copied().unwrap_or(0)
    }
}

/// Whether the game is over by the rules in `position`, which has been recorded in `repetitions`.
pub fn rule_ending(position: &Position, repetitions: &Repetitions) -> Option<RuleEnding> {
    if !position.has_legal_move() {
        return Some(if position.in_check() {
            RuleEnding::Checkmate {
                winner: !position.side_to_move(),
            }
        } else {
            RuleEnding::Stalemate
        });
    }
    if position.is_insufficient_material() {
        return Some(RuleEnding::InsufficientMaterial);
    }
    if position.halfmove_clock() >= 100 {
        return Some(RuleEnding::FiftyMoves);
    }
    if repetitions.count(position) >= 3 {
        return Some(RuleEnding::ThreefoldRepetition);
    }
    None
}

/// An engine's evaluation of a position, from its own side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Centipawns(i32),
    /// Mate in this many moves (negative: the engine is being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, with mates counted as ±100000 so that they pass every threshold.
    pub fn as_centipawns(self) -> i64 {
        match self {
            Score::Centipawns(cp) => i64::from(cp),
            Score::Mate(moves) if moves > 0 => 100_000,
            Score::Mate(_) => -100_000,
        }
    }

    /// `+0.31`, `-2.50`, `+M5`, `-M3` (pawns, as cutechess writes them in PGN comments).
    pub fn to_pgn(self) -> String {
        match self {
            Score::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(moves) if moves > 0 => format!("+M{moves}"),
            Score::Mate(moves) => format!("-M{}", moves.unsigned_abs()),
        }
    }
}

/// `--draw movenumber=40 movecount=8 score=10`: a draw once, from full move `move_number` on, both engines'
/// last `move_count` scores each have stayed within ±`score` centipawns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawRule {
    /// The first full move at which the rule may apply.
    pub move_number: u32,
    /// How many consecutive moves of each engine must stay within the bound.
    pub move_count: u32,
    /// The bound in centipawns.
    pub score: i64,
}

/// `--resign movecount=3 score=600`: a loss for the side whose engine has reported at least `score` centipawns
/// against itself for `move_count` consecutive moves while its opponent reported at least `score` for itself
/// over its own last `move_count` moves (both must agree, so one engine's misjudgement cannot end a game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignRule {
    /// How many consecutive moves of each engine must agree.
    pub move_count: u32,
    /// The bound in centipawns.
    pub score: i64,
}

/// Parses `KEY=VALUE` words into a map of the `allowed` keys, all required non-negative integers.
fn parse_words(option: &str, words: &[String], allowed: &[&str]) -> Result<HashMap<String, i64>, String> {
    let mut values = HashMap::new();
    for word in words
        .iter()
        .flat_map(|w| w.split([' ', ',']))
        .filter(|w| !w.is_empty())
    {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("{option}: '{word}' is not KEY=VALUE"))?;
        if !allowed.contains(&key) {
            return Err(format!(
                "{option}: unknown key '{key}' (want {})",
                allowed.join(", ")
            ));
        }
        let number: i64 = value
            .parse()
            .ok()
            .filter(|v| *v >= 0)
            .ok_or_else(|| format!("{option}: {key}={value} is not a non-negative integer"))?;
        values.insert(key.to_string(), number);
    }
    for key in allowed {
        if !values.contains_key(*key) {
            return Err(format!("{option} needs {key}=… (all of {})", allowed.join(", ")));
        }
    }
    Ok(values)
}

impl DrawRule {
    /// Parses `movenumber=40 movecount=8 score=10`.
    ///
    /// # Errors
    /// A message naming the missing or bad key.
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        let values = parse_words("--draw", words, &["movenumber", "movecount", "score"])?;
        let count = |key: &str| u32::try_from(values[key]).map_err(|_| format!("--draw: {key} is too large"));
        Ok(DrawRule {
            move_number: count("movenumber")?,
            move_count: count("movecount")?.max(1),
            score: values["score"],
        })
    }
}

impl ResignRule {
    /// Parses `movecount=3 score=600`.
    ///
    /// # Errors
    /// A message naming the missing or bad key.
    pub fn parse(words: &[String]) -> Result<ResignRule, String> {
        let values = parse_words("--resign", words, &["movecount", "score"])?;
        let move_count =
            u32::try_from(values["movecount"]).map_err(|_| "--resign: movecount is too large".to_string())?;
        Ok(ResignRule {
            move_count: move_count.max(1),
            score: values["score"],
        })
    }
}

/// A game ended by adjudication on the engines' scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreEnding {
    /// Both engines saw a level game for long enough.
    Draw,
    /// Both engines agreed that `loser` is lost.
    Resign {
        /// The side adjudicated lost.
        loser: Color,
    },
}

/// Follows the engines' scores move by move for the optional adjudication rules.
#[derive(Debug, Clone, Default)]
pub struct ScoreAdjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Consecutive plies (of either engine) with a score inside the draw bound.
    level_plies: u32,
    /// Per side: its engine's consecutive moves with a score of at least −bound against itself…
    losing_moves: [u32; 2],
    /// …and of at least +bound for itself.
    winning_moves: [u32; 2],
}

impl ScoreAdjudicator {
    /// An adjudicator with the rules given (either may be off).
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> ScoreAdjudicator {
        ScoreAdjudicator {
            draw,
            resign,
            ..ScoreAdjudicator::default()
        }
    }

    /// Notes the score `mover`'s engine gave with its move (`None` when it gave none, which resets every
    /// count), the full move number of that move, and returns an ending if a rule now applies.
    pub fn after_move(&mut self, mover: Color, score: Option<Score>, full_move: u32) -> Option<ScoreEnding> {
        let index = mover as usize;
        let Some(score) = score.map(Score::as_centipawns) else {
            *self = ScoreAdjudicator::new(self.draw, self.resign);
            return None;
        };
        if let Some(rule) = self.draw {
            self.level_plies = if score.abs() <= rule.score {
                self.level_plies + 1
            } else {
                0
            };
            if full_move >= rule.move_number && self.level_plies >= 2 * rule.move_count {
                return Some(ScoreEnding::Draw);
            }
        }
        if let Some(rule) = self.resign {
            self.losing_moves[index] = if score <= -rule.score {
                self.losing_moves[index] + 1
            } else {
                0
            };
            self.winning_moves[index] = if score >= rule.score {
                self.winning_moves[index] + 1
            } else {
                0
            };
            for loser in [mover, !mover] {
                if self.losing_moves[loser as usize] >= rule.move_count
                    && self.winning_moves[!loser as usize] >= rule.move_count
                {
                    return Some(ScoreEnding::Resign { loser });
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ending_after(fen: &str, moves: &[&str]) -> Option<RuleEnding> {
        let mut position = Position::from_fen(fen).unwrap();
        let mut repetitions = Repetitions::default();
        repetitions.record(&position);
        for text in moves {
            assert_eq!(
                rule_ending(&position, &repetitions),
                None,
                "the game ended before {text}"
            );
            let mv = position.parse_uci_move(text).unwrap();
            position.play_unchecked(mv);
            repetitions.record(&position);
        }
        rule_ending(&position, &repetitions)
    }

    #[test]
    fn the_rules_end_games() {
        let start = eldest_board::STARTPOS_FEN;
        let fools_mate = ["f2f3", "e7e5", "g2g4", "d8h4"];
        assert_eq!(
            ending_after(start, &fools_mate),
            Some(RuleEnding::Checkmate { winner: Color::Black })
        );
        assert_eq!(
            ending_after("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[]),
            Some(RuleEnding::Stalemate)
        );
        assert_eq!(
            ending_after("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", &[]),
            Some(RuleEnding::InsufficientMaterial)
        );
        assert_eq!(
            ending_after("8/8/4k3/8/8/3RK3/8/8 w - - 99 80", &["d3d1"]),
            Some(RuleEnding::FiftyMoves)
        );
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
        assert_eq!(
            ending_after(start, &shuffle),
            Some(RuleEnding::ThreefoldRepetition)
        );
        assert_eq!(ending_after(start, &shuffle[..7]), None); // the start position has occurred only twice
        assert_eq!(ending_after(start, &["e2e4"]), None);
    }

    #[test]
    fn mate_on_the_hundredth_ply_is_mate() {
        // Black is mated by the move that brings the halfmove clock to 100.
        let ending = ending_after("k7/8/1K6/8/8/8/8/7R w - - 99 90", &["h1h8"]);
        assert_eq!(ending, Some(RuleEnding::Checkmate { winner: Color::White }));
    }

    #[test]
    fn draw_adjudication_needs_both_engines_level_from_the_move_number() {
        let rule = DrawRule::parse(&["movenumber=10 movecount=2 score=5".into()]).unwrap();
        let mut adjudicator = ScoreAdjudicator::new(Some(rule), None);
        let level = Some(Score::Centipawns(3));
        assert_eq!(adjudicator.after_move(Color::White, level, 8), None);
        assert_eq!(adjudicator.after_move(Color::Black, level, 8), None);
        assert_eq!(adjudicator.after_move(Color::White, level, 9), None);
        assert_eq!(adjudicator.after_move(Color::Black, level, 9), None); // four level plies, but before move 10
        assert_eq!(
            adjudicator.after_move(Color::White, Some(Score::Centipawns(40)), 10),
            None
        );
        for (color, full_move) in [(Color::Black, 10), (Color::White, 11), (Color::Black, 11)] {
            assert_eq!(adjudicator.after_move(color, level, full_move), None);
        }
        assert_eq!(
            adjudicator.after_move(Color::White, level, 12),
            Some(ScoreEnding::Draw)
        );
    }

    #[test]
    fn resign_adjudication_needs_both_engines_to_agree() {
        let rule = ResignRule::parse(&["movecount=2".into(), "score=500".into()]).unwrap();
        let mut adjudicator = ScoreAdjudicator::new(None, Some(rule));
        let white_winning = Some(Score::Centipawns(700));
        let black_losing = Some(Score::Mate(-4));
        assert_eq!(adjudicator.after_move(Color::White, white_winning, 30), None);
        assert_eq!(
            adjudicator.after_move(Color::Black, Some(Score::Centipawns(-100)), 30),
            None
        ); // disagrees
        assert_eq!(adjudicator.after_move(Color::White, white_winning, 31), None);
        assert_eq!(adjudicator.after_move(Color::Black, black_losing, 31), None);
        assert_eq!(adjudicator.after_move(Color::White, white_winning, 32), None);
        assert_eq!(
            adjudicator.after_move(Color::Black, black_losing, 32),
            Some(ScoreEnding::Resign { loser: Color::Black })
        );
        // A move without a score starts the count again.
        assert_eq!(adjudicator.after_move(Color::White, None, 33), None);
        assert_eq!(adjudicator.after_move(Color::Black, black_losing, 33), None);
    }

    #[test]
    fn bad_rule_words_are_refused() {
        assert!(
            DrawRule::parse(&["movenumber=40 movecount=8".into()])
                .unwrap_err()
                .contains("needs score")
        );
        assert!(
            ResignRule::parse(&["movecount=x score=5".into()])
                .unwrap_err()
                .contains("non-negative")
        );
        assert!(
            ResignRule::parse(&["moves=3 score=5".into()])
                .unwrap_err()
                .contains("unknown key")
        );
        assert_eq!(Score::Mate(-3).to_pgn(), "-M3");
        assert_eq!(Score::Centipawns(31).to_pgn(), "+0.31");
    }
}
