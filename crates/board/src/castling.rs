//! Castling vocabulary: the two wings and the set of rights.

use crate::types::{Color, File};
use bitflags::bitflags;

/// A wing of the board to castle towards.
///
/// # Examples
///
/// ```
/// use eldest_board::{CastleSide, Color, Position, Square};
///
/// let pos = Position::startpos();
/// assert_eq!(pos.castling_rook(Color::White, CastleSide::King), Some(Square::H1));
/// assert_eq!(pos.castling_rook(Color::Black, CastleSide::Queen), Some(Square::A8));
/// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{CastleSide, CastlingRights, Color, Position};
    ///
    /// let rights = Position::startpos().castling_rights();
    /// // One right per wing: the two together are all of a side's rights.
    /// let white = CastleSide::ALL.map(|side| CastlingRights::of(Color::White, side));
    /// assert!(white.iter().all(|&right| rights.contains(right)));
    /// assert_eq!(white[0] | white[1], CastlingRights::WHITE_KING_SIDE | CastlingRights::WHITE_QUEEN_SIDE);
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{CastlingRights, Position};
    ///
    /// assert_eq!(Position::startpos().castling_rights(), CastlingRights::all());
    /// let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
    /// pos.play_unchecked(pos.parse_uci_move("e1f1")?);
    /// // A king move gives up both of its side's rights at once.
    /// assert_eq!(pos.castling_rights(), CastlingRights::BLACK_KING_SIDE | CastlingRights::BLACK_QUEEN_SIDE);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct CastlingRights: u8 {
        /// White may castle king-side.
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_board::{CastlingRights, Position};
        ///
        /// let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
        /// pos.play_unchecked(pos.parse_uci_move("h1g1")?);
        /// // The h1 rook moved: this right goes, the other three stay.
        /// assert_eq!(pos.castling_rights(), CastlingRights::all() - CastlingRights::WHITE_KING_SIDE);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        const WHITE_KING_SIDE = 1;
        /// White may castle queen-side.
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_board::{CastlingRights, Position};
        ///
        /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Q - 0 1")?;
        /// assert_eq!(pos.castling_rights(), CastlingRights::WHITE_QUEEN_SIDE);
        /// assert!(pos.parse_uci_move("e1c1").is_ok());
        /// assert!(pos.parse_uci_move("e1g1").is_err());
        /// # Ok::<(), eldest_board::FenError>(())
        /// ```
        const WHITE_QUEEN_SIDE = 2;
        /// Black may castle king-side.
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_board::{CastlingRights, Position};
        ///
        /// let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
        /// pos.play_unchecked(pos.parse_uci_move("h1h8")?);
        /// // Black's h8 rook was captured, so the right to castle with it is gone.
        /// assert!(!pos.castling_rights().contains(CastlingRights::BLACK_KING_SIDE));
        /// assert!(pos.castling_rights().contains(CastlingRights::BLACK_QUEEN_SIDE));
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        const BLACK_KING_SIDE = 4;
        /// Black may castle queen-side.
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_board::{CastlingRights, Position};
        ///
        /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")?;
        /// assert!(pos.castling_rights().contains(CastlingRights::BLACK_QUEEN_SIDE));
        /// assert!(pos.parse_san("O-O-O").is_ok());
        /// // Without the right, the same board allows no queen-side castling.
        /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1")?;
        /// assert!(pos.parse_san("O-O-O").is_err());
        /// # Ok::<(), eldest_board::FenError>(())
        /// ```
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
