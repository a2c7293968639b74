//! The xboard/WinBoard protocol (Chess Engine Communication Protocol, version 2) for engines that do not speak
//! UCI, such as Fairy-Max and GNU Chess.
//!
//! The runner keeps the engine in force mode between its moves, so the engine never thinks on its own: before
//! each of its moves it gets `force`, the moves it has not seen yet, its clock (`time`, `otim`) and `go`, and the
//! clock runs from the `go` to the `move` line, as with UCI's `go` and `bestmove`. Features are answered one by
//! one; `san=1` is rejected so moves travel in coordinate notation both ways (a SAN answer is still understood).
//! Thinking output (`ply score time nodes pv`) gives the score and depth for the PGN and the adjudication.

use super::adjudication::Score;
use super::clock::Limit;
use super::engine::{
    Decision, EngineFault, EngineProcess, EngineSpec, FaultKind, HANDSHAKE_TIMEOUT, READY_TIMEOUT,
    SearchReply, SearchRequest,
};
use std::time::{Duration, Instant};

/// How long a version-1 engine (one that sends no `feature done=1`) is given to announce features.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// xboard scores of mate in N are 100000 + N (protocol section 10, the "mate scores" convention).
const MATE_SCORE_BASE: i32 = 100_000;

/// What the engine announced with `feature`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Features {
    ping: bool,
    setboard: bool,
    usermove: bool,
    memory: bool,
    smp: bool,
    /// The names of the engine-defined options (`feature option="NAME -spin 1 0 9"`).
    options: Vec<String>,
}

/// An xboard engine's state across the commands of a game.
#[derive(Debug)]
pub(super) struct XboardSession {
    features: Features,
    /// How many of the game's moves the engine has been told or played itself.
    moves_known: usize,
    /// The argument of the next `ping`.
    next_ping: u32,
}

impl XboardSession {
    /// `xboard`, `protover 2`, the features, the spec's options, and a `ping` when the engine supports it.
    pub(super) fn handshake(
        engine: &mut EngineProcess,
        spec: &EngineSpec,
    ) -> Result<XboardSession, EngineFault> {
        engine.send("xboard\nprotover 2")?;
        let started = Instant::now();
        let mut deadline = started + FEATURE_WAIT;
        let mut features = Features::default();
        let mut done = false;
        while !done {
            let Some((line, _)) = engine.line_before(deadline, "feature done=1 after protover 2")? else {
                break; // a version-1 engine: no features, or no done=1
            };
            let Some(announced) = line.trim_start().strip_prefix("feature ") else {
                continue; // banners and chatter
            };
            let mut answers = Vec::new();
            for (name, value) in parse_features(announced) {
                let on = value == "1";
                match name.as_str() {
                    "done" if on => done = true,
                    // done=0: the engine needs time to start; it says done=1 when ready.
                    "done" => deadline = started + HANDSHAKE_TIMEOUT,
                    "ping" => features.ping = on,
                    "setboard" => features.setboard = on,
                    "usermove" => features.usermove = on,
                    "memory" => features.memory = on,
                    "smp" => features.smp = on,
                    "myname" => engine.id_name = Some(value.clone()),
                    "option" => features
                        .options
                        .push(value.split(" -").next().unwrap_or_default().trim().to_string()),
                    _ => {}
                }
                // Coordinate notation both ways keeps the engine's moves as easy to check as UCI's.
                let verdict = if name == "san" && on {
                    "rejected"
                } else {
                    "accepted"
                };
                answers.push(format!("{verdict} {name}"));
            }
            if !answers.is_empty() {
                engine.send(&answers.join("\n"))?;
            }
        }
        for (name, value) in &spec.options {
            let command = match name.as_str() {
                "memory" if features.memory => format!("memory {value}"),
                "cores" if features.smp => format!("cores {value}"),
                _ if features.options.iter().any(|o| o == name) => format!("option {name}={value}"),
                _ => {
                    let mut offered = features.options.clone();
                    offered.extend(features.memory.then(|| "memory".to_string()));
                    offered.extend(features.smp.then(|| "cores".to_string()));
                    return Err(EngineFault {
                        kind: FaultKind::Malformed,
                        detail: format!("it has no option '{name}' (it offers: {})", offered.join(", ")),
                    });
                }
            };
            engine.send(&command)?;
        }
        let mut session = XboardSession {
            features,
            moves_known: 0,
            next_ping: 1,
        };
        session.wait_ready(engine)?;
        Ok(session)
    }

    /// Whether the engine announced `setboard=1` (it can start from a FEN).
    pub(super) fn has_setboard(&self) -> bool {
        self.features.setboard
    }

    /// `ping N` and its `pong N` when the engine has the feature; nothing otherwise (the protocol offers no other
    /// way to know an engine is ready).
    fn wait_ready(&mut self, engine: &mut EngineProcess) -> Result<(), EngineFault> {
        if !self.features.ping {
            return Ok(());
        }
        let number = self.next_ping;
        self.next_ping += 1;
        engine.send(&format!("ping {number}"))?;
        let deadline = Instant::now() + READY_TIMEOUT;
        let expected = format!("pong {number}");
        loop {
            let (line, _) = engine.next_line(deadline, READY_TIMEOUT, &expected)?;
            if line.split_whitespace().collect::<Vec<_>>().join(" ") == expected {
                return Ok(());
            }
        }
    }

    /// `new`, no pondering, thinking output on, force mode, the start position and the time control.
    pub(super) fn new_game(
        &mut self,
        engine: &mut EngineProcess,
        start_fen: Option<&str>,
        limit: Limit,
    ) -> Result<(), EngineFault> {
        engine.send("new\neasy\npost\nforce")?;
        if let Some(fen) = start_fen {
            if !self.features.setboard {
                return Err(EngineFault {
                    kind: FaultKind::Malformed,
                    detail: format!("the game starts from '{fen}' but the engine has no setboard feature"),
                });
            }
            engine.send(&format!("setboard {fen}"))?;
        }
        let time_control = time_control_command(limit).map_err(|why| EngineFault {
            kind: FaultKind::Malformed,
            detail: why,
        })?;
        engine.send(&time_control)?;
        self.moves_known = 0;
        self.wait_ready(engine)
    }

    /// The moves the engine has not seen, its clocks, `go`, and its `move` (or `resign`).
    pub(super) fn search(
        &mut self,
        engine: &mut EngineProcess,
        request: &SearchRequest,
    ) -> Result<SearchReply, EngineFault> {
        let unseen = request.moves.get(self.moves_known..).unwrap_or_default();
        let prefix = if self.features.usermove { "usermove " } else { "" };
        let mut commands = vec!["force".to_string()];
        commands.extend(unseen.iter().map(|mv| format!("{prefix}{mv}")));
        if let Some((own, opponent)) = request.clock.xboard_times(request.mover) {
            commands.push(format!("time {own}"));
            commands.push(format!("otim {opponent}"));
        }
        engine.send(&commands.join("\n"))?;
        // The clock starts before the write of `go`, so the engine is never charged less than the time it had.
        let started = Instant::now();
        engine.send("go")?;
        let deadline = started + request.hang_after;
        let (mut score, mut depth) = (None, None);
        loop {
            let (line, read_at) = engine.next_line(deadline, request.hang_after, "move")?;
            let mut words = line.split_whitespace();
            let decision = match words.next() {
                Some("move") => match words.next() {
                    Some(mv) => Decision::Move(mv.to_string()),
                    None => {
                        return Err(EngineFault {
                            kind: FaultKind::Malformed,
                            detail: format!("'{line}' names no move"),
                        });
                    }
                },
                Some("resign") => Decision::Resign,
                // The engine's board is no longer the game's: nothing it plays now can be trusted.
                Some(word) if word.starts_with("Illegal") => {
                    return Err(EngineFault {
                        kind: FaultKind::Malformed,
                        detail: format!("it refused the game's moves: '{line}'"),
                    });
                }
                // A command it does not know (`Error (unknown command): otim`) costs it nothing but a warning.
                Some(word) if word.starts_with("Error") => {
                    engine.warn(format!("error reported by the engine: '{line}'"));
                    continue;
                }
                // Result claims, chat and comments do not change the game: the runner applies the rules itself.
                Some(
                    "1-0" | "0-1" | "1/2-1/2" | "offer" | "tellics" | "tellicsnoalias" | "telluser"
                    | "tellusererror" | "tellopponent" | "tellothers" | "tellall" | "askuser" | "feature"
                    | "pong",
                )
                | None => continue,
                Some(word) if word.starts_with(|c: char| c.is_ascii_digit()) => {
                    match parse_thinking(&line) {
                        Some((line_depth, line_score)) => {
                            depth = Some(line_depth);
                            score = Some(line_score);
                        }
                        None => engine.warn(format!("malformed thinking output: '{line}'")),
                    }
                    continue;
                }
                Some(word) if word.starts_with('#') => continue,
                Some(_) => {
                    engine.warn(format!("unrecognised output during search: '{line}'"));
                    continue;
                }
            };
            self.moves_known = request.moves.len() + 1;
            return Ok(SearchReply {
                decision,
                elapsed: read_at.saturating_duration_since(started),
                score,
                depth,
            });
        }
    }
}

/// The command that sets `limit`: `level 0 MIN:SEC INC` for a clock, `st SECONDS` for a time per move, `sd DEPTH`
/// with a day per move for a depth.
///
/// # Errors
/// Why the limit cannot be given to an xboard engine: a node limit (xboard has none), or a time per move that is
/// not whole seconds (`st` takes whole seconds).
pub(super) fn time_control_command(limit: Limit) -> Result<String, String> {
    match limit {
        Limit::Clock { base, increment } => {
            let seconds = base.as_secs().max(1);
            let increment = increment.as_secs_f64();
            Ok(format!(
                "level 0 {}:{:02} {increment}",
                seconds / 60,
                seconds % 60
            ))
        }
        Limit::MoveTime(time) if time.subsec_millis() == 0 && !time.is_zero() => {
            Ok(format!("st {}", time.as_secs()))
        }
        Limit::MoveTime(time) => Err(format!(
            "xboard's st takes whole seconds; {} ms is not",
            time.as_millis()
        )),
        Limit::Depth(depth) => Ok(format!("sd {depth}\nst 86400")),
        Limit::Nodes(_) => Err("xboard has no node limit; give it tc=, movetime= or depth=".into()),
    }
}

/// The `NAME=VALUE` pairs of a `feature` line; a quoted value may hold spaces.
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut rest = text.trim();
    while let Some((name, after)) = rest.split_once('=') {
        let name = name.trim().to_string();
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => quoted.split_once('"').unwrap_or((quoted, "")),
            None => after.split_once(char::is_whitespace).unwrap_or((after, "")),
        };
        pairs.push((name, value.to_string()));
        rest = next.trim_start();
    }
    pairs
}

/// The depth and score of a thinking line `ply score time nodes [selective depth, speed, …] pv`.
fn parse_thinking(line: &str) -> Option<(u32, Score)> {
    let mut words = line.split_whitespace();
    // Some engines mark the ply with a suffix ("12." or "12&").
    let depth = words.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let value: i32 = words.next()?.parse().ok()?;
    // time and nodes must be there too, or this is not thinking output.
    words.next()?.parse::<i64>().ok()?;
    words.next()?.parse::<u64>().ok()?;
    let score = if value.abs() > MATE_SCORE_BASE {
        Score::Mate(value.signum() * (value.abs() - MATE_SCORE_BASE))
    } else {
        Score::Centipawns(value)
    };
    Some((depth, score))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines_split_into_pairs_with_quoted_values() {
        assert_eq!(
            parse_features(r#"myname="Fairy-Max 5.0b" setboard=1 ping=1 option="Resign -check 0" done=1"#),
            [
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("setboard".to_string(), "1".to_string()),
                ("ping".to_string(), "1".to_string()),
                ("option".to_string(), "Resign -check 0".to_string()),
                ("done".to_string(), "1".to_string()),
            ]
        );
        assert_eq!(parse_features("done=0"), [("done".to_string(), "0".to_string())]);
        assert_eq!(parse_features("garbage"), []);
        assert_eq!(
            parse_features(r#"myname="unterminated"#),
            [("myname".to_string(), "unterminated".to_string())]
        );
    }

    #[test]
    fn thinking_lines_give_depth_and_score() {
        assert_eq!(
            parse_thinking("  7    -35     12     45678 e2e4 e7e5"),
            Some((7, Score::Centipawns(-35)))
        );
        assert_eq!(parse_thinking("12. 100003 50 9 a1a8"), Some((12, Score::Mate(3))));
        assert_eq!(parse_thinking("5& -100002 1 2"), Some((5, Score::Mate(-2))));
        assert_eq!(parse_thinking("1 15"), None, "time and nodes are required");
        assert_eq!(parse_thinking("1-0 {White mates}"), None);
    }

    #[test]
    fn limits_become_xboard_commands_or_are_refused() {
        let command = |limit| time_control_command(limit);
        assert_eq!(
            command(Limit::parse_clock("8+0.08").unwrap()),
            Ok("level 0 0:08 0.08".into())
        );
        assert_eq!(
            command(Limit::parse_clock("150+2").unwrap()),
            Ok("level 0 2:30 2".into())
        );
        assert_eq!(
            command(Limit::MoveTime(Duration::from_secs(3))),
            Ok("st 3".into())
        );
        assert_eq!(command(Limit::Depth(9)), Ok("sd 9\nst 86400".into()));
        assert!(command(Limit::Nodes(1000)).unwrap_err().contains("no node limit"));
        assert!(
            command(Limit::MoveTime(Duration::from_millis(1500)))
                .unwrap_err()
                .contains("whole seconds")
        );
    }
}
