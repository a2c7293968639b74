//! `cargo xtask sprt` end to end with prebuilt binaries (the test engine of `cargo xtask match`'s tests on both
//! sides): the games are played, the summary block is printed, and bad input is refused before anything is
//! built or played.

use std::path::PathBuf;
use std::process::{Command, Output};

const XTASK: &str = env!("CARGO_BIN_EXE_xtask");
const MISBEHAVING: &str = env!("CARGO_BIN_EXE_misbehaving_engine");

fn scratch(test: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("xtask-sprt-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

fn sprt(arguments: &[&str]) -> Output {
    Command::new(XTASK).arg("sprt").args(arguments).output().unwrap()
}

#[test]
fn two_binaries_play_and_the_commit_block_is_printed() {
    let out = scratch("block");
    let output = sprt(&[
        "--test",
        MISBEHAVING,
        "--base",
        MISBEHAVING,
        "--tc",
        "5+0.05",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--elo0",
        "-5",
        "--elo1",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    for expected in [
        "Test  | ",
        "SPRT  | 5+0.05",
        "LLR   | ",
        "[-5, 5]",
        "Games | N: 4 W: ",
        "Penta | [",
        "test-misbehaving_engine",
        "base-misbehaving_engine",
    ] {
        assert!(stdout.contains(expected), "'{expected}' missing:\n{stdout}");
    }
    // Not an Eldest binary: no Bench line is made up for the commit message.
    assert!(stdout.contains("(Bench: none: not an Eldest binary)"), "{stdout}");
    assert!(
        !stdout.lines().any(|line| line.starts_with("Bench: ")),
        "{stdout}"
    );
    let pgn = out.join("test-misbehaving_engine-vs-base-misbehaving_engine.pgn");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event ").count(), 4, "{games}");
}

#[test]
fn bad_input_is_refused_before_anything_is_built() {
    let out = scratch("refused");
    let out = out.to_str().unwrap();
    for (arguments, expected) in [
        (
            vec![
                "--base",
                "no-such-revision-anywhere",
                "--test",
                MISBEHAVING,
                "--out",
                out,
            ],
            "neither a file nor a git revision",
        ),
        (
            vec![
                "--base",
                MISBEHAVING,
                "--test",
                MISBEHAVING,
                "--elo0",
                "5",
                "--elo1",
                "0",
                "--out",
                out,
            ],
            "elo0",
        ),
        (
            vec![
                "--base",
                MISBEHAVING,
                "--test",
                MISBEHAVING,
                "--option",
                "Threads",
                "--out",
                out,
            ],
            "NAME=VALUE",
        ),
    ] {
        let output = sprt(&arguments);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{arguments:?} was accepted");
        assert!(stderr.contains(expected), "{arguments:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
