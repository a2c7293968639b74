//! eldest-data's reader on arbitrary bytes: it never panics, stops at the first error, and every game it
//! accepts writes and reads back to the same game, whose training positions replay without a panic.
#![no_main]

use eldest_data::{DataReader, scan, write_header};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = scan(data);
    let Ok(reader) = DataReader::new(data) else {
        return;
    };
    for game in reader {
        let Ok(game) = game else {
            break;
        };
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        game.write_to(&mut bytes)
            .expect("a game that was read can be written");
        let again = DataReader::new(bytes.as_slice())
            .unwrap()
            .next()
            .expect("one game")
            .expect("valid");
        assert_eq!(again, game);
        let scored = game.moves.iter().filter(|m| m.score.is_some()).count();
        assert_eq!(game.training_positions().count(), scored);
    }
});
