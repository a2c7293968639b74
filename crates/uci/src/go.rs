//! The parameters of `go`, and the tolerant number parsing they need: negative clocks clamp to zero, huge
//! values saturate, and anything that is not an integer is an error.

use crate::error::{ParseError, echo};
use crate::number::{Integer, parse_integer};
use crate::token::Token;
use std::time::Duration;

/// The deepest `go depth` (and `bench` depth) accepted, in plies: one less than the search's ply cap. Larger
/// values are clamped to it.
///
/// # Examples
///
/// ```
/// use eldest_uci::{Command, Go, MAX_DEPTH, parse_line};
///
/// let parsed = parse_line("go depth 100000")?.unwrap();
/// // Too deep is clamped rather than refused (every `go` must search and answer), and the GUI is told.
/// assert_eq!(parsed.command, Command::Go(Go { depth: Some(MAX_DEPTH), ..Go::default() }));
/// assert_eq!(parsed.notes, [format!("go depth: '100000' is too large, read as {MAX_DEPTH}")]);
/// # Ok::<(), eldest_uci::ParseError>(())
/// ```
pub const MAX_DEPTH: u32 = {
    assert!(eldest_search::MAX_PLY >= 2 && eldest_search::MAX_PLY <= u32::MAX as usize);
    eldest_search::MAX_PLY as u32 - 1
};

/// The longest `go mate` accepted, in moves; larger values are clamped to it.
///
/// # Examples
///
/// ```
/// use eldest_uci::{Command, Go, MAX_DEPTH, MAX_MATE, parse_line};
///
/// let parsed = parse_line("go mate 100000")?.unwrap();
/// assert_eq!(parsed.command, Command::Go(Go { mate: Some(MAX_MATE), ..Go::default() }));
/// // A mate in n moves is 2n - 1 plies deep: the longest accepted still fits the deepest search.
/// assert!(2 * MAX_MATE - 1 <= MAX_DEPTH);
/// # Ok::<(), eldest_uci::ParseError>(())
/// ```
pub const MAX_MATE: u32 = MAX_DEPTH / 2;

/// The deepest `go perft` accepted: depth 15 of the start position is already ~2·10^21 leaves.
///
/// # Examples
///
/// ```
/// use eldest_uci::{MAX_PERFT_DEPTH, ParseError, parse_line};
///
/// assert!(parse_line(&format!("go perft {MAX_PERFT_DEPTH}")).is_ok());
/// // Refused rather than clamped: a clamped perft would still run for ages.
/// let error = parse_line("go perft 16").unwrap_err();
/// let max = u64::from(MAX_PERFT_DEPTH);
/// assert_eq!(error, ParseError::OutOfRange { context: "go perft", text: "16".into(), min: 0, max });
/// ```
pub const MAX_PERFT_DEPTH: u32 = 15;

/// The longest time (`wtime`, `movetime`, ...) accepted, about 34.8 years; larger values are clamped to it, so
/// that no deadline computed from it can overflow a clock.
///
/// # Examples
///
/// ```
/// use eldest_uci::{Command, MAX_TIME, parse_line};
///
/// let parsed = parse_line("go wtime 99999999999999999 btime 1000")?.unwrap();
/// let Command::Go(go) = parsed.command else { unreachable!() };
/// // Clamped, so that no deadline computed from the clock can overflow.
/// assert_eq!(go.white_time, Some(MAX_TIME));
/// assert_eq!(parsed.notes.len(), 1);
/// # Ok::<(), eldest_uci::ParseError>(())
/// ```
pub const MAX_TIME: Duration = Duration::from_millis(1 << 40);

/// The parameters of `go`.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use eldest_uci::{Command, Go, parse_line};
///
/// let parsed = parse_line("go wtime 60000 btime 55000 movestogo 20")?.unwrap();
/// let expected = Go {
///     white_time: Some(Duration::from_secs(60)),
///     black_time: Some(Duration::from_secs(55)),
///     moves_to_go: Some(20),
///     ..Go::default()
/// };
/// assert_eq!(parsed.command, Command::Go(expected));
/// // A bare `go` sets no limit at all: the search runs until `stop`.
/// assert_eq!(parse_line("go")?.unwrap().command, Command::Go(Go::default()));
/// # Ok::<(), eldest_uci::ParseError>(())
/// ```
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

pub(crate) fn parse_go(args: &[Token<'_>], notes: &mut Vec<String>) -> Result<Go, ParseError> {
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
                    notes.push(
                        "go searchmoves: missing at least one move; every legal move searched".to_string(),
                    );
                }
                go.search_moves
                    .extend(args[i..end].iter().map(|t| t.text.to_string()));
                i = end;
            }
            "perft" => {
                let text = args
                    .get(i)
                    .ok_or(ParseError::Missing {
                        context: "go perft",
                        what: "a number",
                    })?
                    .text;
                i += 1;
                go.perft = Some(perft_depth("go perft", text)?);
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "movestogo" | "depth" | "nodes" | "mate" => {
                // A search parameter never stops `go` from searching: a value that cannot be read is reported and
                // replaced by the one that ends the search soonest (docs/uci.md), so every `go` gets its bestmove.
                let context = go_context(keyword);
                let text = args.get(i).map(|t| t.text).filter(|t| !GO_KEYWORDS.contains(t));
                let parsed = match text {
                    Some(text) => {
                        i += 1;
                        set_go_value(&mut go, keyword, context, text, notes)
                    }
                    None => Err(ParseError::Missing {
                        context,
                        what: "a number",
                    }),
                };
                if let Err(error) = parsed {
                    let fallback = set_fallback_go_value(&mut go, keyword);
                    notes.push(format!("{error}; {fallback}"));
                }
            }
            other => notes.push(format!("go: ignored unknown parameter '{}'", echo(other))),
        }
    }
    Ok(go)
}

/// Sets the search parameter `keyword` of `go` from `text`.
fn set_go_value(
    go: &mut Go,
    keyword: &str,
    context: &'static str,
    text: &str,
    notes: &mut Vec<String>,
) -> Result<(), ParseError> {
    match keyword {
        "wtime" => go.white_time = Some(time(context, text, notes)?),
        "btime" => go.black_time = Some(time(context, text, notes)?),
        "winc" => go.white_increment = Some(time(context, text, notes)?),
        "binc" => go.black_increment = Some(time(context, text, notes)?),
        "movetime" => go.move_time = Some(time(context, text, notes)?),
        "movestogo" => {
            go.moves_to_go = Some(narrow(count(context, text, u32::MAX.into(), notes)?)).filter(|&n| n > 0)
        }
        "depth" => go.depth = Some(narrow(count(context, text, MAX_DEPTH.into(), notes)?)),
        "nodes" => go.nodes = Some(count(context, text, u64::MAX, notes)?),
        _ => go.mate = Some(narrow(count(context, text, MAX_MATE.into(), notes)?)),
    }
    Ok(())
}

/// What a search parameter whose value cannot be read becomes: a time is 0 and a depth or node count 1, the
/// values that end the search soonest; `movestogo` and `mate` are ignored. Returns the words for the note.
fn set_fallback_go_value(go: &mut Go, keyword: &str) -> &'static str {
    match keyword {
        "wtime" => go.white_time = Some(Duration::ZERO),
        "btime" => go.black_time = Some(Duration::ZERO),
        "winc" => go.white_increment = Some(Duration::ZERO),
        "binc" => go.black_increment = Some(Duration::ZERO),
        "movetime" => go.move_time = Some(Duration::ZERO),
        "depth" => go.depth = Some(1),
        "nodes" => go.nodes = Some(1),
        _ => return "ignored",
    }
    match keyword {
        "depth" | "nodes" => "read as 1",
        _ => "read as 0",
    }
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

/// `text` as an integer that must not be negative: a typed error naming `context` otherwise.
fn non_negative(context: &'static str, text: &str) -> Result<Integer, ParseError> {
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
    Ok(int)
}

/// A non-negative count: negative values are errors, values above `max` are clamped to it with a note.
pub(crate) fn count(
    context: &'static str,
    text: &str,
    max: u64,
    notes: &mut Vec<String>,
) -> Result<u64, ParseError> {
    let int = non_negative(context, text)?;
    if int.magnitude > max || int.saturated {
        notes.push(format!("{context}: '{}' is too large, read as {max}", echo(text)));
        return Ok(max);
    }
    Ok(int.magnitude)
}

/// A perft depth: 0 to [`MAX_PERFT_DEPTH`]; anything else is an error, since a clamped perft would still run
/// for ages.
pub(crate) fn perft_depth(context: &'static str, text: &str) -> Result<u32, ParseError> {
    let int = non_negative(context, text)?;
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
pub(crate) fn narrow(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}
