//! Formatting the search's structured reports as `info` and `bestmove` lines.

use eldest_board::Move;
use eldest_search::{IterationReport, Score, ScoreBound, SearchOutcome};
use std::fmt::Write;

/// `cp X` or `mate N`.
///
/// # Examples
///
/// ```
/// use eldest_search::Score;
/// use eldest_uci::format_score;
///
/// assert_eq!(format_score(Score::Centipawns(-35)), "cp -35");
/// // Mates count moves, not plies, and are negative when the side to move is mated.
/// assert_eq!(format_score(Score::Mate(-2)), "mate -2");
/// ```
pub fn format_score(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    }
}

/// The `info` line of one principal variation:
/// `info depth D seldepth S multipv K score cp X|mate N [lowerbound|upperbound] nodes N nps N hashfull H time T
/// pv m1 m2 ...`. Moves are written the Chess960 way (king takes rook) when `chess960` is set.
///
/// # Examples
/// ```
/// use eldest_board::Position;
/// use eldest_search::{IterationReport, Score, ScoreBound};
/// use eldest_uci::format_info;
/// use std::time::Duration;
///
/// let pos = Position::startpos();
/// let report = IterationReport {
///     depth: 2, seldepth: 3, multipv: 1, score: Score::Centipawns(25), bound: ScoreBound::Lower,
///     nodes: 1000, time: Duration::from_millis(4), hashfull: 0,
///     pv: vec![pos.parse_uci_move("e2e4").unwrap()],
/// };
/// assert_eq!(
///     format_info(&report, false),
///     "info depth 2 seldepth 3 multipv 1 score cp 25 lowerbound nodes 1000 nps 250000 hashfull 0 time 4 pv e2e4"
/// );
/// ```
pub fn format_info(report: &IterationReport, chess960: bool) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        report.depth,
        report.seldepth,
        report.multipv,
        format_score(report.score)
    );
    match report.bound {
        ScoreBound::Exact => {}
        ScoreBound::Lower => line.push_str(" lowerbound"),
        ScoreBound::Upper => line.push_str(" upperbound"),
    }
    let _ = write!(
        line,
        " nodes {} nps {} hashfull {} time {}",
        report.nodes,
        report.nps(),
        report.hashfull,
        report.time.as_millis()
    );
    if !report.pv.is_empty() {
        line.push_str(" pv");
        push_moves(&mut line, &report.pv, chess960);
    }
    line
}

/// `bestmove <m> [ponder <m>]`, or `bestmove 0000` when there is no move.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use eldest_board::Position;
/// use eldest_search::{Score, SearchOutcome};
/// use eldest_uci::format_bestmove;
///
/// let e4 = Position::startpos().parse_uci_move("e2e4").ok();
/// let (score, time) = (Score::Centipawns(30), Duration::from_millis(2));
/// let outcome = SearchOutcome { best_move: e4, ponder_move: None, score, depth: 4, nodes: 900, time };
/// assert_eq!(format_bestmove(&outcome, false), "bestmove e2e4");
/// // Mated or stalemated at the root: the GUI still needs an answer, so it gets the null move.
/// let no_move = SearchOutcome { best_move: None, ..outcome };
/// assert_eq!(format_bestmove(&no_move, false), "bestmove 0000");
/// ```
pub fn format_bestmove(outcome: &SearchOutcome, chess960: bool) -> String {
    format_bestmove_parts(outcome.best_move, outcome.ponder_move, chess960)
}

/// [`format_bestmove`] from its parts.
pub(crate) fn format_bestmove_parts(best: Option<Move>, ponder: Option<Move>, chess960: bool) -> String {
    match best {
        None => "bestmove 0000".to_string(),
        Some(best) => match ponder {
            Some(ponder) => format!(
                "bestmove {} ponder {}",
                best.to_uci(chess960),
                ponder.to_uci(chess960)
            ),
            None => format!("bestmove {}", best.to_uci(chess960)),
        },
    }
}

fn push_moves(line: &mut String, moves: &[Move], chess960: bool) {
    for mv in moves {
        let _ = write!(line, " {}", mv.to_uci(chess960));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_board::Position;
    use std::time::Duration;

    fn report(score: Score, bound: ScoreBound, pv: Vec<Move>) -> IterationReport {
        IterationReport {
            depth: 12,
            seldepth: 20,
            multipv: 2,
            score,
            bound,
            nodes: 3_000_000,
            time: Duration::from_millis(1500),
            hashfull: 123,
            pv,
        }
    }

    #[test]
    fn mate_scores_bounds_and_empty_pv() {
        assert_eq!(
            format_info(&report(Score::Mate(-3), ScoreBound::Upper, vec![]), false),
            "info depth 12 seldepth 20 multipv 2 score mate -3 upperbound nodes 3000000 nps 2000000 hashfull 123 time 1500"
        );
        assert_eq!(
            format_info(&report(Score::Mate(2), ScoreBound::Exact, vec![]), false),
            "info depth 12 seldepth 20 multipv 2 score mate 2 nodes 3000000 nps 2000000 hashfull 123 time 1500"
        );
    }

    #[test]
    fn castling_follows_the_chess960_flag() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let castle = pos.parse_uci_move("e1g1").unwrap();
        let reply = pos.parse_uci_move("a1a8").unwrap();
        let line = format_info(
            &report(Score::Centipawns(-7), ScoreBound::Exact, vec![castle]),
            false,
        );
        assert!(
            line.ends_with("score cp -7 nodes 3000000 nps 2000000 hashfull 123 time 1500 pv e1g1"),
            "{line}"
        );
        assert!(
            format_info(
                &report(Score::Centipawns(0), ScoreBound::Exact, vec![castle]),
                true
            )
            .ends_with("pv e1h1")
        );
        assert_eq!(
            format_bestmove_parts(Some(castle), Some(reply), false),
            "bestmove e1g1 ponder a1a8"
        );
        assert_eq!(format_bestmove_parts(Some(castle), None, true), "bestmove e1h1");
        assert_eq!(format_bestmove_parts(None, Some(reply), false), "bestmove 0000");
    }
}
