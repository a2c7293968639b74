//! A tiny UCI engine that misbehaves on purpose, so the tests of `cargo xtask match` can check that every fault
//! is detected, scored and reported. It plays legal moves (picked from the position's key, so games vary) until
//! its move number AFTER, and then does what BEHAVIOUR says:
//!
//! ```text
//! misbehaving_engine good                   plays legal moves only
//! misbehaving_engine crash AFTER            exits with status 3 instead of its move
//! misbehaving_engine illegal AFTER          answers with an illegal move
//! misbehaving_engine hang AFTER             never answers
//! misbehaving_engine slow AFTER MS          answers after sleeping MS milliseconds
//! misbehaving_engine garbage AFTER          answers `bestmove banana`
//! misbehaving_engine chatter AFTER          prints unrecognised and malformed lines before each legal move
//! ```
//!
//! AFTER counts the engine's own moves since it started, so a restarted engine misbehaves again.
//!
//! `misbehaving_engine --xboard BEHAVIOUR ...` speaks the xboard protocol (version 2) instead: it announces
//! `san=1` and `usermove=1` (the runner must reject the first and honour the second), answers `ping`, follows
//! `force`, `setboard` and the moves it is given, and on `go` prints a thinking line and `move MOVE`; `resign`
//! is one more behaviour there. `--xboard-v1` is the same engine as a version-1 xboard engine: it announces no
//! features at all (no `ping`, no `setboard`, no `usermove`), so it reads bare moves.

use eldest_board::{Color, Position};
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Behaviour {
    Good,
    Crash,
    Illegal,
    Hang,
    Slow(u64),
    Garbage,
    Chatter,
    Resign,
}

/// Which xboard engine to be: one that announces its features, or one from before `protover 2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum XboardVersion {
    One,
    Two,
}

fn usage() -> ! {
    eprintln!(
        "usage: misbehaving_engine [--xboard|--xboard-v1] good | crash|illegal|hang|garbage|chatter|resign AFTER | slow AFTER MS"
    );
    std::process::exit(2)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let xboard = match args.first().map(String::as_str) {
        Some("--xboard") => Some(XboardVersion::Two),
        Some("--xboard-v1") => Some(XboardVersion::One),
        _ => None,
    };
    if xboard.is_some() {
        args.remove(0);
    }
    let number = |index: usize| -> u64 {
        args.get(index)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| usage())
    };
    let (behaviour, after) = match args.first().map(String::as_str) {
        Some("good") | None => (Behaviour::Good, u64::MAX),
        Some("crash") => (Behaviour::Crash, number(1)),
        Some("illegal") => (Behaviour::Illegal, number(1)),
        Some("hang") => (Behaviour::Hang, number(1)),
        Some("slow") => (Behaviour::Slow(number(2)), number(1)),
        Some("garbage") => (Behaviour::Garbage, number(1)),
        Some("chatter") => (Behaviour::Chatter, number(1)),
        Some("resign") if xboard.is_some() => (Behaviour::Resign, number(1)),
        Some(_) => usage(),
    };
    if let Some(version) = xboard {
        return speak_xboard(version, behaviour, after);
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut position = Position::startpos();
    let mut moves_played = 0u64;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") => "id name misbehaving_engine\nid author the Eldest tests\n\
                            option name Hash type spin default 1 min 1 max 1\nuciok"
                .to_string(),
            Some("isready") => "readyok".to_string(),
            Some("position") => {
                position = parse_position(&words).unwrap_or_else(|| {
                    eprintln!("misbehaving_engine: cannot read '{line}'");
                    std::process::exit(4)
                });
                continue;
            }
            Some("go") => {
                let answer = answer_go(behaviour, moves_played >= after, &position);
                moves_played += 1;
                match answer {
                    Answer::Move { mv, thinking } => {
                        let info = if thinking { "info depth 1 score cp 0\n" } else { "" };
                        format!("{info}bestmove {mv}")
                    }
                    // UCI has no resignation: an engine that would resign plays on.
                    Answer::Resign => format!("bestmove {}", legal_move(&position)),
                    Answer::Silence => continue,
                    Answer::NoMove => "bestmove banana".to_string(),
                    Answer::Chatter(mv) => {
                        format!("hello from the engine\ninfo score cp lots\nbestmove {mv}")
                    }
                }
            }
            Some("quit") => return,
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}

/// The xboard side of the engine: what a version-2 engine does in force mode, and the misbehaviour on `go`.
fn speak_xboard(version: XboardVersion, behaviour: Behaviour, after: u64) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut position = Position::startpos();
    let mut moves_played = 0u64;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("protover") if version == XboardVersion::One => continue,
            Some("protover") => "feature myname=\"misbehaving xboard engine\" ping=1 setboard=1 san=1 \
                                 usermove=1 option=\"Style -combo quiet /// loud\" done=1"
                .to_string(),
            Some("ping") => format!("pong {}", words.get(1).unwrap_or(&"")),
            Some("new") => {
                position = Position::startpos();
                continue;
            }
            Some("setboard") => {
                position = Position::from_fen(&words[1..].join(" ")).unwrap_or_else(|_| {
                    eprintln!("misbehaving_engine: cannot read '{line}'");
                    std::process::exit(4)
                });
                continue;
            }
            Some("usermove") if version == XboardVersion::Two => match play(&mut position, words.get(1)) {
                Ok(()) => continue,
                Err(error) => error,
            },
            // A version-1 engine reads a bare move; its own commands are all words that are no moves.
            Some(word) if version == XboardVersion::One && position.parse_uci_move(word).is_ok() => {
                match play(&mut position, Some(&word)) {
                    Ok(()) => continue,
                    Err(error) => error,
                }
            }
            Some("go") => {
                let answer = answer_go(behaviour, moves_played >= after, &position);
                moves_played += 1;
                let reply = match answer {
                    Answer::Move { mv, thinking: true } => format!("1 0 0 1 {mv}\nmove {mv}"),
                    Answer::Move { mv, thinking: false } => format!("move {mv}"),
                    Answer::Resign => "resign".to_string(),
                    Answer::Silence => continue,
                    Answer::NoMove => "move".to_string(),
                    Answer::Chatter(mv) => format!("hello from the engine\n3 lots 0 1\nmove {mv}"),
                };
                if let Ok(mv) = position.parse_uci_move(&legal_move(&position)) {
                    position.play_unchecked(mv);
                }
                reply
            }
            Some("quit") => return,
            // xboard, accepted/rejected, force, easy, post, level, st, sd, time, otim, option: nothing to answer.
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}

/// What the engine does on `go`, whatever the protocol: the protocols differ only in how they say it.
enum Answer {
    /// Play `mv`, after a line of thinking output if `thinking`.
    Move {
        mv: String,
        thinking: bool,
    },
    Resign,
    /// Say nothing, ever.
    Silence,
    /// A move command without a move.
    NoMove,
    /// Unrecognised and malformed lines, then the legal move.
    Chatter(String),
}

/// The answer to `go`: a legal move with its thinking until the engine is due to `misbehave`, then what its
/// behaviour says (crashing at once).
fn answer_go(behaviour: Behaviour, misbehave: bool, position: &Position) -> Answer {
    let legal = legal_move(position);
    if !misbehave {
        return Answer::Move {
            mv: legal,
            thinking: true,
        };
    }
    match behaviour {
        Behaviour::Good => Answer::Move {
            mv: legal,
            thinking: true,
        },
        Behaviour::Crash => {
            eprintln!("misbehaving_engine: crashing as asked");
            std::process::exit(3)
        }
        Behaviour::Illegal => Answer::Move {
            mv: illegal_move(position),
            thinking: false,
        },
        Behaviour::Hang => Answer::Silence,
        Behaviour::Slow(ms) => {
            std::thread::sleep(Duration::from_millis(ms));
            Answer::Move {
                mv: legal,
                thinking: false,
            }
        }
        Behaviour::Garbage => Answer::NoMove,
        Behaviour::Chatter => Answer::Chatter(legal),
        Behaviour::Resign => Answer::Resign,
    }
}

/// Plays the move `text` given by the runner, or the xboard error for one that is not legal here.
fn play(position: &mut Position, text: Option<&&str>) -> Result<(), String> {
    let text = text.copied().unwrap_or_default();
    let mv = position
        .parse_uci_move(text)
        .map_err(|_| format!("Illegal move: {text}"))?;
    position.play_unchecked(mv);
    Ok(())
}

/// `position startpos|fen FEN [moves M...]`.
fn parse_position(words: &[&str]) -> Option<Position> {
    let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let mut position = match words.get(1).copied() {
        Some("startpos") => Position::startpos(),
        Some("fen") => Position::from_fen(&words[2..moves_at].join(" ")).ok()?,
        _ => return None,
    };
    for text in words.iter().skip(moves_at + 1) {
        let mv = position.parse_uci_move(text).ok()?;
        position.play_unchecked(mv);
    }
    Some(position)
}

/// A legal move chosen by the position's key, so that games differ but every run is the same.
fn legal_move(position: &Position) -> String {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return "0000".into();
    }
    let index = (position.key() % moves.len() as u64) as usize;
    position.move_to_uci(moves[index])
}

/// A move of one of the opponent's pieces: well-formed UCI, certainly illegal.
fn illegal_move(position: &Position) -> String {
    let opponent: Color = !position.side_to_move();
    let from = position
        .colored(opponent)
        .into_iter()
        .next()
        .map_or("a1".to_string(), |s| s.to_string());
    let to = if from == "a1" { "a2" } else { "a1" };
    format!("{from}{to}")
}
