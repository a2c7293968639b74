//! The PGN of a finished game: the seven-tag roster plus the time control, the start position, the opening,
//! the termination and its reason; book moves commented `{book}`, engine moves with their score, depth and time
//! (`{+0.31/12 0.153s}`, as cutechess writes them); the reason again as the last comment.

use super::game::GameRecord;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

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
    let (mut white_to_move, mut number) = match &record.start_fen {
        Some(fen) => {
            let fields: Vec<&str> = fen.split_whitespace().collect();
            (
                fields.get(1) != Some(&"b"),
                fields.get(5).and_then(|n| n.parse::<u32>().ok()).unwrap_or(1),
            )
        }
        None => (true, 1),
    };
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
    let days = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The Gregorian date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_gregorian() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_819), (2027, 1, 1));
    }
}
