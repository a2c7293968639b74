//! [`Bitboard`]: a set of squares as the 64 bits of a `u64`, bit `n` for square `n` (a1 = bit 0).

use crate::types::{Color, File, Rank, Square};
use core::fmt;
use core::num::NonZeroU64;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Set operations are the bitwise operators; iteration yields squares from a1 upwards.
///
/// # Examples
///
/// ```
/// use eldest_board::{Bitboard, Color, File, Position, Square};
///
/// let pos = Position::startpos();
/// let white_on_e_file = pos.colored(Color::White) & Bitboard::file(File::E);
/// // Iteration runs from a1 upwards, following the bits.
/// assert_eq!(white_on_e_file.collect::<Vec<_>>(), [Square::E1, Square::E2]);
/// assert_eq!(Bitboard::from_square(Square::A1).0, 1);
/// assert_eq!(Bitboard::from_square(Square::H8).0, 1 << 63);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Position};
    ///
    /// assert!(Bitboard::EMPTY.is_empty());
    /// assert_eq!(Bitboard::EMPTY, Bitboard::default());
    /// // Nobody gives check at the start.
    /// assert_eq!(Position::startpos().checkers(), Bitboard::EMPTY);
    /// ```
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard::FULL.popcount(), 64);
    /// assert_eq!(!Bitboard::FULL, Bitboard::EMPTY);
    /// assert!(Square::ALL.into_iter().all(|square| Bitboard::FULL.contains(square)));
    /// ```
    pub const FULL: Bitboard = Bitboard(!0);

    /// The set holding only `square`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Square};
    ///
    /// let e4 = Bitboard::from_square(Square::E4);
    /// // e4 is square 28: file e (4) plus 8 times rank 4 (3).
    /// assert_eq!(e4, Bitboard(1 << 28));
    /// assert_eq!(e4.single(), Some(Square::E4));
    /// assert_eq!(Bitboard::from(Square::E4), e4);
    /// ```
    #[inline(always)]
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1 << square as u8)
    }

    /// Every square of `file`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, File, Square};
    ///
    /// let e_file = Bitboard::file(File::E);
    /// assert_eq!(e_file.popcount(), 8);
    /// assert!(e_file.contains(Square::E1) && e_file.contains(Square::E8));
    /// assert!(!e_file.contains(Square::D4));
    /// ```
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u8)
    }

    /// Every square of `rank`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Rank, Square};
    ///
    /// let second = Bitboard::rank(Rank::Second);
    /// assert_eq!(second, Bitboard(0xFF00));
    /// assert!(second.contains(Square::A2) && second.contains(Square::H2));
    /// assert!(!second.contains(Square::A3));
    /// ```
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xFF << (8 * rank as u8))
    }

    /// Whether the set is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, File, Square};
    ///
    /// assert!(Bitboard::EMPTY.is_empty());
    /// assert!(!Bitboard::from_square(Square::A1).is_empty());
    /// // Two different files share no square.
    /// assert!((Bitboard::file(File::A) & Bitboard::file(File::B)).is_empty());
    /// ```
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, File, Rank};
    ///
    /// assert!(Bitboard::FULL.is_nonempty());
    /// assert!(!Bitboard::EMPTY.is_nonempty());
    /// // The a-file meets the first rank on a1.
    /// assert!((Bitboard::file(File::A) & Bitboard::rank(Rank::First)).is_nonempty());
    /// ```
    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// Whether `square` is in the set.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Square};
    ///
    /// let set = Bitboard::from_square(Square::C3).with(Square::F6);
    /// assert!(set.contains(Square::C3));
    /// assert!(set.contains(Square::F6));
    /// assert!(!set.contains(Square::D4));
    /// ```
    #[inline(always)]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square as u8) != 0
    }

    /// The number of squares in the set.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Position, Rank};
    ///
    /// assert_eq!(Bitboard::EMPTY.popcount(), 0);
    /// assert_eq!(Bitboard::rank(Rank::First).popcount(), 8);
    /// assert_eq!(Bitboard::FULL.popcount(), 64);
    /// assert_eq!(Position::startpos().occupied().popcount(), 32);
    /// ```
    #[inline(always)]
    pub const fn popcount(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds two or more squares.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Square};
    ///
    /// assert!(!Bitboard::EMPTY.has_more_than_one());
    /// let one = Bitboard::from_square(Square::E4);
    /// assert!(!one.has_more_than_one());
    /// assert!(one.with(Square::D5).has_more_than_one());
    /// ```
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of the set, or `None` if empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Rank, Square};
    ///
    /// assert_eq!(Bitboard::rank(Rank::Second).first(), Some(Square::A2));
    /// assert_eq!(Bitboard::from_square(Square::H8).with(Square::C3).first(), Some(Square::C3));
    /// assert_eq!(Bitboard::EMPTY.first(), None);
    /// ```
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        match NonZeroU64::new(self.0) {
            // A non-zero u64 has at most 63 trailing zeros, so the index is in range.
            Some(bits) => Some(Square::ALL[bits.trailing_zeros() as usize]),
            None => None,
        }
    }

    /// The only square of the set, or `None` if the set is empty or has more than one square.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Square};
    ///
    /// let one = Bitboard::from_square(Square::C3);
    /// assert_eq!(one.single(), Some(Square::C3));
    /// assert_eq!(one.with(Square::D4).single(), None);
    /// assert_eq!(Bitboard::EMPTY.single(), None);
    /// ```
    #[inline(always)]
    pub const fn single(self) -> Option<Square> {
        if self.has_more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// The set with `square` added.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Square};
    ///
    /// let corners = Bitboard::EMPTY.with(Square::A1).with(Square::H8);
    /// assert_eq!(corners, Bitboard(1 | 1 << 63));
    /// // Adding a member again changes nothing.
    /// assert_eq!(corners.with(Square::A1), corners);
    /// ```
    #[inline(always)]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | 1 << square as u8)
    }

    /// The set with `square` removed.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Rank, Square};
    ///
    /// let first = Bitboard::rank(Rank::First).without(Square::E1);
    /// assert_eq!(first.popcount(), 7);
    /// assert!(!first.contains(Square::E1));
    /// // Removing a square that is not there changes nothing.
    /// assert_eq!(first.without(Square::E1), first);
    /// ```
    #[inline(always)]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << square as u8))
    }

    /// The set moved one rank forward from `color`'s point of view (squares on the far rank drop off).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Color, Rank, Square};
    ///
    /// let e2 = Bitboard::from_square(Square::E2);
    /// assert_eq!(e2.forward(Color::White), Bitboard::from_square(Square::E3));
    /// assert_eq!(e2.forward(Color::Black), Bitboard::from_square(Square::E1));
    /// // Squares pushed off the board are dropped.
    /// assert!(Bitboard::rank(Rank::Eighth).forward(Color::White).is_empty());
    /// ```
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// The set in the intersection of `self` and `other` (a `const` `&`).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, File, Rank, Square};
    ///
    /// const E4: Bitboard = Bitboard::file(File::E).and(Bitboard::rank(Rank::Fourth));
    /// assert_eq!(E4, Bitboard::from_square(Square::E4));
    /// assert_eq!(E4, Bitboard::file(File::E) & Bitboard::rank(Rank::Fourth));
    /// ```
    #[inline(always)]
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// The union of `self` and `other` (a `const` `|`).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Rank};
    ///
    /// const BACK_RANKS: Bitboard = Bitboard::rank(Rank::First).or(Bitboard::rank(Rank::Eighth));
    /// assert_eq!(BACK_RANKS.popcount(), 16);
    /// assert_eq!(BACK_RANKS, Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth));
    /// ```
    #[inline(always)]
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        let square = self.first()?;
        self.0 &= self.0 - 1;
        Some(square)
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.popcount() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl fmt::Debug for Bitboard {
    /// Eight lines, rank 8 first, `X` for a member and `.` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = if self.contains(Square::new(file, *rank)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_yields_members_in_order() {
        let set: Bitboard = [Square::H8, Square::A1, Square::E4].into_iter().collect();
        assert_eq!(set.len(), 3);
        assert_eq!(set.collect::<Vec<_>>(), vec![Square::A1, Square::E4, Square::H8]);
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert_eq!(Bitboard::from_square(Square::C3).single(), Some(Square::C3));
        assert_eq!(set.single(), None);
    }

    #[test]
    fn forward_drops_far_rank() {
        let rank8 = Bitboard::rank(Rank::Eighth);
        assert!(rank8.forward(Color::White).is_empty());
        assert_eq!(rank8.forward(Color::Black), Bitboard::rank(Rank::Seventh));
        assert_eq!(Bitboard::file(File::C).len(), 8);
    }
}
