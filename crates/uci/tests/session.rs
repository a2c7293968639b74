//! The session driven in-process through `eldest_uci::run_with`, over a pipe, as a GUI would drive the binary.

use eldest_board::Position;
use eldest_uci::SessionHooks;
use std::io::{self, BufReader, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// A hang bound, not a speed requirement.
const HANG: Duration = Duration::from_secs(20);

/// Sends each complete output line over a channel.
struct LineSink {
    partial: Vec<u8>,
    lines: Sender<String>,
}

impl Write for LineSink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(bytes);
        while let Some(at) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=at).collect();
            let text = String::from_utf8(line[..at].to_vec()).expect("output is UTF-8");
            let _ = self.lines.send(text);
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Gui {
    input: Option<io::PipeWriter>,
    lines: Receiver<String>,
    engine: Option<JoinHandle<io::Result<()>>>,
}

impl Gui {
    fn start() -> Gui {
        Gui::start_with(SessionHooks::new())
    }

    fn start_with(hooks: SessionHooks) -> Gui {
        let (reader, writer) = io::pipe().expect("a pipe");
        let (sender, lines) = channel();
        let sink = LineSink {
            partial: Vec::new(),
            lines: sender,
        };
        let engine = std::thread::spawn(move || eldest_uci::run_with(BufReader::new(reader), sink, hooks));
        Gui {
            input: Some(writer),
            lines,
            engine: Some(engine),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input.as_mut().expect("input open"), "{line}").expect("the engine reads");
    }

    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(HANG)
                .unwrap_or_else(|_| panic!("no expected answer within {HANG:?}; got {lines:?}"));
            let finished = done(&line);
            lines.push(line);
            if finished {
                return lines;
            }
        }
    }

    /// `isready`, returning what came before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Closes the input; returns the loop's result and the lines not yet read.
    fn finish(mut self) -> (io::Result<()>, Vec<String>) {
        self.input = None;
        let result = self
            .engine
            .take()
            .unwrap()
            .join()
            .expect("the loop does not panic");
        (result, self.lines.try_iter().collect())
    }
}

#[test]
fn handshake_and_quit_end_the_loop() {
    let mut gui = Gui::start();
    gui.send("uci");
    let lines = gui.until(|l| l == "uciok");
    assert_eq!(
        lines[0],
        eldest_uci::ENGINE_NAME.replace("Eldest", "id name Eldest")
    );
    assert_eq!(lines.len(), 2 + eldest_uci::options().count() + 1);
    assert!(gui.sync().is_empty());
    gui.send("quit");
    // The loop ends on quit, without waiting for the end of the input.
    let engine = gui.engine.take().unwrap();
    assert!(engine.join().unwrap().is_ok());
}

#[test]
fn end_of_input_stops_a_search_and_answers() {
    let mut gui = Gui::start();
    gui.send("go infinite");
    gui.sync();
    let (result, rest) = gui.finish();
    assert!(result.is_ok());
    assert!(
        rest.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{rest:?}"
    );
}

#[test]
fn stop_and_ponderhit_without_a_search_are_silent() {
    let mut gui = Gui::start();
    gui.send("stop");
    gui.send("ponderhit");
    gui.send("register later");
    gui.send("debug on");
    assert!(gui.sync().is_empty());
    assert!(gui.finish().0.is_ok());
}

#[test]
fn a_rejected_position_is_never_searched() {
    let mut gui = Gui::start();
    gui.send("position startpos moves e2e4 e7e5 g1f3");
    gui.send("position startpos moves e2e4 e7e5 g1f3 e8e7 d1h5");
    let notes = gui.sync();
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].starts_with("info string position: move 5 'd1h5' is illegal in "),
        "{notes:?}"
    );
    gui.send("go depth 2");
    let lines = gui.until(|l| l.starts_with("bestmove"));
    let previous =
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").unwrap();
    let best = lines.last().unwrap().split(' ').nth(1).unwrap();
    assert!(
        previous.parse_uci_move(best).is_ok(),
        "{best} is not a black move of the previous position"
    );
    assert!(gui.finish().0.is_ok());
}

#[test]
fn debug_log_file_reaches_the_hook_and_a_refusal_keeps_the_option() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let hooks = SessionHooks::new().on_debug_log_file(move |path| {
        record.lock().unwrap().push(path.to_string());
        if path.contains("forbidden") {
            Err("permission denied".to_string())
        } else {
            Ok(())
        }
    });
    let mut gui = Gui::start_with(hooks);
    gui.send("setoption name Debug Log File value /tmp/with  two spaces.log");
    assert!(gui.sync().is_empty());
    gui.send("setoption name debug log file value /forbidden/x.log");
    assert_eq!(
        gui.sync(),
        ["info string setoption Debug Log File: permission denied; unchanged ('/tmp/with  two spaces.log')"]
    );
    gui.send("setoption name Debug Log File value <empty>");
    assert!(gui.sync().is_empty());
    assert_eq!(
        *seen.lock().unwrap(),
        ["/tmp/with  two spaces.log", "/forbidden/x.log", ""]
    );
    assert!(gui.finish().0.is_ok());
}

#[test]
fn a_chess960_position_keeps_its_notation() {
    let mut gui = Gui::start();
    gui.send("position fen 4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1");
    gui.send("setoption name UCI_Chess960 value false");
    let notes = gui.sync();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("keeps Chess960 notation"), "{notes:?}");
    gui.send("go perft 1");
    let lines = gui.until(|l| l.starts_with("Nodes searched"));
    assert!(
        lines.iter().any(|l| l == "e1g1: 1") && lines.iter().any(|l| l == "e1b1: 1"),
        "{lines:?}"
    );
    assert!(gui.finish().0.is_ok());
}

#[test]
fn overlong_lines_are_dropped_without_being_buffered() {
    let mut gui = Gui::start();
    let line = "a".repeat(eldest_uci::MAX_LINE_BYTES + 1);
    gui.send(&line);
    assert_eq!(
        gui.sync(),
        [format!(
            "info string ignored a line of {} bytes: longer than the {}-byte limit",
            eldest_uci::MAX_LINE_BYTES + 1,
            eldest_uci::MAX_LINE_BYTES
        )]
    );
    assert!(gui.finish().0.is_ok());
}

/// An output that fails after `limit` bytes, like a GUI that closed its end of the pipe.
struct Closing {
    written: usize,
    limit: usize,
}

impl Write for Closing {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.written >= self.limit {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        self.written += bytes.len();
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_closed_output_ends_the_loop_with_an_error() {
    let input = "uci\nisready\nisready\nisready\n".repeat(1000);
    let result = eldest_uci::run(
        input.as_bytes(),
        Closing {
            written: 0,
            limit: 100,
        },
    );
    assert_eq!(result.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
}

/// One step of a random GUI: a command line, or a pause that lets a running search get somewhere first.
#[derive(Debug, Clone)]
enum Step {
    Line(String),
    Pause(u64),
}

/// What a GUI may send at any moment, in any order: searches of every kind (some that end only on `stop`),
/// commands answered while one runs, commands that change what a search depends on, and pauses that let a
/// search get somewhere first. Weighted so that most inputs have a search running when other commands come.
fn gui_step() -> impl proptest::strategy::Strategy<Value = Step> {
    use proptest::prelude::*;
    let algorithms: Vec<String> = eldest_search::ParallelAlgorithm::ALL
        .iter()
        .map(|algorithm| algorithm.name().to_string())
        .collect();
    let line = |text: &'static str| Just(Step::Line(text.to_string()));
    let answered_meanwhile = prop_oneof![
        line("isready"),
        line("d"),
        line("eval"),
        line("uci"),
        line("ponderhit"),
    ];
    let endless_searches = prop_oneof![
        line("go infinite"),
        line("go ponder"),
        line("go mate 2"),
        line("go thped2"),
    ];
    let searches = prop_oneof![
        (1u32..=5).prop_map(|depth| Step::Line(format!("go depth {depth}"))),
        (1u64..=40).prop_map(|ms| Step::Line(format!("go ponder movetime {ms}"))),
        (1u64..=40).prop_map(|ms| Step::Line(format!("go movetime {ms}"))),
        (50u64..=5000).prop_map(|nodes| Step::Line(format!("go nodes {nodes}"))),
        (10u64..=2000).prop_map(|ms| Step::Line(format!("go wtime {ms} btime {ms} winc 10 binc 10"))),
        line("go searchmoves e2e4 a7a5 depth 3"),
        (1u32..=3).prop_map(|depth| Step::Line(format!("go perft {depth}"))),
    ];
    let state_changes = prop_oneof![
        line("stop"),
        line("ucinewgame"),
        line("position startpos"),
        line("position startpos moves e2e4 e7e5 g1f3"),
        line("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), // stalemate: no move to search
        line("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), // mate in one
        line("position fen not a fen"),
    ];
    let options = prop_oneof![
        prop_oneof![Just("pesto"), Just("nnue")]
            .prop_map(|name| Step::Line(format!("setoption name Evaluation value {name}"))),
        (1u32..=3).prop_map(|n| Step::Line(format!("setoption name MultiPV value {n}"))),
        (1u32..=3).prop_map(|n| Step::Line(format!("setoption name Threads value {n}"))),
        proptest::sample::select(algorithms)
            .prop_map(|name| Step::Line(format!("setoption name ParallelAlgorithm value {name}"))),
        line("setoption name Clear Hash"),
        line("setoption name Hash value 2"),
    ];
    prop_oneof![
        4 => answered_meanwhile,
        2 => endless_searches,
        3 => searches,
        1 => state_changes,
        1 => options,
        2 => (0u64..=30).prop_map(Step::Pause),
    ]
}

/// Whatever a GUI sends, in whatever order and at whatever pace, the session keeps reading: a `stop` and an
/// `isready` at the end are answered, every `go` but a perft got exactly one `bestmove`, and the input's end
/// ends the loop. (A session whose command loop waited on the search — `eval` during `go infinite` did — hangs
/// here.)
#[test]
fn random_gui_sessions_never_hang_and_answer_every_go_once() {
    use proptest::prelude::*;
    let config = ProptestConfig {
        cases: 128,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(steps in proptest::collection::vec(gui_step(), 1..16))| {
        let mut gui = Gui::start();
        let mut owed = 0;
        let mut readies = 0;
        for step in &steps {
            match step {
                Step::Line(line) => {
                    gui.send(line);
                    owed += usize::from(line.starts_with("go") && !line.contains("perft"));
                    readies += usize::from(line == "isready");
                }
                Step::Pause(ms) => std::thread::sleep(Duration::from_millis(*ms)),
            }
        }
        gui.send("stop");
        gui.send("isready");
        let mut lines = Vec::new();
        for _ in 0..=readies {
            lines.extend(gui.until(|l| l == "readyok"));
        }
        let (result, rest) = gui.finish();
        prop_assert!(result.is_ok());
        lines.extend(rest);
        let answered = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        prop_assert_eq!(answered, owed, "steps: {:?}\nlines: {:?}", steps, lines);
    });
}
