//! The vocabulary of the board: colours, piece kinds, coloured pieces, files, ranks and squares.

use core::fmt;
use core::str::FromStr;

/// Defines a `#[repr(u8)]` enum whose variants are numbered from zero, with `ALL`, `NUM`, `index` and
/// `try_index`, so that every table indexed by it is checked by the type system rather than by `& 63`.
macro_rules! indexed_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        pub enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every value, in index order.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use eldest_board::", stringify!($name), ";")]
            ///
            /// // Strictly ascending: each value once, in the order of the indices.
            #[doc = concat!("assert!(", stringify!($name), "::ALL.windows(2).all(|pair| pair[0] < pair[1]));")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::ALL[0].index(), 0);")]
            /// ```
            pub const ALL: [$name; [$($name::$variant),+].len()] = [$($name::$variant),+];
            /// The number of values.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use eldest_board::", stringify!($name), ";")]
            ///
            /// // The length of every table indexed by the value.
            #[doc = concat!("let table = [0u64; ", stringify!($name), "::NUM];")]
            #[doc = concat!("assert_eq!(table.len(), ", stringify!($name), "::ALL.len());")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::try_index(", stringify!($name), "::NUM), None);")]
            /// ```
            pub const NUM: usize = Self::ALL.len();

            /// The value's index, `0..NUM`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use eldest_board::", stringify!($name), ";")]
            ///
            #[doc = concat!("for (i, value) in ", stringify!($name), "::ALL.into_iter().enumerate() {")]
            ///     assert_eq!(value.index(), i);
            /// }
            /// ```
            #[inline(always)]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The value with index `index`, or `None` if `index >= NUM`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use eldest_board::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::try_index(0), Some(", stringify!($name), "::ALL[0]));")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::try_index(", stringify!($name), "::NUM - 1), Some(", stringify!($name), "::ALL[", stringify!($name), "::NUM - 1]));")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::try_index(", stringify!($name), "::NUM), None);")]
            /// ```
            #[inline(always)]
            pub const fn try_index(index: usize) -> Option<Self> {
                if index < Self::NUM { Some(Self::ALL[index]) } else { None }
            }
        }
    };
}

indexed_enum! {
    /// A side: white or black.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position};
    ///
    /// let mut pos = Position::startpos();
    /// assert_eq!(pos.side_to_move(), Color::White);
    /// pos.play_unchecked(pos.legal_moves()[0]);
    /// assert_eq!(pos.side_to_move(), !Color::White);
    /// // The index picks a side's entry in per-side tables.
    /// assert_eq!((Color::White.index(), Color::Black.index(), Color::NUM), (0, 1, 2));
    /// ```
    Color { /** White, who moves first. */ White, /** Black. */ Black }
}

impl Color {
    /// The other side.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Color;
    ///
    /// assert_eq!(Color::White.flip(), Color::Black);
    /// assert_eq!(Color::Black.flip(), Color::White);
    /// assert_eq!(!Color::White, Color::Black);
    /// ```
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The FEN letter of the side: `w` or `b`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Color;
    ///
    /// assert_eq!(Color::White.to_char(), 'w');
    /// assert_eq!(Color::Black.to_char(), 'b');
    /// ```
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The rank on which this side's pieces start (and castle).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Rank};
    ///
    /// assert_eq!(Color::White.back_rank(), Rank::First);
    /// assert_eq!(Color::Black.back_rank(), Rank::Eighth);
    /// ```
    #[inline(always)]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

indexed_enum! {
    /// A kind of piece, without colour.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{PieceKind, Position};
    ///
    /// let pos = Position::startpos();
    /// let counts = PieceKind::ALL.map(|kind| pos.pieces(kind).popcount());
    /// // Pawns, knights, bishops, rooks, queens, kings of both sides, in index order.
    /// assert_eq!(counts, [16, 4, 4, 4, 2, 2]);
    /// ```
    PieceKind {
        /** Pawn. */ Pawn,
        /** Knight. */ Knight,
        /** Bishop. */ Bishop,
        /** Rook. */ Rook,
        /** Queen. */ Queen,
        /** King. */ King,
    }
}

impl PieceKind {
    /// The lower-case letter of the kind, as in FEN for black and in UCI promotions: `p n b r q k`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::PieceKind;
    ///
    /// assert_eq!(PieceKind::Knight.to_char(), 'n');
    /// assert_eq!(PieceKind::King.to_char(), 'k');
    /// ```
    pub const fn to_char(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// The kind of a letter of either case, or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::PieceKind;
    ///
    /// assert_eq!(PieceKind::from_char('Q'), Some(PieceKind::Queen));
    /// assert_eq!(PieceKind::from_char('n'), Some(PieceKind::Knight));
    /// assert_eq!(PieceKind::from_char('x'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceKind::Pawn),
            'n' => Some(PieceKind::Knight),
            'b' => Some(PieceKind::Bishop),
            'r' => Some(PieceKind::Rook),
            'q' => Some(PieceKind::Queen),
            'k' => Some(PieceKind::King),
            _ => None,
        }
    }
}

/// A coloured piece.
///
/// # Examples
///
/// ```
/// use eldest_board::{Color, Piece, PieceKind, Position, Square};
///
/// let pos = Position::startpos();
/// let queen = pos.piece_on(Square::D8).unwrap();
/// assert_eq!(queen, Piece { color: Color::Black, kind: PieceKind::Queen });
/// assert_eq!(queen.to_string(), "q");
/// assert_eq!(pos.piece_on(Square::D4), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of `color` and `kind`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Piece, PieceKind};
    ///
    /// let piece = Piece::new(Color::Black, PieceKind::Rook);
    /// assert_eq!(piece.color, Color::Black);
    /// assert_eq!(piece.kind, PieceKind::Rook);
    /// assert_eq!(piece.to_string(), "r");
    /// ```
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The index `0..12` used by the Zobrist tables: white pawn..king, then black pawn..king.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Piece, PieceKind};
    ///
    /// assert_eq!(Piece::new(Color::White, PieceKind::Pawn).index(), 0);
    /// assert_eq!(Piece::new(Color::White, PieceKind::King).index(), 5);
    /// assert_eq!(Piece::new(Color::Black, PieceKind::Pawn).index(), 6);
    /// assert_eq!(Piece::new(Color::Black, PieceKind::King).index(), 11);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * PieceKind::NUM + self.kind.index()
    }

    /// The FEN letter: upper case for white, lower case for black.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Piece, PieceKind};
    ///
    /// assert_eq!(Piece::new(Color::White, PieceKind::Knight).to_char(), 'N');
    /// assert_eq!(Piece::new(Color::Black, PieceKind::Queen).to_char(), 'q');
    /// ```
    pub const fn to_char(self) -> char {
        let c = self.kind.to_char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece of a FEN letter, or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Piece, PieceKind};
    ///
    /// assert_eq!(Piece::from_char('K'), Some(Piece::new(Color::White, PieceKind::King)));
    /// assert_eq!(Piece::from_char('p'), Some(Piece::new(Color::Black, PieceKind::Pawn)));
    /// assert_eq!(Piece::from_char('1'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match PieceKind::from_char(c) {
            Some(kind) => Some(Piece { color, kind }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

indexed_enum! {
    /// A file (column), a to h.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{File, Square};
    ///
    /// assert_eq!(Square::E4.file(), File::E);
    /// assert_eq!(File::ALL.map(File::to_char).iter().collect::<String>(), "abcdefgh");
    /// // Ordered like the board, so "towards the h-file" is a comparison.
    /// assert!(File::G > File::E);
    /// ```
    File { /** a */ A, /** b */ B, /** c */ C, /** d */ D, /** e */ E, /** f */ F, /** g */ G, /** h */ H }
}

impl File {
    /// The lower-case letter of the file.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::File;
    ///
    /// assert_eq!(File::A.to_char(), 'a');
    /// assert_eq!(File::H.to_char(), 'h');
    /// ```
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The file of a letter `a..=h` (lower case only, as in squares), or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::File;
    ///
    /// assert_eq!(File::from_char('e'), Some(File::E));
    /// assert_eq!(File::from_char('E'), None);
    /// assert_eq!(File::from_char('i'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'h' {
            File::try_index(c as usize - 'a' as usize)
        } else {
            None
        }
    }
}

indexed_enum! {
    /// A rank (row), first (white's back rank) to eighth.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Rank, Square};
    ///
    /// assert_eq!(Square::E4.rank(), Rank::Fourth);
    /// assert_eq!(Rank::ALL.map(Rank::to_char).iter().collect::<String>(), "12345678");
    /// // Counted from white's side: black's back rank is the eighth.
    /// assert_eq!(Color::Black.back_rank(), Rank::Eighth);
    /// ```
    Rank {
        /** 1 */ First, /** 2 */ Second, /** 3 */ Third, /** 4 */ Fourth,
        /** 5 */ Fifth, /** 6 */ Sixth, /** 7 */ Seventh, /** 8 */ Eighth,
    }
}

impl Rank {
    /// The digit of the rank.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Rank;
    ///
    /// assert_eq!(Rank::First.to_char(), '1');
    /// assert_eq!(Rank::Eighth.to_char(), '8');
    /// ```
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank of a digit `1..=8`, or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Rank;
    ///
    /// assert_eq!(Rank::from_char('4'), Some(Rank::Fourth));
    /// assert_eq!(Rank::from_char('0'), None);
    /// assert_eq!(Rank::from_char('9'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Rank::try_index(c as usize - '1' as usize)
        } else {
            None
        }
    }

    /// The same rank seen from `color`'s side: `Rank::First.relative_to(Black)` is the eighth.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Rank};
    ///
    /// assert_eq!(Rank::First.relative_to(Color::Black), Rank::Eighth);
    /// assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
    /// assert_eq!(Rank::Second.relative_to(Color::White), Rank::Second);
    /// ```
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}

indexed_enum! {
    /// A square, a1 = 0, b1 = 1, …, h8 = 63.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{File, Rank, Square};
    ///
    /// assert_eq!((Square::A1.index(), Square::B1.index(), Square::H8.index()), (0, 1, 63));
    /// // Rank by rank from white's side: index = 8 × rank + file.
    /// assert_eq!(Square::new(File::E, Rank::Fourth).index(), 8 * 3 + 4);
    /// assert_eq!(Square::try_index(8), Some(Square::A2));
    /// assert_eq!("e4".parse::<Square>()?, Square::E4);
    /// # Ok::<(), eldest_board::SquareParseError>(())
    /// ```
    Square {
        /** a1 */ A1, /** b1 */ B1, /** c1 */ C1, /** d1 */ D1, /** e1 */ E1, /** f1 */ F1, /** g1 */ G1, /** h1 */ H1,
        /** a2 */ A2, /** b2 */ B2, /** c2 */ C2, /** d2 */ D2, /** e2 */ E2, /** f2 */ F2, /** g2 */ G2, /** h2 */ H2,
        /** a3 */ A3, /** b3 */ B3, /** c3 */ C3, /** d3 */ D3, /** e3 */ E3, /** f3 */ F3, /** g3 */ G3, /** h3 */ H3,
        /** a4 */ A4, /** b4 */ B4, /** c4 */ C4, /** d4 */ D4, /** e4 */ E4, /** f4 */ F4, /** g4 */ G4, /** h4 */ H4,
        /** a5 */ A5, /** b5 */ B5, /** c5 */ C5, /** d5 */ D5, /** e5 */ E5, /** f5 */ F5, /** g5 */ G5, /** h5 */ H5,
        /** a6 */ A6, /** b6 */ B6, /** c6 */ C6, /** d6 */ D6, /** e6 */ E6, /** f6 */ F6, /** g6 */ G6, /** h6 */ H6,
        /** a7 */ A7, /** b7 */ B7, /** c7 */ C7, /** d7 */ D7, /** e7 */ E7, /** f7 */ F7, /** g7 */ G7, /** h7 */ H7,
        /** a8 */ A8, /** b8 */ B8, /** c8 */ C8, /** d8 */ D8, /** e8 */ E8, /** f8 */ F8, /** g8 */ G8, /** h8 */ H8,
    }
}

impl Square {
    /// The square on `file` and `rank`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{File, Rank, Square};
    ///
    /// assert_eq!(Square::new(File::E, Rank::Fourth), Square::E4);
    /// // Squares also parse from, and print as, their names.
    /// assert_eq!("e4".parse::<Square>(), Ok(Square::E4));
    /// assert_eq!(Square::E4.to_string(), "e4");
    /// assert!("i9".parse::<Square>().is_err());
    /// ```
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square::ALL[rank as usize * 8 + file as usize]
    }

    /// The square's file.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{File, Square};
    ///
    /// assert_eq!(Square::E4.file(), File::E);
    /// assert_eq!(Square::H8.file(), File::H);
    /// ```
    #[inline(always)]
    pub const fn file(self) -> File {
        File::ALL[self as usize % 8]
    }

    /// The square's rank.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Rank, Square};
    ///
    /// assert_eq!(Square::E4.rank(), Rank::Fourth);
    /// assert_eq!(Square::A1.rank(), Rank::First);
    /// ```
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize / 8]
    }

    /// The square mirrored vertically when `color` is black (a1 ↔ a8), unchanged for white.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Square};
    ///
    /// assert_eq!(Square::E2.relative_to(Color::Black), Square::E7);
    /// assert_eq!(Square::G1.relative_to(Color::Black), Square::G8);
    /// assert_eq!(Square::E2.relative_to(Color::White), Square::E2);
    /// ```
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => Square::ALL[self as usize ^ 56],
        }
    }

    /// The square `df` files and `dr` ranks away, or `None` off the board.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Square;
    ///
    /// // A knight's jump from g1 to f3: one file left, two ranks up.
    /// assert_eq!(Square::G1.offset(-1, 2), Some(Square::F3));
    /// assert_eq!(Square::H1.offset(1, 0), None);
    /// assert_eq!(Square::A1.offset(0, -1), None);
    /// ```
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let file = self.file() as i8 + df;
        let rank = self.rank() as i8 + dr;
        if file < 0 || file > 7 || rank < 0 || rank > 7 {
            None
        } else {
            Some(Square::ALL[rank as usize * 8 + file as usize])
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// The error of parsing a square name such as `e4`.
///
/// # Examples
///
/// ```
/// use eldest_board::{Square, SquareParseError};
///
/// let error = "i9".parse::<Square>().unwrap_err();
/// assert_eq!(error, SquareParseError("i9".to_string()));
/// assert_eq!(error.to_string(), r#"invalid square "i9": expected a file a-h and a rank 1-8, e.g. e4"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquareParseError(pub String);

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid square {:?}: expected a file a-h and a rank 1-8, e.g. e4",
            self.0
        )
    }
}

impl std::error::Error for SquareParseError {}

impl FromStr for Square {
    type Err = SquareParseError;

    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let mut chars = s.chars();
        match (
            chars.next().and_then(File::from_char),
            chars.next().and_then(Rank::from_char),
            chars.next(),
        ) {
            (Some(file), Some(rank), None) => Ok(Square::new(file, rank)),
            _ => Err(SquareParseError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::new(sq.file(), sq.rank()), sq);
        }
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a1x".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn piece_letters_round_trip() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                assert_eq!(Piece::from_char(piece.to_char()), Some(piece));
            }
        }
        assert_eq!(Piece::from_char('x'), None);
    }

    #[test]
    fn relative_squares() {
        assert_eq!(Square::E2.relative_to(Color::Black), Square::E7);
        assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
        assert_eq!(Square::H1.offset(1, 0), None);
        assert_eq!(Square::H1.offset(-1, 1), Some(Square::G2));
    }
}
