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

/// The misbehaving engine's spec; a behaviour that starts with `--xboard` (or `--xboard-v1`) speaks xboard.
fn engine(name: &str, behaviour: &[&str]) -> String {
    let mut spec = format!("cmd={MISBEHAVING},name={name}");
    if behaviour
        .first()
        .is_some_and(|first| first.starts_with("--xboard"))
    {
        spec.push_str(",proto=xboard");
    }
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

/// Runs `cargo xtask match` with these arguments and its output files in `directory`; the JSON and stdout.
fn match_in(directory: &Path, arguments: &[&str]) -> (Value, String, std::process::ExitStatus) {
    let (pgn, json) = (directory.join("games.pgn"), directory.join("games.json"));
    let output = Command::new(XTASK)
        .arg("match")
        .args(arguments)
        .args(["--no-build", "--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    let json = std::fs::read_to_string(&json)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    (json, text, output.status)
}

#[test]
fn a_resumed_match_plays_the_rest_of_the_schedule_and_counts_like_one_run() {
    // The steady engines choose their moves from the position alone, so every game is the same in both runs.
    let arguments = [
        "--engine",
        &engine("alpha", &["good"]),
        "--engine",
        &engine("beta", &["good"]),
        "--games",
        "8",
        "--nodes",
        "1",
        "--concurrency",
        "2",
    ];
    let whole = scratch("resume-whole");
    let (uninterrupted, output, status) = match_in(&whole, &arguments);
    assert!(status.success(), "{output}");
    // Every engine move is credited to the engine that played it, with the depth it reported (1, always).
    let plies: u64 = uninterrupted["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["plies"].as_u64().unwrap())
        .sum();
    let tallies = uninterrupted["engines"].as_array().unwrap();
    let moves: Vec<u64> = tallies
        .iter()
        .map(|e| e["tally"]["moves"].as_u64().unwrap())
        .collect();
    assert_eq!(moves.iter().sum::<u64>(), plies, "{tallies:?}");
    for engine in tallies {
        assert!(engine["tally"]["moves"].as_u64().unwrap() > 0, "{engine}");
        assert_eq!(engine["tally"]["depth_sum"], engine["tally"]["moves"], "{engine}");
    }
    assert!(output.contains("mean depth 1.00, mean move"), "{output}");

    // An interruption after three games: the files as they were then.
    let cut = scratch("resume-cut");
    let mut interrupted = uninterrupted.clone();
    let first_three: Vec<Value> = interrupted["games"].as_array().unwrap()[..3].to_vec();
    interrupted["games"] = Value::Array(first_three);
    for engine in interrupted["engines"].as_array_mut().unwrap() {
        engine["tally"]["games"] = 3.into();
    }
    std::fs::write(cut.join("games.json"), interrupted.to_string()).unwrap();
    // The PGN gets each game as the JSON does, when it ends: its first three games are the JSON's first three.
    let pgn = std::fs::read_to_string(whole.join("games.pgn")).unwrap();
    let kept_games: String = pgn
        .split("[Event ")
        .filter(|g| !g.is_empty())
        .take(3)
        .map(|g| format!("[Event {g}"))
        .collect();
    std::fs::write(cut.join("games.pgn"), &kept_games).unwrap();

    let mut resumed_arguments = arguments.to_vec();
    resumed_arguments.push("--resume");
    let (resumed, output, status) = match_in(&cut, &resumed_arguments);
    assert!(status.success(), "{output}");
    assert!(output.contains("Resuming: 3 games already played"), "{output}");
    let mut numbers: Vec<u64> = resumed["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>(), "every game once");
    for figure in ["wdl", "pentanomial", "as_white", "as_black"] {
        assert_eq!(
            resumed["pairings"][0][figure], uninterrupted["pairings"][0][figure],
            "{figure}"
        );
    }
    assert_eq!(resumed["engines"][0]["tally"]["games"], 8);
    assert_eq!(resumed["terminations"], uninterrupted["terminations"]);
    let games_in_pgn = std::fs::read_to_string(cut.join("games.pgn"))
        .unwrap()
        .matches("[Event ")
        .count();
    assert_eq!(games_in_pgn, 8);

    // Another engine, another opening order, or no file at all: refused with the reason.
    let mut other_engine = arguments.to_vec();
    let faster = format!("{},option.Hash=2", engine("beta", &["good"]));
    other_engine[3] = &faster;
    other_engine.push("--resume");
    let (_, output, status) = match_in(&cut, &other_engine);
    assert!(!status.success());
    assert!(
        output.contains("cannot resume") && output.contains("engine 2 differs"),
        "{output}"
    );
    let mut other_seed = arguments.to_vec();
    other_seed.extend(["--seed", "7", "--resume"]);
    let (_, output, status) = match_in(&cut, &other_seed);
    assert!(!status.success());
    assert!(output.contains("is not that game of this schedule"), "{output}");
    let nothing = scratch("resume-nothing");
    let (_, output, status) = match_in(&nothing, &resumed_arguments);
    assert!(!status.success());
    assert!(output.contains("cannot resume"), "{output}");
    assert!(!output.contains("panicked"), "{output}");
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

#[test]
fn an_xboard_engine_plays_whole_games_from_moves_and_from_a_fen() {
    let openings = scratch("xboard-openings").join("openings.epd");
    // One opening from a FEN (setboard) and, with the default file's second line, book moves (usermove).
    std::fs::write(
        &openings,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"Two knights\";\n",
    )
    .unwrap();
    let xboard = format!("{},option.Style=loud", engine("xb", &["--xboard", "good"]));
    let steady = engine("steady", &["good"]);
    for (test, extra) in [
        ("xboard-fen", vec!["--openings", openings.to_str().unwrap()]),
        ("xboard-moves", vec![]),
    ] {
        let mut arguments = vec![
            "--engine", &xboard, "--engine", &steady, "--games", "2", "--tc", "30+0.1",
        ];
        arguments.extend(extra);
        let played = run_match(test, &arguments);
        assert_eq!(played.json["engines"][0]["protocol"], "xboard");
        assert_eq!(played.json["engines"][1]["protocol"], "uci");
        for game in played.json["games"].as_array().unwrap() {
            assert_eq!(game["at_fault"], Value::Null, "{game}");
            assert!(game["plies"].as_u64().unwrap() > 0, "{game}");
            assert_eq!(game["warnings"].as_array().map_or(0, Vec::len), 0, "{game}");
        }
        // The moves of both games replay legally: the xboard engine followed every move it was given.
        let games = played
            .pgn
            .split("[Event ")
            .filter(|g| !g.trim().is_empty())
            .count();
        assert_eq!(games, 2, "{}", played.pgn);
        if test == "xboard-fen" {
            assert!(played.pgn.contains("[SetUp \"1\"]"), "{}", played.pgn);
        }
    }
}

#[test]
fn a_version_1_xboard_engine_plays_from_moves_and_is_refused_a_fen_opening() {
    // No features at all: the runner waits its 2 s, then sends bare moves and no ping.
    let old = engine("old", &["--xboard-v1", "good"]);
    let steady = engine("steady", &["good"]);
    let played = run_match(
        "xboard-v1",
        &[
            "--engine", &old, "--engine", &steady, "--games", "2", "--tc", "30+0.1",
        ],
    );
    for game in played.json["games"].as_array().unwrap() {
        assert_eq!(game["at_fault"], Value::Null, "{game}");
    }
    let openings = scratch("xboard-v1-fen").join("fen.epd");
    std::fs::write(&openings, "4k3/8/8/8/8/8/4P3/4K3 w - -\n").unwrap();
    let error = refused(&[
        "--engine",
        &old,
        "--engine",
        &steady,
        "--games",
        "2",
        "--tc",
        "30+0.1",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(
        error.contains("engine 'old' cannot start a game from a FEN"),
        "{error}"
    );
}

#[test]
fn xboard_faults_lose_the_game_like_uci_faults() {
    every_game_lost_by_the_culprit(
        "xboard-crash",
        &["--xboard", "crash", "2"],
        &["--tc", "10+0.1"],
        "crash",
        "abandoned",
        "the process exited",
    );
    every_game_lost_by_the_culprit(
        "xboard-illegal",
        &["--xboard", "illegal", "1"],
        &["--movetime", "1000"],
        "illegal move",
        "rules infraction",
        "illegal move",
    );
    every_game_lost_by_the_culprit(
        "xboard-hang",
        &["--xboard", "hang", "1"],
        &["--tc", "1+0", "--hang-grace", "0.5"],
        "hang",
        "abandoned",
        "no move within",
    );
    every_game_lost_by_the_culprit(
        "xboard-garbage",
        &["--xboard", "garbage", "0"],
        &["--depth", "3"],
        "malformed output",
        "abandoned",
        "names no move",
    );
}

#[test]
fn an_xboard_resignation_ends_the_game_as_a_loss_without_a_fault() {
    let (quitter, steady) = (
        engine("quitter", &["--xboard", "resign", "2"]),
        engine("steady", &["good"]),
    );
    let played = run_match(
        "xboard-resign",
        &[
            "--engine", &quitter, "--engine", &steady, "--games", "2", "--tc", "10+0.1",
        ],
    );
    for game in played.json["games"].as_array().unwrap() {
        assert_eq!(game["termination"], "resignation", "{game}");
        assert_eq!(game["at_fault"], Value::Null, "{game}");
        let expected = if game["white"] == "quitter" { "0-1" } else { "1-0" };
        assert_eq!(game["result"], expected, "{game}");
    }
    assert_eq!(played.json["pairings"][0]["wdl"]["losses"], 2);
}

/// A real xboard engine: Debian's Fairy-Max (`apt-get install fairymax`), two games at 2+0.02 against a UCI
/// engine. Run by `.ci/run` after it installs the package (`cargo test -p xtask --test match_runner --
/// --ignored`); a plain `cargo test` skips it because the engine may be absent.
#[test]
#[ignore = "needs fairymax (apt-get install fairymax); .ci/run runs it"]
fn fairy_max_plays_over_xboard() {
    let steady = engine("steady", &["good"]);
    let played = run_match(
        "fairymax",
        &[
            "--engine",
            "cmd=fairymax,proto=xboard,name=fairymax",
            "--engine",
            &steady,
            "--games",
            "2",
            "--tc",
            "2+0.02",
        ],
    );
    for game in played.json["games"].as_array().unwrap() {
        assert_ne!(game["at_fault"], "white", "{game}");
        assert_ne!(game["at_fault"], "black", "{game}");
    }
    // Fairy-Max never loses to an engine that plays arbitrary legal moves (it may stalemate one: CI saw a
    // 1/1/0), every game ends by a rule of chess, and it reports its thinking (depth in the PGN).
    assert_eq!(
        played.json["pairings"][0]["wdl"]["losses"], 0,
        "{}",
        played.stdout
    );
    for game in played.json["games"].as_array().unwrap() {
        let termination = game["termination"].as_str().unwrap_or_default();
        assert!(RULE_TERMINATIONS.contains(&termination), "{game}");
    }
    let scored_with_depth = |comment: &str| {
        comment
            .split_whitespace()
            .next()
            .is_some_and(|w| w.starts_with(['+', '-']) && w.contains('/'))
    };
    assert!(played.pgn.split('{').any(scored_with_depth), "{}", played.pgn);
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

/// The summary's names of the endings by a rule of chess (the runner's `Termination::key`).
const RULE_TERMINATIONS: [&str; 5] = [
    "checkmate",
    "stalemate",
    "insufficient material",
    "fifty moves",
    "threefold repetition",
];

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
