//! The PGN of a finished game: the seven-tag roster plus the time control, the start position, the opening,
//! the termination and its reason; book moves commented `{book}`, engine moves with their score, depth and time
//! (`{+0.31/12 0.153s}`, as cutechess writes them); the reason again as the last comment.

use super::game::GameRecord;
use std::fmt::Write as _;
use std::time::SystemTime;

/// Movetext lines are kept below this length (PGN export format: at most 79 characters).
const LINE_LENGTH: usize = 79;

/// The game as PGN text, ending in a blank line.
pub fn game_to_pgn(record: &GameRecord, event: &str) -> String {
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", event.to_string()),
        ("Site", "?".into()),
        ("Date", pgn_date(record.started)),
        ("Round", record.job.number.to_string()),
        ("White", record.names[0].clone()),
        ("Black", record.names[1].clone()),
        ("Result", record.result.pgn().into()),
    ];
    if record.limits[0] == record.limits[1] {
        tags.push(("TimeControl", record.limits[0].pgn_time_control()));
    } else {
        tags.push(("WhiteTimeControl", record.limits[0].to_string()));
        tags.push(("BlackTimeControl", record.limits[1].to_string()));
    }
    if let Some(fen) = &record.start_fen {
        tags.push(("SetUp", "1".into()));
        tags.push(("FEN", fen.clone()));
    }
    tags.push(("Opening", record.opening_name.clone()));
    tags.push(("PlyCount", (record.book.len() + record.moves.len()).to_string()));
    tags.push(("Termination", record.termination.pgn_tag().into()));
    tags.push(("TerminationDetails", record.reason.clone()));
    tags.push(("GameDuration", format!("{:.1}s", record.duration.as_secs_f64())));

    let mut text = String::new();
    for (name, value) in &tags {
        let _ = writeln!(
            text,
            "[{name} \"{}\"]",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        );
    }
    text.push('\n');

    // The start position's side to move and move number, to number the moves.
    let (mut white_to_move, mut number) = record.start_turn();
    let mut tokens = Vec::new();
    let comments = record
        .book
        .iter()
        .map(|san| (san, "book".to_string()))
        .chain(record.moves.iter().map(|mv| {
            let mut comment = String::new();
            match (mv.score, mv.depth) {
                (Some(score), Some(depth)) => comment.push_str(&format!("{}/{depth} ", score.to_pgn())),
                (Some(score), None) => comment.push_str(&format!("{} ", score.to_pgn())),
                _ => {}
            }
            comment.push_str(&format!("{:.3}s", mv.elapsed.as_secs_f64()));
            (&mv.san, comment)
        }));
    for (san, comment) in comments {
        // Every move carries a comment, so Black's moves repeat their number (`12...`), as export format asks.
        tokens.push(if white_to_move {
            format!("{number}.")
        } else {
            format!("{number}...")
        });
        tokens.push(san.clone());
        tokens.push(format!("{{{comment}}}"));
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(format!("{{{}}}", record.reason));
    tokens.push(record.result.pgn().to_string());

    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE_LENGTH {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// `YYYY.MM.DD` in UTC.
fn pgn_date(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time)
        .format("%Y.%m.%d")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_dates_are_gregorian_with_dots() {
        let at = |days: u64| std::time::UNIX_EPOCH + std::time::Duration::from_secs(days * 86_400 + 3_600);
        assert_eq!(pgn_date(at(0)), "1970.01.01");
        assert_eq!(pgn_date(at(11_016)), "2000.02.29");
        assert_eq!(pgn_date(at(20_819)), "2027.01.01");
    }
}
