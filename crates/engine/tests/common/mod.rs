//! A UCI conversation with the real `eldest` binary: send lines to its stdin, read its stdout line by line
//! with a hang bound, and keep the whole transcript for failure messages.

#![allow(dead_code)]

use eldest_board::{Move, Position};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long any expected answer may take before the test calls it a hang. Not a speed requirement: searches in
/// these tests take milliseconds, so only a hang or a lost answer can get near it.
pub const HANG: Duration = Duration::from_secs(20);

/// The engine process and its conversation so far.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line sent (`> ...`) and received, in order.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `eldest` with no arguments (UCI mode).
    pub fn start() -> Engine {
        Engine::start_with_env(&[])
    }

    /// Starts `eldest` with extra environment variables.
    pub fn start_with_env(env: &[(&str, &str)]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_eldest"));
        for (key, value) in env {
            command.env(key, value);
        }
        Engine::start_command(command)
    }

    /// Starts `command` (which runs the engine: `eldest`, or `mpirun ... eldest`) with piped stdin and stdout.
    pub fn start_command(mut command: Command) -> Engine {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env_remove("RUST_LOG");
        let mut child = command.spawn().expect("the engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {}", shorten(line)));
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .expect("the engine reads its input");
    }

    /// The next line within `timeout`, or `None`.
    pub fn recv_within(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Every line that arrives within `duration`.
    pub fn drain_for(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut lines = Vec::new();
        while let Some(line) = self.recv_within(deadline.saturating_duration_since(Instant::now())) {
            lines.push(line);
        }
        lines
    }

    /// Lines up to and including the first that satisfies `done`; panics with the transcript after [`HANG`].
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + HANG;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv_within(left) {
                Some(line) => {
                    let finished = done(&line);
                    lines.push(line);
                    if finished {
                        return lines;
                    }
                }
                None => panic!(
                    "no expected answer within {HANG:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Lines up to and including `bestmove ...`.
    pub fn until_bestmove(&mut self) -> Vec<String> {
        self.until(|l| l.starts_with("bestmove"))
    }

    /// Sends `isready` and returns what came before `readyok` (which is not included).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// `uci` then `isready`: the handshake, returning the `uci` answer.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let lines = self.until(|l| l == "uciok");
        self.sync();
        lines
    }

    /// One `go infinite` per wait in `waits`, each on the position `setup` sends (and returns), stopped after that
    /// wait: asserts every `bestmove` legal, prints the min, median and max `stop` → `bestmove` latency under
    /// `label`, and returns the latencies, sorted.
    pub fn stop_latencies(
        &mut self,
        mut setup: impl FnMut(&mut Engine) -> Position,
        waits: impl IntoIterator<Item = Duration>,
        label: &str,
    ) -> Vec<Duration> {
        let mut latencies = Vec::new();
        for wait in waits {
            let position = setup(self);
            self.send("go infinite");
            std::thread::sleep(wait);
            let asked = Instant::now();
            self.send("stop");
            let lines = self.until_bestmove();
            latencies.push(asked.elapsed());
            assert_legal_bestmove(&position, lines.last().unwrap());
        }
        latencies.sort();
        assert!(!latencies.is_empty(), "no search to time");
        println!(
            "{label}: stop -> bestmove over {} searches: min {:?}, median {:?}, max {:?}",
            latencies.len(),
            latencies[0],
            latencies[latencies.len() / 2],
            latencies[latencies.len() - 1]
        );
        latencies
    }

    /// Sends `quit` and waits for the process to exit successfully.
    pub fn quit(mut self) {
        self.send("quit");
        self.wait_exit();
    }

    /// Closes stdin and waits for the exit; returns what the engine wrote meanwhile.
    pub fn close(mut self) -> Vec<String> {
        self.stdin = None;
        let mut rest = Vec::new();
        while let Some(line) = self.recv_within(HANG) {
            rest.push(line);
        }
        self.wait_exit();
        rest
    }

    /// Waits up to `timeout` for the process to end, whatever its status; `None` if it is still running.
    pub fn exit_within(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the engine") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn wait_exit(&mut self) {
        let deadline = Instant::now() + HANG;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for eldest") {
                assert!(
                    status.success(),
                    "eldest exited with {status}; transcript:\n{}",
                    self.transcript.join("\n")
                );
                return;
            }
            assert!(
                Instant::now() < deadline,
                "eldest did not exit; transcript:\n{}",
                self.transcript.join("\n")
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn shorten(line: &str) -> String {
    if line.len() > 200 {
        format!("{}... ({} bytes)", &line[..200], line.len())
    } else {
        line.to_string()
    }
}

/// The move of a `bestmove` line (`None` for `0000`) and its ponder move text.
pub fn bestmove_of(line: &str) -> (Option<String>, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"bestmove"), "{line}");
    let best = words.get(1).copied().expect("a move after bestmove");
    let ponder = match words.get(2) {
        Some(&"ponder") => Some(words.get(3).expect("a move after ponder").to_string()),
        None => None,
        Some(other) => panic!("unexpected {other:?} in {line}"),
    };
    ((best != "0000").then(|| best.to_string()), ponder)
}

/// Asserts that `line` is `bestmove m [ponder p]` with `m` legal in `position` and `p` legal after it;
/// returns `m`.
pub fn assert_legal_bestmove(position: &Position, line: &str) -> Move {
    let (best, ponder) = bestmove_of(line);
    let best = best.unwrap_or_else(|| panic!("no move in {line} for {position}"));
    let mv = position
        .parse_uci_move(&best)
        .unwrap_or_else(|e| panic!("{line} in {position}: {e}"));
    if let Some(ponder) = ponder {
        let mut after = *position;
        after.play_unchecked(mv);
        after
            .parse_uci_move(&ponder)
            .unwrap_or_else(|e| panic!("ponder of {line} in {position}: {e}"));
    }
    mv
}

/// The `info string` lines among `lines`.
pub fn info_strings(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string "))
        .collect()
}

/// The value following `key` in an `info` line (`score` gives e.g. `cp 25` or `mate 3`).
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!(" {key} "))? + key.len() + 2;
    let rest = &line[at..];
    if key == "score" {
        let words: Vec<&str> = rest.splitn(3, ' ').collect();
        let len = words[0].len() + 1 + words.get(1)?.len();
        Some(&rest[..len])
    } else {
        rest.split(' ').next()
    }
}
