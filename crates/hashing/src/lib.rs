#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![no_std]

/// The seed of the key generator. Changing it changes every key, every TT index and the bench signature.
///
/// # Examples
///
/// ```
/// use eldest_hashing::{piece_square, SplitMix64, SEED};
///
/// // The keys are the first draws of SplitMix64 from this seed, white pawn on a1 first.
/// let mut draws = SplitMix64::new(SEED);
/// assert_eq!(draws.next_u64(), piece_square(0, 0));
/// assert_eq!(draws.next_u64(), piece_square(0, 1));
/// ```
pub const SEED: u64 = 0x0E1D_E57C_4E55_2026;

/// Number of coloured piece indices: white pawn..king = 0..6, black pawn..king = 6..12.
///
/// # Examples
///
/// ```
/// use eldest_hashing::{piece_square, PIECE_INDICES};
///
/// // Index + 6 is the same kind in black: a white knight is 1, a black knight 7.
/// assert_eq!(PIECE_INDICES, 2 * 6);
/// let on_e4: Vec<u64> = (0..PIECE_INDICES).map(|piece| piece_square(piece, 28)).collect();
/// assert!(on_e4.iter().enumerate().all(|(i, key)| !on_e4[..i].contains(key)));
/// ```
pub const PIECE_INDICES: usize = 12;

/// One step of SplitMix64: a small, well-mixed generator that can run in a `const fn`.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// All keys in one table, generated in a fixed order from [`SEED`].
struct Keys {
    piece_square: [[u64; 64]; PIECE_INDICES],
    /// Indexed by colour (0 white, 1 black) and the file of the castling rook: exact for Chess960 too.
    castling: [[u64; 8]; 2],
    en_passant_file: [u64; 8],
    side_to_move: u64,
}

const KEYS: Keys = {
    let mut state = SEED;
    let mut piece_square = [[0u64; 64]; PIECE_INDICES];
    let mut piece = 0;
    while piece < PIECE_INDICES {
        let mut square = 0;
        while square < 64 {
            let (next, key) = splitmix64(state);
            state = next;
            piece_square[piece][square] = key;
            square += 1;
        }
        piece += 1;
    }
    let mut castling = [[0u64; 8]; 2];
    let mut color = 0;
    while color < 2 {
        let mut file = 0;
        while file < 8 {
            let (next, key) = splitmix64(state);
            state = next;
            castling[color][file] = key;
            file += 1;
        }
        color += 1;
    }
    let mut en_passant_file = [0u64; 8];
    let mut file = 0;
    while file < 8 {
        let (next, key) = splitmix64(state);
        state = next;
        en_passant_file[file] = key;
        file += 1;
    }
    let (_, side_to_move) = splitmix64(state);
    Keys {
        piece_square,
        castling,
        en_passant_file,
        side_to_move,
    }
};

/// The key of coloured piece `piece` (0..12: white pawn, knight, bishop, rook, queen, king, then black) on
/// `square` (0..64, a1 = 0, h8 = 63).
///
/// # Panics
/// If `piece >= 12` or `square >= 64`.
///
/// # Examples
///
/// ```
/// use eldest_hashing::piece_square;
///
/// // A white knight (1) from g1 (6) to f3 (21): XOR it out of g1 and into f3.
/// let before = piece_square(1, 6);
/// let after = before ^ piece_square(1, 6) ^ piece_square(1, 21);
/// assert_eq!(after, piece_square(1, 21));
/// // A black knight (7) on f3 is another position.
/// assert_ne!(piece_square(7, 21), after);
/// ```
#[inline(always)]
pub const fn piece_square(piece: usize, square: usize) -> u64 {
    KEYS.piece_square[piece][square]
}

/// The key of the castling right of `color` (0 white, 1 black) with the rook on `rook_file` (0..8, a = 0).
///
/// Keying the right by the rook's file keeps Chess960 positions whose rights differ only in which rook may
/// castle distinct.
///
/// # Panics
/// If `color >= 2` or `rook_file >= 8`.
///
/// # Examples
///
/// ```
/// use eldest_hashing::castling;
///
/// // In Chess960, white's right with the g-rook is not white's right with the h-rook...
/// assert_ne!(castling(0, 6), castling(0, 7));
/// // ...nor black's right with the same rook file.
/// assert_ne!(castling(0, 7), castling(1, 7));
/// // Losing one right XORs its key out and leaves the others.
/// let both = castling(0, 7) ^ castling(0, 0);
/// assert_eq!(both ^ castling(0, 0), castling(0, 7));
/// ```
#[inline(always)]
pub const fn castling(color: usize, rook_file: usize) -> u64 {
    KEYS.castling[color][rook_file]
}

/// The key of an en-passant square on `file` (0..8).
///
/// # Panics
/// If `file >= 8`.
///
/// # Examples
///
/// ```
/// use eldest_hashing::en_passant_file;
///
/// // Positions that differ only in the en-passant file must get different keys.
/// let keys: Vec<u64> = (0..8).map(en_passant_file).collect();
/// assert!(keys.iter().enumerate().all(|(i, key)| *key != 0 && !keys[..i].contains(key)));
/// ```
#[inline(always)]
pub const fn en_passant_file(file: usize) -> u64 {
    KEYS.en_passant_file[file]
}

/// The key XORed in when black is to move.
///
/// # Examples
///
/// ```
/// use eldest_hashing::{piece_square, side_to_move};
///
/// let kings = piece_square(5, 4) ^ piece_square(11, 60); // white king e1, black king e8
/// // The same placement with the other side to move is another position; a second XOR undoes the first.
/// let black_to_move = kings ^ side_to_move();
/// assert_ne!(black_to_move, kings);
/// assert_eq!(black_to_move ^ side_to_move(), kings);
/// ```
#[inline(always)]
pub const fn side_to_move() -> u64 {
    KEYS.side_to_move
}

/// SplitMix64, the generator behind the keys, as a seeded stream of pseudo-random numbers: reproducible draws
/// for tools (shuffled openings, random opening plies of self-play) from one `u64` seed.
///
/// ```
/// use eldest_hashing::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A stream starting from `seed`.
    ///
    /// ```
    /// let first = eldest_hashing::SplitMix64::new(0).next_u64();
    /// assert_eq!(first, 0xE220_A839_7B1D_CDAF, "the published first output of SplitMix64 from seed 0");
    /// ```
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 pseudo-random bits.
    ///
    /// ```
    /// let mut stream = eldest_hashing::SplitMix64::new(1);
    /// assert_ne!(stream.next_u64(), stream.next_u64());
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        let (state, value) = splitmix64(self.state);
        self.state = state;
        value
    }

    /// A number in `0..bound` (`bound` > 0), by the modulo of the next draw: the bias, below `bound` / 2^64, is
    /// nothing for the small bounds of move lists and opening books.
    ///
    /// # Panics
    /// If `bound` is 0.
    ///
    /// ```
    /// let mut stream = eldest_hashing::SplitMix64::new(3);
    /// assert!((0..100).all(|_| stream.below(6) < 6));
    /// ```
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "SplitMix64::below(0)");
        self.next_u64() % bound
    }
}

/// Multiplier of the linear congruential generator used by [`move_hash`] (Numerical Recipes' LCG).
///
/// # Examples
///
/// ```
/// use eldest_hashing::{move_hash, LCG_INCREMENT, LCG_MULTIPLIER};
///
/// // With a zero key the move hash is the bare LCG step of the move.
/// assert_eq!(move_hash(0, 1), LCG_MULTIPLIER + LCG_INCREMENT);
/// assert_eq!(move_hash(0, 2), 2 * LCG_MULTIPLIER + LCG_INCREMENT);
/// ```
pub const LCG_MULTIPLIER: u64 = 1_664_525;
/// Increment of the linear congruential generator used by [`move_hash`].
///
/// # Examples
///
/// ```
/// use eldest_hashing::{move_hash, LCG_INCREMENT};
///
/// // Even the move 0 does not hash to the position key itself.
/// assert_eq!(move_hash(0, 0), LCG_INCREMENT);
/// assert_eq!(move_hash(0xfeed, 0), 0xfeed ^ LCG_INCREMENT);
/// ```
pub const LCG_INCREMENT: u64 = 1_013_904_223;

/// Kerrigan's move hash: `key ^ (mv * 1664525 + 1013904223)` (seed 000, note 4).
///
/// A 16-bit move is a poor hash on its own: its bits are clustered in the from/to fields. Treating it as the
/// seed of one LCG step spreads it over the 64-bit space before it is mixed with the position key, so that
/// `move_hash(key, m) & (rows - 1)` sends the moves of one position to different rows of the
/// `currently_searching` table. Wrapping arithmetic is the LCG's modulus 2^64.
///
/// # Examples
///
/// ```
/// use eldest_hashing::move_hash;
///
/// let key = 0x9d39_247e_3377_6d41;
/// let rows: u64 = 1 << 15;
/// // Neighbouring moves of one position land on different rows of a 32768-row table.
/// assert_ne!(move_hash(key, 0x0e1d) & (rows - 1), move_hash(key, 0x0e1e) & (rows - 1));
/// // Key and move are mixed by XOR, so the same move of two positions hashes apart as the keys do.
/// assert_eq!(move_hash(key, 0x0e1d) ^ move_hash(0, 0x0e1d), key);
/// ```
#[inline(always)]
pub const fn move_hash(position_key: u64, mv: u16) -> u64 {
    position_key
        ^ (mv as u64)
            .wrapping_mul(LCG_MULTIPLIER)
            .wrapping_add(LCG_INCREMENT)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen = HashSet::new();
        for piece in 0..PIECE_INDICES {
            for square in 0..64 {
                assert!(seen.insert(piece_square(piece, square)));
            }
        }
        for color in 0..2 {
            for file in 0..8 {
                assert!(seen.insert(castling(color, file)));
            }
        }
        for file in 0..8 {
            assert!(seen.insert(en_passant_file(file)));
        }
        assert!(seen.insert(side_to_move()));
        assert!(!seen.contains(&0));
        assert_eq!(seen.len(), 12 * 64 + 16 + 8 + 1);
    }

    #[test]
    fn generator_is_pinned() {
        // Golden values: a change here changes every TT index and the bench signature. Change them only on
        // purpose, together with a new `Bench:` line.
        assert_eq!(piece_square(0, 0), 0x2c65_d92b_adbf_ed90);
        assert_eq!(side_to_move(), 0xf8b0_e6cc_4c95_4443);
    }

    #[test]
    fn move_hash_is_kerrigans_formula() {
        assert_eq!(move_hash(0, 0), 1_013_904_223);
        assert_eq!(move_hash(0, 1), 1_664_525 + 1_013_904_223);
        assert_eq!(move_hash(u64::MAX, 0), !1_013_904_223u64);
    }
}
