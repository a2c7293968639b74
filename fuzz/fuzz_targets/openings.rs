//! The opening readers of `cargo xtask match` (EPD and PGN) on arbitrary text: they never panic, and every
//! opening they accept is a line of legal moves from its start position.
//!
//! Input: byte 0 picks the format (even: EPD, odd: PGN), the rest is the file's text.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The readers are xtask's own modules (xtask is a binary), compiled here unchanged.
#[allow(dead_code)]
#[path = "../../xtask/src/matches/adjudication.rs"]
mod adjudication;
#[allow(dead_code)]
#[path = "../../xtask/src/matches/openings.rs"]
mod openings;

use openings::{Format, parse};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let format = if selector % 2 == 0 {
        Format::Epd
    } else {
        Format::Pgn
    };
    let text = String::from_utf8_lossy(rest);
    let Ok(found) = parse(&text, format, None) else {
        return;
    };
    assert!(!found.is_empty(), "an accepted file has openings");
    for opening in found {
        let mut position = opening.start;
        for mv in opening.moves {
            assert!(
                position.try_play(mv).is_ok(),
                "opening {:?}: an illegal move",
                opening.name
            );
        }
    }
});
