//! SAN on positions reached by fuzzer-chosen legal moves: every legal move's SAN parses back to that move, and
//! arbitrary text that parses as SAN is a legal move whose own SAN parses back to it.
//!
//! Input: byte 0 is the number of plies to play (mod 64), the next bytes choose each ply's move among the legal
//! ones, the rest is the SAN text to parse.
#![no_main]

use eldest_board::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&plies, rest)) = data.split_first() else {
        return;
    };
    let plies = usize::from(plies % 64).min(rest.len());
    let (choices, text) = rest.split_at(plies);
    let mut position = Position::startpos();
    for &choice in choices {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(moves[usize::from(choice) % moves.len()]);
    }
    for &mv in position.legal_moves().iter() {
        let san = position.move_to_san(mv);
        assert_eq!(position.parse_san(&san).ok(), Some(mv), "{san} in {position}");
    }
    let text = String::from_utf8_lossy(text);
    if let Ok(mv) = position.parse_san(&text) {
        assert!(
            position.is_legal(mv),
            "{text:?} in {position} gave an illegal move"
        );
        let san = position.move_to_san(mv);
        assert_eq!(
            position.parse_san(&san).ok(),
            Some(mv),
            "{text:?} -> {san} in {position}"
        );
    }
});
