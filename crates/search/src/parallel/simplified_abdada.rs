//! Kerrigan's simplified ABDADA (seed 000): "being searched" is recorded per *move* in a `currently_searching`
//! table of move hashes, separate from the transposition table; younger brothers found in it are deferred to a
//! second pass. Only at depth ≥ DeferDepth (note 1), never for the first move, the re-search after a null-window
//! fail-high, or deferred moves (notes 5.1–5.3: the node routine's hook points guarantee those).
//!
//! Two measured departures, knobs of [`super::KNOBS`]: a thread leaves a subtree as soon as it finds another
//! thread's stored result cutting a node above it (`AncestorChecks`, on by default; Kerrigan's own cutoff check,
//! `CutoffChecks`, looks only at the node between two moves); and a mark's row is picked by its node's key, not
//! by the move's hash (`CsRowsByNode`, on by default), so the checks of a node's younger brothers read one cache
//! line — the same marks, fewer misses.
//!
//! # Examples
//!
//! ```
//! use eldest_board::Position;
//! use eldest_search::{CsTableKind, Engine, ParallelAlgorithm, SearchControl, SearchLimits, SearchOptions};
//!
//! let mut engine = Engine::new(1)?;
//! let mut options = SearchOptions { threads: 2, ..SearchOptions::default() };
//! options.parallel.algorithm = ParallelAlgorithm::SimplifiedAbdada;
//! let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
//! for table in CsTableKind::ALL {
//!     options.parallel.cs_table = table;
//!     let outcome = engine.search(&Position::startpos(), Default::default(), &limits, &options,
//!         &SearchControl::new(), &mut |_| {});
//!     assert!(outcome.best_move.is_some());
//!     // Every mark was taken back when its move's search returned.
//!     assert_eq!(engine.parallel_leftovers().1, 0, "{table}");
//! }
//! # Ok::<(), eldest_tt::TableSizeError>(())
//! ```

use crate::exchange::EntryExchange;
use crate::hooks::{MoveContext, SearchHooks};
use eldest_board::Move;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

/// Kerrigan's move hash (note 4): the position key mixed with the move as the seed of a linear congruential
/// generator, `key ^ (move · 1664525 + 1013904223)`, so the moves of one position spread over the table's rows.
/// The arithmetic lives in `eldest-hashing` (with its distribution tests); this is the form the table uses.
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::kerrigan_move_hash;
/// let position = Position::startpos();
/// let e4 = position.parse_uci_move("e2e4").unwrap();
/// let d4 = position.parse_uci_move("d2d4").unwrap();
/// assert_ne!(kerrigan_move_hash(position.key(), e4), kerrigan_move_hash(position.key(), d4));
/// ```
#[inline]
pub fn kerrigan_move_hash(key: u64, mv: Move) -> u64 {
    eldest_hashing::move_hash(key, mv.to_bits())
}

/// The structure behind simplified ABDADA's `currently_searching` marks (UCI option `CsTable`).
///
/// # Examples
///
/// ```
/// use eldest_search::{CsTableKind, ParallelSettings};
///
/// assert_eq!(CsTableKind::default(), CsTableKind::Array);
/// assert_eq!(" DashMap ".parse(), Ok(CsTableKind::DashMap));
/// let mut settings = ParallelSettings::default();
/// settings.set_knob("CsTable", "dashmap").unwrap();
/// assert_eq!(settings.cs_table, CsTableKind::DashMap);
/// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CsTableKind;
    ///
    /// for kind in CsTableKind::ALL {
    ///     assert_eq!(kind.name().parse(), Ok(kind));
    /// }
    /// // The default, measured faster, is offered first.
    /// assert_eq!(CsTableKind::ALL[0], CsTableKind::default());
    /// ```
    pub const ALL: [CsTableKind; 2] = [CsTableKind::Array, CsTableKind::DashMap];

    /// The UCI name: `array` or `dashmap`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CsTableKind;
    ///
    /// assert_eq!(CsTableKind::DashMap.name(), "dashmap");
    /// assert_eq!(CsTableKind::Array.to_string(), CsTableKind::Array.name());
    /// ```
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

/// What simplified ABDADA needs of a `currently_searching` table: Kerrigan's three operations on move hashes, each
/// in a row picked by a row key (the hash itself, or the node's key with `CsRowsByNode`; a set ignores it).
///
/// # Examples
///
/// ```
/// use eldest_search::{CurrentlySearching, DashCurrentlySearching, MoveMarks};
///
/// // Two threads start the same move and one finishes it: the mark is gone while the other is still at it, a race
/// // both structures tolerate as Kerrigan's notes do (3.1), since it costs only some duplicated work.
/// fn started_twice_finished_once(marks: &impl MoveMarks) -> bool {
///     marks.starting(9);
///     marks.starting(9);
///     marks.finished(9);
///     !marks.contains(9)
/// }
/// assert!(started_twice_finished_once(&CurrentlySearching::new(8, 2)));
/// assert!(started_twice_finished_once(&DashCurrentlySearching::new()));
/// ```
pub trait MoveMarks: Sync {
    /// `defer_move`'s test: whether `hash` is marked, looking in its own row (Kerrigan's placement).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{DashCurrentlySearching, MoveMarks};
    ///
    /// let marks = DashCurrentlySearching::new();
    /// assert!(!MoveMarks::contains(&marks, 0x51));
    /// marks.starting(0x51);
    /// assert!(MoveMarks::contains(&marks, 0x51));
    /// ```
    #[inline]
    fn contains(&self, hash: u64) -> bool {
        self.contains_in(hash, hash)
    }
    /// `starting_search`: mark `hash` in its own row (Kerrigan's placement).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{DashCurrentlySearching, MoveMarks};
    ///
    /// let marks = DashCurrentlySearching::new();
    /// marks.starting(0x51);
    /// marks.starting(0x62);
    /// assert!(marks.contains(0x51) && marks.contains(0x62));
    /// assert_eq!(marks.occupied(), 2);
    /// ```
    #[inline]
    fn starting(&self, hash: u64) {
        self.starting_in(hash, hash);
    }
    /// `finished_search`: unmark `hash` in its own row (Kerrigan's placement).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{DashCurrentlySearching, MoveMarks};
    ///
    /// let marks = DashCurrentlySearching::new();
    /// marks.starting(0x51);
    /// marks.finished(0x51);
    /// // Finishing a move nobody marked is harmless: a lost mark only costs a little duplicated work.
    /// marks.finished(0x62);
    /// assert_eq!(marks.occupied(), 0);
    /// ```
    #[inline]
    fn finished(&self, hash: u64) {
        self.finished_in(hash, hash);
    }

    /// [`contains`](Self::contains) where a table with rows may look in the row of `row_key` instead of the
    /// row of `hash` itself: the node's key when a node's moves share one row (`CsRowsByNode`). A set has no
    /// rows and ignores it.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{CurrentlySearching, DashCurrentlySearching, MoveMarks};
    ///
    /// let (array, set) = (CurrentlySearching::new(64, 4), DashCurrentlySearching::new());
    /// for marks in [&array as &dyn MoveMarks, &set] {
    ///     marks.starting_in(7, 0x51);
    ///     assert!(marks.contains_in(7, 0x51));
    /// }
    /// // The array looks only in the row it was told: the mark is in row 7, not in the hash's own row 0x51 & 63.
    /// assert!(!array.contains(0x51) && set.contains(0x51));
    /// ```
    fn contains_in(&self, row_key: u64, hash: u64) -> bool;

    /// [`starting`](Self::starting) in the row of `row_key` (see [`contains_in`](Self::contains_in)).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{CurrentlySearching, MoveMarks};
    ///
    /// let table = CurrentlySearching::new(64, 4);
    /// // Two moves of the node with key 9 share its row.
    /// table.starting_in(9, 0x100);
    /// table.starting_in(9, 0x200);
    /// assert!(table.contains_in(9, 0x100) && table.contains_in(9, 0x200));
    /// assert_eq!(table.occupied(), 2);
    /// ```
    fn starting_in(&self, row_key: u64, hash: u64);

    /// [`finished`](Self::finished) in the row of `row_key` (see [`contains_in`](Self::contains_in)).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{CurrentlySearching, MoveMarks};
    ///
    /// let table = CurrentlySearching::new(64, 4);
    /// table.starting_in(9, 0x100);
    /// table.finished_in(9, 0x100);
    /// assert_eq!(table.occupied(), 0);
    /// ```
    fn finished_in(&self, row_key: u64, hash: u64);
}

impl MoveMarks for CurrentlySearching {
    #[inline]
    fn contains_in(&self, row_key: u64, hash: u64) -> bool {
        CurrentlySearching::contains_in(self, row_key, hash)
    }

    #[inline]
    fn starting_in(&self, row_key: u64, hash: u64) {
        CurrentlySearching::starting_in(self, row_key, hash);
    }

    #[inline]
    fn finished_in(&self, row_key: u64, hash: u64) {
        CurrentlySearching::finished_in(self, row_key, hash);
    }
}

/// `currently_searching` as a `dashmap` set: the obvious concurrent-collection design, against which the
/// atomic array is measured. Exact (no row overflow) but every operation hashes and takes a shard lock.
///
/// # Examples
///
/// ```
/// use eldest_search::{DashCurrentlySearching, MoveMarks};
///
/// let marks = DashCurrentlySearching::new();
/// // Exact: hashes that would share a row of the array never push each other out here.
/// (0..1000).for_each(|hash| marks.starting(hash << 20));
/// assert_eq!(marks.occupied(), 1000);
/// assert!((0..1000).all(|hash| marks.contains(hash << 20)));
/// ```
#[derive(Debug, Default)]
pub struct DashCurrentlySearching {
    set: dashmap::DashSet<u64>,
}

impl DashCurrentlySearching {
    /// An empty set.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{DashCurrentlySearching, MoveMarks};
    ///
    /// let marks = DashCurrentlySearching::new();
    /// assert_eq!(marks.occupied(), 0);
    /// assert!(!marks.contains(1));
    /// ```
    pub fn new() -> DashCurrentlySearching {
        DashCurrentlySearching::default()
    }

    /// Empties the set (between searches).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{DashCurrentlySearching, MoveMarks};
    ///
    /// let marks = DashCurrentlySearching::new();
    /// [3, 4].into_iter().for_each(|hash| marks.starting(hash));
    /// marks.clear();
    /// assert_eq!(marks.occupied(), 0);
    /// ```
    pub fn clear(&self) {
        self.set.clear();
    }

    /// The number of marked moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{DashCurrentlySearching, MoveMarks};
    ///
    /// let marks = DashCurrentlySearching::new();
    /// // A set: marking a move twice holds it once.
    /// [3, 3, 4].into_iter().for_each(|hash| marks.starting(hash));
    /// assert_eq!(marks.occupied(), 2);
    /// ```
    pub fn occupied(&self) -> usize {
        self.set.len()
    }
}

/// A set has no rows: the row key is ignored.
impl MoveMarks for DashCurrentlySearching {
    #[inline]
    fn contains_in(&self, _row_key: u64, hash: u64) -> bool {
        self.set.contains(&hash)
    }

    #[inline]
    fn starting_in(&self, _row_key: u64, hash: u64) {
        self.set.insert(hash);
    }

    #[inline]
    fn finished_in(&self, _row_key: u64, hash: u64) {
        self.set.remove(&hash);
    }
}

/// Kerrigan's `currently_searching` table: `rows × ways` move hashes, 0 meaning empty.
///
/// Access is deliberately unsynchronised beyond single atomic loads and stores (seed 000, note 3): a stale or
/// lost entry only makes another thread search a move a little earlier or later. Relaxed atomics are how Rust
/// spells "racy but defined"; the races of notes 3.1 (two threads insert the same move) and 3.2 (the same move
/// in two slots) are tolerated exactly as the notes say — `finished` clears every slot holding the hash.
///
/// # Examples
///
/// ```
/// use eldest_search::CurrentlySearching;
///
/// // One row of two ways: a third move overwrites the first slot, and its mark is lost.
/// let table = CurrentlySearching::new(1, 2);
/// [11, 22, 33].into_iter().for_each(|hash| table.starting(hash));
/// assert!(!table.contains(11) && table.contains(22) && table.contains(33));
/// ```
#[derive(Debug)]
pub struct CurrentlySearching {
    slots: Box<[AtomicU64]>,
    rows: usize,
    ways: usize,
}

impl CurrentlySearching {
    /// A table of `rows` rows (rounded up to a power of two, at least 1) of `ways` slots (at least 1).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(1000, 0);
    /// // A row is picked by masking the hash, so the rows must be a power of two.
    /// assert_eq!((table.rows(), table.ways()), (1024, 1));
    /// assert_eq!(table.occupied(), 0);
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// assert_eq!(CurrentlySearching::new(32_768, 4).rows(), 32_768);
    /// assert_eq!(CurrentlySearching::new(0, 4).rows(), 1);
    /// ```
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of ways per row.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// assert_eq!(CurrentlySearching::new(16, 4).ways(), 4);
    /// ```
    pub fn ways(&self) -> usize {
        self.ways
    }

    #[inline]
    fn row(&self, row_key: u64) -> &[AtomicU64] {
        let row = (row_key as usize) & (self.rows - 1);
        &self.slots[row * self.ways..(row + 1) * self.ways]
    }

    /// `defer_move`'s test: whether `hash` is in its row.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(4, 2);
    /// table.starting(0x15);
    /// assert!(table.contains(0x15));
    /// // The same row (the low bits), another move: whole hashes are compared.
    /// assert!(!table.contains(0x25));
    /// ```
    #[inline]
    pub fn contains(&self, hash: u64) -> bool {
        self.contains_in(hash, hash)
    }

    /// [`contains`](Self::contains), looking in the row the low bits of `row_key` pick (Kerrigan's placement
    /// passes the hash itself; `CsRowsByNode` the node's key, so that all of a node's moves share one row and
    /// the checks of its younger brothers read one cache line).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(4, 2);
    /// table.starting_in(2, 0x15);
    /// assert!(table.contains_in(2, 0x15) && table.contains_in(6, 0x15));
    /// // Row 1, the hash's own, does not hold it.
    /// assert!(!table.contains(0x15));
    /// ```
    #[inline]
    pub fn contains_in(&self, row_key: u64, hash: u64) -> bool {
        self.row(row_key)
            .iter()
            .any(|slot| slot.load(Ordering::Relaxed) == hash)
    }

    /// `starting_search`: put `hash` in the first empty slot of its row, unless already there (note 3.1);
    /// with the row full, overwrite the first slot.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(4, 2);
    /// table.starting(0x15);
    /// // A second thread starting the same move takes no second slot (note 3.1).
    /// table.starting(0x15);
    /// assert_eq!(table.occupied(), 1);
    /// ```
    #[inline]
    pub fn starting(&self, hash: u64) {
        self.starting_in(hash, hash);
    }

    /// [`starting`](Self::starting) in the row of `row_key` (see [`contains_in`](Self::contains_in)).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(4, 2);
    /// // Three moves of one node in its row of two ways: the third overwrites the first slot.
    /// for hash in [0x10, 0x20, 0x30] {
    ///     table.starting_in(3, hash);
    /// }
    /// assert!(!table.contains_in(3, 0x10) && table.contains_in(3, 0x20) && table.contains_in(3, 0x30));
    /// ```
    #[inline]
    pub fn starting_in(&self, row_key: u64, hash: u64) {
        let row = self.row(row_key);
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(1, 2);
    /// // An emptied first slot lets the same move in twice, as racing threads could put it (note 3.2) …
    /// table.starting(5);
    /// table.starting(9);
    /// table.finished(5);
    /// table.starting(9);
    /// assert_eq!(table.occupied(), 2);
    /// // … and finishing it clears both.
    /// table.finished(9);
    /// assert_eq!(table.occupied(), 0);
    /// ```
    #[inline]
    pub fn finished(&self, hash: u64) {
        self.finished_in(hash, hash);
    }

    /// [`finished`](Self::finished) in the row of `row_key` (see [`contains_in`](Self::contains_in)).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(4, 2);
    /// table.starting_in(3, 0x10);
    /// // Finishing in another row leaves the mark where it is.
    /// table.finished(0x10);
    /// assert!(table.contains_in(3, 0x10));
    /// table.finished_in(3, 0x10);
    /// assert_eq!(table.occupied(), 0);
    /// ```
    #[inline]
    pub fn finished_in(&self, row_key: u64, hash: u64) {
        for slot in self.row(row_key) {
            if slot.load(Ordering::Relaxed) == hash {
                slot.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Empties the table (between searches).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(8, 4);
    /// [1, 2].into_iter().for_each(|hash| table.starting(hash));
    /// table.clear();
    /// assert_eq!(table.occupied(), 0);
    /// // The size is kept for the next search.
    /// assert_eq!((table.rows(), table.ways()), (8, 4));
    /// ```
    pub fn clear(&self) {
        self.slots
            .iter()
            .for_each(|slot| slot.store(0, Ordering::Relaxed));
    }

    /// The number of occupied slots (for tests and diagnostics).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::CurrentlySearching;
    ///
    /// let table = CurrentlySearching::new(8, 4);
    /// [1, 2, 3].into_iter().for_each(|hash| table.starting(hash));
    /// table.finished(2);
    /// assert_eq!(table.occupied(), 2);
    /// ```
    pub fn occupied(&self) -> usize {
        self.slots
            .iter()
            .filter(|slot| slot.load(Ordering::Relaxed) != 0)
            .count()
    }
}

/// Kerrigan's simplified ABDADA as hooks, over either `currently_searching` structure.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{DashCurrentlySearching, MoveContext, SearchHooks, SimplifiedAbdadaHooks};
///
/// let root = Position::startpos();
/// let mv = root.parse_uci_move("g1f3").unwrap();
/// let mut child = root;
/// child.play_unchecked(mv);
/// let (key, child_key) = (root.key(), child.key());
/// let context = MoveContext { key, mv, child_key, depth: 5, alpha: 0, beta: 1, ply: 0, place: 1 };
/// let marks = DashCurrentlySearching::new();
/// let hooks = SimplifiedAbdadaHooks {
///     table: &marks, defer_depth: 3, rows_by_node: true, cutoff_checks: false, ancestor_checks: true,
///     remote: None,
/// };
/// hooks.starting_move(context.key, context.mv, context.depth); // as another thread would
/// assert!(hooks.defer_move(&context));
/// // Shallow moves are never deferred: the table is not even looked at below DeferDepth.
/// assert!(!hooks.defer_move(&MoveContext { depth: 2, ..context }));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SimplifiedAbdadaHooks<'a, T: MoveMarks = CurrentlySearching> {
    /// The shared `currently_searching` table.
    pub table: &'a T,
    /// DEFER_DEPTH: below it the table is not touched at all (note 1).
    pub defer_depth: i32,
    /// `CsRowsByNode`: a move's mark goes in the row of its node's key, so a node's moves share one row,
    /// instead of the row of its own hash (Kerrigan, note 4).
    pub rows_by_node: bool,
    /// `CutoffChecks`: Kerrigan's re-probe of a node with deferred moves.
    pub cutoff_checks: bool,
    /// `AncestorChecks`: re-probe the path's nodes now and then and leave a subtree another thread's result cut.
    pub ancestor_checks: bool,
    /// `ClusterBusyHints` in a cluster: the other processes, told of the moves marked here and asked about the
    /// moves they marked.
    pub remote: Option<&'a dyn EntryExchange>,
}

impl<T: MoveMarks> SimplifiedAbdadaHooks<'_, T> {
    /// The key whose low bits pick the row of the mark `hash` of a move of the node `key`.
    #[inline]
    fn row_key(&self, key: u64, hash: u64) -> u64 {
        if self.rows_by_node { key } else { hash }
    }
}

impl<T: MoveMarks> SearchHooks for SimplifiedAbdadaHooks<'_, T> {
    type NodeGuard<'g>
        = ()
    where
        Self: 'g;

    #[inline]
    fn defer_move(&self, context: &MoveContext) -> bool {
        if context.depth < self.defer_depth {
            return false;
        }
        let hash = kerrigan_move_hash(context.key, context.mv);
        self.table.contains_in(self.row_key(context.key, hash), hash)
            || self
                .remote
                .is_some_and(|remote| remote.busy_elsewhere(hash, context.depth))
    }

    #[inline]
    fn starting_move(&self, key: u64, mv: Move, depth: i32) {
        if depth >= self.defer_depth {
            let hash = kerrigan_move_hash(key, mv);
            self.table.starting_in(self.row_key(key, hash), hash);
            if let Some(remote) = self.remote {
                remote.offer_busy(hash, depth);
            }
        }
    }

    #[inline]
    fn finished_move(&self, key: u64, mv: Move, depth: i32) {
        if depth >= self.defer_depth {
            let hash = kerrigan_move_hash(key, mv);
            self.table.finished_in(self.row_key(key, hash), hash);
            if let Some(remote) = self.remote {
                remote.finish_busy(hash, depth);
            }
        }
    }

    #[inline]
    fn enter_node(&self, _key: u64, _depth: i32) {}

    #[inline]
    fn cutoff_checks(&self) -> bool {
        self.cutoff_checks
    }

    #[inline]
    fn ancestor_checks(&self) -> bool {
        self.ancestor_checks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of the tables the indexing tests build: the default's 32,768 (Kerrigan's), fewer under Miri, where
    /// making and scanning 131,072 slots took two of the CI's three minutes of this module (tools/miri.sh).
    const TEST_ROWS: usize = if cfg!(miri) { 1024 } else { 32_768 };

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
            rows_by_node: false,
            cutoff_checks: false,
            ancestor_checks: false,
            remote: None,
        };
        let mv = eldest_board::Position::startpos().parse_uci_move("e2e4").unwrap();
        hooks.starting_move(42, mv, 2);
        assert_eq!(table.occupied(), 0);
        hooks.starting_move(42, mv, 3);
        assert_eq!(table.occupied(), 1);
        let context = MoveContext {
            key: 42,
            mv,
            child_key: 0,
            depth: 2,
            alpha: 0,
            beta: 1,
            ply: 1,
            place: 1,
        };
        assert!(!hooks.defer_move(&context), "never deferred below DeferDepth");
        assert!(hooks.defer_move(&MoveContext { depth: 3, ..context }));
        hooks.finished_move(42, mv, 3);
        assert_eq!(table.occupied(), 0);
    }

    #[test]
    fn rows_are_indexed_by_the_move_hash_as_kerrigan_does() {
        let table = CurrentlySearching::new(TEST_ROWS, 4);
        assert_eq!(table.rows(), TEST_ROWS);
        let hash = eldest_hashing::move_hash(0xDEAD_BEEF, 0x1234);
        table.starting(hash);
        let row = (hash as usize) & (TEST_ROWS - 1);
        assert_eq!(table.slots[row * 4].load(Ordering::Relaxed), hash);
    }

    #[test]
    fn rows_by_node_put_every_move_of_a_node_in_its_row_and_defer_as_kerrigan_does() {
        let root = eldest_board::Position::startpos();
        let moves: Vec<Move> = ["e2e4", "d2d4", "g1f3", "c2c4"]
            .iter()
            .map(|uci| root.parse_uci_move(uci).unwrap())
            .collect();
        let key = root.key();
        let by_node = CurrentlySearching::new(TEST_ROWS, 4);
        let by_move = CurrentlySearching::new(TEST_ROWS, 4);
        let hooks = |table, rows_by_node| SimplifiedAbdadaHooks {
            table,
            defer_depth: 3,
            rows_by_node,
            cutoff_checks: false,
            ancestor_checks: false,
            remote: None,
        };
        let (node_hooks, move_hooks) = (hooks(&by_node, true), hooks(&by_move, false));
        let context = |mv| MoveContext {
            key,
            mv,
            child_key: 0,
            depth: 5,
            alpha: 0,
            beta: 1,
            ply: 1,
            place: 1,
        };
        for &mv in &moves {
            node_hooks.starting_move(key, mv, 5);
            move_hooks.starting_move(key, mv, 5);
        }
        // By node: the four marks fill the node's row; by move: each sits in its own hash's row.
        let node_row = (key as usize) & (TEST_ROWS - 1);
        let in_node_row: Vec<u64> = (0..4)
            .map(|way| by_node.slots[node_row * 4 + way].load(Ordering::Relaxed))
            .collect();
        for &mv in &moves {
            let hash = kerrigan_move_hash(key, mv);
            assert!(in_node_row.contains(&hash));
            assert!(by_move.contains(hash) && !by_node.contains(hash));
            // The same deferrals either way: a marked move is deferred, an unmarked one is not.
            assert!(node_hooks.defer_move(&context(mv)) && move_hooks.defer_move(&context(mv)));
        }
        let unmarked = root.parse_uci_move("b1c3").unwrap();
        assert!(!node_hooks.defer_move(&context(unmarked)) && !move_hooks.defer_move(&context(unmarked)));
        for &mv in &moves {
            node_hooks.finished_move(key, mv, 5);
            move_hooks.finished_move(key, mv, 5);
        }
        assert_eq!((by_node.occupied(), by_move.occupied()), (0, 0));
    }

    /// Many threads mark and unmark overlapping moves (the same hashes, full rows that overflow, nested marks
    /// as in a real search), racing as Kerrigan's notes 3.1 and 3.2 allow. Marks may be lost on the way, but
    /// once every thread has finished what it started, nothing is left in either table. Under Miri (tools/miri.sh)
    /// the rounds shrink; the threads stay.
    fn hammer(table: &impl MoveMarks) {
        const THREADS: u64 = 8;
        let rounds: u64 = if cfg!(miri) { 40 } else { 50_000 };
        std::thread::scope(|scope| {
            for thread in 0..THREADS {
                scope.spawn(move || {
                    let mut state = thread.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                    let mut next_hash = || {
                        // xorshift64: a few dozen distinct non-zero hashes, so threads collide often.
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        1 + state % 48
                    };
                    for _ in 0..rounds {
                        let (outer, inner) = (next_hash(), next_hash());
                        table.starting(outer);
                        table.starting(inner);
                        let _ = table.contains(next_hash());
                        table.finished(inner);
                        table.finished(outer);
                    }
                });
            }
        });
    }

    #[test]
    fn racing_threads_leave_the_array_table_empty() {
        // 4 rows of 2 ways for 48 hashes: rows overflow all the time.
        let table = CurrentlySearching::new(4, 2);
        hammer(&table);
        assert_eq!(table.occupied(), 0);
    }

    #[test]
    fn racing_threads_leave_the_dashmap_table_empty() {
        let table = DashCurrentlySearching::new();
        hammer(&table);
        assert_eq!(table.occupied(), 0);
    }
}
