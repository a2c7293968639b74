//! Reading command lines with a length cap, in time linear in the input.
//!
//! A GUI writes one command per line. A line longer than [`MAX_LINE_BYTES`] cannot be a sensible command (the
//! longest possible game is under 6,000 moves, about 60 KB as a `position ... moves` line): it is read to its
//! end and dropped without being stored, so a hostile or broken peer cannot make the engine buffer gigabytes.
//! Bytes that are not UTF-8 are replaced (U+FFFD) rather than rejected, so they surface as an unknown token.

use std::io::{self, BufRead};

/// The longest line the engine accepts, in bytes, not counting the line terminator.
///
/// # Examples
///
/// ```
/// # #[derive(Clone, Default)]
/// # struct Transcript(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
/// # impl std::io::Write for Transcript {
/// #     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
/// #     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// # }
/// # impl Transcript {
/// #     fn text(&self) -> String { String::from_utf8(self.0.lock().unwrap().clone()).unwrap() }
/// # }
/// use eldest_uci::MAX_LINE_BYTES;
///
/// let length = MAX_LINE_BYTES + 1;
/// let input = format!("{}\nisready\n", "x".repeat(length));
/// let transcript = Transcript::default();
/// eldest_uci::run(input.as_bytes(), transcript.clone())?;
/// // The overlong line is dropped with a note; the engine still answers what follows.
/// let note = format!("ignored a line of {length} bytes: longer than the {MAX_LINE_BYTES}-byte limit");
/// assert_eq!(transcript.text(), format!("info string {note}\nreadyok\n"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// One line of input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line within the cap, without its `\n` or `\r\n` terminator.
    Text(String),
    /// A line over the cap, dropped: its length in bytes.
    TooLong(usize),
}

/// Reads lines of at most `cap` bytes from a [`BufRead`], reusing one buffer.
#[derive(Debug)]
pub(crate) struct LineReader<R> {
    input: R,
    buffer: Vec<u8>,
    cap: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of lines of at most `cap` bytes.
    pub(crate) fn new(input: R, cap: usize) -> Self {
        LineReader {
            input,
            buffer: Vec::new(),
            cap,
        }
    }

    /// The next line, or `None` at the end of the input. A last line without a terminator counts as a line.
    ///
    /// # Errors
    /// The input's own read errors (interruptions are retried).
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buffer.clear();
        let mut length = 0usize;
        let mut saw_any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (chunk, found_newline) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (&available[..at], true),
                None => (available, false),
            };
            length = length.saturating_add(chunk.len());
            let room = self.cap.saturating_sub(self.buffer.len());
            self.buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
            let consumed = chunk.len() + usize::from(found_newline);
            self.input.consume(consumed);
            if found_newline {
                break;
            }
        }
        if length > self.cap {
            return Ok(Some(Line::TooLong(length)));
        }
        if self.buffer.last() == Some(&b'\r') {
            self.buffer.pop();
        }
        Ok(Some(Line::Text(
            String::from_utf8_lossy(&self.buffer).into_owned(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Line> {
        // A tiny internal buffer forces lines to span many fill_buf calls.
        let mut reader = LineReader::new(io::BufReader::with_capacity(3, input), cap);
        std::iter::from_fn(|| reader.next_line().unwrap()).collect()
    }

    #[test]
    fn splits_lines_and_strips_terminators() {
        let got = lines(b"uci\r\nisready\n\nquit", 100);
        let want = ["uci", "isready", "", "quit"].map(|s| Line::Text(s.to_string()));
        assert_eq!(got, want);
    }

    #[test]
    fn overlong_lines_are_measured_and_dropped() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\nisready\n");
        assert_eq!(
            lines(&input, 10),
            [Line::TooLong(50), Line::Text("isready".into())]
        );
    }

    #[test]
    fn a_line_of_exactly_the_cap_is_kept() {
        assert_eq!(lines(b"0123456789\n", 10), [Line::Text("0123456789".into())]);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(lines(b"go \xff\n", 10), [Line::Text("go \u{fffd}".into())]);
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(lines(b"", 10).is_empty());
    }
}
