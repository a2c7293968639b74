//! What the search does with a table hit: micro-Max's rules (seed 002), plus ABDADA's exclusive probe.

use crate::bound::Bound;
use crate::entry::Entry;
use crate::table::TranspositionTable;

/// What a stored result means for a node about to be searched.
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, ProbeOutcome, Record, TranspositionTable};
/// let tt = TranspositionTable::with_buckets(64)?;
/// tt.store(1, 0, Record { best_move: 9, score: 40, static_eval: None, depth: 5, bound: Bound::EXACT });
/// assert_eq!(tt.probe_node(1, 5, -100, 100, 0), ProbeOutcome::Cutoff(40));
/// assert_eq!(tt.probe_node(1, 6, -100, 100, 0), ProbeOutcome::MoveOnly(Some(9)));
/// assert_eq!(tt.probe_node(2, 1, -100, 100, 0), ProbeOutcome::Miss);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProbeOutcome {
    /// The stored result answers the node: return this root-relative score without searching.
    Cutoff(i32),
    /// The stored result cannot answer the node; search it, trying this move first if there is one.
    MoveOnly(Option<u16>),
    /// The position is not in the table: search it with no move hint.
    Miss,
}

/// The outcome of an ABDADA probe (Weill's `retrieveAsk`), see [`TranspositionTable::probe_exclusive`].
///
/// # Examples
///
/// ```
/// use eldest_tt::{Bound, ExclusiveProbe, ProbeOutcome, Record, TranspositionTable};
/// let tt = TranspositionTable::with_buckets(64)?;
/// tt.store(1, 0, Record { best_move: 9, score: 40, static_eval: None, depth: 5, bound: Bound::EXACT });
/// let _other_thread = tt.enter_guard(1, 7);
/// // Too shallow for depth 7 while another thread is on it: defer the move to the second pass.
/// assert_eq!(tt.probe_exclusive(1, 7, -100, 100, 0, true), ExclusiveProbe::OnEvaluation);
/// // Deep enough for depth 5: the stored result answers the node whoever is searching it.
/// let outcome = tt.probe_exclusive(1, 5, -100, 100, 0, true);
/// assert_eq!(outcome, ExclusiveProbe::Outcome(ProbeOutcome::Cutoff(40)));
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExclusiveProbe {
    /// The ordinary outcome: the node is not being searched by another thread, or the probe was not exclusive,
    /// or the stored result cuts anyway.
    Outcome(ProbeOutcome),
    /// ABDADA's `ON_EVALUATION`: an exclusive probe found another thread in the node. Skip the move now and
    /// search it in the second pass; the node was not entered.
    OnEvaluation,
}

/// Applies micro-Max's hash-hit rules (seed 002) to the entry found for a node searched to `depth` with the
/// window `(alpha, beta)` at `ply` plies from the root.
///
/// * **No entry** → [`ProbeOutcome::Miss`].
/// * **Sufficient depth** (stored depth ≥ `depth`; a pinned draw is deeper than any search) **and a bound
///   that fits the window** → [`ProbeOutcome::Cutoff`] with the stored score converted to `ply`. A bound fits
///   when it is exact (used even outside the window, as micro-Max does), a lower bound at or above `beta`
///   (it proves a fail-high), or an upper bound at or below `alpha` (it proves a fail-low).
/// * **Otherwise** — too shallow, or a bound on the wrong side of the window (an upper bound above `alpha`, a
///   lower bound below `beta`), or no score at all → [`ProbeOutcome::MoveOnly`]: the stored move, if any, is
///   searched first. (micro-Max also restarts its internal iterative deepening from the stored depth; that is
///   the search's decision.)
///
/// One deliberate difference: micro-Max ignores the move of a quiescence-depth entry because its entries
/// cannot say "no move"; here a missing move is explicit (`None`), so a quiescence entry's capture is
/// offered like any other move.
///
/// ```
/// use eldest_tt::{probe_cutoff, Bound, ProbeOutcome, Record, TranspositionTable};
/// let tt = TranspositionTable::with_buckets(64)?;
/// tt.store(1, 0, Record { best_move: 77, score: 120, static_eval: Some(0), depth: 6, bound: Bound::LOWER });
/// // Deep enough, and a lower bound of 120 proves a fail-high against beta = 100.
/// assert_eq!(probe_cutoff(tt.probe(1), 5, 50, 100, 0), ProbeOutcome::Cutoff(120));
/// // Against beta = 200 it proves nothing: only the move is used.
/// assert_eq!(probe_cutoff(tt.probe(1), 5, 50, 200, 0), ProbeOutcome::MoveOnly(Some(77)));
/// // Too shallow for depth 7.
/// assert_eq!(probe_cutoff(tt.probe(1), 7, 50, 100, 0), ProbeOutcome::MoveOnly(Some(77)));
/// assert_eq!(probe_cutoff(tt.probe(2), 1, 50, 100, 0), ProbeOutcome::Miss);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[must_use]
pub fn probe_cutoff(entry: Option<Entry>, depth: i32, alpha: i32, beta: i32, ply: usize) -> ProbeOutcome {
    let Some(entry) = entry else {
        return ProbeOutcome::Miss;
    };
    if entry.is_pinned() || entry.depth() >= depth {
        let score = entry.score(ply);
        let bound = entry.bound();
        let fits = bound == Bound::EXACT
            || (bound.contains(Bound::LOWER) && score >= beta)
            || (bound.contains(Bound::UPPER) && score <= alpha);
        if fits {
            return ProbeOutcome::Cutoff(score);
        }
    }
    ProbeOutcome::MoveOnly(entry.best_move())
}

impl TranspositionTable {
    /// Probes `key` and applies [`probe_cutoff`].
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{probe_cutoff, Bound, ProbeOutcome, Record, TranspositionTable, MATE};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.store(1, 4, Record { best_move: 9, score: MATE - 10, static_eval: None, depth: 8, bound: Bound::EXACT });
    /// assert_eq!(tt.probe_node(1, 8, -MATE, MATE, 2), probe_cutoff(tt.probe(1), 8, -MATE, MATE, 2));
    /// // Found at ply 4 and probed at ply 2, the mate is two plies nearer the root.
    /// assert_eq!(tt.probe_node(1, 8, -MATE, MATE, 2), ProbeOutcome::Cutoff(MATE - 8));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn probe_node(&self, key: u64, depth: i32, alpha: i32, beta: i32, ply: usize) -> ProbeOutcome {
        probe_cutoff(self.probe(key), depth, alpha, beta, ply)
    }

    /// ABDADA's probe (Weill's `retrieveAsk`, seed 001): [`probe_node`](Self::probe_node), except that an
    /// `exclusive` probe of a node another thread is searching returns [`ExclusiveProbe::OnEvaluation`].
    ///
    /// A cutoff wins over `OnEvaluation`: a stored result that answers the node is final whoever is searching
    /// it. The probe does not enter the node; after an [`ExclusiveProbe::Outcome`] other than a cutoff the
    /// search enters it with [`enter_guard`](Self::enter_guard).
    ///
    /// ```
    /// use eldest_tt::{ExclusiveProbe, ProbeOutcome, TranspositionTable};
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// let _inside = tt.enter_guard(9, 4); // another thread searching node 9
    /// assert_eq!(tt.probe_exclusive(9, 4, -10, 10, 3, true), ExclusiveProbe::OnEvaluation);
    /// // Not exclusive: the entry `enter` created, which has neither score nor move yet.
    /// let outcome = tt.probe_exclusive(9, 4, -10, 10, 3, false);
    /// assert_eq!(outcome, ExclusiveProbe::Outcome(ProbeOutcome::MoveOnly(None)));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[must_use]
    pub fn probe_exclusive(
        &self,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        exclusive: bool,
    ) -> ExclusiveProbe {
        let outcome = self.probe_node(key, depth, alpha, beta, ply);
        if exclusive && !matches!(outcome, ProbeOutcome::Cutoff(_)) && self.busy(key) {
            ExclusiveProbe::OnEvaluation
        } else {
            ExclusiveProbe::Outcome(outcome)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MATE, Record};

    fn table_with(bound: Bound, score: i32, depth: i32, best_move: u16) -> TranspositionTable {
        let tt = TranspositionTable::with_buckets(4).unwrap();
        tt.store(
            3,
            0,
            Record {
                best_move,
                score,
                static_eval: Some(0),
                depth,
                bound,
            },
        );
        tt
    }

    #[test]
    fn exact_of_sufficient_depth_cuts_inside_and_outside_the_window() {
        let tt = table_with(Bound::EXACT, 30, 4, 9);
        for (alpha, beta) in [(0, 100), (40, 100), (-100, 10)] {
            assert_eq!(tt.probe_node(3, 4, alpha, beta, 0), ProbeOutcome::Cutoff(30));
        }
    }

    #[test]
    fn lower_bound_cuts_only_at_or_above_beta() {
        let tt = table_with(Bound::LOWER, 30, 4, 9);
        assert_eq!(tt.probe_node(3, 3, 0, 30, 0), ProbeOutcome::Cutoff(30));
        assert_eq!(tt.probe_node(3, 3, 0, 31, 0), ProbeOutcome::MoveOnly(Some(9)));
    }

    #[test]
    fn upper_bound_cuts_only_at_or_below_alpha() {
        let tt = table_with(Bound::UPPER, 30, 4, 0);
        assert_eq!(tt.probe_node(3, 4, 30, 90, 0), ProbeOutcome::Cutoff(30));
        assert_eq!(tt.probe_node(3, 4, 29, 90, 0), ProbeOutcome::MoveOnly(None));
    }

    #[test]
    fn insufficient_depth_offers_only_the_move() {
        let tt = table_with(Bound::EXACT, 30, 4, 9);
        assert_eq!(
            tt.probe_node(3, 5, -MATE, MATE, 0),
            ProbeOutcome::MoveOnly(Some(9))
        );
    }

    #[test]
    fn entry_without_score_offers_only_the_move() {
        let tt = table_with(Bound::empty(), 30, 20, 9);
        assert_eq!(
            tt.probe_node(3, 1, -MATE, MATE, 0),
            ProbeOutcome::MoveOnly(Some(9))
        );
    }

    #[test]
    fn quiescence_entry_offers_its_move() {
        let tt = table_with(Bound::UPPER, 30, -2, 5);
        assert_eq!(tt.probe_node(3, 1, -10, 10, 0), ProbeOutcome::MoveOnly(Some(5)));
        assert_eq!(tt.probe_node(3, -3, 40, 50, 0), ProbeOutcome::Cutoff(30));
    }

    #[test]
    fn cutoff_score_is_converted_to_the_probing_ply() {
        let tt = TranspositionTable::with_buckets(4).unwrap();
        tt.store(
            3,
            4,
            Record {
                best_move: 1,
                score: MATE - 10,
                static_eval: Some(0),
                depth: 8,
                bound: Bound::EXACT,
            },
        );
        assert_eq!(
            tt.probe_node(3, 8, -MATE, MATE, 2),
            ProbeOutcome::Cutoff(MATE - 8)
        );
    }

    #[test]
    fn exclusive_probe_prefers_a_cutoff_to_on_evaluation() {
        let tt = table_with(Bound::EXACT, 30, 4, 9);
        let _other_thread = tt.enter_guard(3, 4);
        assert_eq!(
            tt.probe_exclusive(3, 4, 0, 10, 0, true),
            ExclusiveProbe::Outcome(ProbeOutcome::Cutoff(30))
        );
        assert_eq!(
            tt.probe_exclusive(3, 5, 0, 10, 0, true),
            ExclusiveProbe::OnEvaluation
        );
    }
}
