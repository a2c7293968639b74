//! What a stored score says about the true value of its position.

bitflags::bitflags! {
    /// The kind of a stored score: a lower bound, an upper bound, or both (exact).
    ///
    /// A node that failed high (score ≥ β) proves only a **lower** bound; one that failed low (score ≤ α) proves
    /// only an **upper** bound; a score strictly inside the window is both at once, hence `EXACT = LOWER | UPPER`.
    /// The empty set marks an entry that carries no usable score (only a move and a static evaluation).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_tt::{probe_cutoff, Bound, ProbeOutcome, Record, TranspositionTable};
    /// assert_eq!(Bound::EXACT, Bound::LOWER | Bound::UPPER);
    /// let tt = TranspositionTable::with_buckets(64)?;
    /// tt.store(1, 0, Record { best_move: 9, score: 0, static_eval: None, depth: 30, bound: Bound::empty() });
    /// // Without a bound the score proves nothing, however deep: only the move is used.
    /// assert_eq!(probe_cutoff(tt.probe(1), 1, -10, 10, 0), ProbeOutcome::MoveOnly(Some(9)));
    /// # Ok::<(), eldest_tt::TableSizeError>(())
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Bound: u8 {
        /// The true score is at least the stored score (fail-high, cut node).
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_tt::{probe_cutoff, Bound, ProbeOutcome, Record, TranspositionTable};
        /// let tt = TranspositionTable::with_buckets(64)?;
        /// tt.store(1, 0, Record { best_move: 9, score: 80, static_eval: None, depth: 4, bound: Bound::LOWER });
        /// // At least 80: a fail-high against beta = 50, but no answer for a window reaching 100.
        /// assert_eq!(probe_cutoff(tt.probe(1), 4, 0, 50, 0), ProbeOutcome::Cutoff(80));
        /// assert_eq!(probe_cutoff(tt.probe(1), 4, 0, 100, 0), ProbeOutcome::MoveOnly(Some(9)));
        /// # Ok::<(), eldest_tt::TableSizeError>(())
        /// ```
        const LOWER = 0b01;
        /// The true score is at most the stored score (fail-low, all node).
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_tt::{probe_cutoff, Bound, ProbeOutcome, Record, TranspositionTable};
        /// let tt = TranspositionTable::with_buckets(64)?;
        /// tt.store(1, 0, Record { best_move: 0, score: -30, static_eval: None, depth: 4, bound: Bound::UPPER });
        /// // At most -30: a fail-low against alpha = 0, but no answer for a window from -50.
        /// assert_eq!(probe_cutoff(tt.probe(1), 4, 0, 50, 0), ProbeOutcome::Cutoff(-30));
        /// assert_eq!(probe_cutoff(tt.probe(1), 4, -50, 50, 0), ProbeOutcome::MoveOnly(None));
        /// # Ok::<(), eldest_tt::TableSizeError>(())
        /// ```
        const UPPER = 0b10;
        /// The stored score is the true score (PV node).
        ///
        /// # Examples
        ///
        /// ```
        /// use eldest_tt::{probe_cutoff, Bound, ProbeOutcome, Record, TranspositionTable};
        /// assert!(Bound::EXACT.contains(Bound::LOWER) && Bound::EXACT.contains(Bound::UPPER));
        /// let tt = TranspositionTable::with_buckets(64)?;
        /// tt.store(1, 0, Record { best_move: 9, score: 30, static_eval: None, depth: 4, bound: Bound::EXACT });
        /// // The true score cuts even outside the window, as micro-Max uses it.
        /// assert_eq!(probe_cutoff(tt.probe(1), 4, 50, 100, 0), ProbeOutcome::Cutoff(30));
        /// # Ok::<(), eldest_tt::TableSizeError>(())
        /// ```
        const EXACT = Self::LOWER.bits() | Self::UPPER.bits();
    }
}
