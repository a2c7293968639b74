//! Both ABDADAs: one aspiration window for every thread of an iteration (`SharedWindows`).
//!
//! Every thread of an ABDADA search runs its own iterative deepening, and so its own aspiration loop. When one
//! thread's root search fails its window, the other threads' searches of that window are bound to fail as well,
//! yet without this knob each goes on until it fails by itself: on the long set two threads spent 12–16% of their time in
//! windows the other had already failed, and while two threads search different windows a node one defers to
//! the other comes back with a bound the deferring thread may not be able to use. With shared windows the
//! first thread to fail a window opens the widened one for all; a thread still inside the old window leaves it
//! at its next look at the clock (every 1024 nodes) and joins the new one, as YBWC's threads, which have one
//! aspiration loop between them, always are.
//!
//! The windows themselves are the serial search's (`AspirationWindow`, doubled on each failure): only who
//! widens them is shared. With one thread nothing is shared and nothing changes. Measured (docs/parallel-search.md,
//! *One aspiration window for the ABDADAs' threads*): the time in failed windows falls to 2%, the time to depth
//! does not improve — what a thread stores in a failed window serves the widened one — so the knob is off by
//! default.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// One root window of an iteration: the bounds searched and the widening step that produced them.
///
/// # Examples
///
/// ```
/// use eldest_search::parallel::windows::RootWindow;
///
/// let window = RootWindow::new(12, -20, 20, 20);
/// assert_eq!((window.depth, window.alpha, window.beta, window.delta), (12, -20, 20, 20));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootWindow {
    /// The iteration's depth.
    pub depth: u32,
    /// The window's lower bound.
    pub alpha: i32,
    /// The window's upper bound.
    pub beta: i32,
    /// The step the next widening adds (the aspiration loop doubles it after each failure).
    pub delta: i32,
    /// Which opening of a window this is: 0 for a window no other thread was told of, then one more for each
    /// window opened for all threads.
    generation: u64,
}

impl RootWindow {
    /// A window of `depth` not yet opened for the other threads.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::parallel::windows::RootWindow;
    ///
    /// assert_eq!(RootWindow::new(5, -30, 10, 20).beta, 10);
    /// ```
    pub fn new(depth: u32, alpha: i32, beta: i32, delta: i32) -> RootWindow {
        RootWindow {
            depth,
            alpha,
            beta,
            delta,
            generation: 0,
        }
    }

    /// The window's generation and depth in one word, which a thread compares at its looks at the clock. A
    /// depth is below [`MAX_PLY`](crate::MAX_PLY), so it fits the low byte.
    fn tag(&self) -> u64 {
        (self.generation << 8) | u64::from(self.depth & 0xff)
    }
}

/// The root window every thread of an iteration searches, and who has moved it on.
///
/// # Examples
///
/// ```
/// use eldest_search::parallel::windows::{RootWindow, RootWindows};
///
/// let windows = RootWindows::new();
/// // The main thread opens depth 8's window; the helper, arriving with its own idea of it, joins that one.
/// let main = windows.join(RootWindow::new(8, -20, 20, 20));
/// let helper = windows.join(RootWindow::new(8, -35, 5, 20));
/// assert_eq!(helper, main);
/// // The helper fails high first: it opens the widened window, and the main thread's search must leave the old.
/// let widened = windows.failed(helper, RootWindow::new(8, -20, 60, 40));
/// assert!(windows.superseded(&main));
/// assert_eq!(windows.current(8), Some(widened));
/// // The main thread's own failure of the old window, later, lands in the window the helper opened.
/// assert_eq!(windows.failed(main, RootWindow::new(8, -20, 45, 40)), widened);
/// ```
#[derive(Debug)]
pub struct RootWindows {
    current: Mutex<Option<RootWindow>>,
    /// The current window's tag (0: none), read without the lock at every look at the clock.
    tag: AtomicU64,
}

impl Default for RootWindows {
    fn default() -> RootWindows {
        RootWindows::new()
    }
}

impl RootWindows {
    /// No window open yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::parallel::windows::RootWindows;
    ///
    /// assert_eq!(RootWindows::new().current(1), None);
    /// ```
    pub fn new() -> RootWindows {
        RootWindows {
            current: Mutex::new(None),
            tag: AtomicU64::new(0),
        }
    }

    /// The window a thread starting `proposed.depth` searches: the one another thread has opened for that depth
    /// if there is one, otherwise `proposed`, opened for all. A thread behind the others (a deeper window is
    /// open) searches `proposed` alone.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::parallel::windows::{RootWindow, RootWindows};
    ///
    /// let windows = RootWindows::new();
    /// let first = windows.join(RootWindow::new(3, -10, 10, 20));
    /// assert_eq!(windows.join(RootWindow::new(3, 0, 30, 20)), first);
    /// ```
    pub fn join(&self, proposed: RootWindow) -> RootWindow {
        let mut current = self.lock();
        match *current {
            Some(open) if open.depth == proposed.depth => open,
            Some(open) if open.depth > proposed.depth => proposed,
            _ => self.open(&mut current, proposed),
        }
    }

    /// The window a thread searches after its search of `left` failed and it widened it to `widened`: the
    /// window another thread opened after `left` if one did (its failure came first), otherwise `widened`,
    /// opened for all.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::parallel::windows::{RootWindow, RootWindows};
    ///
    /// let windows = RootWindows::new();
    /// let left = windows.join(RootWindow::new(10, -20, 20, 20));
    /// let widened = windows.failed(left, RootWindow::new(10, -60, 0, 40));
    /// assert_eq!(windows.current(10), Some(widened));
    /// ```
    pub fn failed(&self, left: RootWindow, widened: RootWindow) -> RootWindow {
        let mut current = self.lock();
        match *current {
            Some(open) if open.depth == left.depth && open.generation != left.generation => open,
            Some(open) if open.depth > left.depth => widened,
            _ => self.open(&mut current, widened),
        }
    }

    /// Whether a thread searching `window` should leave it: another thread has opened a newer window of the same
    /// depth. One atomic load: threads ask at every look at the clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::parallel::windows::{RootWindow, RootWindows};
    ///
    /// let windows = RootWindows::new();
    /// let window = windows.join(RootWindow::new(6, -20, 20, 20));
    /// assert!(!windows.superseded(&window));
    /// ```
    pub fn superseded(&self, window: &RootWindow) -> bool {
        let tag = self.tag.load(Ordering::Acquire);
        tag != window.tag() && tag & 0xff == u64::from(window.depth & 0xff)
    }

    /// The window open for `depth`, if the newest window is of that depth.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::parallel::windows::{RootWindow, RootWindows};
    ///
    /// let windows = RootWindows::new();
    /// windows.join(RootWindow::new(4, -20, 20, 20));
    /// assert!(windows.current(4).is_some() && windows.current(5).is_none());
    /// ```
    pub fn current(&self, depth: u32) -> Option<RootWindow> {
        self.lock().filter(|open| open.depth == depth)
    }

    fn open(&self, current: &mut Option<RootWindow>, window: RootWindow) -> RootWindow {
        let generation = current.map_or(0, |open| open.generation) + 1;
        let opened = RootWindow { generation, ..window };
        *current = Some(opened);
        self.tag.store(opened.tag(), Ordering::Release);
        opened
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<RootWindow>> {
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_thread_behind_keeps_its_own_window_and_is_never_told_to_leave_it() {
        let windows = RootWindows::new();
        windows.join(RootWindow::new(9, -20, 20, 20));
        let behind = windows.join(RootWindow::new(8, -15, 25, 20));
        assert_eq!(behind, RootWindow::new(8, -15, 25, 20));
        assert!(!windows.superseded(&behind));
        // Its failure does not move the deeper window.
        let widened = windows.failed(behind, RootWindow::new(8, -15, 65, 40));
        assert_eq!(widened, RootWindow::new(8, -15, 65, 40));
        assert_eq!(windows.current(9).map(|w| (w.alpha, w.beta)), Some((-20, 20)));
    }

    #[test]
    fn the_next_depth_supersedes_no_window_of_the_last() {
        let windows = RootWindows::new();
        let eight = windows.join(RootWindow::new(8, -20, 20, 20));
        let nine = windows.join(RootWindow::new(9, -10, 30, 20));
        assert_ne!(nine, eight);
        assert!(
            !windows.superseded(&eight),
            "leaving depth 8 is the completed iteration's business"
        );
        assert!(!windows.superseded(&nine));
    }

    #[test]
    fn a_window_failed_twice_is_widened_once() {
        let windows = RootWindows::new();
        let first = windows.join(RootWindow::new(12, -20, 20, 20));
        let second = windows.join(RootWindow::new(12, -20, 20, 20));
        let by_first = windows.failed(first, RootWindow::new(12, -20, 70, 40));
        let by_second = windows.failed(second, RootWindow::new(12, -20, 55, 40));
        assert_eq!(by_second, by_first);
        assert!(!windows.superseded(&by_first));
        // Failing the widened window moves on again.
        let third = windows.failed(by_second, RootWindow::new(12, -20, 150, 80));
        assert!(windows.superseded(&by_first));
        assert_eq!((third.beta, third.delta), (150, 80));
    }

    #[test]
    fn threads_failing_at_once_agree_on_one_window_per_generation() {
        let windows = Arc::new(RootWindows::new());
        let start = windows.join(RootWindow::new(15, -20, 20, 20));
        let results: Vec<RootWindow> = (0..8)
            .map(|thread| {
                let windows = Arc::clone(&windows);
                std::thread::spawn(move || windows.failed(start, RootWindow::new(15, -20, 40 + thread, 40)))
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|handle| handle.join().unwrap())
            .collect();
        assert!(results.iter().all(|window| *window == results[0]), "{results:?}");
        assert_eq!(windows.current(15), Some(results[0]));
        assert!(windows.superseded(&start));
    }
}
