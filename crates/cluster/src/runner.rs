//! The searches of a rank. The first rank keeps the clock: it searches as a lone engine would, then stops the
//! other ranks, collects their results and reports the move the ranks' depth-and-score vote chooses. Every other
//! rank searches the same position without a clock until the first rank stops it, and sends its result.

use crate::node::{ClusterLink, Outgoing};
use crate::wire::{Control, CounterSnapshot, RankResult};
use eldest_board::{Move, Position};
use eldest_search::{
    Ballot, Engine, EntryExchange, IterationReport, Score, ScoreBound, SearchControl, SearchLimits,
    SearchOutcome, choose_ballot, uci_score, vote_applies,
};
use eldest_tt::MATE;
use eldest_uci::{SearchRequest, SearchRunner};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long the first rank waits for the other ranks' results after its own search ends. They answer within
/// a millisecond or two; a rank that misses this is treated as lost.
///
/// # Examples
/// ```
/// use eldest_cluster::{Cluster, LineWriter, LocalTransport, RESULT_TIMEOUT};
///
/// let mut ranks = LocalTransport::group(2);
/// let (second, first) = (ranks.pop().unwrap(), ranks.pop().unwrap());
/// // The second rank joins the rounds but runs no session: it never sends a result.
/// let _silent = Cluster::start(move || Ok(second))?;
/// let cluster = Cluster::start(move || Ok(first))?;
/// let (sender, lines) = std::sync::mpsc::channel();
/// let asked = std::time::Instant::now();
/// cluster.run_uci("go depth 1\n".as_bytes(), LineWriter::new(sender), Default::default())?;
/// assert!(asked.elapsed() >= RESULT_TIMEOUT);
/// assert!(lines.try_iter().any(|line| line.starts_with("bestmove ")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const RESULT_TIMEOUT: Duration = Duration::from_millis(200);

/// The search score behind a reported score (mates as `MATE − plies`), for the vote.
fn score_value(score: Score) -> i32 {
    match score {
        Score::Centipawns(cp) => cp,
        Score::Mate(moves) if moves > 0 => MATE - (2 * moves - 1),
        Score::Mate(moves) => -(MATE + 2 * moves),
    }
}

fn connect_exchange(engine: &mut Engine, link: &ClusterLink) {
    let exchange: Option<Arc<dyn EntryExchange>> = if link.size() > 1 {
        Some(Arc::clone(link.exchange()) as Arc<dyn EntryExchange>)
    } else {
        None
    };
    engine.set_entry_exchange(exchange);
    engine.set_process_index(link.rank());
}

/// The first rank's searches.
///
/// # Examples
/// ```
/// use eldest_cluster::{Cluster, FirstRankRunner, LineWriter, LocalTransport};
/// use eldest_uci::{Output, Session, SessionHooks};
/// use std::sync::Arc;
///
/// let cluster = Cluster::start(|| Ok(LocalTransport::group(1).remove(0)))?;
/// let runner = Arc::new(FirstRankRunner::new(Arc::clone(cluster.link())));
/// let mut nodes = Vec::new();
/// // Alone, the first rank searches exactly as the plain engine does.
/// for hooks in [SessionHooks::new().search_runner(runner), SessionHooks::new()] {
///     let (sender, lines) = std::sync::mpsc::channel();
///     let mut session = Session::new(Output::new(LineWriter::new(sender)), hooks)?;
///     session.execute_line("go depth 6");
///     let answer: Vec<String> = lines.iter().take_while(|l| !l.starts_with("bestmove")).collect();
///     let last_info = answer.last().unwrap();
///     nodes.push(last_info.split(" nodes ").nth(1).unwrap().split(' ').next().unwrap().to_string());
/// }
/// assert_eq!(nodes[0], nodes[1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FirstRankRunner {
    link: Arc<ClusterLink>,
}

impl FirstRankRunner {
    /// The runner of the first rank of `link`'s cluster.
    ///
    /// # Examples
    /// ```
    /// use eldest_board::Position;
    /// use eldest_cluster::{Cluster, FirstRankRunner, LineWriter, LocalTransport};
    /// use eldest_uci::{Output, Session, SessionHooks};
    /// use std::sync::Arc;
    ///
    /// let cluster = Cluster::start(|| Ok(LocalTransport::group(1).remove(0)))?;
    /// let hooks = SessionHooks::new().search_runner(Arc::new(FirstRankRunner::new(Arc::clone(cluster.link()))));
    /// let (sender, lines) = std::sync::mpsc::channel();
    /// let mut session = Session::new(Output::new(LineWriter::new(sender)), hooks)?;
    /// session.execute_line("position startpos moves e2e4");
    /// session.execute_line("go depth 4");
    /// let bestmove = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    /// let mut root = Position::startpos();
    /// root.play_unchecked(root.parse_uci_move("e2e4").unwrap());
    /// assert!(root.parse_uci_move(bestmove.split(' ').nth(1).unwrap()).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(link: Arc<ClusterLink>) -> FirstRankRunner {
        FirstRankRunner { link }
    }
}

impl SearchRunner for FirstRankRunner {
    fn run(
        &self,
        engine: &mut Engine,
        request: SearchRequest<'_>,
        control: &SearchControl,
        on_iteration: &mut (dyn FnMut(&IterationReport) + Send),
    ) -> SearchOutcome {
        let link = &self.link;
        let search = link.begin_search();
        connect_exchange(engine, link);
        let before = link.exchange().snapshot();
        if link.size() == 1 {
            let own = request.run(engine, control, on_iteration);
            link.end_search();
            return own;
        }
        // Another rank whose search ends on its own has completed what `go` asked for (its depth, nodes or mate):
        // the search is over for every rank, as a thread's completed iteration ends it for the ABDADAs' threads.
        // Never so for `go infinite` or while pondering: the GUI decides then.
        let own_done = AtomicBool::new(false);
        let (root, limits, multi_pv) = (request.root, request.limits, request.options.multi_pv);
        let (own, early) = std::thread::scope(|scope| {
            let watcher = scope.spawn(|| {
                link.watch_results(search, &own_done, &|| {
                    if !limits.infinite && !control.is_pondering() {
                        control.stop();
                    }
                })
            });
            let own = request.run(engine, control, on_iteration);
            own_done.store(true, Ordering::Release);
            (own, watcher.join().unwrap_or_default())
        });
        link.send(Outgoing::ToOthers(Control::Stop(search)));
        let results = link.collect_results(search, RESULT_TIMEOUT, early);
        link.end_search();
        log_counters(link, search, &own, before, &results);
        let chosen = choose(root, &own, &results, vote_applies(limits, multi_pv));
        // The ranks' answer as the last line before `bestmove`: every rank's nodes, the vote's move and score.
        on_iteration(&IterationReport {
            depth: chosen.depth,
            seldepth: chosen.depth,
            multipv: 1,
            score: chosen.score,
            bound: ScoreBound::Exact,
            nodes: chosen.nodes,
            time: chosen.time,
            hashfull: engine.hashfull(),
            pv: chosen.best_move.into_iter().chain(chosen.ponder_move).collect(),
        });
        chosen
    }
}

/// The move the ranks vote for: the first rank's outcome, or another rank's where the vote prefers its move;
/// without `vote` (a depth limit, several lines) the deepest result, the first rank's on a tie. Nodes are summed
/// over the ranks. A result whose moves are not legal at the root is left out.
///
/// # Examples
/// ```
/// use eldest_board::Position;
/// use eldest_cluster::{choose, wire::{CounterSnapshot, RankResult}};
/// use eldest_search::{Score, SearchOutcome};
///
/// let root = Position::startpos();
/// let own = SearchOutcome { best_move: root.parse_uci_move("d2d4").ok(), ponder_move: None,
///     score: Score::Centipawns(30), depth: 10, nodes: 1000, time: std::time::Duration::from_millis(40) };
/// let deeper = RankResult { rank: 1, search: 1, best_move: Some("e2e4".into()), ponder_move: None,
///     score: 30, depth: 14, nodes: 3000, counters: CounterSnapshot::default() };
/// // The same score found four plies deeper outweighs the first rank's own move.
/// let chosen = choose(&root, &own, &[deeper], true);
/// assert_eq!(root.move_to_uci(chosen.best_move.unwrap()), "e2e4");
/// assert_eq!((chosen.depth, chosen.nodes), (14, 4000));
/// ```
pub fn choose(root: &Position, own: &SearchOutcome, results: &[RankResult], vote: bool) -> SearchOutcome {
    let nodes = own.nodes + results.iter().map(|r| r.nodes).sum::<u64>();
    let mut candidates: Vec<(Ballot, SearchOutcome)> = Vec::new();
    if let Some(mv) = own.best_move {
        let ballot = Ballot {
            depth: own.depth,
            score: score_value(own.score),
            mv,
        };
        candidates.push((ballot, own.clone()));
    }
    for result in results {
        let Some(mv) = result
            .best_move
            .as_deref()
            .and_then(|text| root.parse_uci_move(text).ok())
        else {
            continue;
        };
        let ponder_move = result.ponder_move.as_deref().and_then(|text| {
            let mut next = *root;
            next.play_unchecked(mv);
            next.parse_uci_move(text).ok()
        });
        let outcome = SearchOutcome {
            best_move: Some(mv),
            ponder_move,
            score: uci_score(result.score),
            depth: result.depth,
            nodes,
            time: own.time,
        };
        let ballot = Ballot {
            depth: result.depth,
            score: result.score,
            mv,
        };
        candidates.push((ballot, outcome));
    }
    let ballots: Vec<Ballot> = candidates.iter().map(|(ballot, _)| *ballot).collect();
    match choose_ballot(&ballots, vote) {
        Some(index) => SearchOutcome {
            nodes,
            ..candidates.swap_remove(index).1
        },
        None => SearchOutcome { nodes, ..own.clone() },
    }
}

fn log_counters(
    link: &ClusterLink,
    search: u64,
    own: &SearchOutcome,
    before: CounterSnapshot,
    results: &[RankResult],
) {
    let now = link.exchange().snapshot();
    let seconds = own.time.as_secs_f64().max(1e-3);
    let rounds = now.rounds - before.rounds;
    let sent = now.sent - before.sent;
    tracing::info!(
        target: "eldest_cluster",
        search,
        ranks = link.size(),
        answered = results.len(),
        nodes_other_ranks = results.iter().map(|r| r.nodes).sum::<u64>(),
        offered_per_s = ((now.offered - before.offered) as f64 / seconds) as u64,
        dropped = now.dropped - before.dropped,
        sent_per_s = (sent as f64 / seconds) as u64,
        received_per_s = ((now.received - before.received) as f64 / seconds) as u64,
        stored_per_s = ((now.stored - before.stored) as f64 / seconds) as u64,
        rounds,
        busy_sent = now.busy_sent - before.busy_sent,
        busy_received = now.busy_received - before.busy_received,
        busy_hits = now.busy_hits - before.busy_hits,
        batch_fill = sent as f64 / (rounds.max(1) as f64 * crate::wire::BATCH_ENTRIES as f64),
        floor = now.floor,
        "exchange counters of the first rank"
    );
    if let Some((requests, nanoseconds)) = link.exchange().owner_requests() {
        tracing::info!(
            target: "eldest_cluster",
            search,
            owner_requests = requests,
            owner_mean_ns = nanoseconds / requests.max(1),
            "owner requests of the first rank since it started (ClusterBusyOwners)"
        );
    }
}

/// The searches of every rank but the first.
///
/// # Examples
/// ```
/// use eldest_cluster::{Cluster, LineWriter, LocalTransport, OtherRankRunner};
/// use eldest_uci::{Output, Session, SessionHooks};
/// use std::sync::Arc;
///
/// let cluster = Cluster::start(|| Ok(LocalTransport::group(1).remove(0)))?;
/// let hooks = SessionHooks::new().search_runner(Arc::new(OtherRankRunner::new(Arc::clone(cluster.link()))));
/// let (sender, lines) = std::sync::mpsc::channel();
/// let mut session = Session::new(Output::new(LineWriter::new(sender)), hooks)?;
/// // One millisecond would end a lone engine's search at once; here only the depth (or a stop) ends it.
/// session.execute_line("go movetime 1 depth 7");
/// let mut answer = lines.iter().take_while(|l| !l.starts_with("bestmove"));
/// assert!(answer.any(|l| l.starts_with("info depth 7 ")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct OtherRankRunner {
    link: Arc<ClusterLink>,
}

impl OtherRankRunner {
    /// The runner of a rank other than the first.
    ///
    /// # Examples
    /// ```
    /// use eldest_cluster::{Cluster, LineWriter, LocalTransport, OtherRankRunner};
    /// use eldest_uci::{Output, Session, SessionHooks};
    /// use std::sync::Arc;
    ///
    /// let cluster = Cluster::start(|| Ok(LocalTransport::group(1).remove(0)))?;
    /// let hooks = SessionHooks::new().search_runner(Arc::new(OtherRankRunner::new(Arc::clone(cluster.link()))));
    /// let (sender, lines) = std::sync::mpsc::channel();
    /// let mut session = Session::new(Output::new(LineWriter::new(sender)), hooks)?;
    /// // The first rank ends every search with a `stop` line; the clock in `go` is the first rank's business.
    /// session.execute_line("go wtime 1 btime 1");
    /// std::thread::sleep(std::time::Duration::from_millis(50));
    /// assert!(session.is_searching());
    /// session.execute_line("stop");
    /// assert!(lines.iter().any(|l| l.starts_with("bestmove ")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(link: Arc<ClusterLink>) -> OtherRankRunner {
        OtherRankRunner { link }
    }
}

/// `limits` without the clock: the first rank decides when a search ends.
///
/// # Examples
/// ```
/// use eldest_cluster::without_clock;
/// use eldest_search::{Clock, SearchLimits};
/// use std::time::Duration;
///
/// let clock = Clock { remaining: Duration::from_secs(1), increment: Duration::ZERO, moves_to_go: None };
/// let limits = SearchLimits { depth: Some(20), nodes: Some(1_000_000), move_time: Some(Duration::from_millis(50)),
///     clock: Some(clock), ..SearchLimits::default() };
/// let other = without_clock(&limits);
/// assert_eq!((other.move_time, other.clock), (None, None));
/// assert_eq!((other.depth, other.nodes), (Some(20), Some(1_000_000)));
/// ```
pub fn without_clock(limits: &SearchLimits) -> SearchLimits {
    SearchLimits {
        move_time: None,
        clock: None,
        ..limits.clone()
    }
}

impl SearchRunner for OtherRankRunner {
    fn run(
        &self,
        engine: &mut Engine,
        request: SearchRequest<'_>,
        control: &SearchControl,
        on_iteration: &mut (dyn FnMut(&IterationReport) + Send),
    ) -> SearchOutcome {
        let link = &self.link;
        let search = link.begin_search();
        connect_exchange(engine, link);
        let root = request.root;
        let limits = without_clock(request.limits);
        let outcome = SearchRequest {
            limits: &limits,
            ..request
        }
        .run(engine, control, on_iteration);
        let uci = |mv: Option<Move>| mv.map(|mv| root.move_to_uci(mv));
        let ponder = outcome.best_move.and_then(|best| {
            let mut next = *root;
            next.play_unchecked(best);
            outcome.ponder_move.map(|mv| next.move_to_uci(mv))
        });
        let result = RankResult {
            rank: link.rank() as u32,
            search,
            best_move: uci(outcome.best_move),
            ponder_move: ponder,
            score: score_value(outcome.score),
            depth: outcome.depth,
            nodes: outcome.nodes,
            counters: link.exchange().snapshot(),
        };
        link.send(Outgoing::ToFirst(Control::Result(result)));
        link.end_search();
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_go_back_to_search_values() {
        for value in [0, 35, -120, MATE - 1, MATE - 5, -(MATE - 2), -(MATE - 10)] {
            assert_eq!(score_value(uci_score(value)), value, "{value}");
        }
    }

    fn outcome(root: &Position, mv: &str, score: i32, depth: u32) -> SearchOutcome {
        SearchOutcome {
            best_move: Some(root.parse_uci_move(mv).unwrap()),
            ponder_move: None,
            score: uci_score(score),
            depth,
            nodes: 100,
            time: Duration::from_millis(5),
        }
    }

    fn result(rank: u32, mv: &str, ponder: &str, score: i32, depth: u32) -> RankResult {
        RankResult {
            rank,
            search: 1,
            best_move: Some(mv.into()),
            ponder_move: Some(ponder.into()),
            score,
            depth,
            nodes: 50,
            counters: CounterSnapshot::default(),
        }
    }

    #[test]
    fn the_vote_takes_the_move_deeper_ranks_agree_on() {
        let root = Position::startpos();
        let own = outcome(&root, "d2d4", 30, 12);
        let results = [
            result(1, "e2e4", "e7e5", 25, 12),
            result(2, "e2e4", "c7c5", 28, 13),
        ];
        let chosen = choose(&root, &own, &results, true);
        assert_eq!(root.move_to_uci(chosen.best_move.unwrap()), "e2e4");
        let mut after = root;
        after.play_unchecked(chosen.best_move.unwrap());
        assert_eq!(after.move_to_uci(chosen.ponder_move.unwrap()), "c7c5");
        assert_eq!((chosen.depth, chosen.nodes), (13, 200));
    }

    #[test]
    fn without_a_vote_the_deepest_result_wins_and_the_first_rank_wins_ties() {
        let root = Position::startpos();
        let own = outcome(&root, "d2d4", 30, 12);
        // A rank one ply short with a better score and another rank's agreement would win the vote.
        let results = [
            result(1, "e2e4", "e7e5", 90, 11),
            result(2, "e2e4", "c7c5", 90, 11),
        ];
        assert_eq!(
            root.move_to_uci(choose(&root, &own, &results, true).best_move.unwrap()),
            "e2e4"
        );
        let chosen = choose(&root, &own, &results, false);
        assert_eq!(root.move_to_uci(chosen.best_move.unwrap()), "d2d4");
        assert_eq!((chosen.depth, chosen.nodes), (12, 200));
        let deeper = [
            result(1, "e2e4", "e7e5", 10, 12),
            result(2, "c2c4", "e7e5", 10, 13),
        ];
        let chosen = choose(&root, &own, &deeper, false);
        assert_eq!(root.move_to_uci(chosen.best_move.unwrap()), "c2c4");
        let tied = [result(1, "e2e4", "e7e5", 90, 12)];
        let chosen = choose(&root, &own, &tied, false);
        assert_eq!(root.move_to_uci(chosen.best_move.unwrap()), "d2d4");
    }

    #[test]
    fn illegal_or_missing_moves_of_other_ranks_are_left_out() {
        let root = Position::startpos();
        let own = outcome(&root, "d2d4", 30, 12);
        let results = [
            result(1, "e2e5", "e7e5", 900, 40),
            result(2, "zz", "", 900, 40),
            RankResult {
                best_move: None,
                ..result(3, "e2e4", "", 900, 40)
            },
        ];
        let chosen = choose(&root, &own, &results, true);
        assert_eq!(root.move_to_uci(chosen.best_move.unwrap()), "d2d4");
        // An illegal ponder move is dropped, not the result.
        let chosen = choose(&root, &own, &[result(1, "e2e4", "e2e4", 80, 20)], true);
        assert_eq!(root.move_to_uci(chosen.best_move.unwrap()), "e2e4");
        assert_eq!(chosen.ponder_move, None);
    }
}
