//! The `eldest perft` command, run as a real process: Stockfish's output format on stdout, timing on stderr,
//! and exit status 2 with a message for bad input.

use std::process::{Command, Output};

fn eldest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eldest"))
        .args(args)
        .output()
        .expect("the eldest binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

#[test]
fn start_position_divide_matches_stockfish_format() {
    let output = eldest(&["perft", "3"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    // 20 root moves, a blank line, the total.
    assert_eq!(lines.len(), 22, "{text}");
    assert!(lines.contains(&"e2e4: 600"), "{text}");
    assert!(lines.contains(&"g1f3: 440"), "{text}");
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
    let per_move: u64 = lines[..20]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(per_move, 8902);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("Mnps"), "timing belongs on stderr: {stderr}");
}

#[test]
fn fen_needs_no_quotes_and_castling_is_written_e1g1() {
    let output = eldest(&[
        "perft",
        "2",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R",
        "w",
        "KQkq",
        "-",
        "0",
        "1",
    ]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("e1g1: "), "{text}");
    assert!(text.contains("e1c1: "), "{text}");
    assert!(text.ends_with("Nodes searched: 2039\n"), "{text}");
}

#[test]
fn chess960_castling_is_written_king_takes_rook() {
    // Shredder-FEN castling with rooks on b1 and g1: both castlings are written as the king taking its rook.
    let output = eldest(&["perft", "1", "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("e1g1: 1") && text.contains("e1b1: 1"), "{text}");
    // A black rook on g8 attacks g1 once the castling rook has left it: no king-side castling then.
    let output = eldest(&["perft", "1", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1"]);
    let text = stdout(&output);
    assert!(!text.contains("e1g1: ") && text.contains("e1b1: 1"), "{text}");
}

#[test]
fn depth_zero_counts_the_root() {
    let output = eldest(&["perft", "0"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output), "\nNodes searched: 1\n");
}

#[test]
fn bad_input_exits_with_status_2_and_a_message() {
    for args in [
        &["perft", "3", "rnbqkbnr/pppppppp", "w"][..],
        &["perft", "3", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &["perft", "-1"],
        &["perft", "16"],
        &["perft", "x"],
        &["perft"],
    ] {
        let output = eldest(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}: nothing on stdout");
        assert!(!output.stderr.is_empty(), "{args:?}: an error message on stderr");
    }
    let output = eldest(&["perft", "3", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("kings"));
}
