//! Search limits and the clocks the runner keeps for both players.
//!
//! The runner, not the engines, owns the clocks: each move's time is measured from sending `go` to reading
//! `bestmove` (the reader thread's timestamp), subtracted from the mover's clock, and the increment is added
//! afterwards. A move that leaves the clock below −margin loses on time. The margin allows for the pipe and the
//! scheduler, which the engine cannot see.

use eldest_board::Color;
use std::fmt;
use std::time::Duration;

/// How long one engine may think: a clock, a fixed time per move, or a fixed amount of search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// A game clock: `base` for the whole game plus `increment` per move (Fischer).
    Clock {
        /// Time for the game.
        base: Duration,
        /// Time added after each move.
        increment: Duration,
    },
    /// A fixed time per move (`go movetime`).
    MoveTime(Duration),
    /// A fixed node count per move (`go nodes`); no clock.
    Nodes(u64),
    /// A fixed depth per move (`go depth`); no clock.
    Depth(u32),
}

impl Limit {
    /// Parses a clock `BASE+INC` in seconds (`8+0.08`, `60`, `0.5+0.01`).
    ///
    /// # Errors
    /// A message when the text is not two non-negative numbers or the base is zero.
    pub fn parse_clock(text: &str) -> Result<Limit, String> {
        let bad = || format!("bad time control '{text}': want BASE+INC in seconds, e.g. 8+0.08 or 60");
        let (base_text, increment_text) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |t: &str| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                .ok_or_else(bad)
        };
        let base = seconds(base_text)?;
        let increment = seconds(increment_text)?;
        if base == 0.0 {
            return Err(format!(
                "bad time control '{text}': the base time must be more than 0"
            ));
        }
        Ok(Limit::Clock {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(increment),
        })
    }

    /// The `go` arguments this limit contributes alone (clocks are written by [`GameClock::go_command`]).
    fn fixed_go_arguments(&self) -> Option<String> {
        match self {
            Limit::Clock { .. } => None,
            Limit::MoveTime(time) => Some(format!("movetime {}", time.as_millis())),
            Limit::Nodes(nodes) => Some(format!("nodes {nodes}")),
            Limit::Depth(depth) => Some(format!("depth {depth}")),
        }
    }

    /// The PGN `TimeControl` value: `8+0.08`, `1/0.1` (one move per 0.1 s), or `-` without a clock.
    pub fn pgn_time_control(&self) -> String {
        match self {
            Limit::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            Limit::MoveTime(time) => format!("1/{}", time.as_secs_f64()),
            Limit::Nodes(_) | Limit::Depth(_) => "-".into(),
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock { base, increment } => {
                write!(f, "tc={}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            Limit::MoveTime(time) => write!(f, "movetime={}ms", time.as_millis()),
            Limit::Nodes(nodes) => write!(f, "nodes={nodes}"),
            Limit::Depth(depth) => write!(f, "depth={depth}"),
        }
    }
}

/// Both players' clocks during one game.
#[derive(Debug, Clone)]
pub struct GameClock {
    limits: [Limit; 2],
    /// Time left, in microseconds; negative once a flag has fallen within the margin.
    remaining_us: [i64; 2],
    margin: Duration,
    /// The lowest clock each side had after a move, before its increment.
    lowest_us: [Option<i64>; 2],
    longest_move: [Duration; 2],
}

/// Index of a colour in the per-side arrays.
fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn micros(duration: Duration) -> i64 {
    i64::try_from(duration.as_micros()).unwrap_or(i64::MAX)
}

impl GameClock {
    /// Clocks for a game in which White plays under `white` and Black under `black`, with `margin` of grace.
    pub fn new(white: Limit, black: Limit, margin: Duration) -> GameClock {
        let start = |limit: &Limit| match limit {
            Limit::Clock { base, .. } => micros(*base),
            _ => 0,
        };
        GameClock {
            remaining_us: [start(&white), start(&black)],
            limits: [white, black],
            margin,
            lowest_us: [None, None],
            longest_move: [Duration::ZERO; 2],
        }
    }

    /// The `go` command for `mover`: its own fixed limit, or `wtime/btime/winc/binc` when it plays on a clock.
    /// An opponent without a clock is shown the mover's own clock, since UCI has no way to say "no clock".
    pub fn go_command(&self, mover: Color) -> String {
        if let Some(arguments) = self.limits[side(mover)].fixed_go_arguments() {
            return format!("go {arguments}");
        }
        let (wtime, winc) = self.shown_clock(Color::White, mover);
        let (btime, binc) = self.shown_clock(Color::Black, mover);
        format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}")
    }

    /// xboard's `time` and `otim` for `mover` when it plays on a clock: its own clock and its opponent's, in
    /// centiseconds (at least 1). `None` when the mover has a fixed limit instead.
    pub fn xboard_times(&self, mover: Color) -> Option<(i64, i64)> {
        if !matches!(self.limits[side(mover)], Limit::Clock { .. }) {
            return None;
        }
        let centiseconds = |color: Color| (self.shown_clock(color, mover).0 / 10).max(1);
        Some((centiseconds(mover), centiseconds(!mover)))
    }

    /// `color`'s clock as shown to `mover`, in milliseconds (at least 1), and its increment in milliseconds. A
    /// side without a clock is shown the mover's own clock, since UCI has no way to say "no clock".
    fn shown_clock(&self, color: Color, mover: Color) -> (i64, u128) {
        let index = if matches!(self.limits[side(color)], Limit::Clock { .. }) {
            side(color)
        } else {
            side(mover)
        };
        let increment = match self.limits[index] {
            Limit::Clock { increment, .. } => increment.as_millis(),
            _ => 0,
        };
        // A clock inside the margin is below zero; engines are told 1 ms rather than a negative time.
        ((self.remaining_us[index] / 1000).max(1), increment)
    }

    /// How long `mover` may take for this move before it loses on time, margin included; `None` without a clock.
    pub fn allowed(&self, mover: Color) -> Option<Duration> {
        match self.limits[side(mover)] {
            Limit::Clock { .. } => {
                Some(Duration::from_micros(self.remaining_us[side(mover)].max(0) as u64) + self.margin)
            }
            Limit::MoveTime(time) => Some(time + self.margin),
            Limit::Nodes(_) | Limit::Depth(_) => None,
        }
    }

    /// Books a move that took `elapsed` to `mover`. Returns `true` when the flag fell: the move came after the
    /// clock (or the fixed move time) ran out by more than the margin.
    pub fn charge(&mut self, mover: Color, elapsed: Duration) -> bool {
        let index = side(mover);
        self.longest_move[index] = self.longest_move[index].max(elapsed);
        match self.limits[index] {
            Limit::Clock { increment, .. } => {
                self.remaining_us[index] -= micros(elapsed);
                let left = self.remaining_us[index];
                self.lowest_us[index] = Some(self.lowest_us[index].map_or(left, |lowest| lowest.min(left)));
                if left < -micros(self.margin) {
                    return true;
                }
                self.remaining_us[index] += micros(increment);
                false
            }
            Limit::MoveTime(time) => elapsed > time + self.margin,
            Limit::Nodes(_) | Limit::Depth(_) => false,
        }
    }

    /// The lowest clock `color` had after any of its moves (before the increment), in seconds.
    pub fn lowest_seconds(&self, color: Color) -> Option<f64> {
        self.lowest_us[side(color)].map(|us| us as f64 / 1e6)
    }

    /// `color`'s longest move.
    pub fn longest_move(&self, color: Color) -> Duration {
        self.longest_move[side(color)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(value: u64) -> Duration {
        Duration::from_millis(value)
    }

    #[test]
    fn clock_strings_parse_and_bad_ones_are_refused() {
        assert_eq!(
            Limit::parse_clock("8+0.08"),
            Ok(Limit::Clock {
                base: ms(8000),
                increment: ms(80)
            })
        );
        assert_eq!(
            Limit::parse_clock("60"),
            Ok(Limit::Clock {
                base: ms(60_000),
                increment: ms(0)
            })
        );
        for bad in ["", "abc", "8+", "-1+0", "0+1", "8+x", "inf+0", "8+0.1+2"] {
            assert!(Limit::parse_clock(bad).is_err(), "{bad}");
        }
        assert_eq!(Limit::parse_clock("8+0.08").unwrap().pgn_time_control(), "8+0.08");
    }

    #[test]
    fn the_clock_runs_down_adds_increments_and_flags_past_the_margin() {
        let tc = Limit::Clock {
            base: ms(1000),
            increment: ms(100),
        };
        let mut clock = GameClock::new(tc, tc, ms(50));
        assert_eq!(
            clock.go_command(Color::White),
            "go wtime 1000 btime 1000 winc 100 binc 100"
        );
        assert!(!clock.charge(Color::White, ms(400))); // 600 left, then +100
        assert_eq!(clock.allowed(Color::Black), Some(ms(1050)));
        assert_eq!(clock.allowed(Color::White), Some(ms(750)));
        assert!(!clock.charge(Color::White, ms(740))); // −40: inside the 50 ms margin
        assert_eq!(
            clock.go_command(Color::Black),
            "go wtime 60 btime 1000 winc 100 binc 100"
        );
        assert_eq!(
            clock.xboard_times(Color::Black),
            Some((100, 6)),
            "own clock first, centiseconds"
        );
        assert!(clock.charge(Color::White, ms(120))); // 60 − 120 = −60: flag
        assert_eq!(
            clock.xboard_times(Color::White),
            Some((1, 100)),
            "a fallen flag shows 1 cs"
        );
        assert_eq!(clock.lowest_seconds(Color::White), Some(-0.06));
        assert_eq!(clock.longest_move(Color::White), ms(740));
    }

    #[test]
    fn fixed_limits_write_their_own_go_and_only_movetime_can_flag() {
        let mut clock = GameClock::new(Limit::MoveTime(ms(100)), Limit::Nodes(5000), ms(20));
        assert_eq!(clock.go_command(Color::White), "go movetime 100");
        assert_eq!(
            clock.xboard_times(Color::White),
            None,
            "a fixed limit has no clock to show"
        );
        assert_eq!(clock.go_command(Color::Black), "go nodes 5000");
        assert!(!clock.charge(Color::White, ms(119)));
        assert!(clock.charge(Color::White, ms(121)));
        assert!(!clock.charge(Color::Black, Duration::from_secs(100)));
        assert_eq!(clock.allowed(Color::Black), None);
        assert_eq!(
            GameClock::new(Limit::Depth(7), Limit::Depth(7), ms(0)).go_command(Color::White),
            "go depth 7"
        );
    }

    #[test]
    fn an_opponent_without_a_clock_is_shown_the_movers_clock() {
        let clock = GameClock::new(
            Limit::Clock {
                base: ms(2000),
                increment: ms(0),
            },
            Limit::Nodes(10),
            ms(0),
        );
        assert_eq!(
            clock.go_command(Color::White),
            "go wtime 2000 btime 2000 winc 0 binc 0"
        );
    }
}
