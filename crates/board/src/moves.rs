//! [`Move`]: a move packed into 16 bits.
//!
//! ```text
//!  15 14 13 12 | 11 10  9  8  7  6 | 5  4  3  2  1  0
//!  P  C  s1 s0 |  to square (0-63) | from square (0-63)
//!
//!  P C s1 s0  kind
//!  0 0  0  0  quiet
//!  0 0  0  1  double pawn push
//!  0 0  1  0  castling: `to` is the castling rook's square (king takes own rook, as Chess960 demands)
//!  0 1  0  0  capture
//!  0 1  0  1  en-passant capture (`to` is the square the pawn moves to)
//!  1 C  p  p  promotion (C = with capture) to knight, bishop, rook, queen for pp = 0, 1, 2, 3
//! ```
//!
//! A move's from and to squares always differ, so the value is never zero: `Move` is a `NonZeroU16` and
//! `Option<Move>` costs no extra space — no "null move" sentinel is needed anywhere.

use crate::types::{PieceKind, Square};
use core::fmt;
use core::num::NonZeroU16;

/// What kind of move a [`Move`] is; see the module docs for the bit layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move to an empty square that is no pawn double push, castling or promotion.
    Quiet,
    /// A pawn's two-square advance.
    DoublePush,
    /// Castling, encoded as the king moving to its own rook's square.
    Castle,
    /// A capture (not en passant, not a promotion).
    Capture,
    /// An en-passant capture.
    EnPassant,
    /// A promotion to the given kind, with or without a capture.
    Promotion {
        /// The piece the pawn becomes: knight, bishop, rook or queen.
        piece: PieceKind,
        /// Whether the promotion captures.
        capture: bool,
    },
}

const DOUBLE_PUSH: u16 = 1;
const CASTLE: u16 = 2;
const CAPTURE: u16 = 4;
const EN_PASSANT: u16 = 5;
const PROMOTION: u16 = 8;

impl MoveKind {
    const fn bits(self) -> u16 {
        match self {
            MoveKind::Quiet => 0,
            MoveKind::DoublePush => DOUBLE_PUSH,
            MoveKind::Castle => CASTLE,
            MoveKind::Capture => CAPTURE,
            MoveKind::EnPassant => EN_PASSANT,
            MoveKind::Promotion { piece, capture } => {
                let piece_bits = match piece {
                    PieceKind::Knight => 0,
                    PieceKind::Bishop => 1,
                    PieceKind::Rook => 2,
                    // A promotion to pawn or king does not exist; the generator never asks for one and the
                    // parsers reject it before building a move, so queen is the only sensible reading.
                    _ => 3,
                };
                PROMOTION | if capture { CAPTURE } else { 0 } | piece_bits
            }
        }
    }
}

/// The kinds a pawn may promote to, in the order of their promotion bits.
pub const PROMOTION_PIECES: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// A chess move in 16 bits. Build one through the move generator or the notation parsers of
/// [`Position`](crate::Position); [`Move::new`] builds one from parts for tests and tools.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(NonZeroU16);

impl Move {
    /// The move from `from` to `to` of kind `kind`.
    ///
    /// # Panics
    /// If `from == to`: no chess move leaves a piece where it was.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        assert!(from as u8 != to as u8, "a move must change squares");
        let bits = from as u16 | (to as u16) << 6 | kind.bits() << 12;
        match NonZeroU16::new(bits) {
            Some(bits) => Move(bits),
            None => unreachable!(),
        }
    }

    /// The 16-bit encoding (never zero), as stored in the transposition table.
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0.get()
    }

    /// The move of a 16-bit encoding, or `None` for zero or an encoding no move has (same from and to
    /// square, or an unused kind). The move may still be illegal in a given position: check with
    /// [`Position::is_legal`](crate::Position::is_legal).
    pub const fn from_bits(bits: u16) -> Option<Move> {
        let from = bits & 63;
        let to = (bits >> 6) & 63;
        let flags = bits >> 12;
        if from == to || flags == 3 || flags == 6 || flags == 7 {
            return None;
        }
        match NonZeroU16::new(bits) {
            Some(bits) => Some(Move(bits)),
            None => None,
        }
    }

    /// The square the moving piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::ALL[(self.0.get() & 63) as usize]
    }

    /// The square the moving piece goes to; for castling, the square of the castling rook.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::ALL[((self.0.get() >> 6) & 63) as usize]
    }

    #[inline(always)]
    const fn flags(self) -> u16 {
        self.0.get() >> 12
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        let flags = self.flags();
        if flags & PROMOTION != 0 {
            MoveKind::Promotion {
                piece: PROMOTION_PIECES[(flags & 3) as usize],
                capture: flags & CAPTURE != 0,
            }
        } else {
            match flags {
                DOUBLE_PUSH => MoveKind::DoublePush,
                CASTLE => MoveKind::Castle,
                CAPTURE => MoveKind::Capture,
                EN_PASSANT => MoveKind::EnPassant,
                _ => MoveKind::Quiet,
            }
        }
    }

    /// Whether the move captures (en passant and capturing promotions included).
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.flags() & CAPTURE != 0
    }

    /// The promotion piece, if the move promotes.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceKind> {
        let flags = self.flags();
        if flags & PROMOTION != 0 {
            Some(PROMOTION_PIECES[(flags & 3) as usize])
        } else {
            None
        }
    }

    /// Whether the move captures or promotes: the moves of the search's first generation stage.
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.flags() & (CAPTURE | PROMOTION) != 0
    }

    /// Whether the move is castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flags() == CASTLE
    }

    /// Whether the move is an en-passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flags() == EN_PASSANT
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}{} {:?})", self.from(), self.to(), self.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_through_bits() {
        let mut kinds = vec![
            MoveKind::Quiet,
            MoveKind::DoublePush,
            MoveKind::Castle,
            MoveKind::Capture,
            MoveKind::EnPassant,
        ];
        for piece in PROMOTION_PIECES {
            kinds.push(MoveKind::Promotion {
                piece,
                capture: false,
            });
            kinds.push(MoveKind::Promotion { piece, capture: true });
        }
        for kind in kinds {
            for (from, to) in [
                (Square::A1, Square::H8),
                (Square::H8, Square::A1),
                (Square::E7, Square::E8),
            ] {
                let mv = Move::new(from, to, kind);
                assert_eq!((mv.from(), mv.to(), mv.kind()), (from, to, kind));
                assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
            }
        }
        assert_eq!(core::mem::size_of::<Option<Move>>(), 2);
    }

    #[test]
    fn invalid_encodings_are_rejected() {
        assert_eq!(Move::from_bits(0), None);
        assert_eq!(
            Move::from_bits(Square::E4 as u16 | (Square::E4 as u16) << 6),
            None
        );
        assert_eq!(Move::from_bits(1 | 2 << 6 | 3 << 12), None);
    }

    #[test]
    #[should_panic(expected = "a move must change squares")]
    fn new_rejects_null_moves() {
        let _ = Move::new(Square::E4, Square::E4, MoveKind::Quiet);
    }
}
