//! `cargo xtask train` as a process, on a small data file written with eldest-data: the net and the loss log
//! are written, the loss falls, and bad input is refused with a message.

use eldest_board::Position;
use eldest_data::{GameRecord, GameResult, ScoredMove, write_header};
use std::process::Command;

/// Games in which White, to move, is a queen, a rook or nothing up, scored and decided accordingly.
fn data_file(path: &std::path::Path) {
    let mut bytes = Vec::new();
    write_header(&mut bytes).unwrap();
    let starts = [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 900, GameResult::WhiteWin),
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", 500, GameResult::WhiteWin),
        ("4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1", 0, GameResult::Draw),
        ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", -900, GameResult::BlackWin),
    ];
    for index in 0..40u32 {
        let (fen, score, result) = starts[index as usize % starts.len()];
        let start = Position::from_fen(fen).unwrap();
        let king_step = start
            .parse_uci_move("e1f2")
            .or_else(|_| start.parse_uci_move("e1e2"))
            .unwrap();
        let game = GameRecord {
            index,
            start,
            result,
            moves: vec![ScoredMove {
                mv: king_step,
                score: Some(score),
            }],
        };
        game.write_to(&mut bytes).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_net_and_its_loss_log_are_written_and_bad_input_is_refused() {
    let dir = std::env::temp_dir().join(format!("xtask-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.bin");
    data_file(&data);
    let net = dir.join("net.bin");
    let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args([
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            net.to_str().unwrap(),
        ])
        .args([
            "--hidden",
            "8",
            "--epochs",
            "30",
            "--batch",
            "4",
            "--lr",
            "0.01",
            "--validation-every",
            "10",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("36 training and 4 validation positions"),
        "{stderr}"
    );
    assert!(stderr.contains("epoch 30/30"), "{stderr}");
    assert_eq!(&std::fs::read(&net).unwrap()[..8], b"ELDNET\0\0");
    let log = std::fs::read_to_string(dir.join("net.bin.csv")).unwrap();
    let losses: Vec<f64> = log
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(losses.len(), 30);
    assert!(losses[29] < losses[0] * 0.5, "{losses:?}");
    let chart = std::fs::read_to_string(dir.join("net.bin.svg")).unwrap();
    assert!(
        chart.starts_with("<svg") && chart.contains("validation loss"),
        "the loss curve"
    );

    // --mirror: every training position here is without castling rights, so each is there twice; the
    // validation set stays as played.
    let mirrored = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["train", "--data", data.to_str().unwrap(), "--out"])
        .arg(dir.join("mirrored.bin"))
        .args([
            "--hidden",
            "8",
            "--epochs",
            "1",
            "--validation-every",
            "10",
            "--mirror",
        ])
        .output()
        .unwrap();
    assert!(mirrored.status.success(), "{mirrored:?}");
    let stderr = String::from_utf8_lossy(&mirrored.stderr);
    assert!(
        stderr.contains("72 training and 4 validation positions"),
        "{stderr}"
    );

    let missing = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args([
            "train",
            "--data",
            "/no/such/data.bin",
            "--out",
            net.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/no/such/data.bin"));
    let not_data = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args([
            "train",
            "--data",
            net.to_str().unwrap(),
            "--out",
            dir.join("x").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&not_data.stderr).contains("not an Eldest data file"),
        "{not_data:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
