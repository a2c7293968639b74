//! Static evaluation: PeSTO's tapered piece-square tables (material included) and a tempo bonus, in
//! centipawns from the side to move's point of view.
//!
//! The midgame and endgame sums are blended by the game phase (knights and bishops weigh 1, rooks 2, queens 4;
//! 24 is the full opening set), so a king that hides in the middlegame walks to the centre in the endgame.

use crate::pesto::{EG_TABLES, MG_TABLES, PIECE_VALUE};
use eldest_board::{Color, PieceKind, Position};
use std::fmt;

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
