//! Weill's ABDADA (seed 001): a thread inside a node is counted in the node's transposition-table entry
//! (`nproc`, kept by `eldest-tt`); a younger brother whose node another thread is inside is deferred — the
//! exclusive probe answers ON_EVALUATION — and searched in a second pass. The eldest son is searched regardless.
//!
//! Departures from the text, each a knob of [`super::KNOBS`] with a measured default (docs/parallel-search.md):
//! the node is entered after the pruning that returns without searching (null move, reverse futility; Weill's
//! entry with the table probe is `EnterBeforePruning`); and a thread leaves a subtree as soon as it finds another
//! thread's stored result cutting a node above it (`AncestorChecks`, the node routine's ancestor checks), where
//! Weill's thread would search it to the end. Every node of the main search is entered, as in the text;
//! `AbdadaMinDepth` raises the least remaining depth entered (below it nobody enters, so nobody is asked about
//! either; 3 until 2026-12-07, when the text's 1 measured faster per node). `NprocTable` (off by default:
//! measured no faster) keeps the counts in a small table of their own ([`eldest_tt::NodeCounters`]) instead of
//! the entries, and reads a younger brother's entry only when another thread is counted in it — the same
//! deferrals.
//! `NprocMarks` (off by default) goes further from the text: no count at all, but a mark of the node in a
//! table like Kerrigan's `currently_searching` ([`CurrentlySearching`], keyed by the node), written and cleared
//! with plain stores instead of a compare-and-swap at every enter and leave; a leave may clear a mark another
//! thread still needs, which loses a deferral, never a result.
//!
//! # Examples
//!
//! ```
//! use eldest_board::Position;
//! use eldest_search::{Engine, ParallelAlgorithm, SearchControl, SearchLimits, SearchOptions};
//!
//! let mut engine = Engine::new(1)?;
//! let mut options = SearchOptions { threads: 2, ..SearchOptions::default() };
//! options.parallel.algorithm = ParallelAlgorithm::Abdada;
//! options.parallel.set_knob("AbdadaMinDepth", "3").unwrap(); // only nodes of 3 plies or more
//! let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
//! let outcome = engine.search(&Position::startpos(), Default::default(), &limits, &options,
//!     &SearchControl::new(), &mut |_| {});
//! assert!(Position::startpos().legal_moves().contains(&outcome.best_move.unwrap()));
//! // Every thread left every node it entered: no `nproc` count is left standing in the table.
//! assert_eq!(engine.parallel_leftovers().0, 0);
//! # Ok::<(), eldest_tt::TableSizeError>(())
//! ```

use crate::exchange::EntryExchange;
use crate::hooks::{MoveContext, SearchHooks};
use crate::parallel::simplified_abdada::CurrentlySearching;
use eldest_tt::{ExclusiveProbe, NodeCounters, NodeGuard, ProbeOutcome, TranspositionTable};

/// Weill's ABDADA as hooks.
///
/// ```
/// use eldest_search::{AbdadaHooks, SearchHooks};
/// use eldest_tt::TranspositionTable;
/// let tt = TranspositionTable::new(1).unwrap();
/// let hooks = AbdadaHooks {
///     tt: &tt,
///     counters: None,
///     marks: None,
///     min_depth: 2,
///     cutoff_checks: false,
///     enter_before_pruning: false,
///     ancestor_checks: false,
///     remote: None,
/// };
/// {
///     let _inside = hooks.enter_node(42, 5);
///     assert!(tt.busy(42));
///     let _too_shallow = hooks.enter_node(43, 1);
///     assert!(!tt.busy(43));
/// }
/// assert!(!tt.busy(42), "leaving is automatic");
///
/// // `NprocTable`: the same counts in a table of their own, away from the entries.
/// let counters = eldest_tt::NodeCounters::for_threads(2);
/// let apart = AbdadaHooks { counters: Some(&counters), ..hooks };
/// let _inside = apart.enter_node(42, 5);
/// assert!(counters.busy(42) && !tt.busy(42));
///
/// // `NprocMarks`: the node marked, not counted, in a table like Kerrigan's.
/// let marks = eldest_search::CurrentlySearching::new(64, 2);
/// let marking = AbdadaHooks { counters: None, marks: Some(&marks), ..hooks };
/// let _in = marking.enter_node(44, 5);
/// assert!(marks.contains(44) && !tt.busy(44));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct AbdadaHooks<'a> {
    /// The shared transposition table: the entries, and the `nproc` counters unless `counters` holds them.
    pub tt: &'a TranspositionTable,
    /// `NprocTable`: the `nproc` counters kept apart from the entries (`None`: in the entries, as Weill keeps
    /// them).
    pub counters: Option<&'a NodeCounters>,
    /// `NprocMarks`: the nodes threads are in marked in a table like Kerrigan's instead of counted (`None`:
    /// counted, in the entries or in `counters`).
    pub marks: Option<&'a CurrentlySearching>,
    /// `AbdadaMinDepth`: nodes of less remaining depth are neither entered nor asked about.
    pub min_depth: i32,
    /// `CutoffChecks`: Kerrigan's re-probe of a node with deferred moves.
    pub cutoff_checks: bool,
    /// `EnterBeforePruning`: enter a node with its table probe (Weill) instead of after null-move and reverse
    /// futility pruning.
    pub enter_before_pruning: bool,
    /// `AncestorChecks`: re-probe the path's nodes now and then and leave a subtree another thread's result cut.
    pub ancestor_checks: bool,
    /// `ClusterBusyHints` in a cluster: the other processes, told of the nodes entered here and asked about the
    /// nodes they entered.
    pub remote: Option<&'a dyn EntryExchange>,
}

/// Held while a thread is inside a node: its `nproc` count in the table, and in a cluster the announcement to
/// the other processes (counted at the node's owner rank with `ClusterBusyOwners`). Dropping it leaves both, on
/// every way out of the node.
///
/// ```
/// use eldest_search::{AbdadaHooks, SearchHooks};
/// use eldest_tt::TranspositionTable;
/// let tt = TranspositionTable::new(1).unwrap();
/// let hooks = AbdadaHooks {
///     tt: &tt, counters: None, marks: None, min_depth: 3, cutoff_checks: false, enter_before_pruning: false,
///     ancestor_checks: false, remote: None,
/// };
/// let inside = hooks.enter_node(9, 6);
/// assert!(tt.busy(9));
/// drop(inside);
/// assert!(!tt.busy(9));
/// ```
#[derive(Debug)]
pub struct AbdadaGuard<'g> {
    /// The node's `nproc` count in this process's table (none below `AbdadaMinDepth`).
    _counted: Option<NodeGuard<'g>>,
    /// `NprocMarks`: the table and the node this thread marked, cleared when it leaves.
    marked: Option<(&'g CurrentlySearching, u64)>,
    /// The exchange told of the node, with the node's key and depth.
    announced: Option<(&'g dyn EntryExchange, u64, i32)>,
}

impl Drop for AbdadaGuard<'_> {
    fn drop(&mut self) {
        if let Some((marks, key)) = self.marked {
            marks.finished(key);
        }
        if let Some((remote, key, depth)) = self.announced {
            remote.finish_busy(key, depth);
        }
    }
}

impl SearchHooks for AbdadaHooks<'_> {
    type NodeGuard<'g>
        = AbdadaGuard<'g>
    where
        Self: 'g;

    #[inline]
    fn defer_move(&self, context: &MoveContext) -> bool {
        if context.depth - 1 < self.min_depth {
            return false;
        }
        // The child, with the window it would be searched with.
        let (key, depth, alpha, beta, ply) = (
            context.child_key,
            context.depth - 1,
            -context.beta,
            -context.alpha,
            context.ply + 1,
        );
        let elsewhere = || {
            self.remote
                .is_some_and(|remote| remote.busy_elsewhere(key, depth))
        };
        // Whether another thread is in the child, asked of the counts apart or the marks: `None` when the counts
        // are in the entries, which only the exclusive probe reads.
        let in_the_child = match (self.marks, self.counters) {
            (Some(marks), _) => Some(marks.contains(key)),
            (None, Some(counters)) => Some(counters.busy(key)),
            (None, None) => None,
        };
        match in_the_child {
            // A stored result that answers the child is not deferred (retrieveAsk cuts before it looks at nproc):
            // it is used whoever is searching the child elsewhere.
            None => match self.tt.probe_exclusive(key, depth, alpha, beta, ply, true) {
                ExclusiveProbe::OnEvaluation => true,
                ExclusiveProbe::Outcome(ProbeOutcome::Cutoff(_)) => false,
                ExclusiveProbe::Outcome(_) => elsewhere(),
            },
            // The same decision asked the other way round: the entry is read only for a child some thread is
            // in (rarely), so the probe of every other child is the child's own, after the prefetch.
            Some(here) => {
                (here || self.remote.is_some())
                    && !matches!(
                        self.tt.probe_node(key, depth, alpha, beta, ply),
                        ProbeOutcome::Cutoff(_)
                    )
                    && (here || elsewhere())
            }
        }
    }

    #[inline]
    fn enter_node(&self, key: u64, depth: i32) -> AbdadaGuard<'_> {
        let announced = self.remote.map(|remote| {
            remote.offer_busy(key, depth);
            (remote, key, depth)
        });
        let enters = depth >= self.min_depth;
        let marked = self.marks.filter(|_| enters).map(|marks| {
            marks.starting(key);
            (marks, key)
        });
        AbdadaGuard {
            _counted: (enters && marked.is_none()).then(|| match self.counters {
                Some(counters) => counters.enter_guard(key),
                None => self.tt.enter_guard(key, depth),
            }),
            marked,
            announced,
        }
    }

    #[inline]
    fn cutoff_checks(&self) -> bool {
        self.cutoff_checks
    }

    #[inline]
    fn enters_before_pruning(&self) -> bool {
        self.enter_before_pruning
    }

    #[inline]
    fn ancestor_checks(&self) -> bool {
        self.ancestor_checks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_board::Position;
    use eldest_tt::{Bound, Record};

    fn hooks<'a>(tt: &'a TranspositionTable, counters: Option<&'a NodeCounters>) -> AbdadaHooks<'a> {
        AbdadaHooks {
            tt,
            counters,
            marks: None,
            min_depth: 3,
            cutoff_checks: false,
            enter_before_pruning: false,
            ancestor_checks: false,
            remote: None,
        }
    }

    /// A younger brother of the start position searched at `depth` with the window (-50, 50).
    fn brother(depth: i32) -> MoveContext {
        let position = Position::startpos();
        let mv = position.parse_uci_move("d2d4").unwrap();
        let mut child = position;
        child.play_unchecked(mv);
        MoveContext {
            key: position.key(),
            mv,
            child_key: child.key(),
            depth,
            alpha: -50,
            beta: 50,
            ply: 0,
            place: 1,
        }
    }

    /// Stores the result of [`brother`]'s child: a lower bound of 80 at depth 5 answers its window (the parent's,
    /// negated: (-50, 50) again), so the brother is searched at once whoever is inside.
    fn store_an_answer(tt: &TranspositionTable, child_key: u64) {
        let record = Record {
            best_move: 0,
            score: 80,
            static_eval: None,
            depth: 5,
            bound: Bound::LOWER,
        };
        tt.store(child_key, 1, record);
    }

    /// Weill's rules, whichever home the counts have: a brother another thread is in is deferred, unless its
    /// stored result answers it; a brother nobody is in, or below the depth threshold, is searched.
    #[test]
    fn both_homes_of_the_counts_defer_the_same_brothers() {
        let counters = NodeCounters::for_threads(2);
        for apart in [false, true] {
            let tt = TranspositionTable::with_buckets(1024).unwrap();
            let hooks = hooks(&tt, apart.then_some(&counters));
            let context = brother(6);
            assert!(!hooks.defer_move(&context), "nobody inside (apart: {apart})");
            let other_thread = hooks.enter_node(context.child_key, 5);
            assert_eq!(
                tt.busy(context.child_key),
                !apart,
                "the entries hold the count only without the table"
            );
            assert_eq!(counters.busy(context.child_key), apart);
            assert!(
                hooks.defer_move(&context),
                "another thread inside (apart: {apart})"
            );
            assert!(
                !hooks.defer_move(&brother(3)),
                "below AbdadaMinDepth (apart: {apart})"
            );
            store_an_answer(&tt, context.child_key);
            assert!(
                !hooks.defer_move(&context),
                "the stored result answers the brother (apart: {apart})"
            );
            drop(other_thread);
            assert_eq!((tt.nproc_total(), counters.total()), (0, 0));
        }
    }

    /// `NprocMarks`: the same deferrals from marks instead of counts, nothing counted, nothing left behind.
    #[test]
    fn marks_defer_the_brothers_counts_defer() {
        let tt = TranspositionTable::with_buckets(1024).unwrap();
        let marks = CurrentlySearching::new(64, 2);
        let hooks = AbdadaHooks {
            marks: Some(&marks),
            ..hooks(&tt, None)
        };
        let context = brother(6);
        assert!(!hooks.defer_move(&context), "nobody inside");
        let other_thread = hooks.enter_node(context.child_key, 5);
        assert!(marks.contains(context.child_key) && !tt.busy(context.child_key));
        assert!(hooks.defer_move(&context), "another thread inside");
        assert!(!hooks.defer_move(&brother(3)), "below AbdadaMinDepth");
        let too_shallow = hooks.enter_node(42, 2);
        assert!(!marks.contains(42), "below AbdadaMinDepth nobody marks");
        drop(too_shallow);
        store_an_answer(&tt, context.child_key);
        assert!(
            !hooks.defer_move(&context),
            "the stored result answers the brother"
        );
        drop(other_thread);
        assert_eq!((marks.occupied(), tt.nproc_total()), (0, 0));
    }
}
