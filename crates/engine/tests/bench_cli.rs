//! `eldest bench [depth]` as a process: per-position lines on stderr, `<N> nodes <M> nps` as the last stdout
//! line, the same N on every run.

use std::process::{Command, Output};

fn eldest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eldest"))
        .args(args)
        .output()
        .expect("the eldest binary runs")
}

/// The node count of the last stdout line, checking its format.
fn signature(output: &Output) -> u64 {
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    let last = stdout.lines().last().expect("a result line");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"), "{last}");
    assert!(words[2].parse::<u64>().is_ok(), "{last}");
    words[0].parse().expect("a node count")
}

#[test]
fn bench_prints_the_openbench_line_and_is_reproducible() {
    let first = eldest(&["bench", "4"]);
    let nodes = signature(&first);
    assert!(nodes > 0);
    let stderr = String::from_utf8(first.stderr.clone()).unwrap();
    let positions = stderr.lines().filter(|l| l.starts_with("position ")).count();
    assert_eq!(positions, eldest_search::bench::BENCH_POSITIONS.len(), "{stderr}");
    assert_eq!(
        signature(&eldest(&["bench", "4"])),
        nodes,
        "the bench signature must not vary between runs"
    );
}

#[test]
fn bench_depth_is_validated() {
    for bad in ["0", "-1", "deep", "100000"] {
        let output = eldest(&["bench", bad]);
        assert_eq!(output.status.code(), Some(2), "bench {bad}: {output:?}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn bench_inside_a_uci_session() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_eldest"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"bench 3\nquit\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let session = signature(&output);
    assert_eq!(session, signature(&eldest(&["bench", "3"])));
}

#[test]
fn parallel_bench_writes_one_json_object_per_position_then_the_totals() {
    let dir = std::env::temp_dir().join(format!("eldest-bench-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.epd");
    std::fs::write(
        &file,
        "# two positions\nr3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - bm e2a6;\n\n\
         8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11\n",
    )
    .unwrap();
    for algorithm in ["lazy", "ybwc", "abdada", "simplified-abdada"] {
        let output = eldest(&[
            "bench",
            "5",
            "--threads",
            "2",
            "--algorithm",
            algorithm,
            "--hash",
            "4",
            "--positions",
            file.to_str().unwrap(),
            "--json",
        ]);
        let total = signature(&output);
        let stdout = String::from_utf8(output.stdout).unwrap();
        let objects: Vec<&str> = stdout.lines().filter(|l| l.starts_with('{')).collect();
        assert_eq!(objects.len(), 2, "{stdout}");
        let mut sum = 0;
        for (index, object) in objects.iter().enumerate() {
            assert!(object.starts_with(&format!("{{\"index\":{index},")), "{object}");
            // Every algorithm reports the depth asked for: lazy SMP's vote is skipped under a depth limit.
            assert!(object.contains("\"depth\":5,"), "{algorithm}: {object}");
            assert!(object.contains("\"threads\":2,"), "{object}");
            // Not asked for: the work searched twice is not counted (a 0 would say it was, and found none).
            assert!(object.contains("\"duplicate_nodes\":null,"), "{object}");
            let count = |name: &str| {
                let text = object.split(&format!("\"{name}\":")).nth(1).unwrap();
                text[..text.find(',').unwrap()].parse::<u64>().unwrap()
            };
            let nodes = count("nodes");
            sum += nodes;
            // The tree profile: main-search nodes are part of the nodes, a test's extension one of its outcomes.
            assert!(count("main_nodes") > 0 && count("main_nodes") < nodes, "{object}");
            assert!(
                count("singular_extensions") <= count("singular_tests"),
                "{object}"
            );
            assert!(
                count("null_move_cutoffs") <= count("null_move_searches"),
                "{object}"
            );
            // Work past a cut and work left are parts of the nodes, each node counted once.
            assert!(
                count("speculative_nodes") + count("abandoned_nodes") <= nodes,
                "{object}"
            );
        }
        assert_eq!(
            sum, total,
            "{algorithm}: the per-position nodes add up to the total"
        );
    }
    // Asked for, it is a count.
    let output = eldest(&[
        "bench",
        "5",
        "--threads",
        "2",
        "--hash",
        "4",
        "--positions",
        file.to_str().unwrap(),
        "--json",
        "--count-duplicates",
    ]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    for object in stdout.lines().filter(|l| l.starts_with('{')) {
        let count = object.split("\"duplicate_nodes\":").nth(1).unwrap();
        assert!(
            count[..count.find(',').unwrap()].parse::<u64>().is_ok(),
            "{object}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `--serial-tree`: one thread compared with the serial search of its own table size is that search, node for
/// node; two threads report a comparison within it; the flag refuses a fixed time and `--serial-hash` needs it.
#[test]
fn serial_tree_compares_each_position_with_the_serial_search() {
    let field = |object: &str, name: &str| -> String {
        let rest = object.split(&format!("\"{name}\":")).nth(1).unwrap();
        rest[..rest.find([',', '}']).unwrap()].to_string()
    };
    let band_sum = |object: &str, name: &str| -> u64 {
        let rest = object.split(&format!("\"{name}\":[")).nth(1).unwrap();
        rest[..rest.find(']').unwrap()]
            .split(',')
            .map(|n| n.trim().parse::<u64>().unwrap())
            .sum()
    };
    let one = eldest(&[
        "bench",
        "7",
        "--set",
        "game",
        "--hash",
        "4",
        "--json",
        "--serial-tree",
    ]);
    assert!(one.status.success(), "{one:?}");
    let stdout = String::from_utf8(one.stdout).unwrap();
    let objects: Vec<&str> = stdout.lines().filter(|l| l.starts_with('{')).collect();
    assert!(!objects.is_empty());
    for object in objects {
        assert_eq!(field(object, "serial_nodes"), field(object, "nodes"), "{object}");
        assert_eq!(
            band_sum(object, "in_serial_by_depth"),
            band_sum(object, "main_nodes_by_depth")
        );
        assert_eq!(
            band_sum(object, "in_serial_distinct_by_depth"),
            band_sum(object, "serial_distinct_by_depth")
        );
    }
    let stderr = String::from_utf8_lossy(&one.stderr);
    assert!(
        stderr.contains("all positions: serial tree: main nodes x 1.000 = 1.000 in it + 0.000 outside"),
        "{stderr}"
    );

    let two = eldest(&[
        "bench",
        "8",
        "--threads",
        "2",
        "--algorithm",
        "abdada",
        "--hash",
        "4",
        "--json",
        "--serial-tree",
    ]);
    assert!(two.status.success(), "{two:?}");
    let stdout = String::from_utf8(two.stdout).unwrap();
    for object in stdout
        .lines()
        .filter(|l| l.starts_with('{') && !l.contains("\"nodes\":0,"))
    {
        assert!(
            band_sum(object, "in_serial_by_depth") <= band_sum(object, "main_nodes_by_depth"),
            "{object}"
        );
        assert!(band_sum(object, "in_serial_distinct_by_depth") <= band_sum(object, "distinct_by_depth"));
    }
    let plain = eldest(&["bench", "3", "--json"]);
    assert!(
        String::from_utf8(plain.stdout)
            .unwrap()
            .contains("\"serial_tree\":null")
    );

    for args in [
        &["bench", "--serial-tree", "--movetime", "50"][..],
        &["bench", "--serial-hash", "8"],
        &["bench", "--serial-tree", "--serial-hash", "0"],
    ] {
        let output = eldest(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    }
}

#[test]
fn bench_rejects_bad_flags_and_position_files() {
    let missing = eldest(&["bench", "--positions", "/nonexistent/positions.epd"]);
    assert_eq!(missing.status.code(), Some(2), "{missing:?}");
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
    let dir = std::env::temp_dir().join(format!("eldest-bench-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.epd");
    std::fs::write(&file, "8/8/8/8/8/8/8/8 w - - 0 1\n").unwrap();
    let bad = eldest(&["bench", "--positions", file.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 1"), "{bad:?}");
    assert!(bad.stdout.is_empty());
    for args in [
        &["bench", "--threads", "0"][..],
        &["bench", "--algorithm", "dts"],
        &["bench", "--hash", "0"],
        &["bench", "--movetime", "0"],
    ] {
        let output = eldest(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The stderr lines `position i/n: …` of a bench.
fn position_lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|l| l.starts_with("position "))
        .map(str::to_string)
        .collect()
}

/// The nodes of each JSON object on stdout.
fn json_nodes(output: &Output) -> Vec<u64> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            let nodes = l.split("\"nodes\":").nth(1).unwrap();
            nodes[..nodes.find(',').unwrap()].parse().unwrap()
        })
        .collect()
}

#[test]
fn bench_sets_search_their_own_positions() {
    use eldest_search::bench::BenchSet;
    // The short set is the signature's positions: the same node count as without --set.
    assert_eq!(
        signature(&eldest(&["bench", "3", "--set", "short"])),
        signature(&eldest(&["bench", "3"]))
    );
    for set in [BenchSet::Long, BenchSet::Game] {
        let output = eldest(&["bench", "2", "--set", set.name(), "--json"]);
        let total = signature(&output);
        let lines = position_lines(&output);
        assert_eq!(lines.len(), set.fens().len(), "{set}");
        for (line, fen) in lines.iter().zip(set.fens()) {
            assert!(line.ends_with(fen), "{set}: {line} is not {fen}");
        }
        assert_eq!(json_nodes(&output).iter().sum::<u64>(), total, "{set}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.contains("tables kept between positions"),
            set.keeps_tables(),
            "{set}: {stderr}"
        );
        assert_eq!(
            signature(&eldest(&["bench", "2", "--set", set.name()])),
            total,
            "{set}"
        );
    }
}

#[test]
fn keep_tables_carries_the_table_from_one_position_to_the_next() {
    let dir = std::env::temp_dir().join(format!("eldest-bench-keep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("twice.epd");
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10";
    std::fs::write(&file, format!("{fen}\n{fen}\n")).unwrap();
    let path = file.to_str().unwrap();
    let cleared = json_nodes(&eldest(&["bench", "6", "--positions", path, "--json"]));
    assert_eq!(cleared.len(), 2);
    assert_eq!(cleared[0], cleared[1], "each position from a cleared table");
    let output = eldest(&["bench", "6", "--positions", path, "--keep-tables", "--json"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("tables kept"));
    let kept = json_nodes(&output);
    assert_eq!(kept[0], cleared[0]);
    assert!(
        kept[1] < kept[0],
        "the second search starts from the first one's table: {kept:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_set_flags_are_refused_by_clap() {
    let cases: [(&[&str], &str); 4] = [
        (&["bench", "--set", "medium"], "expected short, long or game"),
        (&["bench", "--set"], "a value is required"),
        (
            &["bench", "--set", "long", "--positions", "x.epd"],
            "cannot be used with",
        ),
        (&["bench", "--keep-tables"], "--positions"),
    ];
    for (args, message) in cases {
        let output = eldest(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn the_network_benches_reproducibly_and_a_bad_net_file_is_refused() {
    let nnue = signature(&eldest(&["bench", "5", "--eval", "nnue"]));
    assert_eq!(signature(&eldest(&["bench", "5", "--eval", "nnue"])), nnue);
    // The network is the default evaluation; PeSTO's tables search another tree.
    assert_eq!(signature(&eldest(&["bench", "5"])), nnue);
    assert_ne!(
        nnue,
        signature(&eldest(&["bench", "5", "--eval", "pesto"])),
        "PeSTO searches another tree"
    );
    let stderr = String::from_utf8(eldest(&["bench", "5", "--eval", "nnue"]).stderr).unwrap();
    assert!(stderr.contains("network evaluation"), "{stderr}");

    let dir = std::env::temp_dir().join(format!("eldest-bench-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("same.nnue");
    std::fs::write(&net, eldest_search::nnue::Network::embedded_bytes()).unwrap();
    let from_file = signature(&eldest(&["bench", "5", "--eval-file", net.to_str().unwrap()]));
    assert_eq!(
        from_file, nnue,
        "the embedded net's file gives the embedded net's bench"
    );
    std::fs::write(&net, b"ELDNET\0\0 and then nothing").unwrap();
    let refused = eldest(&["bench", "5", "--eval-file", net.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(
        stderr.contains("same.nnue") && stderr.contains("truncated"),
        "{stderr}"
    );
    let both = eldest(&["bench", "5", "--eval", "pesto", "--eval-file", "x.nnue"]);
    assert_eq!(both.status.code(), Some(2), "{both:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn only_searches_one_position_of_a_cleared_set_under_its_own_number() {
    use eldest_search::bench::BenchSet;
    let whole = eldest(&["bench", "4", "--set", "long", "--json"]);
    let every = json_nodes(&whole);
    let third = eldest(&["bench", "4", "--set", "long", "--json", "--only", "3"]);
    // The tables are cleared before each position, so the third searches the same tree alone.
    assert_eq!(json_nodes(&third), [every[2]]);
    assert_eq!(signature(&third), every[2]);
    let stdout = String::from_utf8_lossy(&third.stdout);
    assert!(stdout.contains("\"index\":2,"), "{stdout}");
    let lines = position_lines(&third);
    assert_eq!(lines.len(), 1);
    let count = BenchSet::Long.fens().len();
    assert!(
        lines[0].starts_with(&format!("position  3/{count}:")),
        "{}",
        lines[0]
    );
    assert!(lines[0].ends_with(BenchSet::Long.fens()[2]), "{}", lines[0]);

    let past_the_end = (count + 1).to_string();
    let too_far = format!("there are {count} positions");
    for (args, message) in [
        (
            &["bench", "2", "--set", "game", "--only", "3"][..],
            "cannot be searched alone",
        ),
        (
            &["bench", "2", "--set", "long", "--only", past_the_end.as_str()][..],
            too_far.as_str(),
        ),
    ] {
        let output = eldest(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert!(!eldest(&["bench", "--only", "0"]).status.success());
}
