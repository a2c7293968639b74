//! The cluster's protocol over [`LocalTransport`]: ranks as threads of one process, each with its own UCI session
//! and engine, exactly as over MPI but for the transport.

use eldest_cluster::{Cluster, LineWriter, LocalCounters, LocalTransport, RESULT_TIMEOUT, Transport};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A hang bound for every answer, not a speed requirement.
const HANG: Duration = Duration::from_secs(20);

/// The first rank of a local cluster, driven line by line.
struct FirstRank {
    input: Option<Sender<String>>,
    output: Receiver<String>,
    session: Option<JoinHandle<std::io::Result<()>>>,
    others: Vec<JoinHandle<std::io::Result<()>>>,
    /// The group's owner counters (`ClusterBusyOwners`).
    counters: LocalCounters,
}

impl FirstRank {
    /// `size` ranks, of which those in `absent` never start (a rank that died before the search).
    fn start(size: usize, absent: &[usize]) -> FirstRank {
        let mut transports = LocalTransport::group(size).into_iter().enumerate();
        let (_, first) = transports.next().unwrap();
        let counters = first.counters().clone();
        let others = transports
            .filter(|(rank, _)| !absent.contains(rank))
            .map(|(_, transport)| {
                std::thread::spawn(move || {
                    let cluster = Cluster::start(move || Ok(transport)).unwrap();
                    cluster.run_uci(std::io::empty(), std::io::sink(), Default::default())
                })
            })
            .collect();
        let (input, lines) = channel::<String>();
        let (sender, output) = channel();
        let session = std::thread::spawn(move || {
            let cluster = Cluster::start(move || Ok(first)).unwrap();
            let reader = eldest_cluster::LineChannel::new(lines);
            cluster.run_uci(reader, LineWriter::new(sender), Default::default())
        });
        FirstRank {
            input: Some(input),
            output,
            session: Some(session),
            others,
            counters,
        }
    }

    fn send(&self, line: &str) {
        self.input.as_ref().unwrap().send(line.to_string()).unwrap();
    }

    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + HANG;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .output
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer within {HANG:?} after {lines:?}"));
            let finished = done(&line);
            lines.push(line);
            if finished {
                return lines;
            }
        }
    }

    fn bestmove(&self) -> String {
        let lines = self.until(|l| l.starts_with("bestmove"));
        lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string()
    }

    fn sync(&self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// `quit`, then every rank's session must end.
    fn quit(mut self) {
        self.send("quit");
        self.input = None;
        self.session.take().unwrap().join().unwrap().unwrap();
        for other in self.others.drain(..) {
            other.join().unwrap().unwrap();
        }
    }
}

#[test]
fn one_rank_searches_exactly_what_the_plain_session_searches() {
    // The plain session, fed line by line so that the end of the input does not stop the search.
    let (plain_input, plain_reader) = channel::<String>();
    let (plain_sender, plain_lines) = channel();
    let plain_session = std::thread::spawn(move || {
        eldest_uci::run(
            eldest_cluster::LineChannel::new(plain_reader),
            LineWriter::new(plain_sender),
        )
    });
    plain_input
        .send("position startpos moves d2d4 g8f6 c2c4".into())
        .unwrap();
    plain_input.send("go depth 9".into()).unwrap();
    let mut plain = Vec::new();
    while plain.last().is_none_or(|l: &String| !l.starts_with("bestmove")) {
        plain.push(plain_lines.recv_timeout(HANG).expect("the plain session answers"));
    }
    drop(plain_input);
    plain_session.join().unwrap().unwrap();
    let cluster = FirstRank::start(1, &[]);
    cluster.send("position startpos moves d2d4 g8f6 c2c4");
    cluster.send("go depth 9");
    let clustered = cluster.until(|l| l.starts_with("bestmove"));
    cluster.quit();
    let without_time = |line: &String| -> String {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut kept = Vec::new();
        let mut skip = false;
        for word in words {
            if skip {
                skip = false;
            } else if word == "time" || word == "nps" {
                skip = true;
            } else {
                kept.push(word);
            }
        }
        kept.join(" ")
    };
    let plain: Vec<String> = plain.iter().map(without_time).collect();
    let clustered: Vec<String> = clustered.iter().map(without_time).collect();
    assert_eq!(plain, clustered);
}

#[test]
fn two_and_three_ranks_find_mates_and_answer_each_go_once() {
    for size in [2, 3] {
        let cluster = FirstRank::start(size, &[]);
        cluster.send("setoption name Threads value 2");
        for (fen, mate) in [
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                "h5f7",
            ),
            ("7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8"),
        ] {
            cluster.send(&format!("position fen {fen}"));
            cluster.send("go depth 6");
            assert_eq!(cluster.bestmove(), mate, "{size} ranks, {fen}");
            assert!(cluster.sync().is_empty(), "a second answer to one go");
        }
        // A clock search: the first rank decides when it ends, the others follow.
        cluster.send("position startpos moves e2e4");
        cluster.send("go wtime 500 btime 500");
        let mv = cluster.bestmove();
        assert!(mv.len() >= 4, "{mv}");
        cluster.quit();
    }
}

#[test]
fn owner_ranks_count_every_searcher_in_and_out() {
    for algorithm in ["abdada", "simplified-abdada"] {
        for owners in [false, true] {
            let cluster = FirstRank::start(2, &[]);
            cluster.send(&format!("setoption name ParallelAlgorithm value {algorithm}"));
            cluster.send(&format!("setoption name ClusterBusyOwners value {owners}"));
            cluster.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9");
            cluster.send("go depth 11");
            assert!(cluster.bestmove().len() >= 4);
            // A search stopped in the middle leaves its nodes through the same guards.
            cluster.send("position startpos moves d2d4 g8f6 c2c4");
            cluster.send("go infinite");
            std::thread::sleep(Duration::from_millis(150));
            cluster.send("stop");
            assert!(cluster.bestmove().len() >= 4);
            cluster.sync();
            let counters = cluster.counters.clone();
            cluster.quit();
            assert_eq!(counters.additions() > 0, owners, "{algorithm}, owners {owners}");
            assert_eq!(counters.open_searchers(), 0, "{algorithm}: a searcher never left");
        }
    }
}

#[test]
fn stop_and_ponder_are_followed_by_every_rank() {
    let cluster = FirstRank::start(2, &[]);
    cluster.send("position startpos");
    cluster.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    assert!(cluster.sync().iter().all(|l| l.starts_with("info")));
    cluster.send("stop");
    cluster.bestmove();
    cluster.send("go ponder wtime 300 btime 300");
    std::thread::sleep(Duration::from_millis(400));
    assert!(
        cluster.sync().iter().all(|l| l.starts_with("info")),
        "pondering ignores the clock"
    );
    cluster.send("ponderhit");
    cluster.bestmove();
    cluster.quit();
}

#[test]
fn a_lost_rank_delays_one_answer_and_is_not_waited_for_again() {
    // Rank 2 never joins: it answers nothing and the exchange rounds never complete.
    let cluster = FirstRank::start(3, &[2]);
    cluster.send("position startpos moves e2e4");
    cluster.send("go movetime 100");
    cluster.bestmove();
    let asked = Instant::now();
    cluster.send("go movetime 100");
    cluster.bestmove();
    println!(
        "second search with a lost rank: {:?} (the first waited {RESULT_TIMEOUT:?} for it)",
        asked.elapsed()
    );
    // The live ranks still follow the first: a mate is found and stop is honoured.
    cluster.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    cluster.send("go depth 4");
    assert_eq!(cluster.bestmove(), "a1a8");
    // quit ends the first rank's session even though the exchange cannot end cleanly.
    let mut cluster = cluster;
    cluster.send("quit");
    cluster.input = None;
    cluster.session.take().unwrap().join().unwrap().unwrap();
    // Rank 1 leaves when its session gets the quit line; its exchange thread is left behind too.
    for other in cluster.others.drain(..) {
        other.join().unwrap().unwrap();
    }
}

#[test]
fn a_transport_group_of_one_has_no_peers() {
    let only = LocalTransport::group(1).pop().unwrap();
    assert_eq!((only.rank(), only.size()), (0, 1));
    let mut gathered = [0; 2];
    only.all_gather(&[4, 2], &mut gathered, &mut || {});
    assert_eq!(gathered, [4, 2]);
}
