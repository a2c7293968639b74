//! The parallel algorithms: which one runs the threads, its research knobs, and the hooks each plugs into the
//! one node search.
//!
//! - `lazy` — lazy SMP: every thread searches the whole root with the shared table; odd helpers one ply deeper.
//! - `ybwc` — Young Brothers Wait: after a node's eldest son returns without a cutoff, its younger brothers are
//!   searched in parallel by a work-stealing pool (the split itself is in the node routine).
//! - `abdada` — Weill's ABDADA (seed 001): every thread searches the root at the same depth; a node a thread is
//!   inside has `nproc > 0` in the table; younger brothers whose node another thread is inside are skipped in the
//!   first pass (the exclusive probe answers ON_EVALUATION) and searched in the second.
//! - `simplified-abdada` — Kerrigan's simplified ABDADA (seed 000): the same two passes, but "being searched" is
//!   a separate `currently_searching` table of move hashes, and only at depth ≥ DeferDepth.
//!
//! With one thread every algorithm runs the plain serial search (no hooks): a lone thread has no one to share
//! work with, and Weill's exclusive probe would otherwise see the thread's own path and reorder moves.

use crate::hooks::SearchHooks;
use eldest_board::Move;
use eldest_hashing::move_hash;
use eldest_tt::{ExclusiveProbe, NodeGuard, TranspositionTable};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

/// A parallel search algorithm (the UCI option `ParallelAlgorithm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ParallelAlgorithm {
    /// Lazy SMP, the modern baseline.
    #[default]
    Lazy,
    /// Weill's ABDADA with the TT `nproc` counter.
    Abdada,
    /// Kerrigan's simplified ABDADA with a `currently_searching` table.
    SimplifiedAbdada,
    /// Young Brothers Wait: younger brothers searched in parallel after the eldest son.
    Ybwc,
}

impl ParallelAlgorithm {
    /// Every algorithm, in the order of the UCI combo option.
    pub const ALL: [ParallelAlgorithm; 4] = [
        ParallelAlgorithm::Lazy,
        ParallelAlgorithm::Ybwc,
        ParallelAlgorithm::Abdada,
        ParallelAlgorithm::SimplifiedAbdada,
    ];

    /// The UCI name: `lazy`, `ybwc`, `abdada`, `simplified-abdada`.
    pub const fn name(self) -> &'static str {
        match self {
            ParallelAlgorithm::Lazy => "lazy",
            ParallelAlgorithm::Abdada => "abdada",
            ParallelAlgorithm::SimplifiedAbdada => "simplified-abdada",
            ParallelAlgorithm::Ybwc => "ybwc",
        }
    }
}

impl fmt::Display for ParallelAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown algorithm name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseAlgorithmError(pub String);

impl fmt::Display for ParseAlgorithmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = ParallelAlgorithm::ALL.iter().map(|a| a.name()).collect();
        write!(
            f,
            "unknown parallel algorithm {:?}; expected one of {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for ParseAlgorithmError {}

impl FromStr for ParallelAlgorithm {
    type Err = ParseAlgorithmError;

    fn from_str(s: &str) -> Result<ParallelAlgorithm, ParseAlgorithmError> {
        ParallelAlgorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseAlgorithmError(s.to_string()))
    }
}

/// The algorithm and its research knobs (UCI spin options).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParallelSettings {
    /// Which algorithm runs the threads.
    pub algorithm: ParallelAlgorithm,
    /// Simplified ABDADA: the shallowest remaining depth at which moves are marked and deferred (note 1).
    pub defer_depth: i32,
    /// Simplified ABDADA: rows of the `currently_searching` table (a power of two).
    pub cs_rows: usize,
    /// Simplified ABDADA: ways (slots) per row (note 2).
    pub cs_ways: usize,
    /// YBWC: the shallowest remaining depth at which a node's younger brothers are searched in parallel.
    pub min_split_depth: i32,
    /// Simplified ABDADA: which structure holds the `currently_searching` marks.
    pub cs_table: CsTableKind,
}

/// The structure behind simplified ABDADA's `currently_searching` marks (UCI option `CsTable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CsTableKind {
    /// Kerrigan's fixed n-way table of relaxed atomic words ([`CurrentlySearching`]): the default, measured
    /// faster (docs/parallel-search.md).
    #[default]
    Array,
    /// A concurrent hash set from the `dashmap` crate ([`DashCurrentlySearching`]): exact, unbounded, locked
    /// per shard; kept selectable for the comparison.
    DashMap,
}

impl CsTableKind {
    /// Every kind, in the order of the UCI combo option.
    pub const ALL: [CsTableKind; 2] = [CsTableKind::Array, CsTableKind::DashMap];

    /// The UCI name: `array` or `dashmap`.
    pub const fn name(self) -> &'static str {
        match self {
            CsTableKind::Array => "array",
            CsTableKind::DashMap => "dashmap",
        }
    }
}

impl fmt::Display for CsTableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CsTableKind {
    type Err = String;

    fn from_str(s: &str) -> Result<CsTableKind, String> {
        CsTableKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown currently_searching table {s:?}; expected array or dashmap"))
    }
}

/// What simplified ABDADA needs of a `currently_searching` table: Kerrigan's three operations on move hashes.
pub trait MoveMarks: Sync {
    /// `defer_move`'s test: whether `hash` is marked.
    fn contains(&self, hash: u64) -> bool;
    /// `starting_search`: mark `hash`.
    fn starting(&self, hash: u64);
    /// `finished_search`: unmark `hash`.
    fn finished(&self, hash: u64);
}

impl MoveMarks for CurrentlySearching {
    #[inline]
    fn contains(&self, hash: u64) -> bool {
        CurrentlySearching::contains(self, hash)
    }

    #[inline]
    fn starting(&self, hash: u64) {
        CurrentlySearching::starting(self, hash);
    }

    #[inline]
    fn finished(&self, hash: u64) {
        CurrentlySearching::finished(self, hash);
    }
}

/// `currently_searching` as a `dashmap` set: the obvious concurrent-collection design, against which the
/// atomic array is measured. Exact (no row overflow) but every operation hashes and takes a shard lock.
#[derive(Debug, Default)]
pub struct DashCurrentlySearching {
    set: dashmap::DashSet<u64>,
}

impl DashCurrentlySearching {
    /// An empty set.
    pub fn new() -> DashCurrentlySearching {
        DashCurrentlySearching::default()
    }

    /// Empties the set (between searches).
    pub fn clear(&self) {
        self.set.clear();
    }

    /// The number of marked moves.
    pub fn occupied(&self) -> usize {
        self.set.len()
    }
}

impl MoveMarks for DashCurrentlySearching {
    #[inline]
    fn contains(&self, hash: u64) -> bool {
        self.set.contains(&hash)
    }

    #[inline]
    fn starting(&self, hash: u64) {
        self.set.insert(hash);
    }

    #[inline]
    fn finished(&self, hash: u64) {
        self.set.remove(&hash);
    }
}

impl Default for ParallelSettings {
    fn default() -> ParallelSettings {
        ParallelSettings {
            algorithm: ParallelAlgorithm::Lazy,
            defer_depth: 3,
            cs_rows: 32_768,
            cs_ways: 4,
            min_split_depth: 7,
            cs_table: CsTableKind::Array,
        }
    }
}

/// Kerrigan's `currently_searching` table: `rows × ways` move hashes, 0 meaning empty.
///
/// Access is deliberately unsynchronised beyond single atomic loads and stores (seed 000, note 3): a stale or
/// lost entry only makes another thread search a move a little earlier or later. Relaxed atomics are how Rust
/// spells "racy but defined"; the races of notes 3.1 (two threads insert the same move) and 3.2 (the same move
/// in two slots) are tolerated exactly as the notes say — `finished` clears every slot holding the hash.
#[derive(Debug)]
pub struct CurrentlySearching {
    slots: Box<[AtomicU64]>,
    rows: usize,
    ways: usize,
}

impl CurrentlySearching {
    /// A table of `rows` rows (rounded up to a power of two, at least 1) of `ways` slots (at least 1).
    pub fn new(rows: usize, ways: usize) -> CurrentlySearching {
        let rows = rows.max(1).next_power_of_two();
        let ways = ways.max(1);
        CurrentlySearching {
            slots: (0..rows * ways).map(|_| AtomicU64::new(0)).collect(),
            rows,
            ways,
        }
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of ways per row.
    pub fn ways(&self) -> usize {
        self.ways
    }

    #[inline]
    fn row(&self, hash: u64) -> &[AtomicU64] {
        let row = (hash as usize) & (self.rows - 1);
        &self.slots[row * self.ways..(row + 1) * self.ways]
    }

    /// `defer_move`'s test: whether `hash` is in its row.
    #[inline]
    pub fn contains(&self, hash: u64) -> bool {
        self.row(hash)
            .iter()
            .any(|slot| slot.load(Ordering::Relaxed) == hash)
    }

    /// `starting_search`: put `hash` in the first empty slot of its row, unless already there (note 3.1);
    /// with the row full, overwrite the first slot.
    #[inline]
    pub fn starting(&self, hash: u64) {
        let row = self.row(hash);
        for slot in row {
            let current = slot.load(Ordering::Relaxed);
            if current == 0 {
                slot.store(hash, Ordering::Relaxed);
                return;
            }
            if current == hash {
                return;
            }
        }
        row[0].store(hash, Ordering::Relaxed);
    }

    /// `finished_search`: clear every slot of the row holding `hash` — not just the first (note 3.2).
    #[inline]
    pub fn finished(&self, hash: u64) {
        for slot in self.row(hash) {
            if slot.load(Ordering::Relaxed) == hash {
                slot.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Empties the table (between searches).
    pub fn clear(&self) {
        self.slots
            .iter()
            .for_each(|slot| slot.store(0, Ordering::Relaxed));
    }

    /// The number of occupied slots (for tests and diagnostics).
    pub fn occupied(&self) -> usize {
        self.slots
            .iter()
            .filter(|slot| slot.load(Ordering::Relaxed) != 0)
            .count()
    }
}

/// Kerrigan's simplified ABDADA as hooks, over either `currently_searching` structure.
#[derive(Debug, Clone, Copy)]
pub struct SimplifiedAbdadaHooks<'a, T: MoveMarks = CurrentlySearching> {
    /// The shared `currently_searching` table.
    pub table: &'a T,
    /// DEFER_DEPTH: below it the table is not touched at all (note 1).
    pub defer_depth: i32,
}

impl<T: MoveMarks> SearchHooks for SimplifiedAbdadaHooks<'_, T> {
    type NodeGuard<'g>
        = ()
    where
        Self: 'g;

    #[inline]
    fn defer_move(&self, context: &crate::hooks::MoveContext) -> bool {
        context.depth >= self.defer_depth && self.table.contains(move_hash(context.key, context.mv.to_bits()))
    }

    #[inline]
    fn starting_move(&self, key: u64, mv: Move, depth: i32) {
        if depth >= self.defer_depth {
            self.table.starting(move_hash(key, mv.to_bits()));
        }
    }

    #[inline]
    fn finished_move(&self, key: u64, mv: Move, depth: i32) {
        if depth >= self.defer_depth {
            self.table.finished(move_hash(key, mv.to_bits()));
        }
    }

    #[inline]
    fn enter_node(&self, _key: u64, _depth: i32) {}
}

/// Young Brothers Wait as hooks: the node search splits at nodes of at least `min_split_depth` (the splitting
/// itself is in the node routine, which owns the move loop).
#[derive(Debug, Clone, Copy)]
pub struct YbwcHooks {
    /// MinSplitDepth.
    pub min_split_depth: i32,
}

impl SearchHooks for YbwcHooks {
    type NodeGuard<'g> = ();

    #[inline(always)]
    fn enter_node(&self, _key: u64, _depth: i32) {}

    #[inline(always)]
    fn split_depth(&self) -> Option<i32> {
        Some(self.min_split_depth)
    }
}

/// Weill's ABDADA as hooks: a thread inside a node is counted in the node's TT `nproc`; a younger brother whose
/// node is being searched by another thread is deferred (the exclusive probe's ON_EVALUATION).
#[derive(Debug, Clone, Copy)]
pub struct AbdadaHooks<'a> {
    /// The shared table holding the `nproc` counters.
    pub tt: &'a TranspositionTable,
}

impl SearchHooks for AbdadaHooks<'_> {
    type NodeGuard<'g>
        = NodeGuard<'g>
    where
        Self: 'g;

    #[inline]
    fn defer_move(&self, context: &crate::hooks::MoveContext) -> bool {
        // The child is probed exclusively with the window it would be searched with: a stored result that
        // answers it is not deferred (retrieveAsk cuts before it looks at nproc).
        let outcome = self.tt.probe_exclusive(
            context.child_key,
            context.depth - 1,
            -context.beta,
            -context.alpha,
            context.ply + 1,
            true,
        );
        matches!(outcome, ExclusiveProbe::OnEvaluation)
    }

    #[inline]
    fn enter_node(&self, key: u64, depth: i32) -> NodeGuard<'_> {
        self.tt.enter_guard(key, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_round_trip() {
        for algorithm in ParallelAlgorithm::ALL {
            assert_eq!(algorithm.name().parse::<ParallelAlgorithm>(), Ok(algorithm));
            assert_eq!(
                algorithm.to_string().to_uppercase().parse::<ParallelAlgorithm>(),
                Ok(algorithm)
            );
        }
        assert!("ybwc2".parse::<ParallelAlgorithm>().is_err());
    }

    #[test]
    fn the_dashmap_table_marks_and_unmarks_like_the_array() {
        let dash = DashCurrentlySearching::new();
        let array = CurrentlySearching::new(8, 4);
        for table in [&dash as &dyn MoveMarks, &array] {
            table.starting(0x1234);
            table.starting(0x1234);
            table.starting(0x99);
            assert!(table.contains(0x1234) && table.contains(0x99) && !table.contains(0x5));
            table.finished(0x1234);
            assert!(!table.contains(0x1234) && table.contains(0x99));
            table.finished(0x99);
            assert!(!table.contains(0x99));
        }
        assert_eq!(dash.occupied(), 0);
        dash.starting(7);
        dash.clear();
        assert_eq!(dash.occupied(), 0);
        assert_eq!("DashMap".parse::<CsTableKind>(), Ok(CsTableKind::DashMap));
        assert!("btree".parse::<CsTableKind>().is_err());
    }

    #[test]
    fn starting_search_inserts_once_even_when_called_twice_note_3_1() {
        let table = CurrentlySearching::new(8, 4);
        table.starting(0x1234);
        table.starting(0x1234);
        assert_eq!(table.occupied(), 1);
        assert!(table.contains(0x1234));
    }

    #[test]
    fn finished_search_clears_every_copy_note_3_2() {
        let table = CurrentlySearching::new(8, 4);
        // Two threads racing past each other's "already there" check can leave the hash in two slots: simulate
        // by filling the row's first slot with another move, then writing the hash twice through a full row.
        let row_mates = [0x1234 + 8, 0x1234 + 16, 0x1234 + 24, 0x1234 + 32];
        for hash in row_mates {
            table.starting(hash);
        }
        table.starting(0x1234); // row full: overwrites slot 0
        table.starting(0x1234 + 16); // already present
        table.row(0x1234)[2].store(0x1234, Ordering::Relaxed); // the racing second copy
        assert_eq!(
            table
                .row(0x1234)
                .iter()
                .filter(|s| s.load(Ordering::Relaxed) == 0x1234)
                .count(),
            2
        );
        table.finished(0x1234);
        assert!(!table.contains(0x1234));
    }

    #[test]
    fn a_full_row_overwrites_its_first_slot() {
        let table = CurrentlySearching::new(1, 2);
        table.starting(5);
        table.starting(7);
        table.starting(9);
        assert!(table.contains(9) && table.contains(7) && !table.contains(5));
    }

    #[test]
    fn the_table_is_not_touched_below_defer_depth_note_1() {
        let table = CurrentlySearching::new(64, 4);
        let hooks = SimplifiedAbdadaHooks {
            table: &table,
            defer_depth: 3,
        };
        let mv = eldest_board::Position::startpos().parse_uci_move("e2e4").unwrap();
        hooks.starting_move(42, mv, 2);
        assert_eq!(table.occupied(), 0);
        hooks.starting_move(42, mv, 3);
        assert_eq!(table.occupied(), 1);
        let context = crate::hooks::MoveContext {
            key: 42,
            mv,
            child_key: 0,
            depth: 2,
            alpha: 0,
            beta: 1,
            ply: 1,
        };
        assert!(!hooks.defer_move(&context), "never deferred below DeferDepth");
        assert!(hooks.defer_move(&crate::hooks::MoveContext { depth: 3, ..context }));
        hooks.finished_move(42, mv, 3);
        assert_eq!(table.occupied(), 0);
    }

    #[test]
    fn rows_are_indexed_by_the_move_hash_as_kerrigan_does() {
        let table = CurrentlySearching::new(32_768, 4);
        assert_eq!(table.rows(), 32_768);
        let hash = move_hash(0xDEAD_BEEF, 0x1234);
        table.starting(hash);
        let row = (hash as usize) & (32_768 - 1);
        assert_eq!(table.slots[row * 4].load(Ordering::Relaxed), hash);
    }
}
