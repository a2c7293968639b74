//! `cargo xtask match` end to end: the xtask binary against the misbehaving test engine (every fault must be
//! detected, scored as a loss of the engine at fault and reported with its reason, and a crashed or hung engine
//! restarted for the next game), a short match between two copies of eldest whose PGN is replayed with
//! eldest-board, and bad input that must give a clear message rather than a panic.

use eldest_board::Position;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const XTASK: &str = env!("CARGO_BIN_EXE_xtask");
const MISBEHAVING: &str = env!("CARGO_BIN_EXE_misbehaving_engine");

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("xtask-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

/// What a match left behind.
struct Played {
    stdout: String,
    json: Value,
    pgn: String,
}

fn run_match(test: &str, arguments: &[&str]) -> Played {
    let directory = scratch(test);
    let (pgn, json) = (directory.join("games.pgn"), directory.join("summary.json"));
    let output = Command::new(XTASK)
        .arg("match")
        .args(arguments)
        .args([
            "--no-build",
            "--pgn",
            pgn.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the match failed:\n{stdout}\n{stderr}");
    let json = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    Played {
        stdout,
        json,
        pgn: std::fs::read_to_string(&pgn).unwrap(),
    }
}

fn engine(name: &str, behaviour: &[&str]) -> String {
    let mut spec = format!("cmd={MISBEHAVING},name={name}");
    for argument in behaviour {
        spec.push_str(&format!(",arg={argument}"));
    }
    spec
}

/// Plays `games` games of the misbehaving engine `culprit` (behaviour `behaviour`) against a well-behaved one
/// and checks that each ended with `termination`, lost by the culprit, with a reason containing `reason`.
fn every_game_lost_by_the_culprit(
    test: &str,
    behaviour: &[&str],
    extra: &[&str],
    termination: &str,
    pgn_termination: &str,
    reason: &str,
) -> Played {
    let (culprit, steady) = (engine("culprit", behaviour), engine("steady", &["good"]));
    let mut arguments = vec!["--engine", &culprit, "--engine", &steady, "--games", "2"];
    arguments.extend_from_slice(extra);
    let played = run_match(test, &arguments);
    let games = played.json["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{}", played.stdout);
    for game in games {
        let culprit_colour = if game["white"] == "culprit" {
            "white"
        } else {
            "black"
        };
        let expected_result = if culprit_colour == "white" { "0-1" } else { "1-0" };
        assert_eq!(game["termination"], termination, "{game}");
        assert_eq!(game["at_fault"], culprit_colour, "{game}");
        assert_eq!(game["result"], expected_result, "{game}");
        assert!(game["reason"].as_str().unwrap().contains(reason), "{game}");
    }
    // Both games were lost by the culprit, one with each colour: the restarted engine played the second.
    let pairing = &played.json["pairings"][0];
    assert_eq!(pairing["engine"], "culprit");
    assert_eq!(pairing["wdl"]["losses"], 2);
    assert_eq!(pairing["pentanomial"]["loss_loss"], 1);
    let tally_key = termination.replace(' ', "_");
    let tally_key = match tally_key.as_str() {
        "crash" => "crashes",
        "hang" => "hangs",
        "illegal_move" => "illegal_moves",
        "time_forfeit" => "time_forfeits",
        other => other,
    };
    assert_eq!(
        played.json["engines"][0]["tally"][tally_key], 2,
        "{}",
        played.json["engines"][0]
    );
    assert_eq!(played.json["engines"][1]["tally"][tally_key], 0);
    assert_eq!(
        played
            .pgn
            .matches(&format!("[Termination \"{pgn_termination}\"]"))
            .count(),
        2,
        "{}",
        played.pgn
    );
    assert!(played.pgn.contains(reason), "{}", played.pgn);
    assert!(played.stdout.contains(reason), "{}", played.stdout);
    played
}

#[test]
fn a_crash_loses_the_game_and_the_engine_is_restarted() {
    every_game_lost_by_the_culprit(
        "crash",
        &["crash", "3"],
        &["--tc", "10+0.1"],
        "crash",
        "abandoned",
        "the process exited",
    );
}

#[test]
fn an_illegal_move_loses_the_game() {
    let played = every_game_lost_by_the_culprit(
        "illegal",
        &["illegal", "2"],
        &["--movetime", "200", "--concurrency", "2"],
        "illegal move",
        "rules infraction",
        "illegal move",
    );
    assert!(played.pgn.contains("[TimeControl \"1/0.2\"]"));
}

#[test]
fn a_late_move_loses_on_time() {
    let played = every_game_lost_by_the_culprit(
        "time-forfeit",
        &["slow", "1", "1500"],
        &["--tc", "1+0"],
        "time forfeit",
        "time forfeit",
        "lost on time",
    );
    // The late move was not played. The engine answered, so it was not restarted: its move count goes on, and
    // in the second game it is slow from its first move. Game 1: culprit White, a normal move, Black's reply,
    // the late move (2 plies). Game 2: culprit Black, White's move, the late move (1 ply).
    let plies: Vec<u64> = played.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["plies"].as_u64().unwrap())
        .collect();
    assert_eq!(plies, [2, 1]);
}

#[test]
fn a_silent_engine_is_declared_hung_and_restarted() {
    every_game_lost_by_the_culprit(
        "hang",
        &["hang", "1"],
        &["--tc", "1+0", "--hang-grace", "0.5"],
        "hang",
        "abandoned",
        "no bestmove within",
    );
}

#[test]
fn a_bestmove_without_a_move_is_malformed_output() {
    every_game_lost_by_the_culprit(
        "garbage",
        &["garbage", "0"],
        &["--nodes", "100"],
        "malformed output",
        "abandoned",
        "'bestmove banana' is not a move",
    );
}

#[test]
fn chatter_is_reported_as_warnings_without_ending_the_game() {
    let (chatty, steady) = (engine("chatty", &["chatter", "0"]), engine("steady", &["good"]));
    let played = run_match(
        "chatter",
        &[
            "--engine", &chatty, "--engine", &steady, "--games", "1", "--depth", "1",
        ],
    );
    let game = &played.json["games"][0];
    assert_eq!(game["at_fault"], Value::Null, "{game}");
    let warnings = played.json["engines"][0]["tally"]["warnings"].as_u64().unwrap();
    assert!(warnings >= 2, "{}", played.json["engines"][0]);
    assert_eq!(played.json["engines"][1]["tally"]["warnings"], 0);
    let kept = game["warnings"].as_array().unwrap();
    assert!(
        kept.iter()
            .any(|w| w.as_str().unwrap().contains("unrecognised output")),
        "{game}"
    );
    assert!(
        kept.iter()
            .any(|w| w.as_str().unwrap().contains("malformed info line")),
        "{game}"
    );
}

/// target/{release,debug}/eldest, or else a debug eldest built for this test (a debug build at 2000 nodes per
/// move plays a game in well under a second). The build goes to its own target directory: the `cargo test`
/// running this test may hold the lock of the usual one.
fn eldest_binary() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let own_target = target.join("match-test-eldest");
    for directory in [
        target.join("release"),
        target.join("debug"),
        own_target.join("debug"),
    ] {
        let binary = directory.join("eldest");
        if binary.exists() {
            return binary;
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .env("CARGO_TARGET_DIR", &own_target)
        .args(["build", "--quiet", "-p", "eldest"])
        .status()
        .unwrap();
    assert!(status.success(), "cargo build -p eldest failed");
    own_target.join("debug").join("eldest")
}

#[test]
fn two_copies_of_eldest_at_fixed_nodes_give_a_consistent_pgn_and_json() {
    let binary = eldest_binary();
    let first = format!("cmd={},name=first,option.Hash=4", binary.display());
    let second = format!("cmd={},name=second,option.Hash=4", binary.display());
    let played = run_match(
        "eldest",
        &[
            "--engine",
            &first,
            "--engine",
            &second,
            "--games",
            "4",
            "--nodes",
            "2000",
            "--concurrency",
            "2",
        ],
    );
    let json = &played.json;
    assert_eq!(json["status"], "completed");
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    let pairing = &json["pairings"][0];
    let wdl = &pairing["wdl"];
    let total = ["wins", "draws", "losses"]
        .iter()
        .map(|k| wdl[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(total, 4);
    let pairs = [
        "loss_loss",
        "loss_draw",
        "win_loss",
        "draw_draw",
        "win_draw",
        "win_win",
    ];
    assert_eq!(
        pairs
            .iter()
            .map(|k| pairing["pentanomial"][k].as_u64().unwrap())
            .sum::<u64>(),
        2
    );
    assert!(pairing["elo"]["score"].as_f64().is_some(), "{pairing}");
    for engine in json["engines"].as_array().unwrap() {
        let tally = &engine["tally"];
        for fault in [
            "time_forfeits",
            "illegal_moves",
            "crashes",
            "hangs",
            "malformed_output",
        ] {
            assert_eq!(tally[fault], 0, "{engine}");
        }
        assert_eq!(tally["games"], 4);
    }
    let terminations: u64 = json["terminations"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(terminations, 4);

    // Replay every PGN game with eldest-board: the moves must be legal, and the final position must show the
    // ending the JSON reports.
    let pgn_games: Vec<&str> = played.pgn.split("[Event ").skip(1).collect();
    assert_eq!(pgn_games.len(), 4);
    for pgn_game in pgn_games {
        let tag = |name: &str| {
            let start = pgn_game
                .find(&format!("[{name} \""))
                .unwrap_or_else(|| panic!("no {name} in {pgn_game}"));
            let rest = &pgn_game[start + name.len() + 3..];
            rest[..rest.find("\"]").unwrap()].to_string()
        };
        let number: u64 = tag("Round").parse().unwrap();
        let summary = games.iter().find(|g| g["number"] == number).unwrap();
        assert_eq!(tag("Result"), summary["result"].as_str().unwrap());
        assert_eq!(tag("White"), summary["white"].as_str().unwrap());
        assert_eq!(tag("Termination"), "normal", "{pgn_game}");
        let movetext = &pgn_game[pgn_game.find("\n\n").unwrap()..];
        let mut position = Position::startpos();
        let mut plies = 0;
        let mut in_comment = false;
        for token in movetext.split_whitespace() {
            if in_comment || token.starts_with('{') {
                in_comment = !token.ends_with('}');
                continue;
            }
            if token.ends_with('.') || ["1-0", "0-1", "1/2-1/2"].contains(&token) {
                continue;
            }
            let mv = position
                .parse_san(token)
                .unwrap_or_else(|e| panic!("{e} in game {number}"));
            position.play_unchecked(mv);
            plies += 1;
        }
        assert_eq!(tag("PlyCount"), plies.to_string());
        match summary["termination"].as_str().unwrap() {
            "checkmate" => assert!(position.is_checkmate(), "game {number}"),
            "stalemate" => assert!(position.is_stalemate(), "game {number}"),
            "insufficient material" => assert!(position.is_insufficient_material()),
            "fifty moves" => assert!(position.halfmove_clock() >= 100),
            "threefold repetition" => assert_eq!(summary["result"], "1/2-1/2"),
            other => panic!("game {number} ended by {other}"),
        }
    }
    assert!(played.stdout.contains("first vs second"), "{}", played.stdout);
}

fn refused(arguments: &[&str]) -> String {
    let output = Command::new(XTASK)
        .arg("match")
        .args(arguments)
        .arg("--no-build")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{arguments:?} was accepted");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn bad_input_gives_a_clear_message() {
    let good = engine("steady", &["good"]);
    let other = engine("other", &["good"]);
    let third = engine("third", &[]);
    let with_threads = format!("{good},option.Threads=2");
    let bad_openings = scratch("bad-input").join("broken.epd");
    std::fs::write(&bad_openings, "this is not a FEN\n").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "--engine",
                "cmd=/no/such/engine",
                "--engine",
                &good,
                "--games",
                "2",
                "--nodes",
                "5",
            ],
            "cannot start",
        ),
        (
            vec![
                "--engine", &good, "--engine", &other, "--games", "2", "--tc", "fast",
            ],
            "bad time control",
        ),
        (
            vec![
                "--engine", &good, "--engine", &other, "--nodes", "5", "--sprt", "elo0=5", "elo1=0",
            ],
            "less than",
        ),
        (
            vec!["--engine", &good, "--engine", &other, "--nodes", "5"],
            "--games",
        ),
        (
            vec!["--engine", &good, "--games", "2", "--nodes", "5"],
            "at least two engines",
        ),
        (
            vec!["--engine", &good, "--engine", &other, "--games", "2"],
            "no limit",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &other,
                "--games",
                "2",
                "--nodes",
                "5",
                "--openings",
            ],
            "a value is required",
        ),
        (
            vec![
                "--engine",
                &good,
                "--engine",
                &other,
                "--games",
                "2",
                "--nodes",
                "5",
                "--openings",
                bad_openings.to_str().unwrap(),
            ],
            "broken.epd: line 1",
        ),
        (
            vec![
                "--engine",
                &with_threads,
                "--engine",
                &other,
                "--games",
                "2",
                "--nodes",
                "5",
            ],
            "has no option 'Threads'",
        ),
        (
            vec![
                "--engine", &good, "--engine", &other, "--engine", &third, "--nodes", "5", "--sprt",
            ],
            "a value is required",
        ),
        (
            vec![
                "--engine", &good, "--engine", &other, "--engine", &third, "--nodes", "5", "--sprt",
                "elo0=0", "elo1=5",
            ],
            "exactly two engines",
        ),
    ];
    for (arguments, expected) in cases {
        let message = refused(&arguments);
        assert!(message.contains(expected), "{arguments:?}: {message}");
    }
}

#[test]
fn help_explains_the_command() {
    let output = Command::new(XTASK).args(["match", "--help"]).output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "--engine",
        "--tc",
        "--sprt",
        "--concurrency",
        "--openings",
        "--pgn",
        "--json",
        "illegal move",
    ] {
        assert!(help.contains(expected), "{expected} missing from:\n{help}");
    }
}
