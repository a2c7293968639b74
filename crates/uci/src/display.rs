//! The `d` command's board diagram, in Stockfish's layout.

use eldest_board::{File, Position, Rank, Square};
use std::fmt::Write;

/// The board as ASCII art (White at the bottom), then `Fen:`, `Key:` (16 upper-case hex digits) and
/// `Checkers:` lines.
///
/// # Examples
/// ```
/// use eldest_board::Position;
/// let text = eldest_uci::board_diagram(&Position::startpos());
/// assert!(text.contains(" | r | n | b | q | k | b | n | r | 8"));
/// assert!(text.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
/// ```
pub fn board_diagram(position: &Position) -> String {
    const RULE: &str = " +---+---+---+---+---+---+---+---+";
    let mut text = String::new();
    let _ = writeln!(text);
    let _ = writeln!(text, "{RULE}");
    for rank in Rank::ALL.iter().rev() {
        for file in File::ALL {
            let piece = position
                .piece_on(Square::new(file, *rank))
                .map_or(' ', |piece| piece.to_char());
            let _ = write!(text, " | {piece}");
        }
        let _ = writeln!(text, " | {}", rank.to_char());
        let _ = writeln!(text, "{RULE}");
    }
    let _ = writeln!(text, "   a   b   c   d   e   f   g   h");
    let _ = writeln!(text);
    let _ = writeln!(text, "Fen: {}", position.to_fen());
    let _ = writeln!(text, "Key: {:016X}", position.key());
    let checkers: Vec<String> = position.checkers().into_iter().map(|sq| sq.to_string()).collect();
    let _ = write!(text, "Checkers: {}", checkers.join(" "));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_lines() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        let text = board_diagram(&pos);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "");
        assert_eq!(lines[1], " +---+---+---+---+---+---+---+---+");
        assert_eq!(lines[2], " |   |   |   |   | k |   |   |   | 8");
        assert_eq!(lines[14], " |   |   |   |   | r |   |   |   | 2");
        assert_eq!(lines[16], " |   |   |   |   | K |   |   |   | 1");
        assert_eq!(lines[18], "   a   b   c   d   e   f   g   h");
        assert_eq!(lines[20], "Fen: 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        assert_eq!(lines[21], format!("Key: {:016X}", pos.key()));
        assert_eq!(lines[22], "Checkers: e2");
    }
}
