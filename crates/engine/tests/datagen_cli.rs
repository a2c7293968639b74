//! `eldest datagen` as a process: games written in eldest-data's format with their positions filtered, a run
//! stopped part-way (a record cut short included) resumed to the same games, and bad input refused with a clear
//! error.

use eldest_data::{DataReader, GameRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn eldest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eldest"))
        .args(args)
        .output()
        .expect("the eldest binary runs")
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eldest-datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn datagen(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--nodes",
        "600",
        "--seed",
        "5",
    ];
    args.extend_from_slice(extra);
    eldest(&args)
}

fn games(path: &Path) -> Vec<GameRecord> {
    let mut games: Vec<GameRecord> = DataReader::new(std::fs::File::open(path).unwrap())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    games.sort_by_key(|game| game.index);
    games
}

#[test]
fn games_are_written_filtered_and_a_stopped_run_resumes_to_the_same_games() {
    let dir = scratch("resume");
    let whole = dir.join("whole.bin");
    let output = datagen(&whole, &["--games", "4", "--threads", "2"]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("4 games"), "{stdout}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("games 4/4"),
        "a progress line"
    );
    let expected = games(&whole);
    assert_eq!(expected.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1, 2, 3]);
    let mut trainable = 0;
    for game in &expected {
        let mut position = game.start;
        for scored in &game.moves {
            if let Some(score) = scored.score {
                trainable += 1;
                assert!(!position.in_check(), "a position in check is not for training");
                assert!(
                    !scored.mv.is_noisy(),
                    "nor one whose best move is a capture or promotion"
                );
                assert!(score.abs() < 30_000, "nor a mate score");
            }
            position.play_unchecked(scored.mv);
        }
    }
    assert!(trainable > 0);

    // The same run in two parts, the first killed in the middle of writing a record.
    let parts = dir.join("parts.bin");
    assert!(datagen(&parts, &["--games", "3"]).status.success());
    let len = std::fs::metadata(&parts).unwrap().len();
    let file = std::fs::OpenOptions::new().write(true).open(&parts).unwrap();
    file.set_len(len - 7).unwrap();
    drop(file);
    let output = datagen(&parts, &["--games", "4", "--threads", "2"]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("cut short"),
        "{output:?}"
    );
    assert_eq!(games(&parts), expected);

    // Nothing left to do: the file stays as it is.
    let before = std::fs::read(&parts).unwrap();
    assert!(datagen(&parts, &["--games", "4"]).status.success());
    assert_eq!(std::fs::read(&parts).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_settings_a_foreign_file_and_a_missing_opening_file_are_refused() {
    let dir = scratch("refused");
    let out = dir.join("data.bin");
    assert!(datagen(&out, &["--games", "1"]).status.success());
    let other = eldest(&[
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--games",
        "2",
        "--nodes",
        "700",
        "--seed",
        "5",
    ]);
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("other settings"),
        "{other:?}"
    );

    let foreign = dir.join("foreign.bin");
    std::fs::write(&foreign, b"[Event \"not data\"]\n").unwrap();
    let output = datagen(&foreign, &["--games", "1"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");

    let missing = datagen(
        &dir.join("new.bin"),
        &["--games", "1", "--openings", "/no/such/openings.epd"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("/no/such/openings.epd"),
        "{missing:?}"
    );

    let zero = datagen(&dir.join("zero.bin"), &["--games", "0"]);
    assert_eq!(zero.status.code(), Some(2), "clap refuses 0 games");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_start_from_the_openings_of_a_file() {
    let dir = scratch("openings");
    let book = dir.join("book.epd");
    std::fs::write(&book, "# two openings\nr1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n8/8/8/8/8/8/8/K6k w - - 0 1\n").unwrap();
    let out = dir.join("data.bin");
    let output = datagen(
        &out,
        &[
            "--games",
            "2",
            "--openings",
            book.to_str().unwrap(),
            "--random-plies",
            "0",
        ],
    );
    assert!(output.status.success(), "{output:?}");
    for game in games(&out) {
        // Bare kings can never be a game: every game starts from the Italian-like opening.
        assert_eq!(
            game.start.to_fen(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
