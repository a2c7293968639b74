//! The thread that runs one search: it calls the engine, writes an `info` line per report and the `bestmove`
//! at the end, and can be stopped and joined from the command loop.

use crate::info::{format_bestmove, format_bestmove_parts, format_info};
use crate::output::Output;
use crate::session::{SearchRequest, SearchRunner};
use eldest_board::Position;
use eldest_repetition::GameHistory;
use eldest_search::{Engine, IterationReport, SearchControl, SearchLimits, SearchOptions};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

/// Stack of the thread that runs the search (the search's main thread): generous, the recursion is deep.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Everything one search needs, moved into its thread.
#[derive(Debug)]
pub(crate) struct SearchJob {
    /// The engine, locked by the thread for the whole search.
    pub(crate) engine: Arc<Mutex<Engine>>,
    /// Where `info` and `bestmove` go.
    pub(crate) out: Output,
    /// The position to search.
    pub(crate) root: Position,
    /// The game before it.
    pub(crate) game: Arc<GameHistory>,
    /// From `go`.
    pub(crate) limits: SearchLimits,
    /// From the options.
    pub(crate) options: SearchOptions,
    /// `go ponder`.
    pub(crate) ponder: bool,
    /// What runs the search, when not [`Engine::search`] itself.
    pub(crate) runner: Option<Arc<dyn SearchRunner>>,
}

/// A search running on its thread.
#[derive(Debug)]
pub(crate) struct RunningSearch {
    handle: JoinHandle<()>,
    control: Arc<SearchControl>,
    /// Set by the search thread just before it writes `bestmove`.
    answered: Arc<AtomicBool>,
    /// The root, for a fallback answer should the thread fail.
    root: Position,
}

impl RunningSearch {
    /// Starts `job` on a new thread.
    ///
    /// # Errors
    /// When the operating system refuses the thread.
    pub(crate) fn spawn(job: SearchJob) -> io::Result<RunningSearch> {
        let control = Arc::new(SearchControl::new());
        control.reset(job.ponder);
        let answered = Arc::new(AtomicBool::new(false));
        let root = job.root;
        let (thread_control, thread_answered) = (Arc::clone(&control), Arc::clone(&answered));
        let handle = std::thread::Builder::new()
            .name("eldest-search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || job.run(&thread_control, &thread_answered))?;
        Ok(RunningSearch {
            handle,
            control,
            answered,
            root,
        })
    }

    /// Whether the search has written (or is writing) its `bestmove`.
    pub(crate) fn has_answered(&self) -> bool {
        self.answered.load(Ordering::Acquire)
    }

    /// `ponderhit`: switches a ponder search to its clock. Returns whether the search was pondering.
    pub(crate) fn ponderhit(&self) -> bool {
        let pondering = self.control.is_pondering();
        if pondering {
            self.control.ponderhit();
        }
        pondering
    }

    /// Stops the search and waits until its thread has written `bestmove` and ended. Should the thread have
    /// failed without answering, answers for it with a legal move.
    pub(crate) fn stop_and_join(self, out: &Output) {
        let asked = Instant::now();
        self.control.stop();
        let joined = self.handle.join();
        tracing::debug!(
            latency_us = u64::try_from(asked.elapsed().as_micros()).unwrap_or(u64::MAX),
            "search stopped and joined"
        );
        if joined.is_err() {
            out.info_string("the search thread failed; answering with a legal move");
            if !self.answered.load(Ordering::Acquire) {
                let fallback = self.root.legal_moves().first().copied();
                out.send(&format_bestmove_parts(fallback, None, self.root.is_chess960()));
            }
        }
    }
}

impl SearchJob {
    fn run(self, control: &SearchControl, answered: &AtomicBool) {
        let chess960 = self.root.is_chess960();
        let mut engine = self.engine.lock().unwrap_or_else(PoisonError::into_inner);
        let out = &self.out;
        let on_iteration = &mut |report: &IterationReport| out.send(&format_info(report, chess960));
        let request = SearchRequest {
            root: &self.root,
            game: self.game,
            limits: &self.limits,
            options: &self.options,
        };
        let outcome = match &self.runner {
            None => request.run(&mut engine, control, on_iteration),
            Some(runner) => runner.run(&mut engine, request, control, on_iteration),
        };
        tracing::debug!(
            nodes = outcome.nodes,
            depth = outcome.depth,
            time_ms = u64::try_from(outcome.time.as_millis()).unwrap_or(u64::MAX),
            "search done"
        );
        for (thread, stats) in engine.thread_stats().iter().enumerate() {
            tracing::debug!(
                thread,
                nodes = stats.nodes,
                tt_hits = stats.tt_hits,
                cutoffs = stats.cutoffs,
                first_move_cutoffs = stats.first_move_cutoffs,
                deferred_moves = stats.deferred_moves,
                "thread figures"
            );
        }
        drop(engine);
        // Flag first, then answer: a GUI that reacts to `bestmove` with a new `go` must find this search done
        // (the loop then joins this thread, which is at most a write away from its end).
        answered.store(true, Ordering::Release);
        out.send(&format_bestmove(&outcome, chess960));
    }
}
