//! What a stored score says about the true value of its position.

bitflags::bitflags! {
    /// The kind of a stored score: a lower bound, an upper bound, or both (exact).
    ///
    /// A node that failed high (score ≥ β) proves only a **lower** bound; one that failed low (score ≤ α) proves
    /// only an **upper** bound; a score strictly inside the window is both at once, hence `EXACT = LOWER | UPPER`.
    /// The empty set marks an entry that carries no usable score (only a move and a static evaluation).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Bound: u8 {
        /// The true score is at least the stored score (fail-high, cut node).
        const LOWER = 0b01;
        /// The true score is at most the stored score (fail-low, all node).
        const UPPER = 0b10;
        /// The stored score is the true score (PV node).
        const EXACT = Self::LOWER.bits() | Self::UPPER.bits();
    }
}
