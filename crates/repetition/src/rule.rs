//! [`RepetitionRule`]: which returns to a game position the search scores as draws.

use std::fmt;
use std::str::FromStr;

/// How the search treats a position that repeats one of the game before the root. Repetitions inside the
/// search path are draws at once under both rules (rule 1 of the [crate docs](crate)).
///
/// # Examples
///
/// ```
/// use eldest_repetition::RepetitionRule;
///
/// assert_eq!(RepetitionRule::default(), RepetitionRule::Stockfish);
/// // Read without regard to case, as a GUI may send an option's value.
/// assert_eq!("MicroMax".parse(), Ok(RepetitionRule::MicroMax));
/// assert_eq!(RepetitionRule::MicroMax.to_string(), "micromax");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// Stockfish's rule: a twofold inside the search tree, a threefold across the game/search boundary. Only
    /// repetitions the opponent cannot avoid — or a real threefold claim — are scored as draws.
    #[default]
    Stockfish,
    /// micro-Max's rule (seed 004): any return to a position of the game before the root is a draw. Eldest can
    /// also realise it in the transposition table by pinning
    /// [`GameHistory::pinned_keys`](crate::GameHistory::pinned_keys) as exact draws of maximal depth; the
    /// verdicts are the same.
    MicroMax,
}

impl RepetitionRule {
    /// Every rule, in declaration order.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::RepetitionRule;
    ///
    /// // Every rule survives a round trip through its name, as a UCI combo option needs.
    /// for rule in RepetitionRule::ALL {
    ///     assert_eq!(rule.name().parse(), Ok(rule));
    /// }
    /// assert_eq!(RepetitionRule::ALL.len(), 2);
    /// ```
    pub const ALL: [Self; 2] = [Self::Stockfish, Self::MicroMax];

    /// The name used by [`Display`](fmt::Display) and [`FromStr`] (and so by a UCI option).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_repetition::RepetitionRule;
    ///
    /// // A `const fn`, so that an option table can list the names at compile time.
    /// const DEFAULT_NAME: &str = RepetitionRule::Stockfish.name();
    /// assert_eq!(DEFAULT_NAME, "stockfish");
    /// assert_eq!(RepetitionRule::MicroMax.name(), RepetitionRule::MicroMax.to_string());
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Self::Stockfish => "stockfish",
            Self::MicroMax => "micromax",
        }
    }
}

impl fmt::Display for RepetitionRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`RepetitionRule`] from a name that is not one of [`RepetitionRule::name`]'s.
///
/// # Examples
///
/// ```
/// use eldest_repetition::{ParseRepetitionRuleError, RepetitionRule};
///
/// let error = "threefold".parse::<RepetitionRule>().unwrap_err();
/// assert_eq!(error, ParseRepetitionRuleError { text: "threefold".to_string() });
/// // The message lists the accepted names, for the `info string` a GUI shows.
/// assert!(error.to_string().contains(r#"expected "stockfish" or "micromax""#));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRepetitionRuleError {
    /// The text that was not recognised.
    pub text: String,
}

impl fmt::Display for ParseRepetitionRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown repetition rule {:?} (expected \"stockfish\" or \"micromax\")",
            self.text
        )
    }
}

impl std::error::Error for ParseRepetitionRuleError {}

impl FromStr for RepetitionRule {
    type Err = ParseRepetitionRuleError;

    /// Case-insensitive, as UCI option values are.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|rule| rule.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| ParseRepetitionRuleError {
                text: text.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_round_trips() {
        for rule in RepetitionRule::ALL {
            assert_eq!(rule.to_string().parse::<RepetitionRule>(), Ok(rule));
        }
    }

    #[test]
    fn parsing_ignores_case_and_rejects_unknown_names() {
        assert_eq!("MicroMax".parse(), Ok(RepetitionRule::MicroMax));
        let error = "threefold".parse::<RepetitionRule>().unwrap_err();
        assert_eq!(error.text, "threefold");
        assert!(error.to_string().contains("threefold"));
    }

    #[test]
    fn stockfish_is_the_default() {
        assert_eq!(RepetitionRule::default(), RepetitionRule::Stockfish);
    }
}
