//! Castling vocabulary: the two wings and the set of rights.

use crate::types::{Color, File};
use bitflags::bitflags;

/// A wing of the board to castle towards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CastleSide {
    /// Towards the h-file: the king ends on g, the rook on f ("O-O").
    King = 0,
    /// Towards the a-file: the king ends on c, the rook on d ("O-O-O").
    Queen = 1,
}

impl CastleSide {
    /// Both wings.
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// The file the king lands on.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{CastleSide, File};
    ///
    /// assert_eq!(CastleSide::King.king_destination(), File::G);
    /// assert_eq!(CastleSide::Queen.king_destination(), File::C);
    /// ```
    pub const fn king_destination(self) -> File {
        match self {
            CastleSide::King => File::G,
            CastleSide::Queen => File::C,
        }
    }

    /// The file the rook lands on.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{CastleSide, File};
    ///
    /// assert_eq!(CastleSide::King.rook_destination(), File::F);
    /// assert_eq!(CastleSide::Queen.rook_destination(), File::D);
    /// ```
    pub const fn rook_destination(self) -> File {
        match self {
            CastleSide::King => File::F,
            CastleSide::Queen => File::D,
        }
    }
}

bitflags! {
    /// Which castling rights remain, without saying which rook (see
    /// [`Position::castling_rook`](crate::Position::castling_rook) for Chess960).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct CastlingRights: u8 {
        /// White may castle king-side.
        const WHITE_KING_SIDE = 1;
        /// White may castle queen-side.
        const WHITE_QUEEN_SIDE = 2;
        /// Black may castle king-side.
        const BLACK_KING_SIDE = 4;
        /// Black may castle queen-side.
        const BLACK_QUEEN_SIDE = 8;
    }
}

impl CastlingRights {
    /// The flag of one right.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{CastleSide, CastlingRights, Color, Position};
    ///
    /// assert_eq!(CastlingRights::of(Color::White, CastleSide::King), CastlingRights::WHITE_KING_SIDE);
    /// assert_eq!(CastlingRights::of(Color::Black, CastleSide::Queen), CastlingRights::BLACK_QUEEN_SIDE);
    /// let rights = Position::startpos().castling_rights();
    /// assert!(rights.contains(CastlingRights::of(Color::Black, CastleSide::King)));
    /// ```
    pub const fn of(color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights::from_bits_truncate(1 << (color as u8 * 2 + side as u8))
    }
}
