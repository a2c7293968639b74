//! The search threads: created once (when `Threads` first asks for more than one, or changes) and parked
//! between searches, so a `go` spawns no thread and maps no stack. Every algorithm runs on them: lazy SMP and the
//! ABDADAs start one iterative deepening per thread; YBWC runs its one iterative deepening on a pool thread and
//! the split points hand younger brothers to the others. Parked threads sleep (rayon's idle loop), costing
//! nothing between searches; during a YBWC search with `IdleSpin` they poll for split points instead.

use crate::worker::Worker;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Stack size of search threads: the recursion is at most `MAX_PLY` deep, a few KiB per ply.
const SEARCH_STACK_BYTES: usize = 32 << 20;

/// The parked search threads.
#[derive(Debug, Default)]
pub(crate) struct SearchPool {
    pool: Option<(usize, rayon::ThreadPool)>,
}

impl SearchPool {
    /// Makes sure `threads` threads exist (rebuilding the pool only when the count changes).
    pub(crate) fn ensure(&mut self, threads: usize) -> Result<(), rayon::ThreadPoolBuildError> {
        if self.pool.as_ref().is_some_and(|(n, _)| *n == threads) {
            return Ok(());
        }
        self.pool = None;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(SEARCH_STACK_BYTES)
            .thread_name(|i| format!("eldest-search-{i}"))
            .build()?;
        self.pool = Some((threads, pool));
        Ok(())
    }

    /// Runs `main` on the first worker and `helper` on each other one, each on its own pool thread, and calls
    /// `main_done` as soon as `main` returns (to stop the helpers). Returns the main result, then the helpers'.
    /// Without a pool (one thread) `main` runs on the calling thread.
    pub(crate) fn run_root_threads<R: Send>(
        &self,
        workers: &mut [Worker],
        main: impl FnOnce(&mut Worker) -> R + Send,
        helper: impl Fn(&mut Worker) -> R + Sync,
        main_done: impl FnOnce() + Send,
    ) -> Vec<R> {
        let (main_worker, helpers) = workers.split_first_mut().expect("at least one worker");
        let Some((_, pool)) = self.pool.as_ref().filter(|_| !helpers.is_empty()) else {
            let result = main(main_worker);
            main_done();
            return vec![result];
        };
        pool.install(|| {
            let mut helper_results: Vec<Option<R>> = helpers.iter().map(|_| None).collect();
            let mut main_result = None;
            rayon::scope(|scope| {
                let helper = &helper;
                for (worker, slot) in helpers.iter_mut().zip(helper_results.iter_mut()) {
                    scope.spawn(move |_| *slot = Some(helper(worker)));
                }
                main_result = Some(main(main_worker));
                main_done();
            });
            main_result
                .into_iter()
                .chain(helper_results.into_iter().flatten())
                .collect()
        })
    }

    /// Runs `main` on a pool thread (YBWC: its split points then spread over the pool), or on the calling thread
    /// without a pool.
    pub(crate) fn run_in_pool<R: Send>(&self, main: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some((_, pool)) => pool.install(main),
            None => main(),
        }
    }

    /// Runs `main` on a pool thread while every other pool thread polls for work without sleeping until `main`
    /// returns (YBWC's `IdleSpin`: a split point's tasks start at once instead of after a wake-up). Without a
    /// pool `main` runs on the calling thread.
    pub(crate) fn run_in_pool_spinning<R: Send>(&self, main: impl FnOnce() -> R + Send) -> R {
        let Some((_, pool)) = &self.pool else {
            return main();
        };
        pool.install(|| {
            let searching = AtomicBool::new(true);
            let main_thread = rayon::current_thread_index();
            let mut result = None;
            rayon::scope(|scope| {
                let searching = &searching;
                // One poller per pool thread; the main thread's returns at once when it meets it (it can only
                // meet it while waiting at a split point, or at the end).
                scope.spawn_broadcast(move |_, context| {
                    if Some(context.index()) != main_thread {
                        poll_for_work(|| searching.load(Ordering::Acquire));
                    }
                });
                result = Some(main());
                searching.store(false, Ordering::Release);
            });
            result.expect("the main closure ran inside the scope")
        })
    }
}

/// How long a thread with nothing to do keeps spinning before it naps between polls: split points come every
/// few hundred microseconds in a search, but a machine with more threads than cores needs the core back.
const SPIN_BEFORE_NAPPING: Duration = Duration::from_micros(500);

/// Runs pending pool work (a split point's task) while `keep_polling` holds, spinning instead of sleeping when
/// there is none; after [`SPIN_BEFORE_NAPPING`] without work it naps briefly between polls. Outside a rayon pool
/// it only waits.
pub(crate) fn poll_for_work(keep_polling: impl Fn() -> bool) {
    let mut idle_since: Option<Instant> = None;
    while keep_polling() {
        if rayon::yield_now() == Some(rayon::Yield::Executed) {
            idle_since = None;
            continue;
        }
        if idle_since.get_or_insert_with(Instant::now).elapsed() < SPIN_BEFORE_NAPPING {
            // Between polls, stay off the cache lines of the deques the other threads push to.
            for _ in 0..16 {
                std::hint::spin_loop();
            }
        } else {
            std::thread::sleep(Duration::from_micros(20));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_made_once_and_every_worker_runs_on_its_own_thread() {
        let mut pool = SearchPool::default();
        pool.ensure(3).unwrap();
        let first = pool.pool.as_ref().map(|(_, p)| p as *const rayon::ThreadPool);
        pool.ensure(3).unwrap();
        assert_eq!(
            first,
            pool.pool.as_ref().map(|(_, p)| p as *const rayon::ThreadPool)
        );
        let mut workers: Vec<Worker> = (0..3).map(|_| Worker::new()).collect();
        let started = std::sync::atomic::AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        // The main thread waits until both helpers run: they cannot be running on its thread.
        let results = pool.run_root_threads(
            &mut workers,
            |_| {
                while started.load(Ordering::SeqCst) < 2 {
                    std::hint::spin_loop();
                }
                rayon::current_thread_index()
            },
            |_| {
                started.fetch_add(1, Ordering::SeqCst);
                while !stop.load(Ordering::SeqCst) {
                    std::hint::spin_loop();
                }
                rayon::current_thread_index()
            },
            || stop.store(true, Ordering::SeqCst),
        );
        let mut threads: Vec<usize> = results.into_iter().flatten().collect();
        threads.sort_unstable();
        threads.dedup();
        assert_eq!(threads.len(), 3, "three workers on three pool threads");
        pool.ensure(2).unwrap();
        assert_eq!(pool.run_in_pool(rayon::current_num_threads), 2);
    }

    #[test]
    fn spinning_helpers_take_the_main_threads_work_and_stop_with_it() {
        let mut pool = SearchPool::default();
        pool.ensure(4).unwrap();
        for _ in 0..50 {
            let (main_thread, helper_threads) = pool.run_in_pool_spinning(|| {
                let main_thread = rayon::current_thread_index();
                let ran_on = std::sync::Mutex::new(Vec::new());
                let done = std::sync::atomic::AtomicUsize::new(0);
                rayon::scope(|scope| {
                    for _ in 0..3 {
                        scope.spawn(|_| {
                            ran_on.lock().unwrap().push(rayon::current_thread_index());
                            done.fetch_add(1, Ordering::SeqCst);
                        });
                    }
                    // The main thread never yields here: the pollers must take the tasks.
                    while done.load(Ordering::SeqCst) < 3 {
                        std::hint::spin_loop();
                    }
                });
                (main_thread, ran_on.into_inner().unwrap())
            });
            assert_eq!(helper_threads.len(), 3);
            assert!(helper_threads.iter().all(|t| t.is_some() && *t != main_thread));
        }
        let here = std::thread::current().id();
        let unpooled = SearchPool::default();
        assert_eq!(
            unpooled.run_in_pool_spinning(|| std::thread::current().id()),
            here
        );
    }

    #[test]
    fn polling_outside_a_pool_returns_when_told() {
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(3));
                stop.store(true, Ordering::SeqCst);
            });
            poll_for_work(|| !stop.load(Ordering::SeqCst));
        });
        assert!(stop.load(Ordering::SeqCst));
    }

    #[test]
    fn without_a_pool_the_main_worker_runs_here() {
        let pool = SearchPool::default();
        let mut workers = vec![Worker::new()];
        let here = std::thread::current().id();
        let results = pool.run_root_threads(
            &mut workers,
            |_| std::thread::current().id(),
            |_| unreachable!(),
            || {},
        );
        assert_eq!(results, vec![here]);
    }
}
