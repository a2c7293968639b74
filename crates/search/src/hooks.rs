//! The points where a parallel algorithm plugs into the one node search.
//!
//! The node routine calls these at fixed places: on entering a node (after its TT probe, so a node answered by
//! the table is never entered — Weill's rule), and around every younger brother, i.e. every move after the
//! first. The eldest son is always searched first, never deferred and never marked. A hook may ask for a younger
//! brother to be *deferred*: skipped in the first pass over the moves and searched in a second pass at the end, as
//! both ABDADA variants require. Only the null-window search of a younger brother in the first pass is
//! marked; re-searches after a fail-high and deferred moves are not (Kerrigan's notes 5.1–5.3). The serial
//! search uses [`Serial`], whose hooks do nothing and compile away.

use eldest_board::Move;

/// What a hook knows about a younger brother about to be searched.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{CurrentlySearching, MoveContext, SearchHooks, SimplifiedAbdadaHooks};
///
/// let parent = Position::startpos();
/// let mv = parent.parse_uci_move("g1f3").unwrap();
/// let mut child = parent;
/// child.play_unchecked(mv);
/// let (key, child_key) = (parent.key(), child.key());
/// let context = MoveContext { key, mv, child_key, depth: 6, alpha: 0, beta: 1, ply: 2, place: 1 };
/// let table = CurrentlySearching::new(64, 4);
/// let hooks = SimplifiedAbdadaHooks {
///     table: &table, defer_depth: 3, rows_by_node: false, cutoff_checks: true, ancestor_checks: false,
///     remote: None,
/// };
/// hooks.starting_move(context.key, context.mv, context.depth); // as another thread would
/// assert!(hooks.defer_move(&context));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveContext {
    /// Key of the node (the parent).
    pub key: u64,
    /// The move.
    pub mv: Move,
    /// Key of the position the move leads to.
    pub child_key: u64,
    /// Remaining depth of the parent node.
    pub depth: i32,
    /// The parent's alpha.
    pub alpha: i32,
    /// The parent's beta.
    pub beta: i32,
    /// The parent's ply from the root.
    pub ply: usize,
    /// The moves before this one in the parent's move loop (at least 1: the eldest son is never asked about),
    /// as late-move reductions and pruning count them; with `BrothersKeepPlaces` the brothers this thread
    /// deferred count too, as in the serial loop.
    pub place: usize,
}

/// Hooks of a parallel algorithm. Shared by all threads of a search, hence `Sync`.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use eldest_search::SearchHooks;
///
/// /// Counts the nodes entered; every other hook keeps the serial search's default.
/// #[derive(Default)]
/// struct Counting(AtomicU64);
/// impl SearchHooks for Counting {
///     type NodeGuard<'g> = ();
///     fn enter_node(&self, _key: u64, _depth: i32) { self.0.fetch_add(1, Ordering::Relaxed); }
/// }
/// let hooks = Counting::default();
/// hooks.enter_node(1, 5);
/// hooks.enter_node(2, 4);
/// assert_eq!(hooks.0.load(Ordering::Relaxed), 2);
/// assert!(hooks.split_pool(10, false, 1).is_none() && !hooks.cutoff_checks());
/// ```
pub trait SearchHooks: Sync {
    /// Held while a thread is inside a node; dropped on every way out of it, aborts included.
    type NodeGuard<'g>
    where
        Self: 'g;

    /// A thread enters the node with `key`, to be searched to `depth`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{AbdadaHooks, SearchHooks};
    /// use eldest_tt::TranspositionTable;
    ///
    /// let tt = TranspositionTable::new(1).unwrap();
    /// let hooks = AbdadaHooks {
    ///     tt: &tt, counters: None, marks: None, min_depth: 2, cutoff_checks: false, enter_before_pruning: true,
    ///     ancestor_checks: true, remote: None,
    /// };
    /// let inside = hooks.enter_node(7, 5);
    /// assert!(tt.busy(7));
    /// // Dropping the guard is leaving the node, however the search got out of it.
    /// drop(inside);
    /// assert!(!tt.busy(7));
    /// ```
    fn enter_node(&self, key: u64, depth: i32) -> Self::NodeGuard<'_>;

    /// Whether a younger brother should be deferred to the second pass because another thread is searching it.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{AbdadaHooks, MoveContext, SearchHooks};
    /// use eldest_tt::TranspositionTable;
    ///
    /// let root = Position::startpos();
    /// let mv = root.parse_uci_move("e2e4").unwrap();
    /// let mut child = root;
    /// child.play_unchecked(mv);
    /// let (key, child_key) = (root.key(), child.key());
    /// let context = MoveContext { key, mv, child_key, depth: 6, alpha: 0, beta: 1, ply: 0, place: 1 };
    /// let tt = TranspositionTable::new(1).unwrap();
    /// let hooks = AbdadaHooks {
    ///     tt: &tt, counters: None, marks: None, min_depth: 2, cutoff_checks: false, enter_before_pruning: true,
    ///     ancestor_checks: true, remote: None,
    /// };
    /// assert!(!hooks.defer_move(&context));
    /// // Another thread is inside the child: Weill's ABDADA leaves it for the second pass.
    /// let _other = hooks.enter_node(child.key(), 5);
    /// assert!(hooks.defer_move(&context));
    /// ```
    #[inline(always)]
    fn defer_move(&self, _context: &MoveContext) -> bool {
        false
    }

    /// A younger brother of the node `key` at `depth` is about to be searched with a null window, first pass.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{CurrentlySearching, SearchHooks, SimplifiedAbdadaHooks, kerrigan_move_hash};
    ///
    /// let root = Position::startpos();
    /// let (e4, d4) = (root.parse_uci_move("e2e4").unwrap(), root.parse_uci_move("d2d4").unwrap());
    /// let table = CurrentlySearching::new(64, 4);
    /// let hooks = SimplifiedAbdadaHooks {
    ///     table: &table, defer_depth: 3, rows_by_node: false, cutoff_checks: true, ancestor_checks: false,
    ///     remote: None,
    /// };
    /// hooks.starting_move(root.key(), e4, 5);
    /// assert!(table.contains(kerrigan_move_hash(root.key(), e4)));
    /// // Below DeferDepth the table is not worth its traffic: nothing is marked.
    /// hooks.starting_move(root.key(), d4, 2);
    /// assert_eq!(table.occupied(), 1);
    /// ```
    #[inline(always)]
    fn starting_move(&self, _key: u64, _mv: Move, _depth: i32) {}

    /// The null-window search of that younger brother has returned.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{CurrentlySearching, SearchHooks, SimplifiedAbdadaHooks};
    ///
    /// let root = Position::startpos();
    /// let e4 = root.parse_uci_move("e2e4").unwrap();
    /// let table = CurrentlySearching::new(64, 4);
    /// let hooks = SimplifiedAbdadaHooks {
    ///     table: &table, defer_depth: 3, rows_by_node: false, cutoff_checks: true, ancestor_checks: false,
    ///     remote: None,
    /// };
    /// hooks.starting_move(root.key(), e4, 5);
    /// hooks.finished_move(root.key(), e4, 5);
    /// // The move is no longer being searched: other threads stop deferring it.
    /// assert_eq!(table.occupied(), 0);
    /// ```
    #[inline(always)]
    fn finished_move(&self, _key: u64, _mv: Move, _depth: i32) {}

    /// YBWC: whether the younger brothers of a node of `depth` remaining plies, whose first `sons_searched` sons
    /// (at least the eldest) have returned without a cutoff, are searched in parallel now, and by which pool.
    /// `expected_cut` says the node is still expected to fail high (a null-window node whose static evaluation is
    /// at least beta), so a later brother will likely cut and a helper's work there is likely wasted. `None` (the
    /// default) never splits.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{SearchHooks, Serial, YbwcHooks, YbwcPool};
    ///
    /// let pool = YbwcPool::new(2);
    /// let hooks = YbwcHooks {
    ///     min_split_depth: 4, split_only_when_idle: true, eager_split_depth: 0, split_expected_cuts: false,
    ///     late_splits: false, expected_cut_sons: 1, pool: &pool,
    /// };
    /// assert!(hooks.split_pool(6, false, 1).is_some_and(|p| std::ptr::eq(p, &pool)));
    /// // Shallow nodes are cheaper to search than to share.
    /// assert!(hooks.split_pool(3, false, 1).is_none());
    /// // A node expected to fail high keeps its brothers to itself.
    /// assert!(hooks.split_pool(6, true, 1).is_none());
    /// // Without late splits a node splits right after its eldest son or not at all.
    /// assert!(hooks.split_pool(6, false, 2).is_none());
    /// assert!(Serial.split_pool(20, false, 1).is_none());
    /// ```
    #[inline(always)]
    fn split_pool(
        &self,
        _depth: i32,
        _expected_cut: bool,
        _sons_searched: usize,
    ) -> Option<&crate::parallel::ybwc::YbwcPool> {
        None
    }

    /// Weill's ABDADA: whether a node is entered right after its table probe, as Weill's `retrieveAsk` enters it
    /// (true), or only after the pruning that returns without searching a move (false, the default).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{AbdadaHooks, SearchHooks, Serial};
    /// use eldest_tt::TranspositionTable;
    ///
    /// let tt = TranspositionTable::new(1).unwrap();
    /// let hooks = AbdadaHooks {
    ///     tt: &tt, counters: None, marks: None, min_depth: 2, cutoff_checks: false, enter_before_pruning: true,
    ///     ancestor_checks: true, remote: None,
    /// };
    /// assert!(hooks.enters_before_pruning());
    /// assert!(!Serial.enters_before_pruning());
    /// ```
    #[inline(always)]
    fn enters_before_pruning(&self) -> bool {
        false
    }

    /// Both ABDADAs: Kerrigan's cutoff checks — in a node with deferred moves, from depth 4, re-probe the node's
    /// own table entry before each move and return if another thread has stored a result that cuts.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{CurrentlySearching, SearchHooks, Serial, SimplifiedAbdadaHooks};
    ///
    /// let table = CurrentlySearching::new(64, 4);
    /// let hooks = SimplifiedAbdadaHooks {
    ///     table: &table, defer_depth: 3, rows_by_node: false, cutoff_checks: true, ancestor_checks: false,
    ///     remote: None,
    /// };
    /// assert!(hooks.cutoff_checks());
    /// // Alone, no other thread can store a result that cuts.
    /// assert!(!Serial.cutoff_checks());
    /// ```
    #[inline(always)]
    fn cutoff_checks(&self) -> bool {
        false
    }

    /// Both ABDADAs: ancestor checks — every few hundred nodes, re-probe the non-PV nodes of the current path
    /// from depth 4 and, if another thread has stored a result that cuts one of them, abandon the subtree and
    /// return that result from it (Kerrigan's cutoff check carried down the path, as YBWC's abort reaches the
    /// helpers below a split point).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::{AbdadaHooks, SearchHooks, Serial};
    /// use eldest_tt::TranspositionTable;
    ///
    /// let tt = TranspositionTable::new(1).unwrap();
    /// let hooks = AbdadaHooks {
    ///     tt: &tt, counters: None, marks: None, min_depth: 2, cutoff_checks: false, enter_before_pruning: true,
    ///     ancestor_checks: true, remote: None,
    /// };
    /// assert!(hooks.ancestor_checks());
    /// assert!(!Serial.ancestor_checks());
    /// ```
    #[inline(always)]
    fn ancestor_checks(&self) -> bool {
        false
    }
}

/// The serial search: no hooks.
///
/// # Examples
///
/// ```
/// use eldest_search::{SearchHooks, Serial};
///
/// // Alone there is no one to share with: no node is counted, nothing deferred, split or re-probed.
/// Serial.enter_node(42, 10);
/// assert!(Serial.split_pool(20, false, 1).is_none());
/// assert!(!Serial.cutoff_checks() && !Serial.ancestor_checks() && !Serial.enters_before_pruning());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Serial;

impl SearchHooks for Serial {
    type NodeGuard<'g> = ();

    #[inline(always)]
    fn enter_node(&self, _key: u64, _depth: i32) {}
}
