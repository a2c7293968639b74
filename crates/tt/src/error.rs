//! Errors of the table's fallible operations.

use core::fmt;

/// Why a table could not be created or resized. The table is never left without memory: a failed
/// [`resize`](crate::TranspositionTable::resize) keeps a cleared table of the previous size.
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
