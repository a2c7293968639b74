//! The entry-exchange hook: what a search offers, and what it does with what it is given.

use eldest_board::Position;
use eldest_repetition::GameHistory;
use eldest_search::{
    Engine, EntryExchange, ParallelAlgorithm, SearchControl, SearchLimits, SearchOptions, TableEntry,
};
use std::sync::{Arc, Mutex};

/// Records what the search offers and delivers what the test put in.
#[derive(Debug)]
struct Recorder {
    min_depth: i32,
    offered: Mutex<Vec<TableEntry>>,
    incoming: Mutex<Vec<TableEntry>>,
    /// Busy hints offered.
    busy: Mutex<Vec<u64>>,
    /// Whether every node or move is said to be searched elsewhere.
    all_busy_elsewhere: bool,
}

impl Recorder {
    fn new(min_depth: i32, incoming: Vec<TableEntry>) -> Arc<Recorder> {
        Arc::new(Recorder {
            min_depth,
            offered: Mutex::new(Vec::new()),
            incoming: Mutex::new(incoming),
            busy: Mutex::new(Vec::new()),
            all_busy_elsewhere: false,
        })
    }
}

impl EntryExchange for Recorder {
    fn min_depth(&self) -> i32 {
        self.min_depth
    }

    fn offer(&self, entry: TableEntry) {
        self.offered.lock().unwrap().push(entry);
    }

    fn deliver(&self, store: &mut dyn FnMut(TableEntry)) {
        self.incoming.lock().unwrap().drain(..).for_each(store);
    }

    fn offer_busy(&self, busy: u64, depth: i32) {
        if depth >= self.min_depth {
            self.busy.lock().unwrap().push(busy);
        }
    }

    fn busy_elsewhere(&self, _busy: u64, _depth: i32) -> bool {
        self.all_busy_elsewhere
    }
}

fn search(engine: &mut Engine, depth: u32) -> u64 {
    search_with(engine, depth, &SearchOptions::default()).0
}

/// Nodes, move and deferred moves of a search of the test position.
fn search_with(engine: &mut Engine, depth: u32, options: &SearchOptions) -> (u64, String, u64) {
    let root =
        Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9").unwrap();
    let game = Arc::new(
        [(root.key(), root.halfmove_clock())]
            .into_iter()
            .collect::<GameHistory>(),
    );
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let outcome = engine.search(&root, game, &limits, options, &SearchControl::new(), &mut |_| {});
    let deferred = engine.thread_stats().iter().map(|s| s.deferred_moves).sum();
    (
        outcome.nodes,
        root.move_to_uci(outcome.best_move.unwrap()),
        deferred,
    )
}

#[test]
fn a_search_offers_only_results_at_least_the_floor_deep_and_without_one_searches_alone() {
    let mut alone = Engine::new(16).unwrap();
    let alone_nodes = search(&mut alone, 10);
    let recorder = Recorder::new(5, Vec::new());
    let mut sharing = Engine::new(16).unwrap();
    sharing.set_entry_exchange(Some(recorder.clone()));
    // Offering changes nothing in the search itself.
    assert_eq!(search(&mut sharing, 10), alone_nodes);
    let offered = recorder.offered.lock().unwrap();
    assert!(!offered.is_empty());
    assert!(
        offered.iter().all(|entry| entry.depth >= 5),
        "a shallow entry offered"
    );
}

#[test]
fn delivered_results_are_stored_and_used() {
    let first = Recorder::new(1, Vec::new());
    let mut engine = Engine::new(16).unwrap();
    engine.set_entry_exchange(Some(first.clone()));
    let first_nodes = search(&mut engine, 10);
    // A fresh engine given everything the first stored repeats the search in far fewer nodes.
    let entries = std::mem::take(&mut *first.offered.lock().unwrap());
    let second = Recorder::new(1, entries);
    let mut other = Engine::new(16).unwrap();
    other.set_entry_exchange(Some(second.clone()));
    let second_nodes = search(&mut other, 10);
    assert!(second.incoming.lock().unwrap().is_empty(), "everything delivered");
    assert!(
        second_nodes * 2 < first_nodes,
        "{second_nodes} nodes with the other's table, {first_nodes} without"
    );
}

#[test]
fn both_abdadas_announce_what_they_search_and_defer_what_others_search() {
    for algorithm in [ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada] {
        let mut options = SearchOptions::default();
        options.parallel.algorithm = algorithm;
        let (plain_nodes, _, _) = search_with(&mut Engine::new(16).unwrap(), 10, &options);
        // One thread with an exchange: the algorithm's hooks run, and announce what they search.
        let quiet = Recorder::new(5, Vec::new());
        let mut engine = Engine::new(16).unwrap();
        engine.set_entry_exchange(Some(quiet.clone()));
        search_with(&mut engine, 10, &options);
        assert!(
            !quiet.busy.lock().unwrap().is_empty(),
            "{algorithm}: no busy hint"
        );
        // Told that everything is searched elsewhere, the thread defers every younger brother it may (the
        // order changes, and with it the tree and perhaps the move) and still completes its search.
        let mut everything = Recorder::new(5, Vec::new());
        Arc::get_mut(&mut everything).unwrap().all_busy_elsewhere = true;
        let mut engine = Engine::new(16).unwrap();
        engine.set_entry_exchange(Some(everything));
        let (_, mv, deferred) = search_with(&mut engine, 10, &options);
        assert!(deferred > 0, "{algorithm}: nothing deferred");
        assert!(!mv.is_empty());
        // With the knob off, a rank of one thread searches exactly as alone and announces nothing.
        options.parallel.cluster_busy_hints = false;
        let silent = Recorder::new(5, Vec::new());
        let mut engine = Engine::new(16).unwrap();
        engine.set_entry_exchange(Some(silent.clone()));
        assert_eq!(
            search_with(&mut engine, 10, &options).0,
            plain_nodes,
            "{algorithm}"
        );
        assert!(silent.busy.lock().unwrap().is_empty());
    }
}

/// Counts the searchers of every node or move as an owner rank would, and whether the search asked for owners.
#[derive(Debug, Default)]
struct Owner {
    open: Mutex<std::collections::HashMap<(u64, i32), i64>>,
    offers: std::sync::atomic::AtomicU64,
    owners_from: std::sync::atomic::AtomicI32,
}

impl EntryExchange for Owner {
    fn min_depth(&self) -> i32 {
        5
    }

    fn offer(&self, _: TableEntry) {}

    fn deliver(&self, _: &mut dyn FnMut(TableEntry)) {}

    fn offer_busy(&self, busy: u64, depth: i32) {
        self.offers.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        *self.open.lock().unwrap().entry((busy, depth)).or_default() += 1;
    }

    fn finish_busy(&self, busy: u64, depth: i32) {
        *self.open.lock().unwrap().entry((busy, depth)).or_default() -= 1;
    }

    fn use_busy_owners(&self, from_depth: Option<i32>) {
        self.owners_from
            .store(from_depth.unwrap_or(-1), std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn every_busy_announcement_is_finished_on_every_way_out_and_the_owner_knob_reaches_the_exchange() {
    for algorithm in [ParallelAlgorithm::Abdada, ParallelAlgorithm::SimplifiedAbdada] {
        for (threads, stopped_after) in [(1, None), (2, None), (2, Some(3_000))] {
            let mut options = SearchOptions {
                threads,
                ..SearchOptions::default()
            };
            options.parallel.algorithm = algorithm;
            options.parallel.cluster_busy_owners = true;
            options.parallel.cluster_owner_depth = 7;
            let owner = Arc::new(Owner::default());
            let mut engine = Engine::new(16).unwrap();
            engine.set_entry_exchange(Some(owner.clone()));
            let limits = SearchLimits {
                depth: Some(10),
                nodes: stopped_after,
                ..SearchLimits::default()
            };
            let root = Position::startpos();
            let game = Arc::new(
                [(root.key(), root.halfmove_clock())]
                    .into_iter()
                    .collect::<GameHistory>(),
            );
            engine.search(&root, game, &limits, &options, &SearchControl::new(), &mut |_| {});
            assert_eq!(owner.owners_from.load(std::sync::atomic::Ordering::Relaxed), 7);
            assert!(
                owner.offers.load(std::sync::atomic::Ordering::Relaxed) > 0,
                "{algorithm}"
            );
            let open = owner.open.lock().unwrap();
            assert!(
                open.values().all(|&count| count == 0),
                "{algorithm}, {threads} threads, limit {stopped_after:?}: an announcement left open"
            );
        }
    }
}
