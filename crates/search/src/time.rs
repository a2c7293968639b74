//! Time management: how long this move may take, from `go movetime` or the clock.
//!
//! Two limits: the *soft* limit is checked between iterations (no new iteration starts after it, since it
//! would rarely finish), the *hard* limit aborts the search in the middle. Pondering freezes both until
//! `ponderhit`, from which they count.

use crate::limits::{SearchControl, SearchLimits, SearchOptions};
use eldest_board::Move;
use std::time::{Duration, Instant};

/// Moves assumed left in a sudden-death game when `movestogo` is not given.
const DEFAULT_MOVES_TO_GO: u32 = 25;

/// The time budget of one search.
///
/// # Examples
///
/// ```
/// use std::time::{Duration, Instant};
/// use eldest_search::{SearchControl, SearchLimits, SearchOptions, TimeManager};
///
/// // `go movetime 1000`, with the default 30 ms of move overhead kept back.
/// let limits = SearchLimits { move_time: Some(Duration::from_secs(1)), ..SearchLimits::default() };
/// let time = TimeManager::new(Instant::now(), &limits, &SearchOptions::default());
/// let control = SearchControl::new();
/// assert!(time.is_timed() && !time.hard_limit_reached(&control));
/// // A fixed move time is used up: no soft limit ends it early, whatever the search's stability.
/// assert!(!time.soft_limit_reached(&control, 2.5));
/// ```
#[derive(Debug, Clone)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// The budget for `limits`, with the options' move overhead subtracted.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use eldest_search::{SearchControl, SearchLimits, SearchOptions, TimeManager};
    ///
    /// // Started a second ago, with a move time within the overhead: at least a millisecond, long gone.
    /// let started = Instant::now() - Duration::from_secs(1);
    /// let limits = SearchLimits { move_time: Some(Duration::from_millis(20)), ..SearchLimits::default() };
    /// let time = TimeManager::new(started, &limits, &SearchOptions::default());
    /// assert!(time.hard_limit_reached(&SearchControl::new()));
    /// // `go depth 5` has no time limit at all.
    /// let depth = SearchLimits { depth: Some(5), ..SearchLimits::default() };
    /// assert!(!TimeManager::new(started, &depth, &SearchOptions::default()).is_timed());
    /// ```
    pub fn new(start: Instant, limits: &SearchLimits, options: &SearchOptions) -> TimeManager {
        let overhead = options.move_overhead;
        let minimum = Duration::from_millis(1);
        let mut soft = None;
        let mut hard = None;
        if let Some(clock) = limits.clock {
            let moves_to_go = clock.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 50);
            let remaining = clock.remaining.saturating_sub(overhead);
            let base = remaining / moves_to_go + clock.increment * 3 / 4;
            let soft_limit = base.min(remaining * 2 / 5).max(minimum);
            let hard_limit = (base * 3).min(remaining * 3 / 4).max(soft_limit);
            soft = Some(soft_limit);
            hard = Some(hard_limit);
        }
        if let Some(move_time) = limits.move_time {
            // `go movetime` asks for exactly that long: iterations go on until the hard limit stops one (whose
            // best move so far is kept if it beat the last completed iteration's), with no soft limit of its own.
            let fixed = move_time.saturating_sub(overhead).max(minimum);
            soft = soft.map(|s: Duration| s.min(fixed));
            hard = Some(hard.map_or(fixed, |h: Duration| h.min(fixed)));
        }
        TimeManager { start, soft, hard }
    }

    /// When the search started.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Instant;
    /// use eldest_search::{SearchLimits, SearchOptions, TimeManager};
    ///
    /// let started = Instant::now();
    /// let time = TimeManager::new(started, &SearchLimits::default(), &SearchOptions::default());
    /// assert_eq!(time.start(), started);
    /// ```
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time on this move's clock: zero while pondering, counted from `ponderhit` after one.
    fn clock_elapsed(&self, control: &SearchControl) -> Option<Duration> {
        if control.is_pondering() {
            return None;
        }
        Some(control.ponderhit_at().unwrap_or(self.start).elapsed())
    }

    /// Whether the hard limit has passed: abort now.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use eldest_search::{SearchControl, SearchLimits, SearchOptions, TimeManager};
    ///
    /// let started = Instant::now() - Duration::from_secs(1);
    /// let limits = SearchLimits { move_time: Some(Duration::from_millis(500)), ..SearchLimits::default() };
    /// let time = TimeManager::new(started, &limits, &SearchOptions::default());
    /// let control = SearchControl::new();
    /// assert!(time.hard_limit_reached(&control));
    /// // While pondering the clock does not run: the opponent is thinking on its own time.
    /// control.reset(true);
    /// assert!(!time.hard_limit_reached(&control));
    /// ```
    pub fn hard_limit_reached(&self, control: &SearchControl) -> bool {
        matches!((self.hard, self.clock_elapsed(control)), (Some(hard), Some(elapsed)) if elapsed >= hard)
    }

    /// Whether a new iteration should not start: more than half the soft budget, times `scale` (from
    /// [`SearchStability::scale`]), is used — the next iteration usually costs more than all before it together.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use eldest_search::{Clock, SearchControl, SearchLimits, SearchOptions, TimeManager};
    /// let clock = Clock { remaining: Duration::from_secs(10), increment: Duration::ZERO, moves_to_go: None };
    /// let limits = SearchLimits { clock: Some(clock), ..SearchLimits::default() };
    /// let started = Instant::now() - Duration::from_millis(250);
    /// let time = TimeManager::new(started, &limits, &SearchOptions::default());
    /// let control = SearchControl::new();
    /// // About 200 ms is half the soft budget: past it, unless the search is unsettled enough to double it.
    /// assert!(time.soft_limit_reached(&control, 1.0));
    /// assert!(!time.soft_limit_reached(&control, 2.0));
    /// ```
    pub fn soft_limit_reached(&self, control: &SearchControl, scale: f64) -> bool {
        matches!((self.soft, self.clock_elapsed(control)),
            (Some(soft), Some(elapsed)) if elapsed >= (soft / 2).mul_f64(scale))
    }

    /// Whether the search has any time limit at all.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use eldest_search::{SearchLimits, SearchOptions, TimeManager};
    ///
    /// let timed = |limits: &SearchLimits| {
    ///     TimeManager::new(Instant::now(), limits, &SearchOptions::default()).is_timed()
    /// };
    /// assert!(timed(&SearchLimits { move_time: Some(Duration::from_secs(2)), ..SearchLimits::default() }));
    /// // Node and depth limits are not time limits.
    /// assert!(!timed(&SearchLimits { nodes: Some(10_000), depth: Some(5), ..SearchLimits::default() }));
    /// ```
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

/// How settled the search is, from one completed iteration to the next: the time manager stops early when the
/// best move has stayed the same for several iterations and took most of the root's nodes, and goes on longer when
/// the best move just changed, shares the nodes with others, or the score dropped.
#[derive(Debug, Clone, Default)]
pub struct SearchStability {
    best_move: Option<Move>,
    unchanged_iterations: usize,
    previous_score: Option<i32>,
}

/// The soft budget's factor by the number of iterations the best move has not changed (0, 1, 2, 3, 4 or more).
const STABILITY_SCALE: [f64; 5] = [1.6, 1.25, 1.05, 0.95, 0.85];

impl SearchStability {
    /// Records a completed iteration — its best move, its score, and the share of the root's nodes spent on that
    /// move so far (if counted) — and returns the factor for the soft budget, between 0.35 and 2.5.
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::SearchStability;
    /// let start = Position::startpos();
    /// let [e4, d4] = ["e2e4", "d2d4"].map(|uci| start.parse_uci_move(uci).unwrap());
    /// let mut settled = SearchStability::default();
    /// let mut scale = 1.0;
    /// for _ in 0..6 {
    ///     scale = settled.scale(e4, 30, Some(0.9));
    /// }
    /// let mut unsettled = settled.clone();
    /// // The best move changes, it shares the nodes, and the score drops: take longer.
    /// assert!(unsettled.scale(d4, 5, Some(0.4)) > 2.0 * scale);
    /// ```
    pub fn scale(&mut self, best_move: Move, score: i32, best_move_share: Option<f64>) -> f64 {
        if self.best_move == Some(best_move) {
            self.unchanged_iterations += 1;
        } else {
            self.best_move = Some(best_move);
            self.unchanged_iterations = 0;
        }
        let stability = STABILITY_SCALE[self.unchanged_iterations.min(STABILITY_SCALE.len() - 1)];
        // 0.675 when the best move took all the nodes, 1.35 at half of them (the share is unknown when the
        // iteration was adopted from another thread: neutral).
        let effort = ((1.5 - best_move_share.unwrap_or(0.5)) * 1.35).clamp(0.5, 2.0);
        // A score 20 cp below the last iteration's asks for 20% more, up to 50%.
        let drop = self.previous_score.map_or(0, |previous| previous - score);
        let score_trend = (1.0 + f64::from(drop) / 100.0).clamp(0.9, 1.5);
        self.previous_score = Some(score);
        (stability * effort * score_trend).clamp(0.35, 2.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    fn budget(limits: SearchLimits) -> (Option<Duration>, Option<Duration>) {
        let tm = TimeManager::new(Instant::now(), &limits, &SearchOptions::default());
        (tm.soft, tm.hard)
    }

    #[test]
    fn move_time_is_fixed_minus_overhead() {
        let (soft, hard) = budget(SearchLimits {
            move_time: Some(Duration::from_millis(1000)),
            ..Default::default()
        });
        assert_eq!(
            soft, None,
            "no iteration is skipped for fear of the clock: the time is fixed"
        );
        assert_eq!(hard, Some(Duration::from_millis(970)));
        let clock = Clock {
            remaining: Duration::from_millis(10_000),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let (soft, hard) = budget(SearchLimits {
            move_time: Some(Duration::from_millis(5000)),
            clock: Some(clock),
            ..Default::default()
        });
        assert!(soft.unwrap() < Duration::from_millis(4970) && hard.unwrap() <= Duration::from_millis(4970));
    }

    #[test]
    fn clock_budget_stays_well_inside_the_remaining_time() {
        for (remaining_ms, increment_ms, moves_to_go) in [
            (60_000, 0, None),
            (1_000, 0, None),
            (50, 0, None),
            (8_000, 80, None),
            (10_000, 0, Some(1)),
            (0, 0, None),
        ] {
            let clock = Clock {
                remaining: Duration::from_millis(remaining_ms),
                increment: Duration::from_millis(increment_ms),
                moves_to_go,
            };
            let (soft, hard) = budget(SearchLimits {
                clock: Some(clock),
                ..Default::default()
            });
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(soft <= hard);
            assert!(
                hard <= Duration::from_millis(remaining_ms * 3 / 4).max(Duration::from_millis(1)),
                "{remaining_ms} ms: hard {hard:?}"
            );
        }
    }

    #[test]
    fn pondering_freezes_the_clock() {
        let control = SearchControl::new();
        control.reset(true);
        let limits = SearchLimits {
            move_time: Some(Duration::from_millis(1)),
            ..Default::default()
        };
        let tm = TimeManager::new(
            Instant::now() - Duration::from_secs(5),
            &limits,
            &SearchOptions::default(),
        );
        assert!(!tm.hard_limit_reached(&control));
        control.ponderhit();
        std::thread::sleep(Duration::from_millis(5));
        assert!(tm.hard_limit_reached(&control));
    }
}
