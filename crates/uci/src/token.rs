//! Splitting a line into whitespace-separated tokens that remember where they start.

/// A token and the byte offset where it starts in the line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    /// Byte offset of the token in the line.
    pub(crate) start: usize,
    /// The token.
    pub(crate) text: &'a str,
}

/// The tokens of `line`, in order; any Unicode whitespace separates them.
pub(crate) fn tokenize(line: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (at, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                tokens.push(Token {
                    start: from,
                    text: &line[from..at],
                });
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    if let Some(from) = start {
        tokens.push(Token {
            start: from,
            text: &line[from..],
        });
    }
    tokens
}
