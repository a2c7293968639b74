//! The UCI line parser on arbitrary text: it never panics, and parsing is a function of the line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    // A line never holds a line break: the reader splits there.
    if line.contains(['\n', '\r']) {
        return;
    }
    let first = eldest_uci::parse_line(&line);
    let second = eldest_uci::parse_line(&line);
    assert_eq!(first, second, "the same line parsed two ways");
    if let Err(error) = first {
        // Every refusal can be told to the GUI in one info string.
        let message = error.to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{message:?}");
    }
});
