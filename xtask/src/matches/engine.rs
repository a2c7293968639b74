//! One engine process: start and handshake with timeouts, options, a search with hang detection, and the faults
//! the runner must report (crash, hang, malformed output). UCI is spoken here; the xboard protocol (CECP 2, for
//! engines such as Fairy-Max) in [`super::xboard`], over the same process and line reader.
//!
//! A reader thread turns the engine's stdout into a channel of timestamped lines, so the game loop can wait for
//! `bestmove` with a deadline: an engine that stops answering is detected when the deadline passes, not never.
//! Another thread keeps the last lines of stderr for the crash report. The process is killed when the
//! [`EngineProcess`] is dropped, so no engine outlives its match or a game it lost by a fault.

use super::adjudication::Score;
use super::clock::{GameClock, Limit};
use super::xboard::XboardSession;
use eldest_board::Color;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` with `uciok` (or an xboard engine to finish its features).
pub(super) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `isready` (a large hash table is allocated or cleared here).
pub(super) const READY_TIMEOUT: Duration = Duration::from_secs(30);
/// Stderr lines kept for a crash report.
const STDERR_LINES_KEPT: usize = 20;
/// Warnings kept per game and engine; more are counted, not stored.
const WARNINGS_KEPT: usize = 10;

/// The protocol an engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// The Universal Chess Interface (Eldest, Stockfish and most engines of today).
    #[default]
    Uci,
    /// The xboard/WinBoard protocol, version 2 (Fairy-Max, GNU Chess, Crafty and other older engines).
    Xboard,
}

impl Protocol {
    /// The name used in `proto=` and the JSON summary.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        }
    }
}

/// How to start one engine, parsed from `--engine cmd=PATH,name=NAME,option.Threads=2,...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// The engine's name in the PGN, the progress lines and the summary.
    pub name: String,
    /// The program to run.
    pub command: PathBuf,
    /// Its command-line arguments (`arg=...`, repeatable).
    pub arguments: Vec<String>,
    /// Its working directory (`dir=...`); the runner's own by default.
    pub directory: Option<PathBuf>,
    /// UCI options to set after the handshake, in order (`option.NAME=VALUE`).
    pub options: Vec<(String, String)>,
    /// This engine's own limit (`tc=`, `movetime=`, `nodes=`, `depth=`), overriding the match's.
    pub limit: Option<Limit>,
    /// Whether `name=` was given (otherwise it is the command's file name, made unique by the runner).
    pub named: bool,
    /// The protocol (`proto=uci|xboard`; UCI by default).
    pub protocol: Protocol,
}

impl EngineSpec {
    /// Parses `cmd=PATH,name=NAME,proto=uci|xboard,arg=ARG,dir=DIR,option.NAME=VALUE,tc=8+0.08|movetime=MS|
    /// nodes=N|depth=D`. A bare command (`cmd=fairymax`) is looked up on `PATH` and then in `/usr/games`, where
    /// Debian installs its engines.
    ///
    /// # Errors
    /// A message naming the bad part: no `cmd`, an unknown key, a part without `=`, a bad limit or protocol.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut command = None;
        let mut spec = EngineSpec {
            name: String::new(),
            command: PathBuf::new(),
            arguments: Vec::new(),
            directory: None,
            options: Vec::new(),
            limit: None,
            named: false,
            protocol: Protocol::Uci,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = |why: &str| format!("--engine '{text}': '{part}' {why}");
            let (key, value) = part.split_once('=').ok_or_else(|| bad("is not KEY=VALUE"))?;
            let number = |what: &str| -> Result<u64, String> {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|v| *v > 0)
                    .ok_or_else(|| bad(&format!("needs a positive {what}")))
            };
            let mut set_limit = |limit: Limit| -> Result<(), String> {
                if spec.limit.replace(limit).is_some() {
                    return Err(bad("is a second limit (give one of tc, movetime, nodes, depth)"));
                }
                Ok(())
            };
            match key {
                "cmd" => command = Some(PathBuf::from(value)),
                "name" => {
                    spec.name = value.to_string();
                    spec.named = true;
                }
                "arg" => spec.arguments.push(value.to_string()),
                "proto" => {
                    spec.protocol = match value {
                        "uci" => Protocol::Uci,
                        "xboard" | "cecp" | "winboard" => Protocol::Xboard,
                        _ => return Err(bad("is not a protocol (want uci or xboard)")),
                    }
                }
                "dir" => spec.directory = Some(PathBuf::from(value)),
                "tc" => set_limit(Limit::parse_clock(value).map_err(|e| bad(&format!(": {e}")))?)?,
                "movetime" => set_limit(Limit::MoveTime(Duration::from_millis(number(
                    "number of milliseconds",
                )?)))?,
                "nodes" => set_limit(Limit::Nodes(number("node count")?))?,
                "depth" => set_limit(Limit::Depth(
                    u32::try_from(number("depth")?).map_err(|_| bad("is too deep"))?,
                ))?,
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        spec.options.push((option.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(bad(
                            "has an unknown key (want cmd, name, proto, arg, dir, option.NAME, tc, movetime, nodes, depth)",
                        ));
                    }
                },
            }
        }
        spec.command = command.ok_or_else(|| format!("--engine '{text}' needs cmd=PATH"))?;
        if spec.command.as_os_str().is_empty() {
            return Err(format!("--engine '{text}': cmd= is empty"));
        }
        spec.command = with_debian_games_directory(spec.command);
        if !spec.named {
            spec.name = spec
                .command
                .file_stem()
                .map_or_else(|| "engine".into(), |stem| stem.to_string_lossy().into_owned());
        }
        Ok(spec)
    }
}

/// `/usr/games/NAME` for a bare `NAME` that is not on `PATH` but is there (Debian's `stockfish` and `fairymax`
/// land in `/usr/games`, which is often not on `PATH`); any other command unchanged.
fn with_debian_games_directory(command: PathBuf) -> PathBuf {
    let bare = command.components().count() == 1 && !command.as_os_str().is_empty();
    if !bare {
        return command;
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|directory| directory.join(&command).is_file()));
    let games = PathBuf::from("/usr/games").join(&command);
    if !on_path && games.is_file() {
        games
    } else {
        command
    }
}

/// What went wrong with an engine in a way that loses it the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// The process exited or closed its output.
    Crash,
    /// No answer long after the time it was allowed.
    Hang,
    /// An answer that does not follow the protocol (e.g. `bestmove` without a move).
    Malformed,
}

/// A fault with what was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineFault {
    /// The kind of fault.
    pub kind: FaultKind,
    /// What happened, for the PGN and the summary.
    pub detail: String,
}

/// What an engine decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The move text after `bestmove` or `move` (not yet checked against the position).
    Move(String),
    /// The engine resigned (xboard's `resign`).
    Resign,
}

/// One search of a game: where the game stands and whose clocks apply.
#[derive(Debug, Clone, Copy)]
pub struct SearchRequest<'a> {
    /// The FEN the game started from, when not the standard start.
    pub start_fen: Option<&'a str>,
    /// Every move of the game so far, in UCI notation (book moves included).
    pub moves: &'a [String],
    /// Both players' clocks.
    pub clock: &'a GameClock,
    /// The side to move.
    pub mover: Color,
    /// How long to wait for the move before the engine is declared hung.
    pub hang_after: Duration,
}

/// An engine's answer to a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchReply {
    /// The move, or a resignation.
    pub decision: Decision,
    /// From sending `go` to reading the move.
    pub elapsed: Duration,
    /// The last score the engine reported in `info` during this search.
    pub score: Option<Score>,
    /// The last depth it reported.
    pub depth: Option<u32>,
}

/// A running engine.
#[derive(Debug)]
pub struct EngineProcess {
    name: String,
    /// The xboard state, for an engine that speaks xboard; `None` for UCI.
    xboard: Option<XboardSession>,
    child: Child,
    stdin: ChildStdin,
    output: Receiver<OutputEvent>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// The engine's `id name`, if it gave one.
    pub id_name: Option<String>,
    warnings: Vec<String>,
    warnings_dropped: usize,
}

/// What the stdout reader thread sends: a line with the time it was read, or `None` at the end of the output.
#[derive(Debug)]
struct OutputEvent(Option<(String, Instant)>);

impl EngineProcess {
    /// Starts the engine, runs the handshake of its protocol, sets the spec's options and waits until it is ready.
    ///
    /// # Errors
    /// A message when the program cannot be started, does not complete the handshake in time, lacks one of the
    /// options, or dies on the way.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, String> {
        let mut command = Command::new(&spec.command);
        command
            .args(&spec.arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(directory) = &spec.directory {
            command.current_dir(directory);
        }
        let mut child = command.spawn().map_err(|e| {
            format!(
                "cannot start engine '{}' ({}): {e}",
                spec.name,
                spec.command.display()
            )
        })?;
        let (stdin, stdout, stderr) = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(stdin), Some(stdout), Some(stderr)) => (stdin, stdout, stderr),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("engine '{}': no pipes to the process", spec.name));
            }
        };
        let (sender, output) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer)
                            .trim_end_matches(['\r', '\n'])
                            .to_string();
                        if sender.send(OutputEvent(Some((line, Instant::now())))).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = sender.send(OutputEvent(None));
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || keep_stderr_tail(stderr, &tail));
        let mut engine = EngineProcess {
            name: spec.name.clone(),
            xboard: None,
            child,
            stdin,
            output,
            stderr_tail,
            id_name: None,
            warnings: Vec::new(),
            warnings_dropped: 0,
        };
        let handshake = match spec.protocol {
            Protocol::Uci => engine.handshake(spec),
            Protocol::Xboard => XboardSession::handshake(&mut engine, spec).map(|session| {
                engine.xboard = Some(session);
            }),
        };
        handshake.map_err(|fault| format!("engine '{}' failed to start: {}", spec.name, fault.detail))?;
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec) -> Result<(), EngineFault> {
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut offered = Vec::new();
        loop {
            let (line, _) = self.next_line(deadline, HANDSHAKE_TIMEOUT, "uciok after uci")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("uciok") => break,
                Some("id") if words.next() == Some("name") => {
                    self.id_name = Some(words.collect::<Vec<_>>().join(" "));
                }
                Some("option") if words.next() == Some("name") => {
                    let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
                    offered.push(name.join(" "));
                }
                // Banners and other chatter before uciok are common and harmless.
                _ => {}
            }
        }
        for (name, value) in &spec.options {
            if !offered.iter().any(|o| o.eq_ignore_ascii_case(name)) {
                return Err(EngineFault {
                    kind: FaultKind::Malformed,
                    detail: format!("it has no option '{name}' (it offers: {})", offered.join(", ")),
                });
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.wait_ready()
    }

    /// Tells the engine a new game starts, from `start_fen` (the standard start when `None`) and under `limit`,
    /// and waits until it is ready.
    ///
    /// # Errors
    /// A crash, a hang (no `readyok` in time), or an xboard engine that cannot start from a FEN.
    pub fn new_game(&mut self, start_fen: Option<&str>, limit: Limit) -> Result<(), EngineFault> {
        self.drain()?;
        if let Some(mut session) = self.xboard.take() {
            let started = session.new_game(self, start_fen, limit);
            self.xboard = Some(session);
            return started;
        }
        self.send("ucinewgame")?;
        self.wait_ready()
    }

    fn wait_ready(&mut self) -> Result<(), EngineFault> {
        self.send("isready")?;
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            let (line, _) = self.next_line(deadline, READY_TIMEOUT, "readyok after isready")?;
            if line.split_whitespace().next() == Some("readyok") {
                return Ok(());
            }
        }
    }

    /// Gives the engine the game so far and its clocks, and waits for its move until `request.hang_after`.
    ///
    /// # Errors
    /// A crash, a hang, or an answer that breaks the protocol (a `bestmove` line without a move).
    pub fn search(&mut self, request: &SearchRequest) -> Result<SearchReply, EngineFault> {
        self.drain()?;
        if let Some(mut session) = self.xboard.take() {
            let reply = session.search(self, request);
            self.xboard = Some(session);
            return reply;
        }
        let mut position = match request.start_fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !request.moves.is_empty() {
            position = format!("{position} moves {}", request.moves.join(" "));
        }
        let go = request.clock.go_command(request.mover);
        let hang_after = request.hang_after;
        // The clock starts before the write, so the engine is never charged less than the time it had.
        let started = Instant::now();
        self.send(&format!("{position}\n{go}"))?;
        let deadline = started + hang_after;
        let (mut score, mut depth) = (None, None);
        loop {
            let (line, read_at) = self.next_line(deadline, hang_after, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    let Some(best_move) = words.next() else {
                        return Err(EngineFault {
                            kind: FaultKind::Malformed,
                            detail: format!("'{line}' names no move"),
                        });
                    };
                    return Ok(SearchReply {
                        decision: Decision::Move(best_move.to_string()),
                        elapsed: read_at.saturating_duration_since(started),
                        score,
                        depth,
                    });
                }
                Some("info") => match parse_info(&line) {
                    Ok((line_score, line_depth)) => {
                        score = line_score.or(score);
                        depth = line_depth.or(depth);
                    }
                    Err(why) => self.warn(format!("malformed info line ({why}): '{line}'")),
                },
                None => {}
                Some(_) => self.warn(format!("unrecognised output during search: '{line}'")),
            }
        }
    }

    /// The warnings (malformed or unexpected output) since the last call, and how many more were not kept.
    pub fn take_warnings(&mut self) -> (Vec<String>, usize) {
        (
            std::mem::take(&mut self.warnings),
            std::mem::take(&mut self.warnings_dropped),
        )
    }

    pub(super) fn warn(&mut self, warning: String) {
        if self.warnings.len() < WARNINGS_KEPT {
            self.warnings.push(warning);
        } else {
            self.warnings_dropped += 1;
        }
    }

    /// Reads what the engine printed while nobody was waiting: a move then is a protocol error worth a
    /// warning; the end of the output is a crash.
    fn drain(&mut self) -> Result<(), EngineFault> {
        while let Ok(OutputEvent(event)) = self.output.try_recv() {
            match event {
                Some((line, _)) if matches!(line.split_whitespace().next(), Some("bestmove" | "move")) => {
                    self.warn(format!("unexpected output while idle: '{line}'"));
                }
                Some(_) => {}
                None => return Err(self.crash("between moves")),
            }
        }
        Ok(())
    }

    /// The next line, or a crash, or a hang once `deadline` (`allowed` after the command) has passed.
    pub(super) fn next_line(
        &mut self,
        deadline: Instant,
        allowed: Duration,
        waiting_for: &str,
    ) -> Result<(String, Instant), EngineFault> {
        self.line_before(deadline, waiting_for)?
            .ok_or_else(|| EngineFault {
                kind: FaultKind::Hang,
                detail: format!("no {waiting_for} within {:.1} s", allowed.as_secs_f64()),
            })
    }

    /// The next line, `None` once `deadline` has passed, or a crash.
    pub(super) fn line_before(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<Option<(String, Instant)>, EngineFault> {
        let timeout = deadline.saturating_duration_since(Instant::now());
        match self.output.recv_timeout(timeout) {
            Ok(OutputEvent(Some(line))) => Ok(Some(line)),
            Ok(OutputEvent(None)) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.crash(&format!("while waiting for {waiting_for}")))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    pub(super) fn send(&mut self, text: &str) -> Result<(), EngineFault> {
        let written = writeln!(self.stdin, "{text}").and_then(|()| self.stdin.flush());
        written.map_err(|_| self.crash("when sent a command"))
    }

    /// A crash fault with the exit status (waited for briefly) and the last stderr lines.
    fn crash(&mut self, when: &str) -> EngineFault {
        let waited_until = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < waited_until => std::thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        let mut detail = match status {
            Some(status) => format!("the process exited ({status}) {when}"),
            None => format!("the process closed its output {when}"),
        };
        let tail = self
            .stderr_tail
            .lock()
            .map(|lines| lines.iter().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        if let Some(last) = tail.iter().rev().find(|line| !line.trim().is_empty()) {
            detail.push_str(&format!("; last stderr line: '{last}'"));
        }
        EngineFault {
            kind: FaultKind::Crash,
            detail,
        }
    }

    /// Whether the engine can start a game from a FEN: every UCI engine can, an xboard engine only with the
    /// `setboard` feature.
    pub fn can_set_up_positions(&self) -> bool {
        self.xboard.as_ref().is_none_or(XboardSession::has_setboard)
    }

    /// The engine's name in the match.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Ask politely, then make sure: a hung engine ignores `quit`.
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn keep_stderr_tail(stderr: impl Read, tail: &Mutex<VecDeque<String>>) {
    let mut reader = BufReader::new(stderr);
    let mut buffer = Vec::new();
    while let Ok(read) = reader.read_until(b'\n', &mut buffer) {
        if read == 0 {
            break;
        }
        if let Ok(mut lines) = tail.lock() {
            if lines.len() == STDERR_LINES_KEPT {
                lines.pop_front();
            }
            lines.push_back(String::from_utf8_lossy(&buffer).trim_end().to_string());
        }
        buffer.clear();
    }
}

/// The score and depth of an `info` line (either may be absent).
///
/// # Errors
/// A short reason when `score` or `depth` is followed by something that is not what UCI says.
fn parse_info(line: &str) -> Result<(Option<Score>, Option<u32>), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (mut score, mut depth) = (None, None);
    let mut index = 1;
    while index < words.len() {
        match words[index] {
            "depth" => {
                let value = words
                    .get(index + 1)
                    .and_then(|w| w.parse().ok())
                    .ok_or("depth without a number")?;
                depth = Some(value);
                index += 1;
            }
            "score" => {
                let kind = words.get(index + 1).copied();
                let value: Option<i32> = words.get(index + 2).and_then(|w| w.parse().ok());
                score = Some(match (kind, value) {
                    (Some("cp"), Some(cp)) => Score::Centipawns(cp),
                    (Some("mate"), Some(moves)) => Score::Mate(moves),
                    _ => return Err("score is not 'cp N' or 'mate N'".into()),
                });
                index += 2;
            }
            // Everything after these is free text or a move list.
            "string" | "pv" => break,
            _ => {}
        }
        index += 1;
    }
    Ok((score, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse() {
        let spec = EngineSpec::parse(
            "cmd=target/release/eldest,name=abdada2,option.ParallelAlgorithm=abdada,option.Threads=2,arg=-x,tc=8+0.08",
        )
        .unwrap();
        assert_eq!(spec.name, "abdada2");
        assert_eq!(spec.command, PathBuf::from("target/release/eldest"));
        assert_eq!(spec.arguments, ["-x"]);
        assert_eq!(
            spec.options,
            [
                ("ParallelAlgorithm".to_string(), "abdada".to_string()),
                ("Threads".to_string(), "2".to_string())
            ]
        );
        assert_eq!(spec.limit, Some(Limit::parse_clock("8+0.08").unwrap()));
        let unnamed = EngineSpec::parse("cmd=/usr/games/stockfish,nodes=1000").unwrap();
        assert_eq!(unnamed.name, "stockfish");
        assert!(!unnamed.named);
        assert_eq!(unnamed.limit, Some(Limit::Nodes(1000)));
    }

    #[test]
    fn bad_engine_specs_are_refused_with_a_reason() {
        for (bad, expected) in [
            ("name=x", "needs cmd"),
            ("cmd=x,colour=red", "unknown key"),
            ("cmd=x,nodes=0", "positive"),
            ("cmd=x,tc=fast", "bad time control"),
            ("cmd=x,nodes=5,depth=3", "second limit"),
            ("cmd=x,option.Hash", "KEY=VALUE"),
            ("cmd=", "empty"),
        ] {
            let error = EngineSpec::parse(bad).unwrap_err();
            assert!(error.contains(expected), "{bad}: {error}");
        }
    }

    #[test]
    fn info_lines_give_score_and_depth() {
        let line = "info depth 12 seldepth 18 score cp -31 nodes 1000 pv e2e4 e7e5";
        assert_eq!(parse_info(line), Ok((Some(Score::Centipawns(-31)), Some(12))));
        assert_eq!(
            parse_info("info depth 3 score mate -2 lowerbound"),
            Ok((Some(Score::Mate(-2)), Some(3)))
        );
        assert_eq!(parse_info("info string depth x"), Ok((None, None)));
        assert!(parse_info("info score cp abc").is_err());
        assert!(parse_info("info depth").is_err());
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_panic() {
        let spec = EngineSpec::parse("cmd=/no/such/engine,name=ghost").unwrap();
        let error = EngineProcess::start(&spec).unwrap_err();
        assert!(error.contains("cannot start engine 'ghost'"), "{error}");
    }
}
