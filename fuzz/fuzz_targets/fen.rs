//! The FEN and EPD parsers on arbitrary text: they never panic, and a parsed position re-serialises to a FEN
//! that parses to the same position (Chess960 mode aside, which X-FEN does not record), with the same key,
//! whose key is the one computed from scratch.
#![no_main]

use eldest_board::Position;
use libfuzzer_sys::fuzz_target;

fn check_round_trip(position: &Position) {
    let fen = position.to_fen();
    let mut again =
        Position::from_fen(&fen).unwrap_or_else(|e| panic!("its own FEN {fen:?} is refused: {e}"));
    // X-FEN does not record Chess960 mode (only the UCI notation of castling depends on it): a Chess960
    // position whose castling looks standard reads back in standard mode. A standard position must never read
    // back as Chess960, and apart from the mode the positions must be identical.
    assert!(
        position.is_chess960() || !again.is_chess960(),
        "a standard position read back as Chess960: {fen}"
    );
    again.set_chess960(position.is_chess960());
    assert_eq!(&again, position, "{fen}");
    assert_eq!(again.to_fen(), fen);
    assert_eq!(again.key(), position.key());
    assert_eq!(position.key(), position.compute_key(), "{fen}");
    // Move generation is total on every accepted position.
    let moves = position.legal_moves();
    assert_eq!(moves.len(), position.count_moves(), "{fen}");
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(position) = Position::from_fen(&text) {
        check_round_trip(&position);
    }
    if let Ok(epd) = Position::from_epd(&text) {
        check_round_trip(&epd.position);
    }
});
