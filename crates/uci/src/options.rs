//! The UCI options: one table that `uci` prints and `setoption` validates against.
//!
//! Each [`UciOption`] carries its name, its type with default and range, and a function that turns a valid
//! value into a typed [`Setting`] for the session to apply. Adding an option is one entry in [`OPTIONS`] (plus
//! its [`Setting`] variant and the session's handling of it); the parallel algorithms' knobs are not listed here
//! but made from the search crate's knob table ([`options`] lists both). Names are matched case-insensitively, as the
//! protocol asks. An invalid value is refused with an [`OptionError`] and leaves the option unchanged.

use core::fmt;
use std::time::Duration;

use crate::error::echo;

/// The type of an option, with its default and range, as `uci` declares it.
///
/// # Examples
///
/// ```
/// use eldest_uci::{MAX_THREADS, OptionKind, find_option};
///
/// let threads = find_option("Threads").unwrap();
/// assert_eq!(threads.kind, OptionKind::Spin { default: 1, min: 1, max: MAX_THREADS });
/// // The kind is what `uci` declares to the GUI.
/// let declared = format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}");
/// assert_eq!(threads.declaration(), declared);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// A boolean (`type check`).
    Check {
        /// The value at start-up.
        default: bool,
    },
    /// An integer in `min..=max` (`type spin`).
    Spin {
        /// The value at start-up.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// One of a fixed set of words (`type combo`).
    Combo {
        /// The value at start-up.
        default: &'static str,
        /// The accepted values.
        values: &'static [&'static str],
    },
    /// An action without a value (`type button`).
    Button,
    /// Free text (`type string`); empty is written `<empty>`.
    String {
        /// The value at start-up.
        default: &'static str,
    },
}

/// A validated option value.
///
/// # Examples
///
/// ```
/// use eldest_uci::{OptionValue, find_option};
///
/// // Checks are read without regard to case, as GUIs differ.
/// let ponder = find_option("Ponder").unwrap();
/// assert_eq!(ponder.parse_value(Some("TRUE")), Ok(OptionValue::Check(true)));
/// // `<empty>` is how the protocol writes an empty string.
/// let log = find_option("Debug Log File").unwrap();
/// assert_eq!(log.parse_value(Some("<empty>")), Ok(OptionValue::String(String::new())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    /// For [`OptionKind::Check`].
    Check(bool),
    /// For [`OptionKind::Spin`], within the range.
    Spin(i64),
    /// For [`OptionKind::Combo`]: one of the values, spelled as declared.
    Combo(&'static str),
    /// For [`OptionKind::Button`].
    Button,
    /// For [`OptionKind::String`]; `<empty>` is read as the empty string.
    String(String),
}

/// What a `setoption` asks the session to do, typed.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use eldest_uci::{Setting, parse_setoption};
///
/// let overhead = parse_setoption("Move Overhead", Some("50"));
/// assert_eq!(overhead, Ok(Setting::MoveOverhead(Duration::from_millis(50))));
/// assert_eq!(parse_setoption("UCI_Chess960", Some("true")), Ok(Setting::Chess960(true)));
/// // A button has no value: pressing it is the whole request.
/// assert_eq!(parse_setoption("Clear Hash", None), Ok(Setting::ClearHash));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// `Hash`: resize the transposition table to this many MiB (which clears it).
    Hash(usize),
    /// `Threads`: search with this many threads.
    Threads(usize),
    /// `Clear Hash`: empty the transposition table.
    ClearHash,
    /// `Ponder`: the GUI may send `go ponder` (informative: pondering works either way).
    Ponder(bool),
    /// `MultiPV`: report this many principal variations.
    MultiPv(usize),
    /// `UCI_Chess960`: write castling as king takes rook.
    Chess960(bool),
    /// `Move Overhead`: time kept back per move for communication lag.
    MoveOverhead(Duration),
    /// `Debug Log File`: send diagnostics to this file (empty: no file).
    DebugLogFile(String),
    /// `ParallelAlgorithm`: which algorithm runs the search threads.
    ParallelAlgorithm(eldest_search::ParallelAlgorithm),
    /// `Evaluation`: the network or PeSTO's tables.
    Evaluation(eldest_search::EvaluationKind),
    /// `EvalFile`: the net file the network is read from (empty or the embedded net's name: the embedded net).
    EvalFile(String),
    /// A parallel algorithm's research knob (`MinSplitDepth`, `DeferDepth`, …): one row of
    /// [`eldest_search::KNOBS`], from which these options are made.
    Knob {
        /// The knob.
        knob: &'static eldest_search::Knob,
        /// Its new value, already range-checked.
        value: eldest_search::KnobValue,
    },
    /// A search constant (`RfpMargin`, `LmrDivisor`, …), one row of [`eldest_search::TUNABLES`]: offered only by
    /// builds with the `tune` feature, for SPSA tuners.
    Tunable {
        /// The constant.
        tunable: &'static eldest_search::Tunable,
        /// Its new value, already range-checked.
        value: i32,
    },
}

/// One option: its name, type, and how a valid value becomes a [`Setting`].
///
/// # Examples
///
/// ```
/// use eldest_uci::{OptionKind, find_option};
///
/// let multi_pv = find_option("multipv").unwrap();
/// // The table's spelling, whatever the GUI's.
/// assert_eq!(multi_pv.name, "MultiPV");
/// assert!(matches!(multi_pv.kind, OptionKind::Spin { default: 1, min: 1, .. }));
/// assert!(multi_pv.parse_value(Some("0")).is_err());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct UciOption {
    /// The name, as `uci` prints it.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// What a value valid for `kind` asks for.
    setting: Apply,
}

/// How a valid value becomes a [`Setting`].
#[derive(Debug, Clone, Copy)]
enum Apply {
    /// An option of the engine's own.
    Fixed(fn(OptionValue) -> Setting),
    /// A parallel-search knob.
    Knob(&'static eldest_search::Knob),
    /// A search constant (builds with the `tune` feature).
    #[cfg_attr(not(feature = "tune"), allow(dead_code))]
    Tunable(&'static eldest_search::Tunable),
}

/// The values of `ParallelAlgorithm`: the search crate's names, in its order.
const ALGORITHM_NAMES: [&str; eldest_search::ParallelAlgorithm::ALL.len()] = {
    let mut names = [""; eldest_search::ParallelAlgorithm::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = eldest_search::ParallelAlgorithm::ALL[i].name();
        i += 1;
    }
    names
};

/// The default `Hash` size in MiB.
///
/// # Examples
///
/// ```
/// use eldest_uci::{DEFAULT_HASH_MIB, OptionKind, find_option};
///
/// // What `uci` declares as Hash's default is the size a new session allocates.
/// let hash = find_option("Hash").unwrap();
/// assert!(matches!(hash.kind, OptionKind::Spin { default, .. } if default == DEFAULT_HASH_MIB as i64));
/// ```
pub const DEFAULT_HASH_MIB: usize = 16;

/// The most search threads `Threads` accepts.
///
/// # Examples
///
/// ```
/// use eldest_uci::{MAX_THREADS, Setting, parse_setoption};
///
/// let most = parse_setoption("Threads", Some(&MAX_THREADS.to_string()));
/// assert_eq!(most, Ok(Setting::Threads(MAX_THREADS as usize)));
/// // One more is refused, not clamped: the option keeps its value.
/// assert!(parse_setoption("Threads", Some(&(MAX_THREADS + 1).to_string())).is_err());
/// ```
pub const MAX_THREADS: i64 = 256;

/// The most principal variations `MultiPV` accepts.
///
/// # Examples
///
/// ```
/// use eldest_uci::{MAX_MULTI_PV, Setting, parse_setoption};
///
/// let most = parse_setoption("MultiPV", Some(&MAX_MULTI_PV.to_string()));
/// assert_eq!(most, Ok(Setting::MultiPv(MAX_MULTI_PV as usize)));
/// // One more is refused, not clamped: the option keeps its value.
/// assert!(parse_setoption("MultiPV", Some(&(MAX_MULTI_PV + 1).to_string())).is_err());
/// ```
pub const MAX_MULTI_PV: i64 = 256;

/// Every option, in the order `uci` lists them.
///
/// # Examples
///
/// ```
/// use eldest_uci::{OPTIONS, options};
///
/// assert_eq!(OPTIONS[0].name, "Hash");
/// // The parallel-search knobs are made from the search crate's table, not listed here…
/// assert!(OPTIONS.iter().all(|option| option.name != "MinSplitDepth"));
/// // …but `options` lists both, the engine's own first.
/// assert!(options().take(OPTIONS.len()).map(|o| o.name).eq(OPTIONS.iter().map(|o| o.name)));
/// ```
pub static OPTIONS: &[UciOption] = &[
    UciOption {
        name: "Hash",
        kind: OptionKind::Spin {
            default: DEFAULT_HASH_MIB as i64,
            min: 1,
            max: eldest_tt::MAX_MIB as i64,
        },
        setting: Apply::Fixed(|v| Setting::Hash(spin_usize(&v))),
    },
    UciOption {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
        setting: Apply::Fixed(|v| Setting::Threads(spin_usize(&v))),
    },
    UciOption {
        name: "Clear Hash",
        kind: OptionKind::Button,
        setting: Apply::Fixed(|_| Setting::ClearHash),
    },
    UciOption {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
        setting: Apply::Fixed(|v| Setting::Ponder(v == OptionValue::Check(true))),
    },
    UciOption {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTI_PV,
        },
        setting: Apply::Fixed(|v| Setting::MultiPv(spin_usize(&v))),
    },
    UciOption {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
        setting: Apply::Fixed(|v| Setting::Chess960(v == OptionValue::Check(true))),
    },
    UciOption {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
        setting: Apply::Fixed(|v| {
            Setting::MoveOverhead(Duration::from_millis(u64::try_from(spin(&v)).unwrap_or(0)))
        }),
    },
    UciOption {
        name: "Debug Log File",
        kind: OptionKind::String { default: "" },
        setting: Apply::Fixed(|v| match v {
            OptionValue::String(path) => Setting::DebugLogFile(path),
            _ => Setting::DebugLogFile(String::new()),
        }),
    },
    UciOption {
        name: "ParallelAlgorithm",
        kind: OptionKind::Combo {
            default: "lazy",
            values: &ALGORITHM_NAMES,
        },
        setting: Apply::Fixed(|v| match v {
            OptionValue::Combo(name) => Setting::ParallelAlgorithm(name.parse().unwrap_or_default()),
            _ => Setting::ParallelAlgorithm(eldest_search::ParallelAlgorithm::default()),
        }),
    },
    UciOption {
        name: "Evaluation",
        kind: OptionKind::Combo {
            default: eldest_search::EvaluationKind::Nnue.name(),
            values: &eldest_search::EvaluationKind::NAMES,
        },
        setting: Apply::Fixed(|v| match v {
            OptionValue::Combo(name) => Setting::Evaluation(name.parse().unwrap_or_default()),
            _ => Setting::Evaluation(eldest_search::EvaluationKind::default()),
        }),
    },
    UciOption {
        name: "EvalFile",
        kind: OptionKind::String {
            default: eldest_search::nnue::EMBEDDED_NAME,
        },
        setting: Apply::Fixed(|v| match v {
            OptionValue::String(path) => Setting::EvalFile(path),
            _ => Setting::EvalFile(String::new()),
        }),
    },
];

const _: () = assert!(
    eldest_tt::MAX_MIB <= i64::MAX as usize,
    "the Hash range fits a spin value"
);

fn spin(value: &OptionValue) -> i64 {
    match value {
        OptionValue::Spin(n) => *n,
        _ => 0,
    }
}

/// A spin value of an option whose minimum is not negative.
fn spin_usize(value: &OptionValue) -> usize {
    usize::try_from(spin(value)).unwrap_or(usize::MAX)
}

/// Why a `setoption` was refused.
///
/// # Examples
///
/// ```
/// use eldest_uci::{OptionError, parse_setoption};
///
/// assert_eq!(parse_setoption("Contempt", Some("10")), Err(OptionError::Unknown("Contempt".into())));
/// assert_eq!(parse_setoption("Ponder", None), Err(OptionError::MissingValue("Ponder")));
/// let refused = parse_setoption("Hash", Some("0")).unwrap_err();
/// assert!(matches!(refused, OptionError::Invalid { name: "Hash", .. }));
/// // The message, sent as an `info string`, says what is accepted and that nothing changed.
/// assert!(refused.to_string().ends_with("expected an integer from 1 to 33554432; unchanged"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// A check, spin or combo option was set without `value`.
    MissingValue(&'static str),
    /// The value has the wrong form for the option's type.
    Invalid {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// What the option accepts.
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "setoption: no option named '{}'", echo(name)),
            OptionError::MissingValue(name) => write!(f, "setoption {name}: missing 'value <value>'"),
            OptionError::Invalid {
                name,
                value,
                expected,
            } => {
                write!(
                    f,
                    "setoption {name}: invalid value '{}', expected {expected}; unchanged",
                    echo(value)
                )
            }
        }
    }
}

impl std::error::Error for OptionError {}

impl UciOption {
    /// The `option name ... type ...` line that `uci` prints.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_uci::find_option;
    ///
    /// let ponder = find_option("Ponder").unwrap();
    /// assert_eq!(ponder.declaration(), "option name Ponder type check default false");
    /// // An empty default is written `<empty>`, as the protocol asks.
    /// let log = find_option("Debug Log File").unwrap();
    /// assert_eq!(log.declaration(), "option name Debug Log File type string default <empty>");
    /// ```
    pub fn declaration(&self) -> String {
        let name = self.name;
        match self.kind {
            OptionKind::Check { default } => format!("option name {name} type check default {default}"),
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, values } => {
                let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::String { default } => {
                let default = if default.is_empty() { "<empty>" } else { default };
                format!("option name {name} type string default {default}")
            }
        }
    }

    /// Checks `value` (the text after `value`, if any) against the option's type.
    ///
    /// # Errors
    /// [`OptionError::MissingValue`] or [`OptionError::Invalid`].
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_uci::{OptionError, OptionValue, find_option};
    ///
    /// let hash = find_option("Hash").unwrap();
    /// assert_eq!(hash.parse_value(Some("64")), Ok(OptionValue::Spin(64)));
    /// // Units are not understood: the value must be a bare integer in range.
    /// assert!(matches!(hash.parse_value(Some("64MB")), Err(OptionError::Invalid { .. })));
    /// assert_eq!(hash.parse_value(None), Err(OptionError::MissingValue("Hash")));
    /// ```
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let name = self.name;
        let invalid = |value: &str, expected: String| OptionError::Invalid {
            name,
            value: value.to_string(),
            expected,
        };
        match self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::String { .. } => {
                let text = value.unwrap_or("");
                Ok(OptionValue::String(if text == "<empty>" {
                    String::new()
                } else {
                    text.to_string()
                }))
            }
            OptionKind::Check { .. } => {
                let text = value.ok_or(OptionError::MissingValue(name))?;
                match text.to_ascii_lowercase().as_str() {
                    "true" => Ok(OptionValue::Check(true)),
                    "false" => Ok(OptionValue::Check(false)),
                    _ => Err(invalid(text, "'true' or 'false'".to_string())),
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let text = value.ok_or(OptionError::MissingValue(name))?;
                let expected = || format!("an integer from {min} to {max}");
                match crate::number::parse_integer(text) {
                    Some(int) if !int.saturated => {
                        let magnitude =
                            i64::try_from(int.magnitude).map_err(|_| invalid(text, expected()))?;
                        let n = if int.negative { -magnitude } else { magnitude };
                        if (min..=max).contains(&n) {
                            Ok(OptionValue::Spin(n))
                        } else {
                            Err(invalid(text, expected()))
                        }
                    }
                    _ => Err(invalid(text, expected())),
                }
            }
            OptionKind::Combo { values, .. } => {
                let text = value.ok_or(OptionError::MissingValue(name))?;
                values
                    .iter()
                    .find(|v| v.eq_ignore_ascii_case(text))
                    .map(|&v| OptionValue::Combo(v))
                    .ok_or_else(|| invalid(text, format!("one of {}", values.join(", "))))
            }
        }
    }
}

/// Every option in the order `uci` lists them: the engine's own ([`OPTIONS`]), then one per parallel-search knob
/// of [`eldest_search::KNOBS`] (so a knob's name, range and default are written once, in the search crate), then,
/// in builds with the `tune` feature, one spin per search constant of [`eldest_search::TUNABLES`].
///
/// ```
/// let names: Vec<&str> = eldest_uci::options().map(|o| o.name).collect();
/// assert!(names.contains(&"Hash") && names.contains(&"MinSplitDepth") && names.contains(&"DeferDepth"));
/// ```
pub fn options() -> impl Iterator<Item = UciOption> {
    OPTIONS
        .iter()
        .copied()
        .chain(eldest_search::KNOBS.iter().map(knob_option))
        .chain(tunable_options())
}

/// The spin options of the search constants: only in builds with the `tune` feature, so that a player's GUI
/// never shows them.
fn tunable_options() -> impl Iterator<Item = UciOption> {
    let tunables: &'static [eldest_search::Tunable] = if cfg!(feature = "tune") {
        eldest_search::TUNABLES
    } else {
        &[]
    };
    tunables.iter().map(|tunable| UciOption {
        name: tunable.name,
        kind: OptionKind::Spin {
            default: i64::from(tunable.default_value()),
            min: i64::from(tunable.min),
            max: i64::from(tunable.max),
        },
        setting: Apply::Tunable(tunable),
    })
}

/// The UCI option of a parallel-search knob.
fn knob_option(knob: &'static eldest_search::Knob) -> UciOption {
    use eldest_search::{KnobKind, KnobValue};
    let kind = match (knob.kind, knob.default_value()) {
        (KnobKind::Spin { min, max }, KnobValue::Int(default)) => OptionKind::Spin { default, min, max },
        (KnobKind::Check, KnobValue::Bool(default)) => OptionKind::Check { default },
        (KnobKind::Combo(values), KnobValue::Word(default)) => OptionKind::Combo { default, values },
        (kind, default) => unreachable!("knob {} declares {kind:?} but defaults to {default:?}", knob.name),
    };
    UciOption {
        name: knob.name,
        kind,
        setting: Apply::Knob(knob),
    }
}

/// The option called `name`, compared case-insensitively.
///
/// # Examples
///
/// ```
/// use eldest_uci::find_option;
///
/// // GUIs differ in case, so names match without it, as the protocol says.
/// assert_eq!(find_option("clear hash").map(|option| option.name), Some("Clear Hash"));
/// // The search crate's knobs are found too.
/// assert!(find_option("MinSplitDepth").is_some());
/// assert!(find_option("Contempt").is_none());
/// ```
pub fn find_option(name: &str) -> Option<UciOption> {
    options().find(|option| option.name.eq_ignore_ascii_case(name))
}

/// Validates a `setoption` against [`options`] and returns what it asks for.
///
/// # Errors
/// An [`OptionError`] for an unknown option or an invalid value.
///
/// # Examples
/// ```
/// use eldest_uci::{parse_setoption, Setting};
/// assert_eq!(parse_setoption("hash", Some("64")), Ok(Setting::Hash(64)));
/// assert_eq!(parse_setoption("Clear Hash", None), Ok(Setting::ClearHash));
/// assert!(parse_setoption("Threads", Some("0")).is_err());
/// assert!(parse_setoption("Contempt", Some("10")).is_err());
/// ```
pub fn parse_setoption(name: &str, value: Option<&str>) -> Result<Setting, OptionError> {
    let option = find_option(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let value = option.parse_value(value)?;
    Ok(match option.setting {
        Apply::Fixed(setting) => setting(value),
        Apply::Knob(knob) => Setting::Knob {
            knob,
            value: match value {
                OptionValue::Spin(n) => eldest_search::KnobValue::Int(n),
                OptionValue::Check(b) => eldest_search::KnobValue::Bool(b),
                OptionValue::Combo(word) => eldest_search::KnobValue::Word(word),
                OptionValue::Button | OptionValue::String(_) => {
                    unreachable!("knobs are spins, checks and combos")
                }
            },
        },
        Apply::Tunable(tunable) => match value {
            OptionValue::Spin(n) => Setting::Tunable {
                tunable,
                value: i32::try_from(n).expect("a tunable's range fits an i32"),
            },
            other => unreachable!("tunables are spins, got {other:?}"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_match_the_protocol() {
        // The tunables of `tune` builds follow these; their own test covers them.
        let lines: Vec<String> = options()
            .take(OPTIONS.len() + eldest_search::KNOBS.len())
            .map(|o| o.declaration())
            .collect();
        let eval_file = format!(
            "option name EvalFile type string default {}",
            eldest_search::nnue::EMBEDDED_NAME
        );
        assert_eq!(
            lines,
            [
                "option name Hash type spin default 16 min 1 max 33554432",
                "option name Threads type spin default 1 min 1 max 256",
                "option name Clear Hash type button",
                "option name Ponder type check default false",
                "option name MultiPV type spin default 1 min 1 max 256",
                "option name UCI_Chess960 type check default false",
                "option name Move Overhead type spin default 30 min 0 max 5000",
                "option name Debug Log File type string default <empty>",
                "option name ParallelAlgorithm type combo default lazy var lazy var ybwc var abdada var simplified-abdada",
                "option name Evaluation type combo default nnue var nnue var pesto",
                eval_file.as_str(),
                "option name MinSplitDepth type spin default 0 min 0 max 64",
                "option name SplitOnlyWhenIdle type check default true",
                "option name EagerSplitDepth type spin default 0 min 0 max 64",
                "option name SplitExpectedCuts type check default true",
                "option name LateSplits type check default true",
                "option name WindowUpdates type combo default auto var auto var true var false",
                "option name ExpectedCutSons type spin default 1 min 1 max 16",
                "option name SplitGroup type spin default 256 min 2 max 256",
                "option name HelperHistory type combo default shared var shared var own var copy",
                "option name IdleSpin type check default true",
                "option name SplitKillers type check default false",
                "option name WaitForResearch type check default false",
                "option name AbdadaMinDepth type spin default 1 min 1 max 64",
                "option name EnterBeforePruning type check default false",
                "option name NprocTable type check default false",
                "option name NprocMarks type check default false",
                "option name DeferDepth type spin default 3 min 1 max 64",
                "option name CsTableRows type spin default 32768 min 1 max 4194304",
                "option name CsWays type spin default 4 min 1 max 64",
                "option name CsRowsByNode type check default true",
                "option name CsTable type combo default array var array var dashmap",
                "option name CutoffChecks type check default false",
                "option name AncestorChecks type check default true",
                "option name AbdadaPvAncestorChecks type check default true",
                "option name SimplifiedAbdadaPvAncestorChecks type check default true",
                "option name PvAncestorMinDepth type spin default 4 min 4 max 64",
                "option name SkipCompletedIterations type check default true",
                "option name SharedWindows type check default false",
                "option name SharedAlpha type check default false",
                "option name BrothersKeepPlaces type check default true",
                "option name DeferEldest type check default false",
                "option name HelpResearchDepth type spin default 0 min 0 max 64",
                "option name StaggeredDepths type check default false",
                "option name AbdadaHistory type combo default shared var shared var own var copy",
                "option name SimplifiedAbdadaHistory type combo default shared var shared var own var copy",
                "option name ClusterBusyHints type check default true",
                "option name ClusterBusyOwners type check default false",
                "option name ClusterOwnerDepth type spin default 6 min 1 max 64",
                "option name ClusterStaggeredRanks type check default false",
                "option name LazyVote type check default true",
            ]
        );
    }

    #[test]
    fn knob_options_are_validated_by_the_knob_table() {
        let setting = parse_setoption("mINsPLITdEPTH", Some("5")).unwrap();
        let Setting::Knob { knob, value } = setting else {
            panic!("{setting:?}");
        };
        let mut parallel = eldest_search::ParallelSettings::default();
        knob.apply(&mut parallel, value);
        assert_eq!(parallel.min_split_depth, 5);
        assert!(parse_setoption("MinSplitDepth", Some("65")).is_err());
        assert!(parse_setoption("CutoffChecks", Some("yes")).is_err());
        assert!(parse_setoption("CsTable", Some("btree")).is_err());
        assert!(parse_setoption("LazyVote", None).is_err());
    }

    #[test]
    fn tunables_are_options_only_in_tune_builds() {
        let setting = parse_setoption("rfpmargin", Some("95"));
        if cfg!(feature = "tune") {
            let Ok(Setting::Tunable { tunable, value }) = setting else {
                panic!("{setting:?}");
            };
            let mut params = eldest_search::SearchParams::DEFAULT;
            tunable.apply(&mut params, value);
            assert_eq!(params.rfp_margin, 95);
            assert!(parse_setoption("RfpMargin", Some("1000")).is_err());
            assert!(parse_setoption("RfpMargin", Some("eighty")).is_err());
            assert_eq!(
                options().count(),
                OPTIONS.len() + eldest_search::KNOBS.len() + eldest_search::TUNABLES.len()
            );
        } else {
            assert_eq!(setting, Err(OptionError::Unknown("rfpmargin".to_string())));
            assert_eq!(options().count(), OPTIONS.len() + eldest_search::KNOBS.len());
        }
    }

    #[test]
    fn every_default_is_a_valid_value() {
        for option in options() {
            let default = match option.kind {
                OptionKind::Check { default } => Some(default.to_string()),
                OptionKind::Spin { default, .. } => Some(default.to_string()),
                OptionKind::Combo { default, .. } => Some(default.to_string()),
                OptionKind::Button => None,
                OptionKind::String { default } => Some(default.to_string()),
            };
            assert!(option.parse_value(default.as_deref()).is_ok(), "{}", option.name);
        }
    }

    #[test]
    fn valid_values_become_settings() {
        assert_eq!(parse_setoption("Hash", Some("1")), Ok(Setting::Hash(1)));
        assert_eq!(
            parse_setoption("HASH", Some("33554432")),
            Ok(Setting::Hash(1 << 25))
        );
        assert_eq!(parse_setoption("threads", Some("+4")), Ok(Setting::Threads(4)));
        assert_eq!(parse_setoption("ponder", Some("TRUE")), Ok(Setting::Ponder(true)));
        assert_eq!(parse_setoption("MultiPV", Some("3")), Ok(Setting::MultiPv(3)));
        assert_eq!(
            parse_setoption("uci_chess960", Some("true")),
            Ok(Setting::Chess960(true))
        );
        assert_eq!(
            parse_setoption("move overhead", Some("0")),
            Ok(Setting::MoveOverhead(Duration::ZERO))
        );
        assert_eq!(
            parse_setoption("Debug Log File", Some("/tmp/my log.txt")),
            Ok(Setting::DebugLogFile("/tmp/my log.txt".into()))
        );
        assert_eq!(
            parse_setoption("Debug Log File", Some("<empty>")),
            Ok(Setting::DebugLogFile(String::new()))
        );
        assert_eq!(
            parse_setoption("Debug Log File", None),
            Ok(Setting::DebugLogFile(String::new()))
        );
        assert_eq!(
            parse_setoption("clear hash", Some("ignored")),
            Ok(Setting::ClearHash)
        );
    }

    #[test]
    fn invalid_values_are_refused_with_the_reason() {
        let refused = |name: &str, value: Option<&str>| parse_setoption(name, value).unwrap_err().to_string();
        assert!(refused("Hash", Some("0")).contains("from 1 to 33554432"));
        assert!(refused("Hash", Some("33554433")).contains("invalid value '33554433'"));
        assert!(refused("Hash", Some("99999999999999999999999")).contains("expected an integer"));
        assert!(refused("Hash", Some("-5")).contains("'-5'"));
        assert!(refused("Hash", Some("16MB")).contains("'16MB'"));
        assert!(refused("Threads", Some("1.5")).contains("Threads"));
        assert!(refused("Ponder", Some("yes")).contains("'true' or 'false'"));
        assert!(refused("Ponder", None).contains("missing 'value"));
        assert!(refused("Move Overhead", Some("5001")).contains("from 0 to 5000"));
        assert!(refused("NoSuchOption", Some("1")).contains("no option named 'NoSuchOption'"));
    }

    #[test]
    fn names_are_unique_ignoring_case() {
        let all: Vec<UciOption> = options().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(b.name));
            }
        }
    }
}
