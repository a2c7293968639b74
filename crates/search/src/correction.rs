//! Correction history: what the static evaluation got wrong in positions with the same pawns, learnt from the
//! search's results and added back to later evaluations of such positions. A hand-written evaluation misjudges
//! some pawn structures the same way every time (a passer it undervalues, a blockade it overrates); the search
//! finds out, and the next evaluation of that structure starts closer to the truth — which sharpens every
//! decision that reads the static evaluation (reverse futility, null move, the improving flag).

use crate::learnt::{LearntTable, RelaxedCell};
use eldest_board::{Color, PieceKind, Position};
use std::sync::atomic::AtomicI16;

/// Entries per side; indexed by a hash of the two sides' pawn sets.
const ENTRIES: usize = 16_384;
/// An entry holds the correction in 1/`GRAIN` centipawns …
const GRAIN: i32 = 256;
/// … and at most this much (±64 centipawns).
const LIMIT: i32 = 64 * GRAIN;
/// A search result moves an entry by at most this share (out of 256) towards it: deep results weigh more.
const MAX_WEIGHT: i32 = 16;

/// Per side to move and pawn structure, the average amount by which the search's results differed from the
/// static evaluation, with deeper results weighing more.
///
/// Like [`History`](crate::History), a table is private to its owner (a clone is a private copy), except that
/// YBWC's threads (`HelperHistory`) and the ABDADAs' (`AbdadaHistory`, `SimplifiedAbdadaHistory`) may share one.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::CorrectionHistory;
///
/// let white = Position::startpos();
/// let black = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
/// let mut correction = CorrectionHistory::default();
/// for _ in 0..100 {
///     correction.update(&white, 10, 0, 60);
/// }
/// // The same pawns with the other side to move are another entry: it has learnt nothing.
/// assert!(correction.corrected(&white, 0) > 0);
/// assert_eq!(correction.corrected(&black, 0), 0);
/// ```
#[derive(Clone)]
pub struct CorrectionHistory {
    /// Indexed by `side × ENTRIES + pawn index`.
    pub(crate) table: LearntTable<AtomicI16>,
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            table: LearntTable::new(2 * ENTRIES),
        }
    }
}

impl std::fmt::Debug for CorrectionHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CorrectionHistory { .. }")
    }
}

impl CorrectionHistory {
    #[inline]
    fn slot(&self, position: &Position) -> &AtomicI16 {
        self.table
            .cell(position.side_to_move().index() * ENTRIES + pawn_index(position))
    }

    fn entry(&self, position: &Position) -> i32 {
        i32::from(self.slot(position).get())
    }

    /// `raw`, the static evaluation of `position`, corrected by what searches of positions with its pawns found.
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::CorrectionHistory;
    /// let position = Position::startpos();
    /// let mut correction = CorrectionHistory::default();
    /// assert_eq!(correction.corrected(&position, 30), 30);
    /// // Deep searches keep finding this structure 100 centipawns better than evaluated.
    /// for _ in 0..200 {
    ///     correction.update(&position, 12, 30, 130);
    /// }
    /// assert!((80..=94).contains(&correction.corrected(&position, 30)));
    /// ```
    #[inline]
    pub fn corrected(&self, position: &Position, raw: i32) -> i32 {
        raw + self.entry(position) / GRAIN
    }

    /// Moves the correction of `position`'s structure towards `searched − raw`: a search of `depth` plies found
    /// `searched` where the static evaluation said `raw`. The caller passes only results that bound the truth
    /// on the side they differ from the evaluation (a fail-high above it, a fail-low below it, or an exact
    /// score), never mate scores.
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::CorrectionHistory;
    /// let position = Position::startpos();
    /// let mut correction = CorrectionHistory::default();
    /// correction.update(&position, 1, 0, -50);
    /// let shallow = correction.corrected(&position, 0);
    /// let mut deeper = CorrectionHistory::default();
    /// deeper.update(&position, 10, 0, -50);
    /// assert!(deeper.corrected(&position, 0) < shallow && shallow <= 0);
    /// ```
    pub fn update(&mut self, position: &Position, depth: i32, raw: i32, searched: i32) {
        let target = ((searched - raw) * GRAIN).clamp(-LIMIT, LIMIT);
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let slot = self.slot(position);
        let value = (i32::from(slot.get()) * (256 - weight) + target * weight) / 256;
        // Within ±LIMIT (16,384): a weighted mean of values within it, which fits an i16.
        slot.set(value.clamp(-LIMIT, LIMIT) as i16);
    }

    /// Makes this table's contents a copy of `other`'s in place (no allocation; nothing if both are one table).
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::CorrectionHistory;
    /// let position = Position::startpos();
    /// let (mut source, mut copy) = (CorrectionHistory::default(), CorrectionHistory::default());
    /// source.update(&position, 8, 0, 200);
    /// copy.copy_from(&source);
    /// assert_eq!(copy.corrected(&position, 0), source.corrected(&position, 0));
    /// ```
    pub fn copy_from(&mut self, other: &CorrectionHistory) {
        self.table.copy_from(&other.table);
    }

    /// Forgets everything (a new game).
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::CorrectionHistory;
    /// let position = Position::startpos();
    /// let mut correction = CorrectionHistory::default();
    /// correction.update(&position, 8, 0, 200);
    /// correction.clear();
    /// assert_eq!(correction.corrected(&position, 0), 0);
    /// ```
    pub fn clear(&mut self) {
        self.table.clear();
    }
}

/// A hash of the two sides' pawn sets (multiply-shift of each bitboard): cheap enough to compute at every node,
/// where an incrementally kept pawn key would cost every move made.
#[inline]
fn pawn_index(position: &Position) -> usize {
    let pawns = position.pieces(PieceKind::Pawn);
    let white = (pawns & position.colored(Color::White)).0;
    let black = (pawns & position.colored(Color::Black)).0;
    let mixed =
        white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    (mixed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> (64 - ENTRIES.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_correction_applies_to_the_same_pawns_and_side_only() {
        let start = Position::startpos();
        let mut knight_out = start;
        knight_out.play_unchecked(start.parse_uci_move("g1f3").unwrap());
        let mut knights_out = knight_out;
        knights_out.play_unchecked(knight_out.parse_uci_move("g8f6").unwrap());
        let mut pawn_moved = start;
        pawn_moved.play_unchecked(start.parse_uci_move("e2e4").unwrap());
        let mut pawns_moved = pawn_moved;
        pawns_moved.play_unchecked(pawn_moved.parse_uci_move("e7e5").unwrap());
        let mut correction = CorrectionHistory::default();
        for _ in 0..100 {
            correction.update(&start, 10, 0, 40);
        }
        let learnt = correction.corrected(&start, 0);
        assert!(learnt > 20, "{learnt}");
        // Same pawns, White to move: the same correction.
        assert_eq!(correction.corrected(&knights_out, 0), learnt);
        // Same pawns, Black to move; other pawns: nothing learnt.
        assert_eq!(correction.corrected(&knight_out, 0), 0);
        assert_eq!(correction.corrected(&pawns_moved, 0), 0);
    }

    #[test]
    fn corrections_stay_within_the_limit_however_far_the_search_is_off() {
        let position = Position::startpos();
        let mut correction = CorrectionHistory::default();
        for _ in 0..1000 {
            correction.update(&position, 40, 0, 30_000);
        }
        // Integer steps stop a unit short of the bound.
        let most = LIMIT / GRAIN;
        assert!((most - 1..=most).contains(&correction.corrected(&position, 0)));
        for _ in 0..1000 {
            correction.update(&position, 40, 0, -30_000);
        }
        assert!((-most..=-most + 1).contains(&correction.corrected(&position, 0)));
    }

    #[test]
    fn pawn_indices_spread_over_the_table() {
        // The positions after each of White's 20 first moves: the 16 pawn moves give 16 structures, which
        // should not share entries.
        let start = Position::startpos();
        let mut indices: Vec<usize> = start
            .legal_moves()
            .iter()
            .filter(|&&mv| start.kind_on(mv.from()) == Some(PieceKind::Pawn))
            .map(|&mv| {
                let mut after = start;
                after.play_unchecked(mv);
                pawn_index(&after)
            })
            .collect();
        assert_eq!(indices.len(), 16);
        indices.sort_unstable();
        indices.dedup();
        assert_eq!(indices.len(), 16);
        assert!(indices.iter().all(|&index| index < ENTRIES));
    }
}
