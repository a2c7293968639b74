//! The search of the Eldest chess engine: evaluation, move ordering, the node search, time management and
//! the search drivers.
//!
//! One node routine serves every algorithm: negamax alpha-beta with principal variation search, quiescence,
//! transposition-table probes by micro-Max's rules, null-move and futility pruning, late-move reductions,
//! killers and history, correction history for the static evaluation, singular extensions (no check extension),
//! mate-distance pruning and draw detection. Parallel algorithms plug in through
//! [`SearchHooks`]; the serial search uses [`Serial`], whose hooks compile away. The search never writes text:
//! it returns a [`SearchOutcome`] and calls back with [`IterationReport`]s, which the UCI layer formats.
//!
//! ```
//! use std::sync::Arc;
//! use eldest_board::Position;
//! use eldest_repetition::GameHistory;
//! use eldest_search::{Engine, Score, SearchControl, SearchLimits, SearchOptions};
//!
//! // White mates in one: Ra8#.
//! let root = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let game = Arc::new([(root.key(), root.halfmove_clock())].into_iter().collect::<GameHistory>());
//! let mut engine = Engine::new(16)?;
//! let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
//! let outcome = engine.search(&root, game, &limits, &SearchOptions::default(), &SearchControl::new(), &mut |_| {});
//! assert_eq!(root.move_to_uci(outcome.best_move.unwrap()), "a1a8");
//! assert_eq!(outcome.score, Score::Mate(1));
//! # Ok::<(), eldest_tt::TableSizeError>(())
//! ```
// `unsafe` is denied everywhere but in `nnue::simd`, the one module that calls AVX2 code after detecting it.
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod bench;
mod correction;
mod engine;
mod eval;
mod exchange;
mod hooks;
mod learnt;
mod limits;
pub mod nnue;
mod ordering;
pub mod parallel;
mod params;
mod pesto;
mod report;
mod see;
mod time;
mod tree_keys;
mod worker;

pub use correction::CorrectionHistory;
pub use engine::{Engine, Utilisation, uci_score};
#[cfg(feature = "cli")]
pub use eval::EvalArgs;
pub use eval::{
    EvalTrace, Evaluation, EvaluationKind, FULL_PHASE, ParseEvaluationError, TEMPO, eval_trace, evaluate,
};
pub use exchange::{EntryExchange, TABLE_ENTRY_BYTES, TableEntry};
pub use hooks::{MoveContext, SearchHooks, Serial};
pub use limits::{Clock, SearchControl, SearchLimits, SearchOptions};
pub use ordering::{HISTORY_MAX, History, MovePicker, PickerKind};
pub use parallel::abdada::{AbdadaGuard, AbdadaHooks};
pub use parallel::lazy::{Ballot, choose_ballot, lazy_helper_depth, lazy_vote, vote_applies};
pub use parallel::simplified_abdada::{
    CsTableKind, CurrentlySearching, DashCurrentlySearching, MoveMarks, SimplifiedAbdadaHooks,
    kerrigan_move_hash,
};
pub use parallel::ybwc::{YbwcHooks, YbwcPool};
pub use parallel::{
    HelperHistory, KNOBS, Knob, KnobError, KnobKind, KnobValue, ParallelAlgorithm, ParallelSettings,
    ParseAlgorithmError, WindowUpdates, find_knob,
};
pub use params::{SearchParams, TUNABLES, Tunable, find_tunable};
pub use report::{IterationReport, Score, ScoreBound, SearchOutcome};
pub use see::{SEE_VALUE, see_ge};
pub use time::{SearchStability, TimeManager};
pub use tree_keys::{TreeKeys, TreeRecording};
pub use worker::{DRAW, INFINITY, MAX_PLY, ThreadStats, TreeProfile};
