//! Bad input never crashes or blocks the engine, an illegal position is never searched, roots without a legal
//! move are answered at once, and every best move is legal.

mod common;

use common::{Engine, assert_legal_bestmove, info_strings};
use eldest_board::Position;
use std::time::{Duration, Instant};

/// Sends `line`, then `isready`; asserts exactly one `info string` came back that contains each of `says`.
fn refused(engine: &mut Engine, line: &str, says: &[&str]) {
    engine.send(line);
    let answer = engine.sync();
    let notes = info_strings(&answer);
    assert_eq!(notes.len(), 1, "{}: {answer:?}", &line[..line.len().min(80)]);
    for part in says {
        assert!(
            notes[0].contains(part),
            "{}: {:?} lacks {part:?}",
            &line[..line.len().min(80)],
            notes[0]
        );
    }
    assert!(!answer.iter().any(|l| l.starts_with("bestmove")), "{answer:?}");
}

/// The `Fen:` line of `d`.
fn fen(engine: &mut Engine) -> String {
    engine.send("d");
    let lines = engine.until(|l| l.starts_with("Checkers:"));
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .expect("a Fen: line")
        .to_string()
}

/// Sends a `go` whose parameter cannot be read: the note comes as an `info string`, and the search still ends
/// with exactly one legal `bestmove`.
fn noted_and_answered(engine: &mut Engine, line: &str, says: &[&str]) {
    engine.send("position startpos");
    engine.send(line);
    let answer = engine.until(|l| l.starts_with("bestmove"));
    let notes = info_strings(&answer);
    assert_eq!(notes.len(), 1, "{line}: {answer:?}");
    for part in says {
        assert!(notes[0].contains(part), "{line}: {:?} lacks {part:?}", notes[0]);
    }
    assert_legal_bestmove(&Position::startpos(), answer.last().unwrap());
    let after = engine.sync();
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "one bestmove only: {after:?}"
    );
}

#[test]
fn every_go_is_answered_even_with_unreadable_parameters() {
    let mut engine = Engine::start();
    noted_and_answered(
        &mut engine,
        "go depth -1",
        &["go depth", "'-1' must not be negative", "read as 1"],
    );
    noted_and_answered(
        &mut engine,
        "go depth three",
        &["go depth", "'three' is not an integer"],
    );
    noted_and_answered(
        &mut engine,
        "go nodes",
        &["go nodes: missing a number", "read as 1"],
    );
    noted_and_answered(
        &mut engine,
        "go movetime 1.5",
        &["go movetime", "'1.5'", "read as 0"],
    );
    noted_and_answered(&mut engine, "go wtime x btime 100", &["go wtime", "read as 0"]);
    engine.quit();
}

#[test]
fn garbage_and_empty_lines() {
    let mut engine = Engine::start();
    engine.send("");
    engine.send("   ");
    engine.send("\t");
    assert!(engine.sync().is_empty(), "blank lines get no answer");
    refused(&mut engine, "hello", &["unknown command 'hello'"]);
    refused(&mut engine, "GO DEPTH 3", &["unknown command 'GO'"]);
    refused(&mut engine, "!@#$%^&*()", &["unknown command"]);
    refused(&mut engine, "xyzzy plugh", &["unknown command 'xyzzy'"]);
    refused(&mut engine, "go perft 99", &["go perft", "outside 0..=15"]);
    refused(&mut engine, "position", &["position: missing"]);
    refused(&mut engine, "position startfen", &["unexpected token 'startfen'"]);
    refused(&mut engine, "debug sideways", &["debug"]);
    // Unknown tokens before a command are skipped, as the protocol says.
    engine.send("joho isready");
    let lines = engine.until(|l| l == "readyok");
    assert_eq!(
        lines,
        [
            "info string ignored unknown token(s) before the command: 'joho'",
            "readyok"
        ]
    );
    // Control characters and invalid UTF-8 are just unknown tokens.
    refused(&mut engine, "\u{1}\u{7f}", &["unknown command"]);
    engine.quit();
}

#[test]
fn invalid_utf8_is_an_unknown_command() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_eldest"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"\xff\xfe\x80\nisready\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        stdout,
        "info string unknown command '\u{fffd}\u{fffd}\u{fffd}'\nreadyok\n"
    );
}

#[test]
fn broken_fens_are_named_and_the_position_kept() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    let before = fen(&mut engine);
    for (bad, says) in [
        ("position fen", "missing a FEN"),
        ("position fen 8/8/8 w - -", "needs 8 ranks"),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            "needs 8 ranks",
        ),
        (
            "position fen rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "squares instead of 8",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "invalid character 'X'",
        ),
        (
            "position fen rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "kings instead of 1",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
            "castling",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "castling",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "en-passant",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "en-passant",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove clock",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",
            "fullmove number",
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999",
            "fullmove number",
        ),
        (
            "position fen 4k3/8/8/8/8/8/8/4K2q b - - 0 1",
            "not to move is in check",
        ),
        ("position fen P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on back rank"),
        (
            "position fen 4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 w - - 0 1",
            "more pieces than promotions",
        ),
        ("position fen rnbqkbnr", "4 to 6 fields"),
        ("position fen a b c d e f g h moves e2e4", "invalid FEN"),
    ] {
        refused(&mut engine, bad, &[says]);
        assert_eq!(fen(&mut engine), before, "{bad} changed the position");
    }
    engine.quit();
}

#[test]
fn an_illegal_move_rejects_the_whole_position_command() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5");
    let before = fen(&mut engine);
    refused(
        &mut engine,
        "position startpos moves e2e4 e7e5 g1f3 e8e6 b1c3",
        &["move 4 'e8e6' is illegal", "position unchanged"],
    );
    refused(
        &mut engine,
        "position startpos moves e2e5",
        &["move 1 'e2e5' is illegal"],
    );
    refused(
        &mut engine,
        "position startpos moves e2e4 zz99",
        &["move 2 'zz99' is not a UCI move"],
    );
    refused(
        &mut engine,
        "position startpos moves e2e4 e2e4",
        &["move 2 'e2e4' is illegal"],
    );
    refused(
        &mut engine,
        "position startpos moves e1g1",
        &["move 1 'e1g1' is illegal"],
    );
    refused(
        &mut engine,
        "position startpos moves e7e5",
        &["move 1 'e7e5' is illegal"],
    );
    refused(
        &mut engine,
        "position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8k",
        &["'a7a8k' is not a UCI move"],
    );
    assert_eq!(fen(&mut engine), before);
    // The next search is of the previous, legal position: its best move is legal there.
    engine.send("go depth 1");
    let lines = engine.until_bestmove();
    let previous = Position::from_fen(&before).unwrap();
    assert_legal_bestmove(&previous, lines.last().unwrap());
    engine.quit();
}

#[test]
fn huge_numbers_saturate_and_the_search_still_answers() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 99999999999999999999 movetime 100");
    let lines = engine.until_bestmove();
    let notes = info_strings(&lines);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("go depth: '99999999999999999999' is too large, read as 127")),
        "{notes:?}"
    );
    assert_legal_bestmove(&Position::startpos(), lines.last().unwrap());
    engine.send("go nodes 1000 wtime 999999999999999999999999 btime 999999999999999999999999");
    let lines = engine.until_bestmove();
    assert_eq!(
        info_strings(&lines)
            .iter()
            .filter(|n| n.contains("is too large"))
            .count(),
        2,
        "{lines:?}"
    );
    engine.send("setoption name Hash value 999999999999999999999999999");
    assert!(info_strings(&engine.sync())[0].contains("Hash: invalid value"));
    engine.quit();
}

#[test]
fn unknown_options_and_commands_keep_the_engine_alive() {
    let mut engine = Engine::start();
    engine.handshake();
    refused(
        &mut engine,
        "setoption name Skill Level value 3",
        &["no option named 'Skill Level'"],
    );
    refused(
        &mut engine,
        "setoption name UCI_LimitStrength value true",
        &["no option named"],
    );
    refused(&mut engine, "flip", &["unknown command 'flip'"]);
    engine.quit();
}

#[test]
fn a_megabyte_line_is_reported_and_dropped() {
    let mut engine = Engine::start();
    engine.send(&"x".repeat(1 << 20));
    let answer = engine.sync();
    assert_eq!(
        info_strings(&answer),
        ["ignored a line of 1048576 bytes: longer than the 262144-byte limit"],
        "{answer:?}"
    );
    // A megabyte of moves is dropped the same way, and the position stays.
    let mut moves = String::from("position startpos moves");
    while moves.len() < 1_000_000 {
        moves.push_str(" g1f3 g8f6 f3g1 f6g8");
    }
    engine.send(&moves);
    assert!(info_strings(&engine.sync())[0].starts_with("ignored a line of"));
    // A long game within the limit is accepted: 40,000 knight moves.
    let mut long_game = String::from("position startpos moves");
    for _ in 0..10_000 {
        long_game.push_str(" g1f3 g8f6 f3g1 f6g8");
    }
    let start = Instant::now();
    engine.send(&long_game);
    assert!(engine.sync().is_empty());
    println!("a 40,000-move position command took {:?}", start.elapsed());
    engine.send("go depth 3");
    let lines = engine.until_bestmove();
    assert_legal_bestmove(&Position::startpos(), lines.last().unwrap());
    engine.quit();
}

#[test]
fn mated_and_stalemated_roots_answer_0000_at_once() {
    let mut engine = Engine::start();
    for (fen, score) in [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "mate 0",
        ), // fool's mate
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "cp 0"), // stalemate
    ] {
        engine.send(&format!("position fen {fen}"));
        for go in [
            "go depth 5",
            "go infinite",
            "go ponder wtime 1000 btime 1000",
            "go movetime 10000",
        ] {
            engine.send(go);
            let lines = engine.until_bestmove();
            assert_eq!(
                lines,
                [format!("info depth 0 score {score}"), "bestmove 0000".to_string()],
                "{fen} {go}"
            );
        }
        // Nothing is left running.
        engine.send("stop");
        assert!(engine.sync().is_empty());
    }
    engine.quit();
}

#[test]
fn bestmove_is_legal_over_many_positions() {
    // Positions of every phase, reached by playing the engine's own moves from varied openings and test
    // positions: each answer is checked with eldest-board before it is played.
    let starts = [
        eldest_board::STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/8/1p6/1P6/8/3k4/8/3K4 w - - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Chess960 value true");
    let mut checked = 0;
    for (index, start) in starts.iter().enumerate() {
        let mut position = Position::from_fen(start).unwrap();
        position.set_chess960(true);
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..24 {
            if position.legal_moves().is_empty() {
                break;
            }
            let go = [
                "go depth 3",
                "go nodes 3000",
                "go movetime 20",
                "go wtime 500 btime 500 winc 10 binc 10",
            ][(ply + index) % 4];
            engine.send(&format!("position fen {start} moves {}", moves.join(" ")));
            engine.send(go);
            let lines = engine.until_bestmove();
            let mv = assert_legal_bestmove(&position, lines.last().unwrap());
            moves.push(position.move_to_uci(mv));
            position.play_unchecked(mv);
            checked += 1;
        }
    }
    println!("{checked} best moves checked legal");
    assert!(checked > 150);
    engine.quit();
}

#[test]
fn a_search_answers_even_when_the_gui_floods_isready() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go movetime 200");
    for _ in 0..200 {
        engine.send("isready");
    }
    let lines = engine.until_bestmove();
    assert!(lines.iter().filter(|l| *l == "readyok").count() >= 1);
    let rest = engine.drain_for(Duration::from_millis(100));
    let ready = lines.iter().chain(&rest).filter(|l| *l == "readyok").count();
    assert!(ready <= 200);
    engine.sync();
    engine.quit();
}
