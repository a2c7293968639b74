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
}

fn usage() -> ! {
    eprintln!("usage: misbehaving_engine good | crash|illegal|hang|garbage|chatter AFTER | slow AFTER MS");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
        Some(_) => usage(),
    };
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
                let misbehave = moves_played >= after;
                moves_played += 1;
                match behaviour {
                    _ if !misbehave => format!("bestmove {}", legal_move(&position)),
                    Behaviour::Good => format!("bestmove {}", legal_move(&position)),
                    Behaviour::Crash => {
                        eprintln!("misbehaving_engine: crashing as asked");
                        std::process::exit(3)
                    }
                    Behaviour::Illegal => format!("bestmove {}", illegal_move(&position)),
                    Behaviour::Hang => continue,
                    Behaviour::Slow(ms) => {
                        std::thread::sleep(Duration::from_millis(ms));
                        format!("info depth 1 score cp 0\nbestmove {}", legal_move(&position))
                    }
                    Behaviour::Garbage => "bestmove banana".to_string(),
                    Behaviour::Chatter => {
                        format!(
                            "hello from the engine\ninfo score cp lots\nbestmove {}",
                            legal_move(&position)
                        )
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
