//! `cargo xtask bench` end to end: a tiny bench (two positions, depth 4, 1 and 2 threads) through the real
//! engine binary, checking that every output file exists and parses, that `--compare` reads them back, and
//! that bad options are refused with a message; the built-in sets at a tiny depth or time (the long one with the
//! network).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The engine binary, built in the test profile: `cargo test --workspace` has just built it (for the engine's
/// own tests), so this costs nothing there; depth 4 needs no speed.
fn eldest() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(workspace_root())
        .args(["build", "--quiet", "--profile", "test", "-p", "eldest"])
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
    // Every counter the engine writes reaches bench.json (a field the model lacks would be dropped unread).
    let engine_line = Command::new(&engine)
        .args(["bench", "--json", "2"])
        .output()
        .expect("the engine runs");
    let engine_line = String::from_utf8_lossy(&engine_line.stdout);
    let engine_position: serde_json::Value =
        serde_json::from_str(engine_line.lines().find(|l| l.starts_with('{')).unwrap()).unwrap();
    let recorded = json["runs"][0]["positions"][0].as_object().unwrap();
    for key in engine_position.as_object().unwrap().keys() {
        assert!(
            recorded.contains_key(key),
            "bench.json lacks the engine's {key:?}"
        );
    }
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
    // Both positions take well under 0.1 s at depth 4: one range, one row per configuration and breakdown.
    let buckets_csv = std::fs::read_to_string(out.join("buckets.csv")).unwrap();
    assert_eq!(buckets_csv.lines().count(), 1 + 2 * 8, "{buckets_csv}");
    assert!(
        buckets_csv.lines().skip(1).all(|l| l.contains(",<0.1 s,")),
        "{buckets_csv}"
    );
    assert_eq!(
        buckets_csv
            .lines()
            .filter(|l| l.ends_with(",search_size"))
            .count(),
        8,
        "{buckets_csv}"
    );
    assert!(
        stdout.contains("By 1-thread search time") && stdout.contains("By search size"),
        "{stdout}"
    );
    // Each algorithm against lazy SMP at two threads, position by position.
    assert!(stdout.contains("Side by side, position by position"), "{stdout}");
    let paired_csv = std::fs::read_to_string(out.join("paired.csv")).unwrap();
    assert_eq!(paired_csv.lines().count(), 1 + 3, "{paired_csv}");
    for algorithm in ["ybwc", "abdada", "simplified-abdada"] {
        assert!(
            paired_csv.contains(&format!("\n{algorithm},2,lazy,2,")),
            "{paired_csv}"
        );
    }
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
    // Summarised again from its raw runs: the same figures, every file written again.
    let again_dir = dir.join("again");
    let again = xtask(&[
        "bench",
        "--report",
        bench_json.to_str().unwrap(),
        "--out",
        again_dir.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{again:?}");
    for file in ["summary.csv", "positions.csv", "buckets.csv", "paired.csv"] {
        assert_eq!(
            std::fs::read_to_string(again_dir.join(file)).unwrap(),
            std::fs::read_to_string(out.join(file)).unwrap(),
            "{file}"
        );
    }
    // A file against itself, position by position: every ratio exactly 1, nothing outside the noise.
    assert!(
        text.contains("1-thread baseline") && text.contains("1.00 (1.00–1.00)"),
        "{text}"
    );
    assert!(!text.contains("lower") && !text.contains("higher"), "{text}");

    // --pool: the same report twice is one size run at two hours, averaged into the size's two draws (one per
    // position), not four; a report at that size whose one-thread tree differs is refused; as if made at another
    // table size, pooled over both sizes.
    let pool_with = |second: &Path, out: &Path| {
        xtask(&[
            "bench",
            "--pool",
            bench_json.to_str().unwrap(),
            second.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let write_report = |name: &str, report: &serde_json::Value| {
        let path = dir.join(name);
        std::fs::write(&path, serde_json::to_string(report).unwrap()).unwrap();
        path
    };
    let hours_dir = dir.join("hours");
    let twice = pool_with(&bench_json, &hours_dir);
    assert!(twice.status.success(), "{twice:?}");
    let text = String::from_utf8_lossy(&twice.stdout);
    assert!(
        text.contains("2 (1 size, 2 runs)") && !text.contains("4 (1 size"),
        "{text}"
    );
    // `--pool` summarises each file again from its raw runs: another engine shows in the runs' nodes.
    let mut other_engine = json.clone();
    for run in other_engine["runs"].as_array_mut().unwrap() {
        if run["threads"] == 1 {
            let nodes = run["positions"][0]["nodes"].as_u64().unwrap();
            run["positions"][0]["nodes"] = (nodes + 1).into();
        }
    }
    let refused = pool_with(&write_report("other-engine.json", &other_engine), &hours_dir);
    assert!(!refused.status.success(), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("one engine"),
        "{refused:?}"
    );
    // Gzipped, as the results committed under docs/bench/ are.
    let mut at_16 = json.clone();
    at_16["settings"]["hash_mib"] = 16.into();
    let at_16_path = dir.join("at-16.json.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut encoder, serde_json::to_string(&at_16).unwrap().as_bytes()).unwrap();
    std::fs::write(&at_16_path, encoder.finish().unwrap()).unwrap();
    let pooled_dir = dir.join("pooled");
    let pooled = pool_with(&at_16_path, &pooled_dir);
    assert!(pooled.status.success(), "{pooled:?}");
    let text = String::from_utf8_lossy(&pooled.stdout);
    assert!(
        text.contains("table sizes 8, 16 MiB")
            && text.contains("4 (2 sizes)")
            && text.contains("set speedup"),
        "{text}"
    );
    let pooled_csv = std::fs::read_to_string(pooled_dir.join("pooled.csv")).unwrap();
    assert_eq!(pooled_csv.lines().count(), 1 + 8, "{pooled_csv}");
    assert!(pooled_dir.join("pooled.md").is_file());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_options_are_refused_with_a_message() {
    let dir = scratch("bench-bad");
    let missing = dir.join("missing-eldest");
    let cases: [&[&str]; 14] = [
        &["bench", "--engine", missing.to_str().unwrap()],
        &["bench", "--algorithms", "lazy,dts"],
        &["bench", "--threads", "0"],
        &["bench", "--depth", "4", "--movetime", "10"],
        &["bench", "--compare", "/nonexistent/a.json", "/nonexistent/b.json"],
        &["bench", "--pool", "/nonexistent/a.json"],
        &["bench", "--set", "medium"],
        &["bench", "--set", "long", "--positions", "x.epd"],
        &["bench", "--keep-tables"],
        &["bench", "--signature", "--set", "game"],
        // The game set's positions depend on the ones before them: one engine per position cannot search them.
        &["bench", "--set", "game", "--interleave", "positions"],
        &["bench", "--interleave", "sideways"],
        &["bench", "--variant", "ybwc --min-split-depth 65"],
        &[
            "bench",
            "--variant",
            "ybwc --min-split-depth 2",
            "--min-split-depth",
            "3",
        ],
    ];
    for args in cases {
        let output = xtask(args);
        assert!(!output.status.success(), "{args:?} must fail");
        assert!(!output.stderr.is_empty(), "{args:?} must say why");
    }
    let unknown_set = xtask(&["bench", "--set", "medium"]);
    assert!(
        String::from_utf8_lossy(&unknown_set.stderr).contains("expected short, long or game"),
        "{unknown_set:?}"
    );
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
fn a_variants_knobs_reach_the_engine() {
    let engine = eldest();
    let dir = scratch("bench-variants");
    let out = dir.join("out");
    let never_split = "ybwc --min-split-depth 64";
    let always_split = "ybwc --min-split-depth 1 --split-only-when-idle false";
    let output = xtask(&[
        "bench",
        "--engine",
        engine.to_str().unwrap(),
        "--variant",
        never_split,
        "--variant",
        always_split,
        "--threads",
        "1,2",
        "--oversubscribe",
        "--depth",
        "6",
        "--repeat",
        "1",
        "--hash",
        "8",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(always_split), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    assert_eq!(
        json["settings"]["algorithms"],
        serde_json::json!([never_split, always_split])
    );
    let splits = |label: &str| -> u64 {
        json["runs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|run| run["algorithm"] == label && run["threads"] == 2)
            .flat_map(|run| run["positions"].as_array().unwrap())
            .map(|position| position["splits"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(splits(never_split), 0, "no node is 64 plies deep");
    assert!(splits(always_split) > 0, "every node of two plies splits");
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

#[test]
fn built_in_sets_run_in_order_with_their_table_policy() {
    let engine = eldest();
    let dir = scratch("bench-sets");
    // The game set at depth 2: 36 positions in order, tables kept, broken down by 1-thread time.
    let out = dir.join("game");
    let output = xtask(&[
        "bench",
        "--engine",
        engine.to_str().unwrap(),
        "--set",
        "game",
        "--depth",
        "2",
        "--algorithms",
        "lazy,ybwc",
        "--threads",
        "1,2",
        "--oversubscribe",
        "--repeat",
        "1",
        "--hash",
        "8",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.contains("game set, tables kept"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    assert_eq!(json["settings"]["set"], "game");
    assert_eq!(json["settings"]["keep_tables"], true);
    assert_eq!(json["settings"]["depth"], 2);
    let count = eldest_search::bench::BenchSet::Game.fens().len();
    for run in json["runs"].as_array().unwrap() {
        let positions = run["positions"].as_array().unwrap();
        assert_eq!(positions.len(), count);
        for (index, (position, fen)) in positions
            .iter()
            .zip(eldest_search::bench::BenchSet::Game.fens())
            .enumerate()
        {
            assert_eq!(position["index"], index);
            assert_eq!(position["fen"], fen);
        }
    }
    for summary in json["summaries"].as_array().unwrap() {
        let buckets = summary["time_buckets"].as_array().unwrap();
        let in_buckets: u64 = buckets.iter().map(|b| b["positions"].as_u64().unwrap()).sum();
        assert_eq!(in_buckets, summary["positions"].as_u64().unwrap());
        assert!(buckets.iter().all(|b| b["speedup"].as_f64().unwrap() > 0.0));
    }
    let markdown = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        markdown.contains("By 1-thread search time") && markdown.contains("| ybwc | 2 |"),
        "{markdown}"
    );

    // The long set at a fixed time: no time to depth, but the NPS ratio and the depth reached.
    let out = dir.join("long");
    let output = xtask(&[
        "bench",
        "--engine",
        engine.to_str().unwrap(),
        "--set",
        "long",
        "--movetime",
        "5",
        "--algorithms",
        "lazy",
        "--threads",
        "1,2",
        "--oversubscribe",
        "--repeat",
        "1",
        "--hash",
        "8",
        "--eval",
        "nnue",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(
        stdout.contains("NPS ×") && stdout.contains("no time to depth"),
        "{stdout}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    assert_eq!(json["settings"]["set"], "long");
    assert_eq!(json["settings"]["keep_tables"], false);
    // The evaluation travels to the engine with the knobs, and bench.json says which it was.
    assert_eq!(json["settings"]["knobs"], serde_json::json!(["--eval", "nnue"]));
    let two = &json["summaries"][1];
    assert_eq!(two["threads"], 2);
    assert_eq!(
        two["positions"],
        eldest_search::bench::BenchSet::Long.fens().len()
    );
    assert!(two["speedup"].is_null());
    assert!(two["nps_ratio"]["median"].as_f64().unwrap() > 0.0);
    assert!(two["depth_mean"]["median"].as_f64().unwrap() >= 1.0);
    assert!(two["time_buckets"].as_array().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn interleaving_by_position_gathers_each_configurations_positions_in_order() {
    let engine = eldest();
    let out = scratch("bench-interleave").join("long");
    let output = xtask(&[
        "bench",
        "--engine",
        engine.to_str().unwrap(),
        "--set",
        "long",
        "--depth",
        "3",
        "--algorithms",
        "ybwc",
        "--variant",
        "ybwc --split-killers true",
        "--threads",
        "1,2",
        "--oversubscribe",
        "--repeat",
        "1",
        "--hash",
        "8",
        "--interleave",
        "positions",
        // 72 engine processes: without the default 300 ms load watch before each, seconds instead of 22.
        "--idle-check-ms",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("load is not watched"),
        "{output:?}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bench.json")).unwrap()).unwrap();
    assert_eq!(json["settings"]["interleave_positions"], true);
    assert_eq!(json["settings"]["idle_check_ms"], 0);
    let fens = eldest_search::bench::BenchSet::Long.fens();
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3, "the baseline and two configurations");
    for run in runs {
        let positions = run["positions"].as_array().unwrap();
        assert_eq!(positions.len(), fens.len());
        for (index, (position, fen)) in positions.iter().zip(fens.iter()).enumerate() {
            assert_eq!(position["index"], index);
            assert_eq!(position["fen"], *fen);
            assert_eq!(position["depth"], 3);
        }
    }
    let markdown = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        markdown.contains("configurations interleaved position by position"),
        "{markdown}"
    );
}
