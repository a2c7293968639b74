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
///
/// # Examples
///
/// ```
/// use eldest_board::{MoveKind, PieceKind, Position};
///
/// let pos = Position::startpos();
/// assert_eq!(pos.parse_uci_move("g1f3")?.kind(), MoveKind::Quiet);
/// assert_eq!(pos.parse_uci_move("e2e4")?.kind(), MoveKind::DoublePush);
/// // White may castle, take en passant on d6 and promote by taking on b8.
/// let pos = Position::from_fen("1r2k3/P7/8/3pP3/8/8/8/4K2R w K d6 0 2")?;
/// assert_eq!(pos.parse_uci_move("e1g1")?.kind(), MoveKind::Castle);
/// assert_eq!(pos.parse_uci_move("e5d6")?.kind(), MoveKind::EnPassant);
/// let promotion = MoveKind::Promotion { piece: PieceKind::Queen, capture: true };
/// assert_eq!(pos.parse_uci_move("a7b8q")?.kind(), promotion);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
///
/// # Examples
///
/// ```
/// use eldest_board::{Move, MoveKind, Square, PROMOTION_PIECES};
///
/// for (index, piece) in PROMOTION_PIECES.into_iter().enumerate() {
///     let mv = Move::new(Square::E7, Square::E8, MoveKind::Promotion { piece, capture: false });
///     assert_eq!(mv.promotion(), Some(piece));
///     // The two low bits of the kind field are the index into this array.
///     assert_eq!(usize::from(mv.to_bits() >> 12) & 3, index);
/// }
/// ```
pub const PROMOTION_PIECES: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// A chess move in 16 bits. Build one through the move generator or the notation parsers of
/// [`Position`](crate::Position); [`Move::new`] builds one from parts for tests and tools.
///
/// # Examples
///
/// ```
/// use eldest_board::{Move, Position};
///
/// let mv = Position::startpos().parse_uci_move("g1f3")?;
/// assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
/// // Never zero, so `Option<Move>` needs no extra space and no "null move" value.
/// assert_eq!(size_of::<Move>(), 2);
/// assert_eq!(size_of::<Option<Move>>(), 2);
/// # Ok::<(), eldest_board::UciMoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(NonZeroU16);

impl Move {
    /// The move from `from` to `to` of kind `kind`.
    ///
    /// # Panics
    /// If `from == to`: no chess move leaves a piece where it was.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Position, Square};
    ///
    /// let mv = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
    /// assert_eq!((mv.from(), mv.to(), mv.kind()), (Square::E2, Square::E4, MoveKind::DoublePush));
    /// // The same move the start position generates for e2e4.
    /// assert_eq!(Position::startpos().parse_uci_move("e2e4")?, mv);
    /// # Ok::<(), eldest_board::UciMoveError>(())
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Square};
    ///
    /// // a1 is square 0 and b1 square 1: from in bits 0-5, to in bits 6-11, the kind above them.
    /// let mv = Move::new(Square::A1, Square::B1, MoveKind::Quiet);
    /// assert_eq!(mv.to_bits(), 1 << 6);
    /// assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
    /// ```
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0.get()
    }

    /// The move of a 16-bit encoding, or `None` for zero or an encoding no move has (same from and to
    /// square, or an unused kind). The move may still be illegal in a given position: check with
    /// [`Position::is_legal`](crate::Position::is_legal).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Square};
    ///
    /// assert_eq!(Move::from_bits(1 << 6), Some(Move::new(Square::A1, Square::B1, MoveKind::Quiet)));
    /// // Zero, and an encoding whose from and to squares are both e4 (28), are no moves.
    /// assert_eq!(Move::from_bits(0), None);
    /// assert_eq!(Move::from_bits(28 | 28 << 6), None);
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Position, Square};
    ///
    /// let mv = Position::startpos().parse_san("Nf3")?;
    /// assert_eq!(mv.from(), Square::G1);
    /// assert_eq!(mv.to(), Square::F3);
    /// # Ok::<(), eldest_board::SanError>(())
    /// ```
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::ALL[(self.0.get() & 63) as usize]
    }

    /// The square the moving piece goes to; for castling, the square of the castling rook.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Position, Square};
    ///
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
    /// let castle = pos.parse_san("O-O")?;
    /// // Castling is encoded as the king taking its own rook...
    /// assert_eq!(castle.from(), Square::E1);
    /// assert_eq!(castle.to(), Square::H1);
    /// // ...though standard UCI writes the king's destination.
    /// assert_eq!(pos.move_to_uci(castle), "e1g1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::ALL[((self.0.get() >> 6) & 63) as usize]
    }

    #[inline(always)]
    const fn flags(self) -> u16 {
        self.0.get() >> 12
    }

    /// The kind of move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, PieceKind, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.parse_uci_move("e2e4")?.kind(), MoveKind::DoublePush);
    /// assert_eq!(pos.parse_uci_move("e2e3")?.kind(), MoveKind::Quiet);
    /// let promotion = MoveKind::Promotion { piece: PieceKind::Knight, capture: true };
    /// assert_eq!(Move::new(Square::B7, Square::A8, promotion).kind(), promotion);
    /// # Ok::<(), eldest_board::UciMoveError>(())
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, PieceKind, Square};
    ///
    /// assert!(Move::new(Square::E4, Square::D5, MoveKind::Capture).is_capture());
    /// assert!(Move::new(Square::E5, Square::D6, MoveKind::EnPassant).is_capture());
    /// let take_and_promote = MoveKind::Promotion { piece: PieceKind::Queen, capture: true };
    /// assert!(Move::new(Square::B7, Square::A8, take_and_promote).is_capture());
    /// let push_and_promote = MoveKind::Promotion { piece: PieceKind::Queen, capture: false };
    /// assert!(!Move::new(Square::B7, Square::B8, push_and_promote).is_capture());
    /// assert!(!Move::new(Square::E2, Square::E4, MoveKind::DoublePush).is_capture());
    /// ```
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.flags() & CAPTURE != 0
    }

    /// The promotion piece, if the move promotes.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, PieceKind, Square};
    ///
    /// let underpromotion = MoveKind::Promotion { piece: PieceKind::Knight, capture: false };
    /// assert_eq!(Move::new(Square::E7, Square::E8, underpromotion).promotion(), Some(PieceKind::Knight));
    /// assert_eq!(Move::new(Square::E2, Square::E4, MoveKind::DoublePush).promotion(), None);
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, PieceKind, Square};
    ///
    /// assert!(Move::new(Square::E4, Square::D5, MoveKind::Capture).is_noisy());
    /// let promotion = MoveKind::Promotion { piece: PieceKind::Queen, capture: false };
    /// assert!(Move::new(Square::E7, Square::E8, promotion).is_noisy());
    /// assert!(!Move::new(Square::G1, Square::F3, MoveKind::Quiet).is_noisy());
    /// assert!(!Move::new(Square::E1, Square::H1, MoveKind::Castle).is_noisy());
    /// ```
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.flags() & (CAPTURE | PROMOTION) != 0
    }

    /// Whether the move is castling.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Position, Square};
    ///
    /// // Both castling moves are legal here.
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
    /// assert_eq!(pos.legal_moves().iter().filter(|mv| mv.is_castle()).count(), 2);
    /// assert!(Move::new(Square::E1, Square::A1, MoveKind::Castle).is_castle());
    /// assert!(!Move::new(Square::E1, Square::D1, MoveKind::Quiet).is_castle());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.flags() == CASTLE
    }

    /// Whether the move is an en-passant capture.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// // Black has just played d7-d5 beside the white pawn on e5.
    /// let pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")?;
    /// let mv = pos.parse_uci_move("e5d6")?;
    /// assert!(mv.is_en_passant());
    /// assert!(mv.is_capture());
    /// assert_eq!(pos.move_to_san(mv), "exd6");
    /// assert!(!pos.parse_uci_move("e1e2")?.is_en_passant());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
