//! The whole UCI session on a fuzzer-written sequence of lines: nothing panics or hangs, and every `go` gets
//! exactly one `bestmove` — including a `go` during a search, after a bad `position`, or with unreadable
//! parameters.
//!
//! To keep each input fast, lines that only cost time or memory are dropped before the session sees them:
//! `bench`, `perft`/`go perft` deeper than 3, and `setoption` of `Hash`, `Threads` and the simplified-ABDADA
//! table sizes. The end of the input stops a running search, as `quit` does.
#![no_main]

use eldest_uci::{Command, command_word, parse_line};
use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Lines per input: enough for any sequence of states, few enough to stay fast.
const MAX_LINES: usize = 48;
/// What the engine writes.
#[derive(Clone, Default)]
struct Transcript(Arc<Mutex<Vec<u8>>>);

impl Write for Transcript {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether the session should see this line (see the module documentation).
fn affordable(line: &str) -> bool {
    match command_word(line) {
        Some("bench") => false,
        Some("perft") => false,
        Some("go") if line.contains("perft") => matches!(parse_line(line), Ok(Some(parsed))
            if matches!(&parsed.command, Command::Go(go) if go.perft.is_some_and(|depth| depth <= 3))),
        Some("setoption") => {
            let lower = line.to_ascii_lowercase();
            !["hash", "threads", "cstablerows", "csways"]
                .iter()
                .any(|name| lower.contains(name))
        }
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines: Vec<&str> = Vec::new();
    for line in text.split(['\n', '\r']) {
        if lines.len() == MAX_LINES {
            break;
        }
        if line.len() > 4096 || !affordable(line) {
            continue;
        }
        lines.push(line);
        if matches!(parse_line(line), Ok(Some(parsed)) if parsed.command == Command::Quit) {
            break;
        }
    }
    // The bestmoves owed: one per go that is not a perft. A go line the parser refuses would owe one too, and
    // get none: only a bad perft depth may be refused.
    let mut owed = 0;
    for line in &lines {
        match parse_line(line) {
            Ok(Some(parsed)) => {
                if let Command::Go(go) = parsed.command
                    && go.perft.is_none()
                {
                    owed += 1;
                }
            }
            Ok(None) => {}
            Err(error) => assert!(
                command_word(line) != Some("go") || line.contains("perft"),
                "a go was refused, so no bestmove will come: {line:?}: {error}"
            ),
        }
    }
    let input = lines.join("\n");
    let transcript = Transcript::default();
    eldest_uci::run(input.as_bytes(), transcript.clone())
        .expect("an in-memory session cannot fail to read or write");
    let output = transcript.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let output = String::from_utf8(output).expect("the engine writes UTF-8");
    let answered = output.lines().filter(|line| line.starts_with("bestmove")).count();
    assert_eq!(answered, owed, "input:\n{input}\noutput:\n{output}");
});
