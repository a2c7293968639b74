//! The UCI protocol layer of the Eldest chess engine: it parses what a GUI writes into typed [`Command`]s,
//! keeps the session's state (position, game history, options, the search engine), runs the search on its own
//! thread while the input loop stays responsive, and formats the search's structured reports as `info` and
//! `bestmove` lines. Nothing malformed crashes or blocks it: every problem is answered with an `info string`
//! naming it, and the command at fault is not acted on.
//!
//! [`run`] is the whole engine front end: it reads commands from any [`std::io::BufRead`] and writes
//! answers to any [`std::io::Write`], so tests drive it in-process exactly as a GUI would through
//! stdin/stdout. See `docs/uci.md` for every command and option.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//!
//! /// Collects what the engine writes.
//! #[derive(Clone, Default)]
//! struct Transcript(Arc<Mutex<Vec<u8>>>);
//! impl std::io::Write for Transcript {
//!     fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(bytes) }
//!     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! }
//!
//! // The end of the input stops the search, as `quit` would, so the answer comes at once.
//! let input = "uci\nisready\nposition startpos moves e2e4 e7e5\ngo movetime 50\n";
//! let transcript = Transcript::default();
//! eldest_uci::run(input.as_bytes(), transcript.clone())?;
//! let text = String::from_utf8(transcript.0.lock().unwrap().clone()).unwrap();
//! assert!(text.starts_with("id name Eldest"));
//! assert!(text.contains("\nuciok\nreadyok\n"));
//! assert!(text.lines().last().unwrap().starts_with("bestmove "));
//! # Ok::<(), std::io::Error>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod command;
mod display;
mod error;
mod go;
mod info;
mod number;
mod options;
mod output;
mod reader;
mod search_thread;
mod session;
mod token;

pub use command::{Command, Parsed, command_word, parse_line};
pub use display::board_diagram;
pub use error::ParseError;
pub use go::{Go, MAX_DEPTH, MAX_MATE, MAX_PERFT_DEPTH, MAX_TIME};
pub use info::{format_bestmove, format_info, format_score};
pub use options::{
    DEFAULT_HASH_MIB, MAX_MULTI_PV, MAX_THREADS, OPTIONS, OptionError, OptionKind, OptionValue, Setting,
    UciOption, find_option, options, parse_setoption,
};
pub use output::Output;
pub use reader::MAX_LINE_BYTES;
pub use session::{ENGINE_AUTHOR, ENGINE_NAME, Flow, SearchRequest, SearchRunner, Session, SessionHooks};

use reader::{Line, LineReader};
use std::io::{self, BufRead, Write};

/// Speaks UCI: reads commands from `input` until `quit` or the end of the input, answering on `output`.
///
/// At the end of the input a running search is stopped and its `bestmove` written, as for `quit`.
///
/// # Errors
/// A read error of `input`, a write error of `output` (the GUI went away), or a default transposition table
/// that cannot be allocated.
///
/// # Examples
///
/// ```
/// # #[derive(Clone, Default)]
/// # struct Transcript(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
/// # impl std::io::Write for Transcript {
/// #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
/// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// # }
/// # impl Transcript {
/// #     fn text(&self) -> String { String::from_utf8(self.0.lock().unwrap().clone()).unwrap() }
/// # }
/// # struct Closed;
/// # impl std::io::Write for Closed {
/// #     fn write(&mut self, _: &[u8]) -> std::io::Result<usize> { Err(std::io::Error::other("closed")) }
/// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// # }
/// let transcript = Transcript::default();
/// eldest_uci::run("isready\nquit\nisready\n".as_bytes(), transcript.clone())?;
/// // `quit` ends the loop: the second `isready` is never read.
/// assert_eq!(transcript.text(), "readyok\n");
/// // A GUI that went away ends it too, with an error.
/// let gone = eldest_uci::run("isready\n".as_bytes(), Closed).unwrap_err();
/// assert_eq!(gone.kind(), std::io::ErrorKind::BrokenPipe);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    run_with(input, output, SessionHooks::new())
}

/// [`run`] with hooks into the surrounding program (the binary wires `Debug Log File` to its log writer).
///
/// # Errors
/// As [`run`].
///
/// # Examples
///
/// ```
/// # #[derive(Clone, Default)]
/// # struct Transcript(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
/// # impl std::io::Write for Transcript {
/// #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
/// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// # }
/// # impl Transcript {
/// #     fn text(&self) -> String { String::from_utf8(self.0.lock().unwrap().clone()).unwrap() }
/// # }
/// use eldest_uci::SessionHooks;
///
/// // This program keeps no log files, so it refuses the setting; the GUI is told why.
/// let hooks = SessionHooks::new().on_debug_log_file(|_| Err("no log files here".to_string()));
/// let transcript = Transcript::default();
/// let input = "setoption name Debug Log File value eldest.log\n";
/// eldest_uci::run_with(input.as_bytes(), transcript.clone(), hooks)?;
/// let answer = "setoption Debug Log File: no log files here; unchanged ('')";
/// assert_eq!(transcript.text(), format!("info string {answer}\n"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn run_with(
    input: impl BufRead,
    output: impl Write + Send + 'static,
    mut hooks: SessionHooks,
) -> io::Result<()> {
    let out = Output::new(output);
    let mut input_line = std::mem::replace(&mut hooks.input_line, Box::new(|_| {}));
    let mut session = Session::new(out.clone(), hooks)?;
    let mut reader = LineReader::new(input, MAX_LINE_BYTES);
    let result = loop {
        let line = match reader.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break Ok(()),
            Err(error) => break Err(error),
        };
        let flow = match line {
            Line::Text(text) => {
                input_line(&text);
                session.execute_line(&text)
            }
            Line::TooLong(bytes) => {
                tracing::debug!(bytes, "overlong line dropped");
                out.info_string(&format!(
                    "ignored a line of {bytes} bytes: longer than the {MAX_LINE_BYTES}-byte limit"
                ));
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            break Ok(());
        }
        if out.is_broken() {
            break Err(io::Error::new(io::ErrorKind::BrokenPipe, "the output was closed"));
        }
    };
    session.shutdown();
    result
}
