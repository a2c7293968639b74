//! The cluster build (`--features cluster`) over real MPI: `mpirun -np N eldest` driven over UCI as a GUI
//! drives it. Needs Open MPI's `mpirun` (`.ci/run` installs it); ranks are oversubscribed on small machines.
#![cfg(feature = "cluster")]

mod common;

use common::{Engine, HANG, assert_legal_bestmove, bestmove_of, field};
use eldest_board::Position;
use std::process::Command;
use std::time::Duration;

/// `mpirun -np ranks eldest`, allowed to run as root (CI containers) and on more ranks than cores, with a marker
/// in the ranks' environment so a test can find its own processes.
fn mpirun(ranks: usize, marker: &str) -> Engine {
    let mut command = Command::new("mpirun");
    command
        .args(["--oversubscribe", "--bind-to", "none", "-np"])
        .arg(ranks.to_string())
        .args(["-x", "ELDEST_TEST_MARKER"])
        .arg(env!("CARGO_BIN_EXE_eldest"))
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("ELDEST_TEST_MARKER", marker);
    Engine::start_command(command)
}

/// The mates every configuration must find, with the depth that proves them.
const MATES: [(&str, &str, u32); 3] = [
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", 4),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "h5f7",
        4,
    ),
    ("7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8", 6),
];

fn find_mates(engine: &mut Engine) {
    engine.handshake();
    for (fen, mate, depth) in MATES {
        engine.send(&format!("position fen {fen}"));
        engine.send(&format!("go depth {depth}"));
        let lines = engine.until_bestmove();
        let (best, _) = bestmove_of(lines.last().unwrap());
        assert_eq!(best.as_deref(), Some(mate), "{fen}: {lines:?}");
        // Exactly one bestmove per go: nothing more arrives before the next command is answered.
        assert!(engine.sync().is_empty(), "a second answer to one go");
    }
}

#[test]
fn one_rank_plays_as_the_plain_engine() {
    // The same search as the binary run alone (a one-process world): the same nodes at a fixed depth.
    let mut cluster = mpirun(1, "one-rank");
    let mut alone = Engine::start();
    let mut nodes = Vec::new();
    for engine in [&mut cluster, &mut alone] {
        engine.send("position startpos moves e2e4 c7c5 g1f3");
        engine.send("go depth 9");
        let lines = engine.until_bestmove();
        let last_info = lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap();
        nodes.push(field(last_info, "nodes").unwrap().to_string());
    }
    assert_eq!(nodes[0], nodes[1]);
    find_mates(&mut cluster);
    cluster.quit();
    alone.quit();
}

#[test]
fn two_ranks_find_mates_answer_once_and_stop_promptly() {
    let mut engine = mpirun(2, "two-ranks");
    find_mates(&mut engine);
    let startpos = |engine: &mut Engine| {
        engine.send("position startpos");
        Position::startpos()
    };
    let waits = (0..5).map(|round| Duration::from_millis(100 + 50 * round));
    engine.stop_latencies(startpos, waits, "2 ranks (mpirun, pipes included)");
    engine.quit();
}

#[test]
fn four_ranks_oversubscribed_play_a_game_of_legal_moves() {
    let mut engine = mpirun(4, "four-ranks");
    engine.handshake();
    engine.send("setoption name Threads value 2");
    let mut moves: Vec<String> = Vec::new();
    let mut position = Position::startpos();
    for _ in 0..8 {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        engine.send("go wtime 2000 btime 2000 winc 20 binc 20");
        let lines = engine.until_bestmove();
        let mv = assert_legal_bestmove(&position, lines.last().unwrap());
        moves.push(position.move_to_uci(mv));
        position.play_unchecked(mv);
        if position.legal_moves().is_empty() {
            break;
        }
    }
    engine.quit();
}

#[test]
fn two_ranks_count_busy_nodes_at_their_owners_and_still_play_right() {
    // ClusterBusyOwners: every deep node's searchers counted at an owner rank through MPI's one-sided atomics
    // (the search threads call MPI: MPI_THREAD_MULTIPLE), for both ABDADAs, a rank of one thread each.
    let log = std::env::temp_dir().join(format!("eldest-owners-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    for algorithm in ["abdada", "simplified-abdada"] {
        let mut engine = mpirun(2, &format!("owners-{algorithm}"));
        engine.handshake();
        engine.send(&format!("setoption name Debug Log File value {}", log.display()));
        engine.send(&format!("setoption name ParallelAlgorithm value {algorithm}"));
        engine.send("setoption name ClusterBusyOwners value true");
        find_mates(&mut engine);
        engine.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9");
        engine.send("go depth 12");
        let lines = engine.until_bestmove();
        let root =
            Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9").unwrap();
        assert_legal_bestmove(&root, lines.last().unwrap());
        let startpos = |engine: &mut Engine| {
            engine.send("position startpos");
            Position::startpos()
        };
        let waits = (0..3).map(|round| Duration::from_millis(100 + 50 * round));
        engine.stop_latencies(startpos, waits, &format!("2 ranks, {algorithm}, owners"));
        // Leaving frees the window collectively: both ranks must get out.
        engine.quit();
        let text = std::fs::read_to_string(&log).unwrap();
        let requests: Vec<u64> = text
            .lines()
            .filter_map(|line| line.split("owner_requests=").nth(1))
            .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
            .collect();
        assert!(
            requests.last().is_some_and(|&n| n > 0),
            "{algorithm}: no owner requests in the log: {text}"
        );
        std::fs::remove_file(&log).unwrap();
    }
}

/// The processes of this test's ranks whose rank is `rank`, found by their environment.
fn rank_processes(marker: &str, rank: usize) -> Vec<u32> {
    let wanted = [
        format!("ELDEST_TEST_MARKER={marker}"),
        format!("OMPI_COMM_WORLD_RANK={rank}"),
    ];
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let variables: Vec<&[u8]> = environ.split(|&b| b == 0).collect();
        if wanted.iter().all(|w| variables.contains(&w.as_bytes())) {
            found.push(pid);
        }
    }
    found
}

#[test]
fn a_rank_killed_mid_search_does_not_hang_the_first() {
    let marker = format!("killed-{}", std::process::id());
    let mut engine = mpirun(2, &marker);
    engine.handshake();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let victims = rank_processes(&marker, 1);
    assert_eq!(victims.len(), 1, "rank 1's process: {victims:?}");
    let killed = Command::new("kill")
        .args(["-9", &victims[0].to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // Open MPI ends a job whose rank died: the first rank must not hang in the search or the exchange.
    let status = engine.exit_within(HANG);
    assert!(
        status.is_some(),
        "the job still runs {HANG:?} after rank 1 was killed; transcript:\n{}",
        engine.transcript.join("\n")
    );
    println!(
        "after the kill: {:?}, bestmove written: {}",
        status,
        engine.transcript.iter().any(|l| l.starts_with("bestmove"))
    );
}

#[test]
fn a_cluster_bench_refuses_to_count_the_work_searched_twice() {
    // The threads' counters do not travel between ranks: asked for, the count is refused, not written as unknown.
    let output = Command::new("mpirun")
        .args(["--oversubscribe", "--bind-to", "none", "-np", "2"])
        .arg(env!("CARGO_BIN_EXE_eldest"))
        .args(["bench", "3", "--count-duplicates"])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("mpirun runs");
    assert!(!output.status.success(), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("error: --count-duplicates"),
        "{output:?}"
    );
}

#[test]
fn a_cluster_bench_searches_one_position_under_its_own_number_with_only() {
    // `cargo xtask bench --launcher "mpirun -np 2" --interleave positions` asks for one position at a time.
    let bench = |extra: &[&str]| {
        Command::new("mpirun")
            .args(["--oversubscribe", "--bind-to", "none", "-np", "2"])
            .arg(env!("CARGO_BIN_EXE_eldest"))
            .args(["bench", "3", "--set", "long", "--json"])
            .args(extra)
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .expect("mpirun runs")
    };
    let third = bench(&["--only", "3"]);
    assert!(third.status.success(), "{third:?}");
    let stdout = String::from_utf8_lossy(&third.stdout);
    let objects: Vec<&str> = stdout.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(objects.len(), 1, "{stdout}");
    assert!(objects[0].starts_with("{\"index\":2,"), "{stdout}");
    let refused = bench(&["--only", "999"]);
    assert!(!refused.status.success(), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--only 999"),
        "{refused:?}"
    );
}
