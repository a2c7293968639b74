//! Static evaluation: PeSTO's tapered piece-square tables (material included) and a tempo bonus, in
//! centipawns from the side to move's point of view.
//!
//! The midgame and endgame sums are blended by the game phase (knights and bishops weigh 1, rooks 2, queens 4;
//! 24 is the full opening set), so a king that hides in the middlegame walks to the centre in the endgame.

use crate::nnue::Network;
use crate::pesto::{EG_TABLES, MG_TABLES, PIECE_VALUE};
use eldest_board::{Color, PieceKind, Position};
use std::fmt;
use std::sync::Arc;

/// Bonus for having the move: the side to move can improve its position first.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{TEMPO, evaluate};
///
/// // In a symmetric position the move is the only difference, whoever has it.
/// let black_to_move = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
/// assert_eq!(evaluate(&Position::startpos()), TEMPO);
/// assert_eq!(evaluate(&Position::from_fen(black_to_move).unwrap()), TEMPO);
/// ```
pub const TEMPO: i32 = 10;

/// Phase weight of each piece kind; the sum over the starting material is [`FULL_PHASE`].
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting position: all middlegame.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{FULL_PHASE, eval_trace};
///
/// assert_eq!(eval_trace(&Position::startpos()).phase, FULL_PHASE);
/// // Pawns do not count: a king and pawn ending is all endgame.
/// let ending = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").unwrap();
/// assert_eq!(eval_trace(&ending).phase, 0);
/// ```
pub const FULL_PHASE: i32 = 24;

/// `[color][kind][square]` → (midgame, endgame) value of the piece on the square, material included.
const TABLE: [[[(i32, i32); 64]; 6]; 2] = {
    let mut table = [[[(0, 0); 64]; 6]; 2];
    let mut kind = 0;
    while kind < 6 {
        let mut square = 0;
        while square < 64 {
            // The published tables are rank 8 first from white's view: white's a1 (0) is entry 56; black's
            // pieces read the table mirrored, so black's a8 (56) is entry 56 too.
            let white_entry = square ^ 56;
            let black_entry = square;
            table[0][kind][square] = (
                PIECE_VALUE[0][kind] + MG_TABLES[kind][white_entry],
                PIECE_VALUE[1][kind] + EG_TABLES[kind][white_entry],
            );
            table[1][kind][square] = (
                PIECE_VALUE[0][kind] + MG_TABLES[kind][black_entry],
                PIECE_VALUE[1][kind] + EG_TABLES[kind][black_entry],
            );
            square += 1;
        }
        kind += 1;
    }
    table
};

/// Which static evaluation the search uses.
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::Evaluation;
///
/// let network = Evaluation::network();
/// assert!(network.is_nnue());
/// assert_eq!(Evaluation::Pesto.evaluate(&Position::startpos()), eldest_search::TEMPO);
/// assert!(network.evaluate(&Position::startpos()).abs() < 100);
/// ```
#[derive(Debug, Clone)]
pub enum Evaluation {
    /// PeSTO's piece-square tables.
    Pesto,
    /// An evaluation network.
    Nnue(Arc<Network>),
}

/// Two evaluations are the same when both are PeSTO's or both are the same loaded network.
impl PartialEq for Evaluation {
    fn eq(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::Pesto, Evaluation::Pesto) => true,
            (Evaluation::Nnue(a), Evaluation::Nnue(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for Evaluation {}

/// The evaluations by name, as the UCI option `Evaluation` and the `--eval` flags spell them.
///
/// ```
/// use eldest_search::EvaluationKind;
///
/// assert_eq!("nnue".parse::<EvaluationKind>(), Ok(EvaluationKind::Nnue));
/// assert_eq!(EvaluationKind::Pesto.name(), "pesto");
/// assert!("psqt".parse::<EvaluationKind>().unwrap_err().to_string().contains("nnue or pesto"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EvaluationKind {
    /// The evaluation network (the embedded net, or `EvalFile`'s): the default since eldest-2 beat PeSTO in a
    /// self-play SPRT (docs/nnue.md).
    #[default]
    Nnue,
    /// PeSTO's piece-square tables.
    Pesto,
}

impl EvaluationKind {
    /// Every kind, in the order the UCI option lists them.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::EvaluationKind;
    ///
    /// for kind in EvaluationKind::ALL {
    ///     assert_eq!(kind.name().parse::<EvaluationKind>(), Ok(kind));
    /// }
    /// // The default is listed first, as the UCI option shows it.
    /// assert_eq!(EvaluationKind::ALL[0], EvaluationKind::default());
    /// ```
    pub const ALL: [EvaluationKind; 2] = [EvaluationKind::Nnue, EvaluationKind::Pesto];
    /// Their names, in the same order.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::EvaluationKind;
    ///
    /// assert_eq!(EvaluationKind::NAMES, EvaluationKind::ALL.map(EvaluationKind::name));
    /// ```
    pub const NAMES: [&'static str; 2] = ["nnue", "pesto"];

    /// The name.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::EvaluationKind;
    ///
    /// assert_eq!(EvaluationKind::Nnue.name(), "nnue");
    /// assert_eq!(EvaluationKind::Pesto.to_string(), EvaluationKind::Pesto.name());
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            EvaluationKind::Nnue => Self::NAMES[0],
            EvaluationKind::Pesto => Self::NAMES[1],
        }
    }
}

impl fmt::Display for EvaluationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is neither `nnue` nor `pesto`.
///
/// # Examples
///
/// ```
/// use eldest_search::{EvaluationKind, ParseEvaluationError};
///
/// let error: ParseEvaluationError = "psqt".parse::<EvaluationKind>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown evaluation 'psqt': expected nnue or pesto");
/// // Names are compared without case, as UCI option values are.
/// assert_eq!("PeSTO".parse::<EvaluationKind>(), Ok(EvaluationKind::Pesto));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseEvaluationError(String);

impl fmt::Display for ParseEvaluationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown evaluation '{}': expected nnue or pesto", self.0)
    }
}

impl std::error::Error for ParseEvaluationError {}

impl std::str::FromStr for EvaluationKind {
    type Err = ParseEvaluationError;

    fn from_str(text: &str) -> Result<EvaluationKind, ParseEvaluationError> {
        EvaluationKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| ParseEvaluationError(text.to_string()))
    }
}

impl Default for Evaluation {
    /// The embedded network, which beat PeSTO's tables in games (docs/nnue.md).
    fn default() -> Evaluation {
        Evaluation::network()
    }
}

impl Evaluation {
    /// The network built into the binary.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::Evaluation;
    ///
    /// // The embedded network is read once: every call shares it, so the evaluations compare equal.
    /// assert_eq!(Evaluation::network(), Evaluation::network());
    /// assert_eq!(Evaluation::network(), Evaluation::default());
    /// ```
    pub fn network() -> Evaluation {
        Evaluation::Nnue(Network::embedded())
    }

    /// The evaluation of `kind`, with `network` when it is the network.
    ///
    /// ```
    /// use eldest_search::{Evaluation, EvaluationKind};
    /// use eldest_search::nnue::Network;
    ///
    /// assert_eq!(Evaluation::of(EvaluationKind::Pesto, Network::embedded()), Evaluation::Pesto);
    /// ```
    pub fn of(kind: EvaluationKind, network: Arc<Network>) -> Evaluation {
        match kind {
            EvaluationKind::Pesto => Evaluation::Pesto,
            EvaluationKind::Nnue => Evaluation::Nnue(network),
        }
    }

    /// Whether this is a network (whose accumulators the search must keep up to date).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::Evaluation;
    ///
    /// assert!(Evaluation::network().is_nnue());
    /// assert!(!Evaluation::Pesto.is_nnue());
    /// ```
    #[inline]
    pub fn is_nnue(&self) -> bool {
        matches!(self, Evaluation::Nnue(_))
    }

    /// Evaluates `position` from scratch, in centipawns from the side to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::Evaluation;
    ///
    /// // The colours swapped and the board flipped: the side to move sees the same position.
    /// let [white, black] = [
    ///     "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    ///     "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
    /// ]
    /// .map(|fen| Position::from_fen(fen).unwrap());
    /// for evaluation in [Evaluation::Pesto, Evaluation::network()] {
    ///     assert_eq!(evaluation.evaluate(&white), evaluation.evaluate(&black));
    /// }
    /// ```
    pub fn evaluate(&self, position: &Position) -> i32 {
        match self {
            Evaluation::Pesto => evaluate(position),
            Evaluation::Nnue(network) => network.evaluate(position),
        }
    }
}

/// The evaluation chosen on a command line: `--eval nnue|pesto` and `--eval-file PATH` (which means the network
/// of that file), for `eldest bench`, `eldest datagen` and `cargo xtask bench`.
///
/// ```
/// use clap::Parser;
/// use eldest_search::{EvalArgs, Evaluation};
///
/// #[derive(Parser)]
/// struct Cli {
///     #[command(flatten)]
///     eval: EvalArgs,
/// }
///
/// let nnue = Cli::try_parse_from(["bench", "--eval", "nnue"]).unwrap().eval;
/// assert!(nnue.evaluation().unwrap().is_nnue());
/// assert_eq!(nnue.to_flags(), ["--eval", "nnue"]);
/// // Without a flag: the engine's default, the network.
/// assert!(Cli::try_parse_from(["bench"]).unwrap().eval.evaluation().unwrap().is_nnue());
/// let pesto = Cli::try_parse_from(["bench", "--eval", "pesto"]).unwrap().eval;
/// assert_eq!(pesto.evaluation(), Ok(Evaluation::Pesto));
/// let missing = Cli::try_parse_from(["bench", "--eval-file", "missing.nnue"]).unwrap().eval;
/// assert!(missing.evaluation().unwrap_err().contains("missing.nnue"));
/// assert!(Cli::try_parse_from(["bench", "--eval", "pesto", "--eval-file", "a.nnue"]).is_err());
/// ```
#[cfg(feature = "cli")]
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct EvalArgs {
    /// Static evaluation: nnue (the embedded network, the engine's default) or pesto (PeSTO's tables).
    #[arg(long = "eval", value_name = "nnue|pesto")]
    pub kind: Option<EvaluationKind>,
    /// Evaluate with the network of this net file (`cargo xtask train` writes them) instead of the embedded one.
    #[arg(long = "eval-file", value_name = "NET", conflicts_with = "kind")]
    pub file: Option<std::path::PathBuf>,
}

#[cfg(feature = "cli")]
impl EvalArgs {
    /// The evaluation these flags ask for.
    ///
    /// # Errors
    /// A message naming the net file and what is wrong with it.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{EvalArgs, Evaluation, EvaluationKind};
    ///
    /// let pesto = EvalArgs { kind: Some(EvaluationKind::Pesto), file: None };
    /// assert_eq!(pesto.evaluation(), Ok(Evaluation::Pesto));
    /// // A net file that cannot be loaded is an error naming the file, never a silent fallback.
    /// let missing = EvalArgs { kind: None, file: Some("missing.nnue".into()) };
    /// assert!(missing.evaluation().unwrap_err().starts_with("--eval-file missing.nnue"));
    /// ```
    pub fn evaluation(&self) -> Result<Evaluation, String> {
        match (&self.file, self.kind) {
            (Some(path), _) => Network::from_file(path)
                .map(|network| Evaluation::Nnue(Arc::new(network)))
                .map_err(|error| format!("--eval-file {}: {error}", path.display())),
            (None, kind) => Ok(Evaluation::of(kind.unwrap_or_default(), Network::embedded())),
        }
    }

    /// The flags again, to pass them on to another command.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{EvalArgs, EvaluationKind};
    ///
    /// let file = EvalArgs { kind: None, file: Some("nets/eldest-3.nnue".into()) };
    /// assert_eq!(file.to_flags(), ["--eval-file", "nets/eldest-3.nnue"]);
    /// let pesto = EvalArgs { kind: Some(EvaluationKind::Pesto), file: None };
    /// assert_eq!(pesto.to_flags(), ["--eval", "pesto"]);
    /// // No flag given, none passed on: the other command keeps its own default.
    /// assert!(EvalArgs::default().to_flags().is_empty());
    /// ```
    pub fn to_flags(&self) -> Vec<String> {
        match (&self.file, self.kind) {
            (Some(path), _) => vec!["--eval-file".to_string(), path.display().to_string()],
            (None, Some(kind)) => vec!["--eval".to_string(), kind.name().to_string()],
            (None, None) => Vec::new(),
        }
    }
}

/// The parts of an evaluation, for the UCI `eval` command and for tests.
///
/// # Examples
///
/// ```
/// use eldest_board::{Color, Position};
/// use eldest_search::{EvalTrace, FULL_PHASE, TEMPO, eval_trace};
///
/// let trace: EvalTrace = eval_trace(&Position::startpos());
/// assert_eq!((trace.midgame[0], trace.endgame[0]), (trace.midgame[1], trace.endgame[1]));
/// assert_eq!((trace.phase, trace.side_to_move, trace.score), (FULL_PHASE, Color::White, TEMPO));
/// assert!(trace.to_string().contains("Midgame"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalTrace {
    /// Midgame sums of white and black.
    pub midgame: [i32; 2],
    /// Endgame sums of white and black.
    pub endgame: [i32; 2],
    /// Game phase, 0 (bare endgame) to [`FULL_PHASE`].
    pub phase: i32,
    /// The side to move.
    pub side_to_move: Color,
    /// The final score, side to move's view, tempo included.
    pub score: i32,
}

/// Evaluates `position` in centipawns from the side to move's point of view.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{Evaluation, evaluate};
///
/// let queen_up = Position::from_fen("3qk3/8/8/8/8/8/8/3QKQ2 w - - 0 1").unwrap();
/// assert!(evaluate(&queen_up) > 800);
/// assert_eq!(evaluate(&queen_up), Evaluation::Pesto.evaluate(&queen_up));
/// // The side to move's view: with Black to move, the same queen is Black's loss.
/// let black_to_move = Position::from_fen("3qk3/8/8/8/8/8/8/3QKQ2 b - - 0 1").unwrap();
/// assert!(evaluate(&black_to_move) < -800);
/// ```
#[inline]
pub fn evaluate(position: &Position) -> i32 {
    eval_trace(position).score
}

/// Evaluates `position`, keeping the parts.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{TEMPO, eval_trace, evaluate};
///
/// let ending = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
/// let trace = eval_trace(&ending);
/// assert_eq!(trace.score, evaluate(&ending));
/// // No pieces but pawns: phase 0, so the score is the endgame sums alone.
/// assert_eq!(trace.score, trace.endgame[0] - trace.endgame[1] + TEMPO);
/// ```
pub fn eval_trace(position: &Position) -> EvalTrace {
    let mut midgame = [0; 2];
    let mut endgame = [0; 2];
    let mut phase = 0;
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            for square in position.pieces_of(color, kind) {
                let (mg, eg) = TABLE[color as usize][kind as usize][square as usize];
                midgame[color as usize] += mg;
                endgame[color as usize] += eg;
                phase += PHASE_WEIGHT[kind as usize];
            }
        }
    }
    let phase = phase.min(FULL_PHASE);
    let us = position.side_to_move() as usize;
    let mg = midgame[us] - midgame[1 - us];
    let eg = endgame[us] - endgame[1 - us];
    let score = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE + TEMPO;
    EvalTrace {
        midgame,
        endgame,
        phase,
        side_to_move: position.side_to_move(),
        score,
    }
}

impl fmt::Display for EvalTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Term          White    Black    Total")?;
        writeln!(
            f,
            "Midgame     {:7}  {:7}  {:7}",
            self.midgame[0],
            self.midgame[1],
            self.midgame[0] - self.midgame[1]
        )?;
        writeln!(
            f,
            "Endgame     {:7}  {:7}  {:7}",
            self.endgame[0],
            self.endgame[1],
            self.endgame[0] - self.endgame[1]
        )?;
        writeln!(f, "Phase       {:7} / {FULL_PHASE}", self.phase)?;
        writeln!(f, "Tempo       {TEMPO:7} (side to move)")?;
        let white_view = if self.side_to_move == Color::White {
            self.score
        } else {
            -self.score
        };
        write!(
            f,
            "Final evaluation: {white_view} cp (white side), {} cp (side to move)",
            self.score
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        assert_eq!(evaluate(&Position::startpos()), TEMPO);
        let trace = eval_trace(&Position::startpos());
        assert_eq!(trace.phase, FULL_PHASE);
        assert_eq!(trace.midgame[0], trace.midgame[1]);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        // The same position with colours swapped and the board mirrored scores the same for the side to move.
        let pairs = [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
            ),
            (
                "8/5k2/8/3P4/8/8/2K5/8 w - - 0 1",
                "8/2k5/8/8/3p4/8/5K2/8 b - - 0 1",
            ),
        ];
        for (a, b) in pairs {
            let a = Position::from_fen(a).unwrap();
            let b = Position::from_fen(b).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{a} vs {b}");
        }
    }

    #[test]
    fn extra_material_is_good_for_its_owner() {
        let up_a_queen = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up_a_queen) > 800);
        let down_a_queen = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down_a_queen) < -800);
    }
}
