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
