//! Errors of the table's fallible operations.

use core::fmt;

/// Why a table could not be created or resized. The table is never left without memory: a failed
/// [`resize`](crate::TranspositionTable::resize) keeps a cleared table of the previous size.
///
/// # Examples
///
/// ```
/// use eldest_tt::{TableSizeError, TranspositionTable, MAX_MIB};
/// assert_eq!(TranspositionTable::new(0).unwrap_err(), TableSizeError::Zero);
/// let odd = TranspositionTable::with_buckets(3).unwrap_err();
/// assert_eq!(odd, TableSizeError::NotPowerOfTwo { buckets: 3 });
/// assert_eq!(odd.to_string(), "3 buckets is not a power of two");
/// let huge = TranspositionTable::new(MAX_MIB + 1).unwrap_err();
/// assert_eq!(huge.to_string(), "33554433 MiB exceeds the largest transposition table, 33554432 MiB");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSizeError {
    /// A size of 0 MiB (or 0 buckets) was asked for.
    Zero,
    /// More than [`MAX_MIB`](crate::MAX_MIB) was asked for.
    TooLarge {
        /// The size asked for, in MiB.
        mib: usize,
    },
    /// A bucket count that is not a power of two was asked for.
    NotPowerOfTwo {
        /// The bucket count asked for.
        buckets: usize,
    },
    /// The allocator refused the memory.
    OutOfMemory {
        /// The size of the refused allocation, in bytes.
        bytes: usize,
    },
}

impl fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Zero => f.write_str("a transposition table needs at least 1 MiB"),
            Self::TooLarge { mib } => {
                write!(
                    f,
                    "{mib} MiB exceeds the largest transposition table, {} MiB",
                    crate::MAX_MIB
                )
            }
            Self::NotPowerOfTwo { buckets } => write!(f, "{buckets} buckets is not a power of two"),
            Self::OutOfMemory { bytes } => {
                write!(f, "could not allocate {bytes} bytes for the transposition table")
            }
        }
    }
}

impl std::error::Error for TableSizeError {}

/// A game-history draw could not be pinned: every slot of its bucket is already protected.
///
/// micro-Max accepts the same loss (seed 004): the position is then simply not recognised as a repetition by
/// the table, and the repetition crate's game-history check remains the authority.
///
/// # Examples
///
/// ```
/// use eldest_tt::{PinError, TranspositionTable};
/// let tt = TranspositionTable::with_buckets(1)?;
/// for key in [1, 2, 3] {
///     tt.pin_draw(key).unwrap();
/// }
/// // The only bucket's three slots all hold pins, which nothing evicts.
/// let error = tt.pin_draw(4).unwrap_err();
/// assert_eq!(error, PinError { key: 4 });
/// assert_eq!(error.to_string(), "no unprotected slot left to pin the draw of key 0x0000000000000004");
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PinError {
    /// The key that could not be pinned.
    pub key: u64,
}

impl fmt::Display for PinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no unprotected slot left to pin the draw of key {:#018x}",
            self.key
        )
    }
}

impl std::error::Error for PinError {}
