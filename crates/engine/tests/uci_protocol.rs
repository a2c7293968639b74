//! The UCI protocol spoken by the real binary: handshake, positions, options, `d`/`eval`, reproducibility,
//! and where diagnostics go.

mod common;

use common::{Engine, assert_legal_bestmove, info_strings};
use eldest_board::Position;

#[test]
fn handshake_lists_identity_and_every_option() {
    let mut engine = Engine::start();
    let lines = engine.handshake();
    assert!(lines[0].starts_with("id name Eldest "), "{lines:?}");
    assert_eq!(lines[1], "id author The Eldest developers");
    for option in [
        "option name Hash type spin default 16 min 1 max 33554432",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name UCI_Chess960 type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Debug Log File type string default <empty>",
    ] {
        assert!(
            lines.iter().any(|l| l == option),
            "missing {option:?} in {lines:?}"
        );
    }
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    engine.quit();
}

/// The `Fen:` line of `d`.
fn fen(engine: &mut Engine) -> String {
    engine.send("d");
    let lines = engine.until(|l| l.starts_with("Checkers:"));
    let fen = lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .expect("a Fen: line");
    fen.to_string()
}

#[test]
fn positions_from_startpos_and_fen_with_moves() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("position startpos moves e2e4 c7c5 g1f3");
    assert_eq!(
        fen(&mut engine),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8");
    assert_eq!(fen(&mut engine), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    // Castling written king-takes-rook is accepted too.
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1");
    assert_eq!(fen(&mut engine), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // A FEN without move counters.
    engine.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - moves e2e4");
    assert_eq!(fen(&mut engine), "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    engine.send("position startpos");
    assert_eq!(fen(&mut engine), eldest_board::STARTPOS_FEN);
    assert!(info_strings(&engine.sync()).is_empty());
    engine.quit();
}

#[test]
fn d_draws_the_board_and_eval_explains_the_score() {
    let mut engine = Engine::start();
    engine.send("position fen 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    engine.send("d");
    let board = engine.until(|l| l.starts_with("Checkers:"));
    assert!(
        board.contains(&" |   |   |   |   | r |   |   |   | 2".to_string()),
        "{board:?}"
    );
    assert!(board.contains(&"   a   b   c   d   e   f   g   h".to_string()));
    let key = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
        .unwrap()
        .key();
    assert!(board.contains(&format!("Key: {key:016X}")), "{board:?}");
    assert_eq!(board.last().unwrap(), "Checkers: e2");
    engine.send("eval");
    let eval = engine.until(|l| l.starts_with("Final evaluation"));
    assert!(eval.last().unwrap().contains("cp (side to move)"), "{eval:?}");
    engine.quit();
}

#[test]
fn options_are_set_and_invalid_ones_refused() {
    let mut engine = Engine::start();
    engine.handshake();
    for accepted in [
        "setoption name Hash value 32",
        "setoption name hash value 1",
        "setoption name Threads value 2",
        "setoption name Threads value 1",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name MultiPV value 3",
        "setoption name multipv value 1",
        "setoption name UCI_Chess960 value false",
        "setoption name Move Overhead value 100",
        "setoption name MOVE OVERHEAD value 0",
    ] {
        engine.send(accepted);
        let answer = engine.sync();
        assert!(answer.is_empty(), "{accepted}: {answer:?}");
    }
    for (refused, says) in [
        ("setoption name Hash value 0", "Hash: invalid value '0'"),
        (
            "setoption name Hash value 99999999999",
            "Hash: invalid value '99999999999'",
        ),
        (
            "setoption name Hash value big",
            "expected an integer from 1 to 33554432",
        ),
        ("setoption name Threads value 0", "Threads: invalid value '0'"),
        ("setoption name Threads value 257", "Threads: invalid value '257'"),
        ("setoption name MultiPV value -1", "MultiPV: invalid value '-1'"),
        ("setoption name Ponder value maybe", "expected 'true' or 'false'"),
        ("setoption name Ponder", "Ponder: missing 'value"),
        ("setoption name Move Overhead value 5001", "from 0 to 5000"),
        ("setoption name Contempt value 20", "no option named 'Contempt'"),
        ("setoption name", "missing an option name"),
        ("setoption Hash 16", "unexpected token 'Hash'"),
    ] {
        engine.send(refused);
        let answer = engine.sync();
        let notes = info_strings(&answer);
        assert_eq!(notes.len(), 1, "{refused}: {answer:?}");
        assert!(notes[0].contains(says), "{refused}: {notes:?} lacks {says:?}");
    }
    engine.quit();
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 4");
    let lines = engine.until_bestmove();
    let depth4: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 4 ")).collect();
    assert_eq!(depth4.len(), 3, "{lines:?}");
    let firsts: Vec<&str> = depth4.iter().map(|l| common::field(l, "pv").unwrap()).collect();
    for k in 1..=3 {
        assert_eq!(
            common::field(depth4[k - 1], "multipv"),
            Some(k.to_string().as_str())
        );
    }
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    engine.quit();
}

#[test]
fn chess960_option_writes_castling_as_king_takes_rook() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Chess960 value true");
    engine.send(&format!("position fen {fen}"));
    engine.send("go perft 1");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    assert!(lines.contains(&"e1h1: 1".to_string()), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("e1g1")), "{lines:?}");
    // Searchmoves restricted to the castling: the best move is written the Chess960 way.
    engine.send("go depth 2 searchmoves e1h1");
    let best = engine.until_bestmove();
    assert!(best.last().unwrap().starts_with("bestmove e1h1"), "{best:?}");
    engine.send("setoption name UCI_Chess960 value false");
    engine.send(&format!("position fen {fen}"));
    engine.send("go perft 1");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    assert!(lines.contains(&"e1g1: 1".to_string()), "{lines:?}");
    engine.quit();
}

/// A game's worth of `info`/`bestmove` output with the wall-clock fields (`nps`, `time`) removed.
fn without_timing(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            let mut kept = Vec::new();
            let mut i = 0;
            while i < words.len() {
                if words[i] == "nps" || words[i] == "time" {
                    i += 2;
                } else {
                    kept.push(words[i]);
                    i += 1;
                }
            }
            kept.join(" ")
        })
        .collect()
}

#[test]
fn same_nodes_search_twice_around_ucinewgame_is_identical() {
    let mut engine = Engine::start();
    engine.handshake();
    let mut runs = Vec::new();
    for _ in 0..2 {
        engine.send("ucinewgame");
        engine.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5");
        engine.send("go nodes 20000");
        runs.push(without_timing(&engine.until_bestmove()));
    }
    assert!(runs[0].len() > 3, "{:?}", runs[0]);
    assert_eq!(runs[0], runs[1]);
    let position =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3").unwrap();
    assert_legal_bestmove(&position, runs[0].last().unwrap());
    engine.quit();
}

#[test]
fn debug_log_file_gets_the_diagnostics_and_stdout_stays_clean() {
    let dir = std::env::temp_dir().join(format!("eldest-log-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("debug log.txt");
    let _ = std::fs::remove_file(&path);
    let mut engine = Engine::start();
    engine.send(&format!("setoption name Debug Log File value {}", path.display()));
    engine.send("position startpos");
    engine.send("go depth 3");
    let lines = engine.until_bestmove();
    for line in &lines {
        assert!(
            line.starts_with("info ") || line.starts_with("bestmove "),
            "stray stdout line {line:?}"
        );
    }
    engine.send("setoption name Debug Log File value <empty>");
    engine.sync();
    engine.send("go depth 1");
    engine.until_bestmove();
    engine.quit();
    let log = std::fs::read_to_string(&path).expect("the log file exists");
    assert!(log.contains("<< go depth 3"), "{log}");
    assert!(log.contains(">> bestmove"), "{log}");
    assert!(
        !log.contains("<< go depth 1"),
        "logging continued after the file was unset: {log}"
    );
    // An unwritable path is refused with the reason.
    let mut engine = Engine::start();
    engine.send("setoption name Debug Log File value /nonexistent-dir/x/log.txt");
    let notes = engine.sync();
    assert!(
        info_strings(&notes)[0].contains("cannot open '/nonexistent-dir/x/log.txt'"),
        "{notes:?}"
    );
    engine.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rust_log_writes_to_stderr_never_stdout() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_eldest"))
        .env("RUST_LOG", "debug")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"uci\nposition startpos\ngo depth 3\nisready\n")?;
            child.wait_with_output()
        })
        .expect("eldest runs");
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("<< go depth 3"), "{stderr}");
    assert!(stderr.contains("DEBUG"), "{stderr}");
    for line in stdout.lines() {
        assert!(
            ["id ", "option ", "uciok", "readyok", "info ", "bestmove "]
                .iter()
                .any(|p| line.starts_with(p)),
            "stray stdout line {line:?}"
        );
    }
}
