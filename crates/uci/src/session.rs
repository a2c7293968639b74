//! The engine session: the state a UCI conversation builds up (position, game history, options, the search
//! engine) and the state machine that runs each command, with the search on its own thread.
//!
//! # States
//!
//! The session is *idle* or *searching*. While searching, the command loop keeps reading: `isready` is
//! answered at once, `stop` stops the search and waits for its `bestmove` (milliseconds), `ponderhit` switches a
//! ponder search to its clock, `quit` stops and exits, and `d`/`eval` describe the current position. A second
//! `go` (or `bench`) is refused with an `info string`. Commands that change what a search depends on —
//! `position`, `setoption`, `ucinewgame` — first stop the running search and wait for its `bestmove`, then
//! run: they are never lost and never race with the search.

use crate::command::{Command, Parsed, parse_line};
use crate::display::board_diagram;
use crate::go::Go;
use crate::info::{format_bestmove, format_bestmove_parts};
use crate::options::{DEFAULT_HASH_MIB, Setting, parse_setoption};
use crate::output::Output;
use crate::search_thread::{RunningSearch, SearchJob};
use eldest_board::{Color, Move, Position, UciMoveError};
use eldest_repetition::GameHistory;
use eldest_search::nnue::{self, Network};
use eldest_search::{
    Clock, Engine, Evaluation, EvaluationKind, IterationReport, SearchControl, SearchLimits, SearchOptions,
    SearchOutcome, bench, eval_trace,
};
use std::fmt;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Input lines longer than this are cut in the debug log.
const LOGGED_LINE_BYTES: usize = 4096;

/// The `id name` the engine reports.
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
/// use eldest_uci::ENGINE_NAME;
///
/// let transcript = Transcript::default();
/// eldest_uci::run("uci\n".as_bytes(), transcript.clone())?;
/// // The first line a GUI reads after `uci`, with the crate's version.
/// assert!(transcript.text().starts_with(&format!("id name {ENGINE_NAME}\n")));
/// assert!(ENGINE_NAME.starts_with("Eldest "));
/// # Ok::<(), std::io::Error>(())
/// ```
pub const ENGINE_NAME: &str = concat!("Eldest ", env!("CARGO_PKG_VERSION"));

/// The `id author` the engine reports.
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
/// use eldest_uci::ENGINE_AUTHOR;
///
/// let transcript = Transcript::default();
/// eldest_uci::run("uci\n".as_bytes(), transcript.clone())?;
/// // The second line of the answer to `uci`, before the options.
/// assert_eq!(transcript.text().lines().nth(1), Some(format!("id author {ENGINE_AUTHOR}").as_str()));
/// # Ok::<(), std::io::Error>(())
/// ```
pub const ENGINE_AUTHOR: &str = "The Eldest developers";

/// A callback that takes a setting and may refuse it with a message for the GUI.
type SettingHook = Box<dyn FnMut(&str) -> Result<(), String> + Send>;

/// Callbacks through which the session reaches what belongs to the program around it.
///
/// # Examples
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use eldest_uci::SessionHooks;
///
/// let log_files = Arc::new(Mutex::new(Vec::new()));
/// let seen = Arc::clone(&log_files);
/// // The program, not the session, owns the log writer: the hook is where it learns the path.
/// let hooks = SessionHooks::new().on_debug_log_file(move |path| {
///     seen.lock().unwrap().push(path.to_string());
///     Ok(())
/// });
/// let input = "setoption name Debug Log File value eldest.log\n";
/// eldest_uci::run_with(input.as_bytes(), std::io::sink(), hooks)?;
/// assert_eq!(*log_files.lock().unwrap(), ["eldest.log"]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct SessionHooks {
    debug_log_file: SettingHook,
    pub(crate) input_line: Box<dyn FnMut(&str) + Send>,
    pub(crate) runner: Option<Arc<dyn SearchRunner>>,
}

impl SessionHooks {
    /// Hooks that accept every setting and do nothing with it, and search with [`Engine::search`].
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
    /// let transcript = Transcript::default();
    /// let input = "setoption name Debug Log File value eldest.log\nisready\n";
    /// eldest_uci::run_with(input.as_bytes(), transcript.clone(), SessionHooks::new())?;
    /// // Nothing is refused, so the only answer is `readyok`: these are the hooks `run` uses.
    /// assert_eq!(transcript.text(), "readyok\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new() -> SessionHooks {
        SessionHooks {
            debug_log_file: Box::new(|_| Ok(())),
            input_line: Box::new(|_| {}),
            runner: None,
        }
    }

    /// Called by [`run_with`](crate::run_with) with every input line before the session runs it (the cluster
    /// build's first rank passes the lines on to the other ranks).
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let log = Arc::clone(&seen);
    /// let hooks = eldest_uci::SessionHooks::new().on_input_line(move |line| log.lock().unwrap().push(line.to_string()));
    /// eldest_uci::run_with("isready\n".as_bytes(), std::io::sink(), hooks)?;
    /// assert_eq!(*seen.lock().unwrap(), ["isready"]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn on_input_line(mut self, hook: impl FnMut(&str) + Send + 'static) -> Self {
        self.input_line = Box::new(hook);
        self
    }

    /// Runs every search through `runner` instead of calling [`Engine::search`] directly.
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
    /// use std::{sync::Arc, time::Duration};
    /// use eldest_search::{Engine, IterationReport, Score, SearchControl, SearchOutcome};
    /// use eldest_uci::{SearchRequest, SearchRunner, SessionHooks};
    ///
    /// /// Answers a3 at once: a stand-in for a runner that spreads the search over processes.
    /// #[derive(Debug)]
    /// struct AlwaysA3;
    /// impl SearchRunner for AlwaysA3 {
    ///     fn run(&self, _: &mut Engine, request: SearchRequest<'_>, _: &SearchControl,
    ///            _: &mut (dyn FnMut(&IterationReport) + Send)) -> SearchOutcome {
    ///         let best_move = request.root.parse_uci_move("a2a3").ok();
    ///         let (score, time) = (Score::Centipawns(0), Duration::ZERO);
    ///         SearchOutcome { best_move, ponder_move: None, score, depth: 1, nodes: 1, time }
    ///     }
    /// }
    /// let transcript = Transcript::default();
    /// let hooks = SessionHooks::new().search_runner(Arc::new(AlwaysA3));
    /// eldest_uci::run_with("go depth 30\n".as_bytes(), transcript.clone(), hooks)?;
    /// // The session writes the runner's move: no search of its own took place.
    /// assert_eq!(transcript.text(), "bestmove a2a3\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn search_runner(mut self, runner: Arc<dyn SearchRunner>) -> Self {
        self.runner = Some(runner);
        self
    }

    /// Called with the path when `Debug Log File` is set (an empty path: stop logging to a file). An error
    /// message refuses the setting; the GUI gets it as an `info string`.
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
    /// let hooks = SessionHooks::new().on_debug_log_file(|path| Err(format!("cannot create {path}")));
    /// let transcript = Transcript::default();
    /// let input = "setoption name Debug Log File value /no/such/dir/eldest.log\n";
    /// eldest_uci::run_with(input.as_bytes(), transcript.clone(), hooks)?;
    /// // The refusal reaches the GUI, and the previous setting (no file) stays.
    /// let answer = "setoption Debug Log File: cannot create /no/such/dir/eldest.log; unchanged ('')";
    /// assert_eq!(transcript.text(), format!("info string {answer}\n"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn on_debug_log_file(
        mut self,
        hook: impl FnMut(&str) -> Result<(), String> + Send + 'static,
    ) -> Self {
        self.debug_log_file = Box::new(hook);
        self
    }
}

impl Default for SessionHooks {
    fn default() -> Self {
        SessionHooks::new()
    }
}

impl fmt::Debug for SessionHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionHooks").finish_non_exhaustive()
    }
}

/// One search as the session asks for it: what [`Engine::search`] takes.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use eldest_board::Position;
/// use eldest_search::{Engine, SearchControl, SearchLimits, SearchOptions};
/// use eldest_uci::SearchRequest;
///
/// let mut engine = Engine::new(1)?;
/// let root = Position::startpos();
/// let limits = SearchLimits { depth: Some(3), ..SearchLimits::default() };
/// // No game behind the root: a fresh start position.
/// let options = SearchOptions::default();
/// let request = SearchRequest { root: &root, game: Arc::default(), limits: &limits, options: &options };
/// let outcome = request.run(&mut engine, &SearchControl::new(), &mut |_| {});
/// assert!(outcome.best_move.is_some());
/// assert_eq!(outcome.depth, 3);
/// # Ok::<(), eldest_tt::TableSizeError>(())
/// ```
#[derive(Debug)]
pub struct SearchRequest<'a> {
    /// The position to search.
    pub root: &'a Position,
    /// The game before it.
    pub game: Arc<GameHistory>,
    /// From `go`.
    pub limits: &'a SearchLimits,
    /// From the options.
    pub options: &'a SearchOptions,
}

impl SearchRequest<'_> {
    /// Runs the request on `engine`: [`Engine::search`] with its arguments.
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
    /// use std::sync::Arc;
    /// use eldest_search::{Engine, IterationReport, SearchControl, SearchLimits, SearchOutcome};
    /// use eldest_uci::{SearchRequest, SearchRunner, SessionHooks};
    ///
    /// /// Caps every search at depth 1, and otherwise searches as the session would.
    /// #[derive(Debug)]
    /// struct Shallow;
    /// impl SearchRunner for Shallow {
    ///     fn run(&self, engine: &mut Engine, request: SearchRequest<'_>, control: &SearchControl,
    ///            on_iteration: &mut (dyn FnMut(&IterationReport) + Send)) -> SearchOutcome {
    ///         let limits = SearchLimits { depth: Some(1), ..request.limits.clone() };
    ///         SearchRequest { limits: &limits, ..request }.run(engine, control, on_iteration)
    ///     }
    /// }
    /// let transcript = Transcript::default();
    /// let hooks = SessionHooks::new().search_runner(Arc::new(Shallow));
    /// eldest_uci::run_with("go depth 30\n".as_bytes(), transcript.clone(), hooks)?;
    /// assert!(transcript.text().starts_with("info depth 1 "));
    /// assert!(!transcript.text().contains("info depth 2 "));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn run(
        self,
        engine: &mut Engine,
        control: &SearchControl,
        on_iteration: &mut (dyn FnMut(&IterationReport) + Send),
    ) -> SearchOutcome {
        engine.search(
            self.root,
            self.game,
            self.limits,
            self.options,
            control,
            on_iteration,
        )
    }
}

/// What runs the session's searches: by default [`Engine::search`]; the cluster build's runners spread a search
/// over processes. Called on the search thread with the engine locked; the session writes the `bestmove` of
/// the outcome it returns.
///
/// ```
/// use std::sync::Arc;
/// use eldest_search::{Engine, IterationReport, SearchControl, SearchOutcome};
/// use eldest_uci::{SearchRequest, SearchRunner, SessionHooks};
///
/// /// Searches as the session would, and counts the searches.
/// #[derive(Debug, Default)]
/// struct Counting(std::sync::atomic::AtomicUsize);
/// impl SearchRunner for Counting {
///     fn run(&self, engine: &mut Engine, request: SearchRequest<'_>, control: &SearchControl,
///            on_iteration: &mut (dyn FnMut(&IterationReport) + Send)) -> SearchOutcome {
///         self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
///         request.run(engine, control, on_iteration)
///     }
/// }
/// let runner = Arc::new(Counting::default());
/// let hooks = SessionHooks::new().search_runner(runner.clone());
/// eldest_uci::run_with("go depth 3\n".as_bytes(), std::io::sink(), hooks)?;
/// assert_eq!(runner.0.load(std::sync::atomic::Ordering::Relaxed), 1);
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait SearchRunner: Send + Sync + fmt::Debug {
    /// Runs one search to its end (a limit, or `control` stopped) and returns the move to play.
    fn run(
        &self,
        engine: &mut Engine,
        request: SearchRequest<'_>,
        control: &SearchControl,
        on_iteration: &mut (dyn FnMut(&IterationReport) + Send),
    ) -> SearchOutcome;
}

/// Whether the command loop goes on after a command.
///
/// # Examples
///
/// ```
/// use eldest_uci::{Flow, Output, Session, SessionHooks};
///
/// let mut session = Session::new(Output::new(std::io::sink()), SessionHooks::new())?;
/// assert_eq!(session.execute_line("isready"), Flow::Continue);
/// // Only `quit` ends the loop: even a line that is no command keeps it going.
/// assert_eq!(session.execute_line("castle"), Flow::Continue);
/// assert_eq!(session.execute_line("quit"), Flow::Quit);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received: the search is stopped and joined; end the loop.
    Quit,
}

/// The settings the options control, typed.
#[derive(Debug, Clone)]
struct Settings {
    hash_mib: usize,
    search: SearchOptions,
    ponder: bool,
    chess960: bool,
    debug_log_file: String,
    debug: bool,
    /// `Evaluation`.
    evaluation: EvaluationKind,
    /// The network `Evaluation nnue` uses: the embedded one or that of `EvalFile`.
    network: Arc<Network>,
    /// `EvalFile` as last accepted.
    eval_file: String,
}

/// One UCI conversation.
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
/// use eldest_uci::{Output, Session, SessionHooks};
///
/// let transcript = Transcript::default();
/// let mut session = Session::new(Output::new(transcript.clone()), SessionHooks::new())?;
/// session.execute_line("position startpos moves e2e4");
/// session.execute_line("go depth 2");
/// // `stop` waits for the search's answer, so the transcript is complete here.
/// session.execute_line("stop");
/// assert!(transcript.text().lines().last().unwrap().starts_with("bestmove "));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Session {
    out: Output,
    position: Position,
    game: Arc<GameHistory>,
    settings: Settings,
    engine: Arc<Mutex<Engine>>,
    search: Option<RunningSearch>,
    hooks: SessionHooks,
}

impl Session {
    /// A session at the start position with default options, answering on `out`.
    ///
    /// # Errors
    /// When the default transposition table cannot be allocated.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_uci::{Output, Session, SessionHooks};
    ///
    /// let session = Session::new(Output::new(std::io::sink()), SessionHooks::new())?;
    /// // Ready at once for `go`, as a GUI may skip `position` for the initial position.
    /// assert_eq!(*session.position(), Position::startpos());
    /// assert!(!session.is_searching());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(out: Output, hooks: SessionHooks) -> io::Result<Session> {
        let engine = Engine::new(DEFAULT_HASH_MIB).map_err(io::Error::other)?;
        let position = Position::startpos();
        Ok(Session {
            out,
            game: Arc::new(history_of(&position, &[])),
            position,
            settings: Settings {
                hash_mib: DEFAULT_HASH_MIB,
                search: SearchOptions::default(),
                ponder: false,
                chess960: false,
                debug_log_file: String::new(),
                debug: false,
                evaluation: EvaluationKind::default(),
                network: Network::embedded(),
                eval_file: nnue::EMBEDDED_NAME.to_string(),
            },
            engine: Arc::new(Mutex::new(engine)),
            search: None,
            hooks,
        })
    }

    /// The current position: the root of the next search.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_uci::{Output, Session, SessionHooks};
    ///
    /// let mut session = Session::new(Output::new(std::io::sink()), SessionHooks::new())?;
    /// session.execute_line("position startpos moves e2e4 e7e5");
    /// let open_game = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    /// assert_eq!(session.position().to_fen(), open_game);
    /// // All or nothing: an illegal move leaves the previous position in place.
    /// session.execute_line("position startpos moves e2e4 e7e4");
    /// assert_eq!(session.position().to_fen(), open_game);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whether a search is running (it has not yet written its `bestmove`).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_uci::{Output, Session, SessionHooks};
    ///
    /// let mut session = Session::new(Output::new(std::io::sink()), SessionHooks::new())?;
    /// session.execute_line("go infinite");
    /// assert!(session.is_searching());
    /// // `isready` is answered during a search without disturbing it.
    /// session.execute_line("isready");
    /// assert!(session.is_searching());
    /// session.execute_line("stop");
    /// assert!(!session.is_searching());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn is_searching(&self) -> bool {
        self.search.as_ref().is_some_and(|s| !s.has_answered())
    }

    /// Parses and runs one line of input. Problems are answered with `info string`.
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
    /// use eldest_uci::{Output, Session, SessionHooks};
    ///
    /// let transcript = Transcript::default();
    /// let mut session = Session::new(Output::new(transcript.clone()), SessionHooks::new())?;
    /// session.execute_line("isready");
    /// // A faulty line is answered with the reason and not acted on.
    /// session.execute_line("go perft 99");
    /// assert_eq!(transcript.text(), "readyok\ninfo string go perft: '99' is outside 0..=15\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn execute_line(&mut self, line: &str) -> Flow {
        if line.len() <= LOGGED_LINE_BYTES {
            tracing::debug!(target: "eldest_uci::io", "<< {line}");
        } else {
            tracing::debug!(target: "eldest_uci::io", "<< {} ({} bytes)", &line[..line.floor_char_boundary(LOGGED_LINE_BYTES)], line.len());
        }
        match parse_line(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(Parsed { command, notes })) => {
                for note in notes {
                    self.out.info_string(&note);
                }
                self.execute(command)
            }
            Err(error) => {
                self.out.info_string(&error.to_string());
                Flow::Continue
            }
        }
    }

    /// Runs one command.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_uci::{Command, Flow, Output, Session, SessionHooks};
    ///
    /// let mut session = Session::new(Output::new(std::io::sink()), SessionHooks::new())?;
    /// // A command built in code needs no parsing: a program can drive the session without text.
    /// let kings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    /// let flow = session.execute(Command::Position { fen: Some(kings.into()), moves: vec![] });
    /// assert_eq!(flow, Flow::Continue);
    /// assert_eq!(session.position().to_fen(), kings);
    /// assert_eq!(session.execute(Command::Quit), Flow::Quit);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn execute(&mut self, command: Command) -> Flow {
        tracing::debug!(?command, "command");
        self.reap_finished();
        match command {
            Command::Uci => self.uci(),
            Command::Debug(on) => self.settings.debug = on,
            Command::IsReady => self.out.send("readyok"),
            Command::SetOption { name, value } => {
                self.finish_search();
                self.set_option(&name, value.as_deref());
            }
            Command::Register => {}
            Command::UciNewGame => {
                self.finish_search();
                self.engine().new_game();
            }
            Command::Position { fen, moves } => {
                self.finish_search();
                self.set_position(fen.as_deref(), &moves);
            }
            Command::Go(go) => self.go(go),
            Command::Stop => self.finish_search(),
            Command::PonderHit => {
                if !self.search.as_ref().is_some_and(RunningSearch::ponderhit) {
                    tracing::debug!("ponderhit without a ponder search: ignored");
                }
            }
            Command::Quit => {
                self.finish_search();
                return Flow::Quit;
            }
            Command::Display => self.out.send(&board_diagram(&self.position)),
            Command::Eval => self.eval(),
            Command::Bench { depth } => self.bench(depth),
        }
        Flow::Continue
    }

    /// Stops any running search and waits for its `bestmove`: what `quit` and the end of the input do.
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
    /// use eldest_uci::{Output, Session, SessionHooks};
    ///
    /// let transcript = Transcript::default();
    /// let mut session = Session::new(Output::new(transcript.clone()), SessionHooks::new())?;
    /// session.execute_line("go infinite");
    /// // What the end of the input does: the search stops, and still answers.
    /// session.shutdown();
    /// assert!(!session.is_searching());
    /// assert!(transcript.text().lines().last().unwrap().starts_with("bestmove "));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn shutdown(&mut self) {
        self.finish_search();
    }

    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        // A search thread that panicked leaves the engine usable: its tables hold plain data.
        self.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn uci(&self) {
        let mut text = format!("id name {ENGINE_NAME}\nid author {ENGINE_AUTHOR}\n");
        for option in crate::options::options() {
            text.push_str(&option.declaration());
            text.push('\n');
        }
        text.push_str("uciok");
        self.out.send(&text);
    }

    /// Joins a search thread that has already answered, so that a new `go` may start at once.
    fn reap_finished(&mut self) {
        if self.search.as_ref().is_some_and(RunningSearch::has_answered) {
            self.finish_search();
        }
    }

    /// Stops the running search, if any, and waits until its thread has written `bestmove` and ended.
    fn finish_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop_and_join(&self.out);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let setting = match parse_setoption(name, value) {
            Ok(setting) => setting,
            Err(error) => return self.out.info_string(&error.to_string()),
        };
        tracing::debug!(?setting, "setoption");
        match setting {
            Setting::Hash(mib) => {
                let resized = self.engine().set_hash(mib);
                match resized {
                    Ok(()) => self.settings.hash_mib = mib,
                    Err(error) => self.out.info_string(&format!(
                        "setoption Hash: {error}; keeping {} MiB (cleared)",
                        self.settings.hash_mib
                    )),
                }
            }
            Setting::Threads(threads) => self.settings.search.threads = threads,
            Setting::ClearHash => self.engine().clear_hash(),
            Setting::Ponder(on) => self.settings.ponder = on,
            Setting::MultiPv(lines) => self.settings.search.multi_pv = lines,
            Setting::Chess960(on) => {
                self.settings.chess960 = on;
                if !self.position.set_chess960(on) {
                    self.out.info_string(
                        "setoption UCI_Chess960: the current position's castling can only be written the Chess960 \
                         way; it keeps Chess960 notation",
                    );
                }
            }
            Setting::MoveOverhead(overhead) => self.settings.search.move_overhead = overhead,
            Setting::ParallelAlgorithm(algorithm) => self.settings.search.parallel.algorithm = algorithm,
            Setting::Evaluation(kind) => {
                self.settings.evaluation = kind;
                self.apply_evaluation();
            }
            Setting::EvalFile(file) => self.set_eval_file(file),
            Setting::Knob { knob, value } => knob.apply(&mut self.settings.search.parallel, value),
            Setting::Tunable { tunable, value } => tunable.apply(&mut self.settings.search.params, value),
            Setting::DebugLogFile(path) => match (self.hooks.debug_log_file)(&path) {
                Ok(()) => self.settings.debug_log_file = path,
                Err(error) => self.out.info_string(&format!(
                    "setoption Debug Log File: {error}; unchanged ('{}')",
                    self.settings.debug_log_file
                )),
            },
        }
    }

    /// `EvalFile`: the embedded net for an empty value or its own name, else the file's net; a file that cannot
    /// be read or is no valid net is refused and the network in use stays.
    fn set_eval_file(&mut self, file: String) {
        let network = if file.is_empty() || file == nnue::EMBEDDED_NAME {
            Network::embedded()
        } else {
            match Network::from_file(file.as_ref()) {
                Ok(network) => {
                    self.out.info_string(&format!(
                        "EvalFile: network of {} loaded (768x2 -> {} -> 1, {} output bucket{}){}",
                        crate::error::echo(&file),
                        network.hidden(),
                        network.output_buckets(),
                        if network.output_buckets() == 1 { "" } else { "s" },
                        if self.settings.evaluation == EvaluationKind::Nnue {
                            ""
                        } else {
                            "; set Evaluation to nnue to use it"
                        }
                    ));
                    Arc::new(network)
                }
                Err(error) => {
                    return self.out.info_string(&format!(
                        "setoption EvalFile: {error}; keeping {}",
                        crate::error::echo(&self.settings.eval_file)
                    ));
                }
            }
        };
        self.settings.network = network;
        self.settings.eval_file = file;
        self.apply_evaluation();
    }

    /// Hands the engine the evaluation the options ask for (the table is emptied when it changes).
    fn apply_evaluation(&mut self) {
        let wanted = self.evaluation_in_use();
        let mut engine = self.engine();
        if *engine.evaluation() != wanted {
            engine.set_evaluation(wanted);
        }
    }

    /// The evaluation the options ask for, which `apply_evaluation` has handed the engine. Read from the settings,
    /// not the engine, because a running search holds the engine until it ends: an `eval` during `go infinite`
    /// would wait for a `stop` it could never read.
    fn evaluation_in_use(&self) -> Evaluation {
        Evaluation::of(self.settings.evaluation, Arc::clone(&self.settings.network))
    }

    /// `eval`: the network's score when the network is in use, then PeSTO's terms.
    fn eval(&self) {
        let mut text = String::new();
        if let Evaluation::Nnue(network) = self.evaluation_in_use() {
            let score = network.evaluate(&self.position);
            let white_view = match self.position.side_to_move() {
                Color::White => score,
                Color::Black => -score,
            };
            text.push_str(&format!(
                "Network evaluation {:+.2} (white side; {}, the evaluation in use)\nPeSTO's tables, for comparison:\n",
                f64::from(white_view) / 100.0,
                crate::error::echo(&self.settings.eval_file)
            ));
        }
        text.push_str(&eval_trace(&self.position).to_string());
        self.out.send(&text);
    }

    /// `position`: all or nothing. A bad FEN or a bad move leaves the previous position in place.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut start = match fen {
            None => Position::startpos(),
            Some(fen) => match Position::from_fen(fen) {
                Ok(position) => position,
                Err(error) => {
                    return self.out.info_string(&format!(
                        "position fen: invalid FEN '{}': {error}; position unchanged",
                        crate::error::echo(fen)
                    ));
                }
            },
        };
        if self.settings.chess960 {
            start.set_chess960(true);
        }
        let mut position = start;
        let mut played = Vec::with_capacity(moves.len());
        for (index, text) in moves.iter().enumerate() {
            match position.parse_uci_move(text) {
                Ok(mv) => {
                    position.play_unchecked(mv);
                    played.push((position.key(), position.halfmove_clock()));
                }
                Err(error) => {
                    let why = match error {
                        UciMoveError::Syntax(_) => "is not a UCI move",
                        UciMoveError::Illegal(_) => "is illegal",
                    };
                    return self.out.info_string(&format!(
                        "position: move {} '{}' {why} in {}; position unchanged",
                        index + 1,
                        crate::error::echo(text),
                        position.to_fen()
                    ));
                }
            }
        }
        self.game = Arc::new(history_of(&start, &played));
        self.position = position;
    }

    fn go(&mut self, go: Go) {
        if self.is_searching() {
            // Every go gets its own bestmove: the running search ends (and answers) before this one starts.
            self.out
                .info_string("go: a search was running; it is stopped and answered first");
            self.finish_search();
        }
        if let Some(depth) = go.perft {
            return self.perft(depth);
        }
        let root = self.position;
        let mut search_moves: Vec<Move> = Vec::new();
        for (index, text) in go.search_moves.iter().enumerate() {
            match root.parse_uci_move(text) {
                Ok(mv) if !search_moves.contains(&mv) => search_moves.push(mv),
                Ok(_) => {}
                // Dropped, not a reason to stay silent: the go still gets its bestmove.
                Err(error) => self.out.info_string(&format!(
                    "go searchmoves: move {} '{}': {error}; ignored",
                    index + 1,
                    crate::error::echo(text)
                )),
            }
        }
        if !go.search_moves.is_empty() && search_moves.is_empty() {
            self.out
                .info_string("go searchmoves: no legal move left; searching every move");
        }
        let chess960 = root.is_chess960();
        if root.legal_moves().is_empty() {
            // Nothing to think about, in any mode: answer at once.
            let score = if root.in_check() { "mate 0" } else { "cp 0" };
            self.out.send(&format!("info depth 0 score {score}"));
            return self.out.send("bestmove 0000");
        }
        let limits = self.limits(&go, search_moves);
        let job = SearchJob {
            engine: Arc::clone(&self.engine),
            out: self.out.clone(),
            root,
            game: Arc::clone(&self.game),
            limits,
            options: self.settings.search.clone(),
            ponder: go.ponder,
            runner: self.hooks.runner.clone(),
        };
        match RunningSearch::spawn(job) {
            Ok(search) => self.search = Some(search),
            Err(error) => {
                self.out
                    .info_string(&format!("go: cannot start the search thread: {error}"));
                let fallback = root.legal_moves().first().copied();
                self.out.send(&format_bestmove_parts(fallback, None, chess960));
            }
        }
    }

    /// The search limits of `go` for the side to move.
    fn limits(&self, go: &Go, search_moves: Vec<Move>) -> SearchLimits {
        let (remaining, increment, other) = match self.position.side_to_move() {
            Color::White => (go.white_time, go.white_increment, go.black_time),
            Color::Black => (go.black_time, go.black_increment, go.white_time),
        };
        if remaining.is_none() && (other.is_some() || increment.is_some()) {
            self.out
                .info_string("go: no time given for the side to move; searching without a clock");
        }
        SearchLimits {
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            move_time: go.move_time,
            clock: remaining.map(|remaining| Clock {
                remaining,
                increment: increment.unwrap_or(Duration::ZERO),
                moves_to_go: go.moves_to_go,
            }),
            infinite: go.infinite,
            search_moves,
        }
    }

    /// `go perft N`: Stockfish's divide, on this thread.
    fn perft(&self, depth: u32) {
        let mut text = String::new();
        let mut total = 0u64;
        if depth == 0 {
            total = 1;
        } else {
            for (mv, nodes) in self.position.divide(depth) {
                text.push_str(&format!("{}: {nodes}\n", self.position.move_to_uci(mv)));
                total += nodes;
            }
        }
        text.push_str(&format!("\nNodes searched: {total}"));
        self.out.send(&text);
    }

    /// `bench [depth]` inside a session, on this thread: one `info string` per position, then the totals.
    fn bench(&self, depth: Option<u32>) {
        if self.is_searching() {
            return self
                .out
                .info_string("bench: a search is running; send stop first");
        }
        let depth = depth.unwrap_or(bench::DEFAULT_BENCH_DEPTH);
        let count = bench::BENCH_POSITIONS.len();
        let result = bench::run_bench(depth, &mut |index, fen, outcome| {
            self.out.info_string(&format!(
                "bench {}/{count} nodes {} {} fen {fen}",
                index + 1,
                outcome.nodes,
                format_bestmove(outcome, false)
            ));
        });
        self.out
            .send(&format!("{} nodes {} nps", result.nodes, result.nps));
    }
}

/// The game history of `start` followed by the positions reached by the moves (key and halfmove clock each).
fn history_of(start: &Position, played: &[(u64, u16)]) -> GameHistory {
    std::iter::once((start.key(), start.halfmove_clock()))
        .chain(played.iter().copied())
        .collect()
}
