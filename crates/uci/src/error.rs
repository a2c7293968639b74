//! [`ParseError`]: why a line is not a command that can run.

use core::fmt;

/// How many characters of a faulty token an error message repeats.
const ECHO_CHARS: usize = 40;

/// Why a line is not a command that can run. The `Display` names the command, the parameter and the faulty
/// text (shortened to 40 characters).
///
/// # Examples
///
/// ```
/// use eldest_uci::{ParseError, parse_line};
///
/// assert_eq!(parse_line("castle"), Err(ParseError::UnknownCommand("castle".into())));
/// let error = parse_line("go perft 99").unwrap_err();
/// assert_eq!(error, ParseError::OutOfRange { context: "go perft", text: "99".into(), min: 0, max: 15 });
/// // The message names the parameter and the faulty text, for the GUI's `info string`.
/// assert_eq!(error.to_string(), "go perft: '99' is outside 0..=15");
/// ```
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
