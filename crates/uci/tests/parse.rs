//! Parsing of command lines into typed commands: every command, every `go` parameter, and the ways a line can
//! be wrong.

use eldest_uci::{Command, Go, MAX_DEPTH, MAX_MATE, MAX_TIME, ParseError, parse_line};
use std::time::Duration;

fn command(line: &str) -> Command {
    let parsed = parse_line(line)
        .unwrap_or_else(|e| panic!("{line:?}: {e}"))
        .expect("not blank");
    assert!(
        parsed.notes.is_empty(),
        "{line:?}: unexpected notes {:?}",
        parsed.notes
    );
    parsed.command
}

fn go_of(line: &str) -> Go {
    match command(line) {
        Command::Go(go) => go,
        other => panic!("{line:?} parsed as {other:?}"),
    }
}

fn error(line: &str) -> String {
    match parse_line(line) {
        Err(error) => error.to_string(),
        Ok(parsed) => panic!("{line:?} was accepted: {parsed:?}"),
    }
}

fn ms(n: u64) -> Option<Duration> {
    Some(Duration::from_millis(n))
}

#[test]
fn blank_lines_are_nothing() {
    for line in ["", " ", "\t", "  \t  "] {
        assert_eq!(parse_line(line), Ok(None));
    }
}

#[test]
fn simple_commands() {
    assert_eq!(command("uci"), Command::Uci);
    assert_eq!(command("isready"), Command::IsReady);
    assert_eq!(command("  ucinewgame  "), Command::UciNewGame);
    assert_eq!(command("stop"), Command::Stop);
    assert_eq!(command("ponderhit"), Command::PonderHit);
    assert_eq!(command("quit"), Command::Quit);
    assert_eq!(command("d"), Command::Display);
    assert_eq!(command("eval"), Command::Eval);
    assert_eq!(command("debug on"), Command::Debug(true));
    assert_eq!(command("debug off"), Command::Debug(false));
    assert_eq!(command("register later"), Command::Register);
    assert_eq!(command("bench"), Command::Bench { depth: None });
    assert_eq!(command("bench 7"), Command::Bench { depth: Some(7) });
}

#[test]
fn unknown_leading_tokens_are_skipped_as_the_protocol_says() {
    let parsed = parse_line("joho debug on").unwrap().unwrap();
    assert_eq!(parsed.command, Command::Debug(true));
    assert_eq!(
        parsed.notes,
        ["ignored unknown token(s) before the command: 'joho'"]
    );
}

#[test]
fn trailing_tokens_of_argumentless_commands_are_noted() {
    let parsed = parse_line("isready now please").unwrap().unwrap();
    assert_eq!(parsed.command, Command::IsReady);
    assert_eq!(parsed.notes, ["isready: ignored extra token(s) 'now please'"]);
}

#[test]
fn unknown_commands_are_errors_naming_the_token() {
    assert_eq!(error("hello world"), "unknown command 'hello'");
    assert_eq!(error("UCI"), "unknown command 'UCI'");
    assert_eq!(error("\u{fffd}\u{fffd}"), "unknown command '\u{fffd}\u{fffd}'");
    let long = "x".repeat(100_000);
    let message = error(&long);
    assert!(message.len() < 100, "{message}");
    assert!(message.ends_with("... (100000 bytes)'"), "{message}");
}

#[test]
fn setoption_names_with_spaces_and_raw_values() {
    assert_eq!(
        command("setoption name Clear Hash"),
        Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert_eq!(
        command("setoption   name  Move   Overhead value 100"),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("100".into())
        }
    );
    assert_eq!(
        command("setoption name Debug Log File value /tmp/a  b.log "),
        Command::SetOption {
            name: "Debug Log File".into(),
            value: Some("/tmp/a  b.log".into())
        }
    );
    assert_eq!(
        command("setoption name Hash value"),
        Command::SetOption {
            name: "Hash".into(),
            value: Some(String::new())
        }
    );
    assert_eq!(error("setoption"), "setoption: missing 'name <option>'");
    assert_eq!(error("setoption Hash 16"), "setoption: unexpected token 'Hash'");
    assert_eq!(
        error("setoption name value 3"),
        "setoption: missing an option name"
    );
}

#[test]
fn position_forms() {
    assert_eq!(
        command("position startpos"),
        Command::Position {
            fen: None,
            moves: vec![]
        }
    );
    assert_eq!(
        command("position startpos moves e2e4 e7e5"),
        Command::Position {
            fen: None,
            moves: vec!["e2e4".into(), "e7e5".into()]
        }
    );
    assert_eq!(
        command("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"),
        Command::Position {
            fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            moves: vec!["a1a2".into()]
        }
    );
    assert_eq!(
        command("position fen 8/8/8/8/8/8/8/K6k w - -"),
        Command::Position {
            fen: Some("8/8/8/8/8/8/8/K6k w - -".into()),
            moves: vec![]
        }
    );
    assert_eq!(
        command("position startpos moves"),
        Command::Position {
            fen: None,
            moves: vec![]
        }
    );
    assert_eq!(error("position"), "position: missing 'startpos' or 'fen <fen>'");
    assert_eq!(error("position fen"), "position fen: missing a FEN");
    assert_eq!(error("position fen moves e2e4"), "position fen: missing a FEN");
    assert_eq!(
        error("position moves e2e4"),
        "position: missing 'startpos' or 'fen <fen>'"
    );
    assert_eq!(
        error("position startpos e2e4"),
        "position startpos: unexpected token 'e2e4'"
    );
    assert_eq!(
        error("position kiwipete"),
        "position: unexpected token 'kiwipete'"
    );
}

#[test]
fn go_parameters() {
    assert_eq!(go_of("go"), Go::default());
    assert_eq!(go_of("go depth 7").depth, Some(7));
    assert_eq!(go_of("go nodes 20000").nodes, Some(20_000));
    assert_eq!(go_of("go mate 3").mate, Some(3));
    assert_eq!(go_of("go movetime 250").move_time, ms(250));
    assert!(go_of("go infinite").infinite);
    assert_eq!(go_of("go perft 4").perft, Some(4));
    let clock = go_of("go wtime 60000 btime 59000 winc 1000 binc 900 movestogo 40");
    assert_eq!(
        (
            clock.white_time,
            clock.black_time,
            clock.white_increment,
            clock.black_increment,
            clock.moves_to_go
        ),
        (ms(60_000), ms(59_000), ms(1000), ms(900), Some(40))
    );
    assert_eq!(go_of("go movestogo 0").moves_to_go, None);
    let ponder = go_of("go ponder wtime 1000 btime 1000");
    assert!(ponder.ponder);
    assert_eq!(ponder.white_time, ms(1000));
    let restricted = go_of("go searchmoves e2e4 d2d4 depth 5");
    assert_eq!(restricted.search_moves, ["e2e4", "d2d4"]);
    assert_eq!(restricted.depth, Some(5));
    assert_eq!(go_of("go depth 5 searchmoves a2a3").search_moves, ["a2a3"]);
    assert_eq!(
        command("perft 3"),
        Command::Go(Go {
            perft: Some(3),
            ..Go::default()
        })
    );
}

#[test]
fn negative_times_are_clamped_to_zero_with_a_note() {
    let parsed = parse_line("go wtime -1234 btime 5000 winc -5").unwrap().unwrap();
    let Command::Go(go) = parsed.command else { panic!() };
    assert_eq!(go.white_time, Some(Duration::ZERO));
    assert_eq!(go.white_increment, Some(Duration::ZERO));
    assert_eq!(go.black_time, ms(5000));
    assert_eq!(
        parsed.notes,
        [
            "go wtime: negative value '-1234' read as 0",
            "go winc: negative value '-5' read as 0"
        ]
    );
}

#[test]
fn huge_numbers_saturate_with_a_note() {
    let parsed = parse_line(
        "go wtime 99999999999999999999999999 nodes 99999999999999999999999 depth 4000000000 mate 1000",
    )
    .unwrap()
    .unwrap();
    let Command::Go(go) = parsed.command else { panic!() };
    assert_eq!(go.white_time, Some(MAX_TIME));
    assert_eq!(go.nodes, Some(u64::MAX));
    assert_eq!(go.depth, Some(MAX_DEPTH));
    assert_eq!(go.mate, Some(MAX_MATE));
    assert_eq!(parsed.notes.len(), 4, "{:?}", parsed.notes);
    assert!(
        parsed.notes[2].contains("go depth: '4000000000' is too large"),
        "{:?}",
        parsed.notes
    );
    assert_eq!(go_of("go nodes 18446744073709551615").nodes, Some(u64::MAX));
}

#[test]
fn malformed_go_parameters_are_noted_and_replaced_so_the_search_still_ends() {
    let noted = |line: &str| {
        let parsed = parse_line(line).unwrap().unwrap();
        let Command::Go(go) = parsed.command else {
            panic!("{line}")
        };
        (go, parsed.notes)
    };
    let (go, notes) = noted("go depth -1");
    assert_eq!(go.depth, Some(1));
    assert_eq!(notes, ["go depth: '-1' must not be negative; read as 1"]);
    let (go, notes) = noted("go depth");
    assert_eq!(
        (go.depth, notes[0].as_str()),
        (Some(1), "go depth: missing a number; read as 1")
    );
    let (go, notes) = noted("go depth ten movetime 100");
    assert_eq!((go.depth, go.move_time), (Some(1), ms(100)));
    assert_eq!(notes, ["go depth: 'ten' is not an integer; read as 1"]);
    let (go, _) = noted("go nodes 1.5e6");
    assert_eq!(go.nodes, Some(1));
    let (go, notes) = noted("go wtime abc btime 1000");
    assert_eq!((go.white_time, go.black_time), (Some(Duration::ZERO), ms(1000)));
    assert_eq!(notes, ["go wtime: 'abc' is not an integer; read as 0"]);
    let (go, _) = noted("go movetime infinite");
    assert!(go.infinite, "a keyword is not taken as a value");
    assert_eq!(go.move_time, Some(Duration::ZERO));
    let (go, notes) = noted("go mate x");
    assert_eq!(
        (go.mate, notes[0].as_str()),
        (None, "go mate: 'x' is not an integer; ignored")
    );
    let (go, notes) = noted("go searchmoves depth 3");
    assert!(go.search_moves.is_empty() && go.depth == Some(3));
    assert_eq!(
        notes,
        ["go searchmoves: missing at least one move; every legal move searched"]
    );
    assert_eq!(error("go perft 16"), "go perft: '16' is outside 0..=15");
    assert_eq!(error("go perft -1"), "go perft: '-1' must not be negative");
    assert_eq!(error("perft"), "perft: missing a depth");
    assert_eq!(error("bench 0"), "bench: '0' is outside 1..=127");
    assert_eq!(error("bench deep"), "bench: 'deep' is not an integer");
    assert_eq!(error("debug maybe"), "debug: unexpected token 'maybe'");
    assert_eq!(error("debug"), "debug: missing 'on' or 'off'");
}

#[test]
fn unknown_go_parameters_are_ignored_with_a_note() {
    let parsed = parse_line("go depth 3 fast").unwrap().unwrap();
    assert_eq!(
        parsed.command,
        Command::Go(Go {
            depth: Some(3),
            ..Go::default()
        })
    );
    assert_eq!(parsed.notes, ["go: ignored unknown parameter 'fast'"]);
}

#[test]
fn parse_errors_compare_structurally() {
    assert_eq!(
        parse_line("bench x"),
        Err(ParseError::NotANumber {
            context: "bench",
            text: "x".into()
        })
    );
}

#[test]
fn a_megabyte_line_parses_in_linear_time() {
    // One million bytes of moves: the parser must neither choke nor go quadratic (this runs in milliseconds).
    let mut line = String::from("position startpos moves");
    while line.len() < 1_000_000 {
        line.push_str(" g1f3 g8f6 f3g1 f6g8");
    }
    let Command::Position { moves, .. } = command(&line) else {
        panic!()
    };
    assert_eq!(moves.len() % 4, 0);
    assert!(moves.len() > 190_000);
}
