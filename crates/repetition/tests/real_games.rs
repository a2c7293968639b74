//! The rules of the crate docs, each checked with real moves on the real board: the keys and halfmove clocks
//! come from `eldest-board`, exactly as the search and the UCI `position` command will feed them.

use std::sync::Arc;

use eldest_board::Position;
use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions, fifty_move_draw};

/// Plays one UCI move on `position`.
fn play(position: &mut Position, uci: &str) {
    let mv = position
        .parse_uci_move(uci)
        .unwrap_or_else(|error| panic!("{uci}: {error:?}"));
    position.play_unchecked(mv);
}

/// The game as the UCI `position ... moves ...` command builds it: the start position, then one push per move.
fn game(start: Position, moves: &str) -> (Position, Arc<GameHistory>) {
    let mut position = start;
    let mut history = GameHistory::new();
    history.push(position.key(), position.halfmove_clock());
    for uci in moves.split_whitespace() {
        play(&mut position, uci);
        history.push(position.key(), position.halfmove_clock());
    }
    (position, Arc::new(history))
}

/// Plays `moves` from `root` as a search would (copy-make, one push per move) and returns the repetition verdict
/// at each new node.
fn search_line(root: &Position, history: &Arc<GameHistory>, rule: RepetitionRule, moves: &str) -> Vec<bool> {
    let mut path = SearchRepetitions::new(Arc::clone(history), rule);
    let mut position = *root;
    moves
        .split_whitespace()
        .map(|uci| {
            play(&mut position, uci);
            path.push(position.key(), position.halfmove_clock());
            path.is_repetition_draw()
        })
        .collect()
}

const SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8";

/// Rule 3, with the classic knight shuffle: the start position a third time is a threefold, the second time not.
#[test]
fn knight_shuffle_in_the_game_is_a_threefold_on_the_third_occurrence() {
    let start = Position::startpos();
    let (once_round, history) = game(start, SHUFFLE);
    assert_eq!(
        once_round.key(),
        start.key(),
        "the shuffle returns to the start position"
    );
    assert_eq!(history.count(start.key()), 2);
    assert!(!history.is_threefold());

    let (_, history) = game(start, &format!("{SHUFFLE} {SHUFFLE}"));
    assert_eq!(history.count(start.key()), 3);
    assert!(history.is_threefold());
    assert_eq!(history.len(), 9);

    let (_, history) = game(start, &format!("{SHUFFLE} {SHUFFLE} b1c3"));
    assert!(
        !history.is_threefold(),
        "a new position after the threefold is not one"
    );
}

/// Rule 1: once past the root, the first repetition of a search-path position is a draw.
#[test]
fn knight_shuffle_inside_the_search_is_a_draw_at_once() {
    let start = Position::startpos();
    let (root, history) = game(start, "");
    for rule in RepetitionRule::ALL {
        // Both knights out, the queen's knights out and back: ply 6 repeats ply 2.
        let verdicts = search_line(&root, &history, rule, "g1f3 g8f6 b1c3 b8c6 c3b1 c6b8");
        assert_eq!(verdicts, [false, false, false, false, false, true], "{rule}");
    }
}

/// The root belongs to the game: a return to it is a twofold with a game position, not an in-tree repetition.
/// Going round once more repeats the path, which is a draw.
#[test]
fn a_return_to_the_root_is_not_a_draw_but_going_round_again_is() {
    let (root, history) = game(Position::startpos(), "");
    let verdicts = search_line(
        &root,
        &history,
        RepetitionRule::Stockfish,
        &format!("{SHUFFLE} g1f3"),
    );
    assert_eq!(verdicts, [false, false, false, false, true]);
}

/// Rule 2 across the boundary: the game has been round once; the search completes the threefold.
#[test]
fn a_repetition_spanning_the_game_and_the_search_is_a_draw_at_the_threefold() {
    // Game: start, Nf3, Nf3 Nf6, Ng1, start again; then Nf3 — the root, whose position occurred before.
    let (root, history) = game(Position::startpos(), &format!("{SHUFFLE} g1f3"));
    let verdicts = search_line(&root, &history, RepetitionRule::Stockfish, "g8f6 f3g1 f6g8 g1f3");
    // g8f6, f3g1: each a second occurrence (one in the game) — play on. f6g8: the start position, twice in the
    // game — threefold. g1f3 would be the root's position a third time, also a threefold.
    assert_eq!(verdicts, [false, false, true, true]);

    // A position the game has seen only once is a twofold across the boundary: not a draw.
    let (root, history) = game(Position::startpos(), "g1f3 g8f6");
    let verdicts = search_line(&root, &history, RepetitionRule::Stockfish, "f3g1 f6g8");
    assert_eq!(verdicts, [false, false]);
}

/// Rule 4: under micro-Max's rule any return to a game position before the root is a draw at once.
#[test]
fn micro_max_draws_the_first_return_to_a_game_position() {
    let (root, history) = game(Position::startpos(), "g1f3 g8f6 f3g1");
    let stockfish = search_line(&root, &history, RepetitionRule::Stockfish, "f6g8 g1f3");
    let micro_max = search_line(&root, &history, RepetitionRule::MicroMax, "f6g8 g1f3");
    assert_eq!(stockfish, [false, false]);
    assert_eq!(micro_max, [true, true]);

    // The root itself is not pinned (the search keeps its best move there): returning to it is no draw.
    let return_to_root = search_line(&root, &history, RepetitionRule::MicroMax, "b8c6 b1c3 c6b8 c3b1");
    assert_eq!(return_to_root, [false, false, false, false]);
}

/// Rule 4 realised in the transposition table: over every two-ply line from a root that has been through a
/// shuffle, the micro-Max verdict is exactly "the key is one of the pinned game keys".
#[test]
fn micro_max_verdicts_match_the_pinned_keys_over_all_two_ply_lines() {
    let (root, history) = game(Position::startpos(), "g1f3 g8f6 f3g1 f6g8 b1c3 b8c6");
    let mut checked = 0;
    let mut drawn = 0;
    for &first in root.legal_moves().iter() {
        let mut after_first = root;
        after_first.play_unchecked(first);
        for &second in after_first.legal_moves().iter() {
            let mut after_second = after_first;
            after_second.play_unchecked(second);
            let mut path = SearchRepetitions::new(Arc::clone(&history), RepetitionRule::MicroMax);
            path.push(after_first.key(), after_first.halfmove_clock());
            path.push(after_second.key(), after_second.halfmove_clock());
            let pinned = history.pinned_keys().contains(&after_second.key());
            assert_eq!(path.is_repetition_draw(), pinned);
            checked += 1;
            drawn += usize::from(pinned);
        }
    }
    assert!(checked > 400);
    // At least c3b1 c6b8, back to the start position, returns to a pinned game position.
    assert!(drawn >= 1);
}

/// Rule 6: a pawn move cuts the game history; positions before it are gone.
#[test]
fn a_pawn_move_cuts_the_game_history() {
    let start = Position::startpos();
    let (_, history) = game(start, &format!("{SHUFFLE} e2e4"));
    assert_eq!(history.len(), 1);
    assert_eq!(history.count(start.key()), 0);
    assert_eq!(history.halfmove_clock(), Some(0));
}

/// Rule 6: so does a capture.
#[test]
fn a_capture_cuts_the_game_history() {
    let (position, history) = game(Position::startpos(), "e2e4 d7d5 g1f3 b8c6 e4d5 c6b8 f3g1");
    assert_eq!(position.halfmove_clock(), 2);
    assert_eq!(history.len(), 3, "after e4xd5 and two knight moves");
}

/// Rule 6 inside the search: a capture in the path stops the lookback, and the game behind it is out of reach.
#[test]
fn a_capture_in_the_search_cuts_the_lookback() {
    let (root, history) = game(Position::startpos(), &format!("e2e4 d7d5 {SHUFFLE} {SHUFFLE}"));
    // The root (after the shuffles) has occurred three times in the game.
    assert!(history.is_threefold());
    // e4xd5, then knights out and back: the root's pieces but a pawn fewer — never a game position again, and
    // the shuffle after the capture is only compared with positions after it.
    let verdicts = search_line(
        &root,
        &history,
        RepetitionRule::MicroMax,
        &format!("e4d5 d8d5 {SHUFFLE} g1f3"),
    );
    // Ply 6 repeats ply 2 (after Qxd5), ply 7 repeats ply 3.
    assert_eq!(verdicts, [false, false, false, false, false, true, true]);
}

/// Builds a position from FEN and plays one move.
fn after(fen: &str, uci: &str) -> Position {
    let mut position = Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error:?}"));
    play(&mut position, uci);
    position
}

/// Back-rank mate available with the halfmove clock at 99.
const MATE_IN_ONE_AT_99: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80";

/// Rule 5: a quiet move to halfmove clock 100 draws.
#[test]
fn the_hundredth_quiet_half_move_is_a_fifty_move_draw() {
    let position = after(MATE_IN_ONE_AT_99, "a1a2");
    assert_eq!(position.halfmove_clock(), 100);
    assert!(fifty_move_draw(position.halfmove_clock(), || position.is_checkmate()));
}

/// Rule 5 at the edge: one half-move earlier is not yet a draw.
#[test]
fn the_ninety_ninth_half_move_is_not_a_fifty_move_draw() {
    let position = after("6k1/5ppp/8/8/8/8/8/R5K1 w - - 98 80", "a1a2");
    assert_eq!(position.halfmove_clock(), 99);
    assert!(!fifty_move_draw(position.halfmove_clock(), || position.is_checkmate()));
}

/// Rule 5's exception: mate delivered on the hundredth half-move wins.
#[test]
fn mate_on_the_hundredth_half_move_is_a_win_not_a_draw() {
    let position = after(MATE_IN_ONE_AT_99, "a1a8");
    assert_eq!(position.halfmove_clock(), 100);
    assert!(position.is_checkmate());
    assert!(!fifty_move_draw(position.halfmove_clock(), || position.is_checkmate()));
}

/// Rule 5: a check that is not mate on the hundredth half-move is still a draw.
#[test]
fn check_without_mate_on_the_hundredth_half_move_is_a_draw() {
    // Without the h7 pawn the king escapes to h7.
    let position = after("6k1/5pp1/8/8/8/8/8/R5K1 w - - 99 80", "a1a8");
    assert!(position.in_check());
    assert!(!position.is_checkmate());
    assert!(fifty_move_draw(position.halfmove_clock(), || position.is_checkmate()));
}

/// Rule 5 with rule 6: a capture on the hundredth half-move resets the clock, so no draw.
#[test]
fn a_capture_on_the_hundredth_half_move_resets_the_clock() {
    let capture = after("r5k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", "a1a8");
    assert_eq!(capture.halfmove_clock(), 0);
    assert!(!fifty_move_draw(capture.halfmove_clock(), || capture.is_checkmate()));
}
