//! Opening positions for the games, from an EPD or a PGN file, checked with eldest-board.
//!
//! EPD: one position per line (`#` starts a comment line), named by its `id` operation. A line with a `moves`
//! operation (UCI moves from the standard start, as in `tools/strength/openings.epd`) is played from the start
//! position instead, so the games' PGN holds the opening moves; the moves must lead to the line's position.
//!
//! PGN: each game's main line (comments, variations, NAGs, move numbers and results skipped), from its `FEN` tag
//! or the standard start, in SAN checked move by move; named by its `Opening`/`ECO`/`Event` tags.

use super::adjudication::{Repetitions, rule_ending};
use eldest_board::{Move, Position, STARTPOS_FEN};
use std::path::Path;

/// One opening: a start position and the moves played from it before the engines take over.
#[derive(Debug, Clone)]
pub struct Opening {
    /// A name for the PGN and the progress lines.
    pub name: String,
    /// The position the game starts from (the standard start unless `start_fen` says otherwise).
    pub start: Position,
    /// The FEN of `start` when it is not the standard start position.
    pub start_fen: Option<String>,
    /// The opening moves from `start`.
    pub moves: Vec<Move>,
}

/// The two formats of an openings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One position per line.
    Epd,
    /// Games, whose main lines are the openings.
    Pgn,
}

/// Reads the openings of `path` (`.epd` or `.pgn`), keeping at most `max_plies` moves of each PGN game.
///
/// # Errors
/// A message with the file and line or game at fault: an unreadable file, an unknown extension, a bad FEN, an
/// illegal or ambiguous move, an opening that ends the game, or a file without openings.
pub fn load(path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
    let format = match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("epd") => Format::Epd,
        Some("pgn") => Format::Pgn,
        _ => {
            return Err(format!(
                "{}: the openings file must end in .epd or .pgn",
                path.display()
            ));
        }
    };
    parse(&text, format, max_plies).map_err(|e| format!("{}: {e}", path.display()))
}

/// The openings of an EPD or PGN text, checked: each is a legal standard-chess line that does not end the game.
/// This is [`load`] without the file, and what the fuzz target `openings` feeds arbitrary text.
///
/// # Errors
/// As [`load`], without the file name.
pub fn parse(text: &str, format: Format, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let mut openings = match format {
        Format::Epd => parse_epd(text),
        Format::Pgn => parse_pgn(text, max_plies),
    }?;
    for opening in &mut openings {
        if let Some(limit) = max_plies {
            opening.moves.truncate(limit);
        }
    }
    if openings.is_empty() {
        return Err("no openings in the file".to_string());
    }
    for opening in &openings {
        // The runner speaks standard UCI castling (e1g1) and never sets UCI_Chess960.
        if opening.start.is_chess960() {
            return Err(format!(
                "opening '{}' is a Chess960 position, which is not supported",
                opening.name
            ));
        }
        let mut repetitions = Repetitions::default();
        let mut position = opening.start;
        repetitions.record(&position);
        for &mv in &opening.moves {
            position.play_unchecked(mv);
            repetitions.record(&position);
        }
        if let Some(ending) = rule_ending(&position, &repetitions) {
            return Err(format!(
                "opening '{}' leaves a finished game ({ending:?})",
                opening.name
            ));
        }
    }
    Ok(openings)
}

/// Parses EPD text; see the module documentation.
fn parse_epd(text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |message: String| format!("line {}: {message}", index + 1);
        let epd = Position::from_epd(line).map_err(|e| at(e.to_string()))?;
        let name = epd
            .operation("id")
            .map_or_else(|| format!("line {}", index + 1), str::to_string);
        let opening = match epd.operation("moves") {
            None => Opening {
                name,
                start_fen: Some(epd.position.to_fen()),
                start: epd.position,
                moves: Vec::new(),
            },
            Some(moves) => {
                let start = Position::startpos();
                let mut position = start;
                let mut played = Vec::new();
                for text in moves.split_whitespace() {
                    let mv = position
                        .parse_uci_move(text)
                        .map_err(|e| at(format!("moves: {e}")))?;
                    position.play_unchecked(mv);
                    played.push(mv);
                }
                if position.key() != epd.position.key() {
                    return Err(at(
                        "the `moves` from the start position do not lead to the line's position".into(),
                    ));
                }
                Opening {
                    name,
                    start,
                    start_fen: None,
                    moves: played,
                }
            }
        };
        openings.push(opening);
    }
    Ok(openings)
}

/// One PGN game's tags and movetext, as text.
#[derive(Debug, Default)]
struct PgnGame {
    tags: Vec<(String, String)>,
    movetext: String,
    first_line: usize,
}

impl PgnGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Splits PGN text into games: a tag section followed by movetext.
fn split_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut current = PgnGame::default();
    let mut in_movetext = false;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('%') {
            continue; // PGN escape line
        }
        // A `[` inside a comment that spans lines is comment text, not a tag.
        let inside_comment = current.movetext.matches('{').count() > current.movetext.matches('}').count();
        if line.starts_with('[') && !inside_comment {
            if in_movetext {
                games.push(std::mem::take(&mut current));
                in_movetext = false;
            }
            if current.tags.is_empty() {
                current.first_line = index + 1;
            }
            let inner = line.trim_start_matches('[').trim_end_matches(']');
            let (name, value) = inner
                .split_once(char::is_whitespace)
                .ok_or_else(|| format!("line {}: malformed tag '{line}'", index + 1))?;
            let value = value.trim().trim_matches('"').replace("\\\"", "\"");
            current.tags.push((name.to_string(), value));
        } else if !line.is_empty() {
            if !in_movetext && current.tags.is_empty() {
                current.first_line = index + 1;
            }
            in_movetext = true;
            current.movetext.push_str(line);
            current.movetext.push('\n');
        }
    }
    if in_movetext || !current.tags.is_empty() {
        games.push(current);
    }
    Ok(games)
}

/// The SAN tokens of a movetext's main line.
fn main_line_tokens(movetext: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut depth = 0usize; // variation nesting
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, tokens: &mut Vec<String>, depth: usize| {
        if depth == 0 && !word.is_empty() {
            tokens.push(std::mem::take(word));
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut tokens, depth);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err("a comment `{` is never closed".into());
                }
            }
            ';' => {
                flush(&mut word, &mut tokens, depth);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut word, &mut tokens, depth);
                depth += 1;
            }
            ')' => {
                flush(&mut word, &mut tokens, depth);
                depth = depth.checked_sub(1).ok_or("a `)` closes no variation")?;
            }
            c if c.is_whitespace() => flush(&mut word, &mut tokens, depth),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut tokens, depth);
    if depth != 0 {
        return Err("a variation `(` is never closed".into());
    }
    let mut sans = Vec::new();
    for token in tokens {
        if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            break;
        }
        if token.starts_with('$') {
            continue; // NAG
        }
        // Move numbers, possibly glued to the move: `12.`, `12...`, `12.Nf3`.
        let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !san.is_empty() {
            sans.push(san.to_string());
        }
    }
    Ok(sans)
}

/// Parses PGN text; see the module documentation.
fn parse_pgn(text: &str, max_plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, game) in split_pgn(text)?.into_iter().enumerate() {
        let at = |message: String| format!("game {} (line {}): {message}", number + 1, game.first_line);
        let start_fen = game.tag("FEN").map(str::to_string);
        let start = Position::from_fen(start_fen.as_deref().unwrap_or(STARTPOS_FEN))
            .map_err(|e| at(format!("FEN tag: {e}")))?;
        let mut position = start;
        let mut moves = Vec::new();
        for san in main_line_tokens(&game.movetext).map_err(at)? {
            if max_plies.is_some_and(|limit| moves.len() >= limit) {
                break;
            }
            let mv = position
                .parse_san(&san)
                .map_err(|e| at(format!("ply {}: {e}", moves.len() + 1)))?;
            position.play_unchecked(mv);
            moves.push(mv);
        }
        let name = game
            .tag("Opening")
            .or(game.tag("ECO"))
            .or(game.tag("Event"))
            .filter(|name| !name.is_empty() && *name != "?")
            .map_or_else(|| format!("game {}", number + 1), str::to_string);
        openings.push(Opening {
            name,
            start,
            start_fen,
            moves,
        });
    }
    Ok(openings)
}

/// Shuffles `openings` reproducibly with `seed` (Fisher–Yates driven by eldest-hashing's SplitMix64).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut stream = eldest_hashing::SplitMix64::new(seed);
    for i in (1..openings.len()).rev() {
        let j = stream.below(i as u64 + 1) as usize;
        openings.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, contents: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    #[test]
    fn the_shipped_openings_load() {
        let path = crate::cargo::workspace_root().join("tools/strength/openings.epd");
        let openings = load(&path, None).unwrap();
        assert_eq!(openings.len(), 74);
        assert_eq!(openings[0].name, "C60 Ruy Lopez");
        assert_eq!(openings[0].moves.len(), 8);
        assert!(openings[0].start_fen.is_none());
        // The default set: the same lines two plies deeper (tools/strength/make_openings.py --extend).
        let wide = load(
            &crate::cargo::workspace_root().join("tools/strength/openings-wide.epd"),
            None,
        )
        .unwrap();
        assert!(wide.len() > 500, "{}", wide.len());
        assert!(
            wide.iter()
                .all(|opening| opening.moves.len() == 10 && opening.start_fen.is_none())
        );
    }

    #[test]
    fn epd_positions_with_and_without_moves() {
        let path = write(
            "two.epd",
            "# a comment\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"open\"; moves \"e2e4 e7e5\";\n\
             \n\
             4k3/8/8/8/8/8/4P3/4K3 w - - id \"pawn ending\";\n",
        );
        let openings = load(&path, None).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].moves.len(), 2);
        assert_eq!(openings[1].name, "pawn ending");
        assert_eq!(
            openings[1].start_fen.as_deref(),
            Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        );
    }

    #[test]
    fn pgn_main_lines_skip_comments_variations_and_numbers() {
        let path = write(
            "games.pgn",
            "[Event \"?\"]\n[Opening \"Italian\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3)) 2.Nf3 $1 \
             Nc6 3. Bc4 ; a line comment\n3... Bc5 1-0\n\n\
             [Event \"from a FEN\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n",
        );
        let openings = load(&path, None).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].name, "Italian");
        let sans: Vec<String> = {
            let mut position = openings[0].start;
            openings[0]
                .moves
                .iter()
                .map(|&mv| {
                    let san = position.move_to_san(mv);
                    position.play_unchecked(mv);
                    san
                })
                .collect()
        };
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
        assert_eq!(openings[1].name, "from a FEN");
        assert_eq!(openings[1].moves.len(), 2);
        assert_eq!(load(&path, Some(4)).unwrap()[0].moves.len(), 4);
    }

    #[test]
    fn bad_files_give_messages_not_panics() {
        let cases = [
            ("bad-fen.epd", "rnbqkbnr/pppppppp/8/8 w KQkq -\n", "line 1"),
            (
                "bad-moves.epd",
                "4k3/8/8/8/8/8/4P3/4K3 w - - moves \"e2e5\";\n",
                "moves",
            ),
            (
                "wrong-moves.epd",
                "4k3/8/8/8/8/8/4P3/4K3 w - - moves \"e2e4\";\n",
                "do not lead",
            ),
            ("empty.epd", "# nothing\n", "no openings"),
            ("illegal.pgn", "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n", "ply 3"),
            ("open-comment.pgn", "1. e4 { never closed\n", "never closed"),
            ("mated.pgn", "1. f3 e5 2. g4 Qh4# 0-1\n", "finished game"),
            (
                "chess960.epd",
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - id \"960\";\n",
                "Chess960",
            ),
            ("openings.txt", "whatever\n", ".epd or .pgn"),
        ];
        for (name, contents, expected) in cases {
            let error = load(&write(name, contents), None).unwrap_err();
            assert!(error.contains(expected), "{name}: {error}");
        }
        assert!(
            load(Path::new("/no/such/file.epd"), None)
                .unwrap_err()
                .contains("cannot read")
        );
    }

    #[test]
    fn shuffling_is_reproducible_and_keeps_every_opening() {
        let path = crate::cargo::workspace_root().join("tools/strength/openings.epd");
        let original = load(&path, None).unwrap();
        let mut first = original.clone();
        let mut second = original.clone();
        shuffle(&mut first, 7);
        shuffle(&mut second, 7);
        let names = |openings: &[Opening]| openings.iter().map(|o| o.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&first), names(&second));
        assert_ne!(names(&first), names(&original));
        let mut sorted_first = names(&first);
        let mut sorted_original = names(&original);
        sorted_first.sort();
        sorted_original.sort();
        assert_eq!(sorted_first, sorted_original);
    }
}
