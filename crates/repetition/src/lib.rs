#![doc = include_str!("../README.md")]
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
