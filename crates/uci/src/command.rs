//! The commands a GUI sends, parsed from a line of text into a typed [`Command`].
//!
//! Parsing is purely syntactic: whether a FEN describes a legal position or a move is legal is decided when the
//! command runs, against the session's position. Following the UCI specification, unknown tokens in front of a
//! command are skipped (`joho debug on` switches debug mode on) and unknown `go` parameters are ignored; both
//! are reported as notes. Everything else that is wrong is a [`ParseError`], and the command is not run.

use crate::error::{ParseError, echo};
use crate::go::{Go, MAX_DEPTH, count, narrow, parse_go, perft_depth};
use crate::token::{Token, tokenize};

/// A command from the GUI.
///
/// # Examples
///
/// ```
/// use eldest_uci::{Command, parse_line};
///
/// // An option's name keeps its spaces; without a `value` token there is no value.
/// let parsed = parse_line("setoption name Clear Hash")?.unwrap();
/// assert_eq!(parsed.command, Command::SetOption { name: "Clear Hash".into(), value: None });
/// // Moves are only text here: they are checked against the position when the command runs.
/// let parsed = parse_line("position startpos moves e2e4 e7e5")?.unwrap();
/// assert_eq!(parsed.command, Command::Position { fen: None, moves: vec!["e2e4".into(), "e7e5".into()] });
/// # Ok::<(), eldest_uci::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify the engine and list its options, then `uciok`.
    Uci,
    /// `debug on|off`: the protocol's debug mode (Eldest logs through `tracing` either way).
    Debug(bool),
    /// `isready`: answered with `readyok` at once, even during a search.
    IsReady,
    /// `setoption name <name> [value <value>]`. The name may contain spaces; the value is the rest of the line.
    SetOption {
        /// The option's name, its words joined by single spaces.
        name: String,
        /// The text after `value`, if the token was present.
        value: Option<String>,
    },
    /// `register ...`: accepted and ignored (Eldest needs no registration).
    Register,
    /// `ucinewgame`: the next position is from a different game.
    UciNewGame,
    /// `position startpos|fen <fen> [moves <m1> ...]`.
    Position {
        /// The FEN to start from; `None` for `startpos`.
        fen: Option<String>,
        /// The moves to play from there, in UCI notation, not yet checked.
        moves: Vec<String>,
    },
    /// `go ...`: search (or count perft) from the current position.
    Go(Go),
    /// `stop`: end the search and answer `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the expected move; the ponder search now runs on the clock.
    PonderHit,
    /// `quit`: stop any search and exit.
    Quit,
    /// `d`: print the board, its FEN and its key (Stockfish's extension).
    Display,
    /// `eval`: print the static evaluation and its terms (Stockfish's extension).
    Eval,
    /// `bench [depth]`: search the bench positions and print the node count (Stockfish's extension).
    Bench {
        /// The depth to search; the bench's default when absent.
        depth: Option<u32>,
    },
}

/// A parsed command with the notes the parser has for the GUI (skipped tokens, clamped numbers). Each note is
/// sent as an `info string` line before the command runs.
///
/// # Examples
///
/// ```
/// use eldest_uci::{Command, Parsed, parse_line};
///
/// // Unknown words before a command are skipped, as the protocol asks, and the GUI is told.
/// let Parsed { command, notes } = parse_line("joho debug on")?.unwrap();
/// assert_eq!(command, Command::Debug(true));
/// assert_eq!(notes, ["ignored unknown token(s) before the command: 'joho'"]);
/// # Ok::<(), eldest_uci::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The command.
    pub command: Command,
    /// Human-readable remarks on what was skipped or adjusted.
    pub notes: Vec<String>,
}

/// The words that start a command.
const COMMANDS: [&str; 15] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "perft",
];

/// The word that starts the command of `line`, as [`parse_line`] finds it: the first token that names a
/// command (unknown tokens in front are skipped, as the protocol asks). `None` when no token names one.
///
/// # Examples
///
/// ```
/// use eldest_uci::command_word;
///
/// assert_eq!(command_word("go depth 5"), Some("go"));
/// assert_eq!(command_word("joho debug on"), Some("debug"));
/// assert_eq!(command_word("hello"), None);
/// ```
pub fn command_word(line: &str) -> Option<&str> {
    tokenize(line)
        .into_iter()
        .map(|token| token.text)
        .find(|text| COMMANDS.contains(text))
}

/// Parses one line. `Ok(None)` for a blank line, which the protocol ignores.
///
/// # Errors
/// A [`ParseError`] naming what is wrong; the line must then not be acted on.
///
/// # Examples
/// ```
/// use eldest_uci::{parse_line, Command, Go};
/// use std::time::Duration;
///
/// let parsed = parse_line("go wtime -150 btime 3000 movestogo 10")?.unwrap();
/// let Command::Go(go) = parsed.command else { unreachable!() };
/// assert_eq!(go.white_time, Some(Duration::ZERO)); // negative clock clamped...
/// assert_eq!(parsed.notes.len(), 1); // ...and said so
/// assert_eq!(go.moves_to_go, Some(10));
///
/// // A search parameter that cannot be read is noted and replaced: every `go` searches and answers.
/// let parsed = parse_line("go depth ten")?.unwrap();
/// assert!(matches!(parsed.command, Command::Go(Go { depth: Some(1), .. })));
/// assert!(parse_line("go perft ten").is_err());
/// assert_eq!(parse_line("   ")?, None);
/// # Ok::<(), eldest_uci::ParseError>(())
/// ```
pub fn parse_line(line: &str) -> Result<Option<Parsed>, ParseError> {
    let tokens = tokenize(line);
    let Some(first) = tokens.first() else {
        return Ok(None);
    };
    let Some(at) = tokens.iter().position(|t| COMMANDS.contains(&t.text)) else {
        return Err(ParseError::UnknownCommand(first.text.to_string()));
    };
    let mut notes = Vec::new();
    if at > 0 {
        let skipped: Vec<&str> = tokens[..at].iter().map(|t| t.text).collect();
        notes.push(format!(
            "ignored unknown token(s) before the command: '{}'",
            echo(&skipped.join(" "))
        ));
    }
    let (name, args) = (tokens[at].text, &tokens[at + 1..]);
    // Commands without arguments run even with trailing tokens, which are reported and ignored.
    let mut no_args = |command: Command, context: &'static str| {
        if !args.is_empty() {
            let extra: Vec<&str> = args.iter().map(|t| t.text).collect();
            notes.push(format!(
                "{context}: ignored extra token(s) '{}'",
                echo(&extra.join(" "))
            ));
        }
        Ok::<Command, ParseError>(command)
    };
    let command = match name {
        "uci" => no_args(Command::Uci, "uci")?,
        "isready" => no_args(Command::IsReady, "isready")?,
        "ucinewgame" => no_args(Command::UciNewGame, "ucinewgame")?,
        "stop" => no_args(Command::Stop, "stop")?,
        "ponderhit" => no_args(Command::PonderHit, "ponderhit")?,
        "quit" => no_args(Command::Quit, "quit")?,
        "d" => no_args(Command::Display, "d")?,
        "eval" => no_args(Command::Eval, "eval")?,
        "register" => Command::Register,
        "debug" => parse_debug(args)?,
        "setoption" => parse_setoption(line, args)?,
        "position" => parse_position(args)?,
        "go" => Command::Go(parse_go(args, &mut notes)?),
        "bench" => parse_bench(args, &mut notes)?,
        "perft" => {
            // Shorthand: `perft N` is `go perft N`.
            let depth = args.first().ok_or(ParseError::Missing {
                context: "perft",
                what: "a depth",
            })?;
            no_args_after(&args[1..], "perft")?;
            Command::Go(Go {
                perft: Some(perft_depth("perft", depth.text)?),
                ..Go::default()
            })
        }
        _ => return Err(ParseError::UnknownCommand(name.to_string())),
    };
    Ok(Some(Parsed { command, notes }))
}

/// An error for the first of `rest`, if any: the command takes no (further) arguments.
fn no_args_after(rest: &[Token<'_>], context: &'static str) -> Result<(), ParseError> {
    match rest.first() {
        None => Ok(()),
        Some(token) => Err(ParseError::Unexpected {
            context,
            token: token.text.to_string(),
        }),
    }
}

fn parse_debug(args: &[Token<'_>]) -> Result<Command, ParseError> {
    let command = match args.first().map(|t| t.text) {
        Some("on") => Command::Debug(true),
        Some("off") => Command::Debug(false),
        Some(other) => {
            return Err(ParseError::Unexpected {
                context: "debug",
                token: other.to_string(),
            });
        }
        None => {
            return Err(ParseError::Missing {
                context: "debug",
                what: "'on' or 'off'",
            });
        }
    };
    match args.get(1) {
        Some(extra) => Err(ParseError::Unexpected {
            context: "debug",
            token: extra.text.to_string(),
        }),
        None => Ok(command),
    }
}

fn parse_setoption(line: &str, args: &[Token<'_>]) -> Result<Command, ParseError> {
    match args.first() {
        Some(t) if t.text == "name" => {}
        Some(t) => {
            return Err(ParseError::Unexpected {
                context: "setoption",
                token: t.text.to_string(),
            });
        }
        None => {
            return Err(ParseError::Missing {
                context: "setoption",
                what: "'name <option>'",
            });
        }
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|t| t.text == "value");
    let name_tokens = &rest[..value_at.unwrap_or(rest.len())];
    if name_tokens.is_empty() {
        return Err(ParseError::Missing {
            context: "setoption",
            what: "an option name",
        });
    }
    let name = name_tokens.iter().map(|t| t.text).collect::<Vec<_>>().join(" ");
    let value = value_at.map(|at| {
        let value_token = rest[at];
        line[value_token.start + value_token.text.len()..]
            .trim()
            .to_string()
    });
    Ok(Command::SetOption { name, value })
}

fn parse_position(args: &[Token<'_>]) -> Result<Command, ParseError> {
    let moves_at = args.iter().position(|t| t.text == "moves");
    let (setup, moves) = match moves_at {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (args, &args[args.len()..]),
    };
    let fen = match setup.first().map(|t| t.text) {
        Some("startpos") => {
            if let Some(extra) = setup.get(1) {
                return Err(ParseError::Unexpected {
                    context: "position startpos",
                    token: extra.text.to_string(),
                });
            }
            None
        }
        Some("fen") => {
            if setup.len() == 1 {
                return Err(ParseError::Missing {
                    context: "position fen",
                    what: "a FEN",
                });
            }
            Some(setup[1..].iter().map(|t| t.text).collect::<Vec<_>>().join(" "))
        }
        Some(other) => {
            return Err(ParseError::Unexpected {
                context: "position",
                token: other.to_string(),
            });
        }
        None => {
            return Err(ParseError::Missing {
                context: "position",
                what: "'startpos' or 'fen <fen>'",
            });
        }
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|t| t.text.to_string()).collect(),
    })
}

fn parse_bench(args: &[Token<'_>], notes: &mut Vec<String>) -> Result<Command, ParseError> {
    let depth = match args.first() {
        None => None,
        Some(token) => {
            let depth = count("bench", token.text, u64::from(MAX_DEPTH), notes)?;
            if depth == 0 {
                return Err(ParseError::OutOfRange {
                    context: "bench",
                    text: token.text.to_string(),
                    min: 1,
                    max: MAX_DEPTH.into(),
                });
            }
            Some(narrow(depth))
        }
    };
    if let Some(extra) = args.get(1) {
        return Err(ParseError::Unexpected {
            context: "bench",
            token: extra.text.to_string(),
        });
    }
    Ok(Command::Bench { depth })
}
