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
}

/// Hooks of a parallel algorithm. Shared by all threads of a search, hence `Sync`.
pub trait SearchHooks: Sync {
    /// Held while a thread is inside a node; dropped on every way out of it, aborts included.
    type NodeGuard<'g>
    where
        Self: 'g;

    /// A thread enters the node with `key`, to be searched to `depth`.
    fn enter_node(&self, key: u64, depth: i32) -> Self::NodeGuard<'_>;

    /// Whether a younger brother should be deferred to the second pass because another thread is searching it.
    #[inline(always)]
    fn defer_move(&self, _context: &MoveContext) -> bool {
        false
    }

    /// A younger brother of the node `key` at `depth` is about to be searched with a null window, first pass.
    #[inline(always)]
    fn starting_move(&self, _key: u64, _mv: Move, _depth: i32) {}

    /// The null-window search of that younger brother has returned.
    #[inline(always)]
    fn finished_move(&self, _key: u64, _mv: Move, _depth: i32) {}

    /// YBWC: whether the younger brothers of a node of `depth` remaining plies, whose eldest son has returned
    /// without a cutoff, are searched in parallel now, and by which pool. `None` (the default) never splits.
    #[inline(always)]
    fn split_pool(&self, _depth: i32) -> Option<&crate::parallel::ybwc::YbwcPool> {
        None
    }

    /// Weill's ABDADA: whether a node is entered right after its table probe, as Weill's `retrieveAsk` enters it
    /// (true), or only after the pruning that returns without searching a move (false, the default).
    #[inline(always)]
    fn enters_before_pruning(&self) -> bool {
        false
    }

    /// Both ABDADAs: Kerrigan's cutoff checks — in a node with deferred moves, from depth 4, re-probe the node's
    /// own table entry before each move and return if another thread has stored a result that cuts.
    #[inline(always)]
    fn cutoff_checks(&self) -> bool {
        false
    }

    /// Both ABDADAs: ancestor checks — every few hundred nodes, re-probe the non-PV nodes of the current path
    /// from depth 4 and, if another thread has stored a result that cuts one of them, abandon the subtree and
    /// return that result from it (Kerrigan's cutoff check carried down the path, as YBWC's abort reaches the
    /// helpers below a split point).
    #[inline(always)]
    fn ancestor_checks(&self) -> bool {
        false
    }
}

/// The serial search: no hooks.
#[derive(Debug, Clone, Copy, Default)]
pub struct Serial;

impl SearchHooks for Serial {
    type NodeGuard<'g> = ();

    #[inline(always)]
    fn enter_node(&self, _key: u64, _depth: i32) {}
}
