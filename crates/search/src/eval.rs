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
pub const TEMPO: i32 = 10;

/// Phase weight of each piece kind; the sum over the starting material is [`FULL_PHASE`].
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting position: all middlegame.
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
    /// The evaluation network: the default since eldest-2 beat PeSTO in a self-play SPRT (docs/nnue.md).
    #[default]
    Nnue,
    /// PeSTO's piece-square tables.
    Pesto,
}

impl EvaluationKind {
    /// Every kind, in the order the UCI option lists them.
    pub const ALL: [EvaluationKind; 2] = [EvaluationKind::Nnue, EvaluationKind::Pesto];
    /// Their names, in the same order.
    pub const NAMES: [&'static str; 2] = ["nnue", "pesto"];

    /// The name.
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
    #[inline]
    pub fn is_nnue(&self) -> bool {
        matches!(self, Evaluation::Nnue(_))
    }

    /// Evaluates `position` from scratch, in centipawns from the side to move.
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
    pub fn evaluation(&self) -> Result<Evaluation, String> {
        match (&self.file, self.kind) {
            (Some(path), _) => Network::from_file(path)
                .map(|network| Evaluation::Nnue(Arc::new(network)))
                .map_err(|error| format!("--eval-file {}: {error}", path.display())),
            (None, kind) => Ok(Evaluation::of(kind.unwrap_or_default(), Network::embedded())),
        }
    }

    /// The flags again, to pass them on to another command.
    pub fn to_flags(&self) -> Vec<String> {
        match (&self.file, self.kind) {
            (Some(path), _) => vec!["--eval-file".to_string(), path.display().to_string()],
            (None, Some(kind)) => vec!["--eval".to_string(), kind.name().to_string()],
            (None, None) => Vec::new(),
        }
    }
}

/// The parts of an evaluation, for the UCI `eval` command and for tests.
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
#[inline]
pub fn evaluate(position: &Position) -> i32 {
    eval_trace(position).score
}

/// Evaluates `position`, keeping the parts.
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
