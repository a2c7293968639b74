//! The points where a parallel algorithm plugs into the one node search.
//!
//! The node routine calls these at fixed places: on entering and leaving a node, and around every move after
//! the first ("the eldest son", which is always searched first and never deferred). A hook may ask for a
//! move to be *deferred*: it is skipped in the first pass over the moves and searched in a second pass at the
//! end, as both ABDADA variants require. The serial search uses [`Serial`], whose hooks do nothing and compile
//! away, so a single-threaded search is exactly the plain search.

use eldest_board::Move;

/// Hooks of a parallel algorithm; every method has a do-nothing default.
pub trait SearchHooks {
    /// Whether a younger brother `mv` of the node with key `key` (leading to `child_key`), searched to `depth`,
    /// should be deferred to the second pass because another thread is searching it. Kerrigan's simplified
    /// ABDADA looks at the parent key and move; Weill's ABDADA at the child position.
    #[inline(always)]
    fn defer_move(&self, _key: u64, _mv: Move, _child_key: u64, _depth: i32) -> bool {
        false
    }

    /// A younger brother is about to be searched with a null window in the first pass.
    #[inline(always)]
    fn starting_move(&self, _key: u64, _mv: Move, _depth: i32) {}

    /// The null-window search of a younger brother has returned.
    #[inline(always)]
    fn finished_move(&self, _key: u64, _mv: Move, _depth: i32) {}
}

/// The serial search: no hooks.
#[derive(Debug, Clone, Copy, Default)]
pub struct Serial;

impl SearchHooks for Serial {}
