//! The commands a GUI sends, parsed from a line of text into a typed [`Command`].
//!
//! Parsing is purely syntactic: whether a FEN describes a legal position or a move is legal is decided when the
//! command runs, against the session's position. Following the UCI specification, unknown tokens in front of a
//! command are skipped (`joho debug on` switches debug mode on) and unknown `go` parameters are ignored; both
//! are reported as notes. Everything else that is wrong is a [`ParseError`], and the command is not run.

use crate::number::parse_integer;
use core::fmt;
use std::time::Duration;

/// The deepest `go depth` (and `bench` depth) accepted, in plies: one less than the search's ply cap. Larger
/// values are clamped to it.
pub const MAX_DEPTH: u32 = {
    assert!(eldest_search::MAX_PLY >= 2 && eldest_search::MAX_PLY <= u32::MAX as usize);
    eldest_search::MAX_PLY as u32 - 1
};

/// The longest `go mate` accepted, in moves; larger values are clamped to it.
pub const MAX_MATE: u32 = MAX_DEPTH / 2;

/// The deepest `go perft` accepted: depth 15 of the start position is already ~2·10^21 leaves.
pub const MAX_PERFT_DEPTH: u32 = 15;

/// The longest time (`wtime`, `movetime`, ...) accepted, about 34.8 years; larger values are clamped to it, so
/// that no deadline computed from it can overflow a clock.
pub const MAX_TIME: Duration = Duration::from_millis(1 << 40);

/// How many characters of a faulty token an error message repeats.
const ECHO_CHARS: usize = 40;

/// A command from the GUI.
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

/// The parameters of `go`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// `searchmoves`: restrict the root to these moves (UCI notation, not yet checked).
    pub search_moves: Vec<String>,
    /// `ponder`: search in the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `wtime`: White's remaining time.
    pub white_time: Option<Duration>,
    /// `btime`: Black's remaining time.
    pub black_time: Option<Duration>,
    /// `winc`: White's increment per move.
    pub white_increment: Option<Duration>,
    /// `binc`: Black's increment per move.
    pub black_increment: Option<Duration>,
    /// `movestogo`: moves to the next time control (`movestogo 0` is read as absent).
    pub moves_to_go: Option<u32>,
    /// `depth`: search this many plies.
    pub depth: Option<u32>,
    /// `nodes`: search this many nodes.
    pub nodes: Option<u64>,
    /// `mate`: search for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime`: search exactly this long.
    pub move_time: Option<Duration>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `perft`: count the leaves of the move tree to this depth instead of searching.
    pub perft: Option<u32>,
}

/// A parsed command with the notes the parser has for the GUI (skipped tokens, clamped numbers). Each note is
/// sent as an `info string` line before the command runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The command.
    pub command: Command,
    /// Human-readable remarks on what was skipped or adjusted.
    pub notes: Vec<String>,
}

/// Why a line is not a command that can run. The `Display` names the command, the parameter and the faulty
/// text (shortened to 40 characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// No token of the line is a command.
    UnknownCommand(String),
    /// A command lacks a required argument.
    Missing {
        /// The command or parameter that needs it, e.g. `go depth`.
        context: &'static str,
        /// What is missing, e.g. `a number`.
        what: &'static str,
    },
    /// A token that has no place where it stands.
    Unexpected {
        /// The command it appeared in.
        context: &'static str,
        /// The token.
        token: String,
    },
    /// A number was expected.
    NotANumber {
        /// The parameter, e.g. `go nodes`.
        context: &'static str,
        /// The text found instead.
        text: String,
    },
    /// A count that cannot be negative was negative.
    Negative {
        /// The parameter, e.g. `go depth`.
        context: &'static str,
        /// The text found.
        text: String,
    },
    /// A number outside the range the parameter accepts (for parameters that are not clamped).
    OutOfRange {
        /// The parameter, e.g. `go perft`.
        context: &'static str,
        /// The text found.
        text: String,
        /// The smallest accepted value.
        min: u64,
        /// The largest accepted value.
        max: u64,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownCommand(token) => write!(f, "unknown command '{}'", echo(token)),
            ParseError::Missing { context, what } => write!(f, "{context}: missing {what}"),
            ParseError::Unexpected { context, token } => {
                write!(f, "{context}: unexpected token '{}'", echo(token))
            }
            ParseError::NotANumber { context, text } => {
                write!(f, "{context}: '{}' is not an integer", echo(text))
            }
            ParseError::Negative { context, text } => {
                write!(f, "{context}: '{}' must not be negative", echo(text))
            }
            ParseError::OutOfRange {
                context,
                text,
                min,
                max,
            } => {
                write!(f, "{context}: '{}' is outside {min}..={max}", echo(text))
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// `text` cut to [`ECHO_CHARS`] characters, with its length appended when cut.
pub(crate) fn echo(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
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

/// The words that start a `go` parameter (and so end a `searchmoves` list).
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// A token and the byte offset where it starts in the line.
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    start: usize,
    text: &'a str,
}

fn tokenize(line: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (at, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                tokens.push(Token {
                    start: from,
                    text: &line[from..at],
                });
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    if let Some(from) = start {
        tokens.push(Token {
            start: from,
            text: &line[from..],
        });
    }
    tokens
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
/// assert!(parse_line("go depth ten").is_err());
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

fn parse_go(args: &[Token<'_>], notes: &mut Vec<String>) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i].text;
        i += 1;
        match keyword {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "searchmoves" => {
                let end = args[i..]
                    .iter()
                    .position(|t| GO_KEYWORDS.contains(&t.text))
                    .map_or(args.len(), |n| i + n);
                if end == i {
                    return Err(ParseError::Missing {
                        context: "go searchmoves",
                        what: "at least one move",
                    });
                }
                go.search_moves
                    .extend(args[i..end].iter().map(|t| t.text.to_string()));
                i = end;
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "movestogo" | "depth" | "nodes" | "mate"
            | "perft" => {
                let context = go_context(keyword);
                let text = args
                    .get(i)
                    .ok_or(ParseError::Missing {
                        context,
                        what: "a number",
                    })?
                    .text;
                i += 1;
                match keyword {
                    "wtime" => go.white_time = Some(time(context, text, notes)?),
                    "btime" => go.black_time = Some(time(context, text, notes)?),
                    "winc" => go.white_increment = Some(time(context, text, notes)?),
                    "binc" => go.black_increment = Some(time(context, text, notes)?),
                    "movetime" => go.move_time = Some(time(context, text, notes)?),
                    "movestogo" => {
                        go.moves_to_go =
                            Some(narrow(count(context, text, u32::MAX.into(), notes)?)).filter(|&n| n > 0)
                    }
                    "depth" => go.depth = Some(narrow(count(context, text, MAX_DEPTH.into(), notes)?)),
                    "nodes" => go.nodes = Some(count(context, text, u64::MAX, notes)?),
                    "mate" => go.mate = Some(narrow(count(context, text, MAX_MATE.into(), notes)?)),
                    _ => go.perft = Some(perft_depth(context, text)?),
                }
            }
            other => notes.push(format!("go: ignored unknown parameter '{}'", echo(other))),
        }
    }
    Ok(go)
}

/// The `&'static str` context of a `go` parameter, for messages.
fn go_context(keyword: &str) -> &'static str {
    match keyword {
        "wtime" => "go wtime",
        "btime" => "go btime",
        "winc" => "go winc",
        "binc" => "go binc",
        "movetime" => "go movetime",
        "movestogo" => "go movestogo",
        "depth" => "go depth",
        "nodes" => "go nodes",
        "mate" => "go mate",
        _ => "go perft",
    }
}

/// A time in milliseconds: negative values are clamped to 0 and huge ones to [`MAX_TIME`], each with a note.
fn time(context: &'static str, text: &str, notes: &mut Vec<String>) -> Result<Duration, ParseError> {
    let int = parse_integer(text).ok_or_else(|| ParseError::NotANumber {
        context,
        text: text.to_string(),
    })?;
    if int.negative {
        notes.push(format!("{context}: negative value '{}' read as 0", echo(text)));
        return Ok(Duration::ZERO);
    }
    let max = MAX_TIME.as_millis();
    if u128::from(int.magnitude) > max || int.saturated {
        notes.push(format!(
            "{context}: '{}' ms is too large, read as {max}",
            echo(text)
        ));
        return Ok(MAX_TIME);
    }
    Ok(Duration::from_millis(int.magnitude))
}

/// A non-negative count: negative values are errors, values above `max` are clamped to it with a note.
fn count(context: &'static str, text: &str, max: u64, notes: &mut Vec<String>) -> Result<u64, ParseError> {
    let int = parse_integer(text).ok_or_else(|| ParseError::NotANumber {
        context,
        text: text.to_string(),
    })?;
    if int.negative {
        return Err(ParseError::Negative {
            context,
            text: text.to_string(),
        });
    }
    if int.magnitude > max || int.saturated {
        notes.push(format!("{context}: '{}' is too large, read as {max}", echo(text)));
        return Ok(max);
    }
    Ok(int.magnitude)
}

/// A perft depth: 0 to [`MAX_PERFT_DEPTH`]; anything else is an error, since a clamped perft would still run
/// for ages.
fn perft_depth(context: &'static str, text: &str) -> Result<u32, ParseError> {
    let int = parse_integer(text).ok_or_else(|| ParseError::NotANumber {
        context,
        text: text.to_string(),
    })?;
    if int.negative {
        return Err(ParseError::Negative {
            context,
            text: text.to_string(),
        });
    }
    if int.magnitude > MAX_PERFT_DEPTH.into() {
        return Err(ParseError::OutOfRange {
            context,
            text: text.to_string(),
            min: 0,
            max: MAX_PERFT_DEPTH.into(),
        });
    }
    Ok(narrow(int.magnitude))
}

/// A count already clamped to a `u32` range.
fn narrow(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}
