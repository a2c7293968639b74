//! Repetition detection and the fifty-move rule for the Eldest chess engine, right with any number of search
//! threads.
//!
//! A chess search must score a repeated position as a draw, or it will happily walk into a perpetual check it
//! believes it is winning — or miss one that saves a lost game. This crate answers "is this node drawn by
//! repetition?" from plain 64-bit Zobrist keys, in two parts:
//!
//! - [`GameHistory`]: the positions of the real game since the last irreversible move, in a small hash table
//!   with linear probing and occurrence counts (seed 003). Built once from `position ... moves ...`, then
//!   frozen and shared read-only by every search thread behind an [`Arc`](std::sync::Arc).
//! - [`SearchRepetitions`]: one stack per search thread of the positions between the root and the current node,
//!   pushed and popped as that thread makes and unmakes moves. Per thread, because a marker in the shared
//!   transposition table cannot tell one thread's path from another's (seed 004; see `docs/repetition.md`).
//!
//! The crate does not depend on the board: the search feeds it keys and halfmove clocks.
//!
//! # Rules
//!
//! The root of a search is the current game position; it belongs to the game, not to the search path.
//!
//! 1. **Twofold inside the tree.** A position whose earlier occurrence lies strictly after the root, on the
//!    current search path, scores as a draw at once: whoever could repeat once can repeat again.
//! 2. **Threefold across the boundary.** A position that repeats one from the game (the root included) scores as
//!    a draw when it completes a threefold — the game holds it twice already. This is Stockfish's rule,
//!    [`RepetitionRule::Stockfish`], the default.
//! 3. **Threefold in the game alone.** [`GameHistory::is_threefold`] tells whether the current game position
//!    has occurred three times, before any search.
//! 4. **The micro-Max alternative.** [`RepetitionRule::MicroMax`] treats any return to a game position before
//!    the root as a draw (seed 004). Eldest can also realise it in the transposition table, by pinning
//!    [`GameHistory::pinned_keys`] as exact draws of maximal depth that no store evicts; the verdicts agree.
//! 5. **Fifty moves.** [`fifty_move_draw`] is true from a halfmove clock of 100 on, unless the side to move is
//!    checkmated — the caller must supply the mate test, which is run only at clock 100 or more.
//! 6. **Irreversible moves cut the history.** A capture or a pawn move (halfmove clock 0) clears the game
//!    history and stops the in-search lookback, as does a null move inside the search. Only every second
//!    position — the same side to move — within the halfmove clock is ever compared.
//!
//! # Examples
//!
//! Knights out and back twice from the start position, with a search that goes round once more:
//!
//! ```
//! use std::sync::Arc;
//! use eldest_repetition::{fifty_move_draw, GameHistory, RepetitionRule, SearchRepetitions};
//!
//! // Stand-ins for the Zobrist keys of: start, Nf3, Nf6, Ng1 (knights back: start again).
//! let (start, nf3, nf6, ng1) = (0x5741_5254, 0x4E66_33, 0x4E66_36, 0x4E67_31);
//!
//! // The game: start Nf3 Nf6 Ng1 Ng8 — the start position has occurred twice.
//! let game: GameHistory = [(start, 0), (nf3, 1), (nf6, 2), (ng1, 3), (start, 4)].into_iter().collect();
//! assert_eq!(game.count(start), 2);
//! assert!(!game.is_threefold());
//!
//! // Each search thread gets its own path over the shared game.
//! let game = Arc::new(game);
//! let mut path = SearchRepetitions::new(Arc::clone(&game), RepetitionRule::Stockfish);
//! path.push(nf3, 5);
//! assert!(!path.is_repetition_draw()); // twofold with the game: play on
//! path.push(nf6, 6);
//! path.push(ng1, 7);
//! path.push(start, 8);
//! assert!(path.is_repetition_draw()); // the third start position: threefold
//! assert!(!fifty_move_draw(8, || false));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod fifty;
mod game;
mod rule;
mod search;
mod table;

pub use fifty::{FIFTY_MOVE_PLIES, fifty_move_draw};
pub use game::GameHistory;
pub use rule::{ParseRepetitionRuleError, RepetitionRule};
pub use search::SearchRepetitions;
