//! `cargo xtask bench` end to end: a tiny bench (two positions, depth 4, 1 and 2 threads) through the real
//! engine binary, checking that every output file exists and parses, that `--compare` reads them back, and
//! that bad options are refused with a message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The engine binary, built in the dev profile (fast to build; depth 4 needs no speed).
fn eldest() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(workspace_root())
        .args(["build", "--quiet", "-p", "eldest"])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building eldest failed");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace_root().join("target"), PathBuf::from);
    target
        .join("debug")
        .join(format!("eldest{}", std::env::consts::EXE_SUFFIX))
}

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("xtask runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn tiny_bench_writes_every_file_and_compare_reads_them() {
    let engine = eldest();
    let dir = scratch("bench-smoke");
    let positions = dir.join("two.epd");
    std::fs::write(
        &positions,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10\n\
         8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11\n",
    )
    .unwrap();
    let out = dir.join("out");
    let output = xtask(&[
        "bench",
        "--engine",
        engine.to_str().unwrap(),
        "--positions",
        positions.to_str().unwrap(),
        "--depth",
        "4",
        "--threads",
        "1,2",
        "--oversubscribe",
        "--repeat",
        "2",
        "--hash",
        "8",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    for algorithm in ["lazy", "ybwc", "abdada", "simplified-abdada"] {
        assert!(stdout.contains(algorithm), "{algorithm} in the table:\n{stdout}");
    }

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    let summaries = json["summaries"].as_array().unwrap();
    assert_eq!(summaries.len(), 8, "4 algorithms × threads 1 and 2");
    for summary in summaries {
        assert_eq!(summary["positions"], 2);
        assert!(summary["speedup"]["median"].as_f64().unwrap() > 0.0);
        assert!(summary["node_overhead"]["median"].as_f64().unwrap() > 0.0);
        assert_eq!(summary["per_position"].as_array().unwrap().len(), 2);
    }
    // Two repeats of the baseline and of each algorithm at 2 threads.
    assert_eq!(json["runs"].as_array().unwrap().len(), 10);
    assert_eq!(json["settings"]["depth"], 4);
    assert!(json["machine"]["logical_cpus"].as_u64().unwrap() >= 1);

    let summary_csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(summary_csv.lines().count(), 1 + 8);
    let columns = summary_csv.lines().next().unwrap().split(',').count();
    assert!(
        summary_csv.lines().all(|l| l.split(',').count() == columns),
        "{summary_csv}"
    );
    let positions_csv = std::fs::read_to_string(out.join("positions.csv")).unwrap();
    assert_eq!(positions_csv.lines().count(), 1 + 8 * 2);
    for chart in ["speedup.svg", "nps.svg", "overhead.svg"] {
        let svg = std::fs::read_to_string(out.join(chart)).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{chart}"
        );
        assert!(svg.contains("simplified-abdada"), "{chart} names every algorithm");
    }
    assert!(
        std::fs::read_to_string(out.join("summary.md"))
            .unwrap()
            .contains("| ybwc | 2 |")
    );

    let bench_json = out.join("bench.json");
    let compare = xtask(&[
        "bench",
        "--compare",
        bench_json.to_str().unwrap(),
        bench_json.to_str().unwrap(),
    ]);
    assert!(compare.status.success(), "{compare:?}");
    let text = String::from_utf8_lossy(&compare.stdout);
    assert!(
        text.contains("noise") && !text.contains("better") && !text.contains("worse"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_options_are_refused_with_a_message() {
    let dir = scratch("bench-bad");
    let missing = dir.join("missing-eldest");
    let cases: [&[&str]; 5] = [
        &["bench", "--engine", missing.to_str().unwrap()],
        &["bench", "--algorithms", "lazy,dts"],
        &["bench", "--threads", "0"],
        &["bench", "--depth", "4", "--movetime", "10"],
        &["bench", "--compare", "/nonexistent/a.json", "/nonexistent/b.json"],
    ];
    for args in cases {
        let output = xtask(args);
        assert!(!output.status.success(), "{args:?} must fail");
        assert!(!output.stderr.is_empty(), "{args:?} must say why");
    }
    let not_json = dir.join("not.json");
    std::fs::write(&not_json, "{}").unwrap();
    let output = xtask(&[
        "bench",
        "--compare",
        not_json.to_str().unwrap(),
        not_json.to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("not a result file"),
        "{output:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn more_threads_than_cpus_needs_oversubscribe() {
    let engine = eldest();
    let output = xtask(&[
        "bench",
        "--engine",
        engine.to_str().unwrap(),
        "--threads",
        "1,256",
        "--depth",
        "1",
    ]);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--oversubscribe"),
        "{output:?}"
    );
}
