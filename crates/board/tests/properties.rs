//! Property tests (proptest, fixed seed and case count, so every run checks the same cases): positions reached by
//! random move sequences from random start positions — the CPW positions and all 960 Chess960 starts — round-trip
//! through FEN, and their incrementally updated key is the key of that FEN read back.

mod support;

use eldest_board::{Move, Position};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use support::{CPW_FENS, Rng, chess960_start_fen, random_fen};

/// 256 cases per property, from a fixed seed; no regression files are written.
fn config() -> Config {
    Config {
        cases: 256,
        rng_seed: RngSeed::Fixed(0xE1DE_5701),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A start position: one of the CPW positions, or one of the 960 Chess960 starts (Shredder-FEN).
fn start_fen() -> impl Strategy<Value = String> {
    prop_oneof![
        (0..CPW_FENS.len()).prop_map(|i| CPW_FENS[i].to_string()),
        (0u32..960).prop_map(chess960_start_fen),
    ]
}

/// Plays the moves picked by `choices` (each taken modulo the number of legal moves), stopping at a game end.
/// Returns the positions visited, the start first, and the moves played.
fn play_choices(start: &Position, choices: &[u16]) -> (Vec<Position>, Vec<Move>) {
    let mut pos = *start;
    let mut positions = vec![pos];
    let mut played = Vec::new();
    for &choice in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice as usize % moves.len()];
        pos.play_unchecked(mv);
        positions.push(pos);
        played.push(mv);
    }
    (positions, played)
}

/// Reads `fen` back; the Chess960 flag (which X-FEN cannot carry when the castling looks standard) is taken from
/// `like`.
fn reparse(fen: &str, like: &Position) -> Position {
    let mut back = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    back.set_chess960(like.is_chess960());
    back
}

proptest! {
    #![proptest_config(config())]

    /// Every position along a random game reads back from its FEN as the same position, and writes the same FEN.
    #[test]
    fn fen_round_trips_along_random_games(fen in start_fen(), choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let start = Position::from_fen(&fen).expect("start positions are valid");
        let (positions, _) = play_choices(&start, &choices);
        for pos in &positions {
            let fen = pos.to_fen();
            let back = reparse(&fen, pos);
            prop_assert_eq!(back, *pos, "{}", fen);
            prop_assert_eq!(back.to_fen(), fen);
        }
    }

    /// The key after a sequence of moves (updated move by move) is the key of the resulting FEN read from scratch.
    #[test]
    fn key_after_moves_equals_key_of_reparsed_fen(fen in start_fen(), choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let start = Position::from_fen(&fen).expect("start positions are valid");
        let (positions, _) = play_choices(&start, &choices);
        let last = positions.last().expect("the start is always there");
        let back = Position::from_fen(&last.to_fen()).expect("our FEN is valid");
        prop_assert_eq!(last.key(), back.key(), "{}", last.to_fen());
        prop_assert_eq!(last.key(), last.compute_key());
    }

    /// Replaying a game from its UCI or SAN text reaches the same position, move for move.
    #[test]
    fn replaying_uci_or_san_text_reaches_the_same_position(fen in start_fen(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let start = Position::from_fen(&fen).expect("start positions are valid");
        let (positions, played) = play_choices(&start, &choices);
        let (mut by_uci, mut by_san) = (start, start);
        for (i, &mv) in played.iter().enumerate() {
            let uci = by_uci.move_to_uci(mv);
            let san = by_san.move_to_san(mv);
            by_uci.play_unchecked(by_uci.parse_uci_move(&uci).map_err(|e| TestCaseError::fail(e.to_string()))?);
            by_san.play_unchecked(by_san.parse_san(&san).map_err(|e| TestCaseError::fail(e.to_string()))?);
            prop_assert_eq!(by_uci, positions[i + 1]);
            prop_assert_eq!(by_san, positions[i + 1]);
        }
    }

    /// Whether a move gives check, decided before the move, is whether the side to move is in check after it:
    /// for every legal move of every position along a random game.
    #[test]
    fn gives_check_is_check_after_the_move(fen in start_fen(), choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let start = Position::from_fen(&fen).expect("start positions are valid");
        let (positions, _) = play_choices(&start, &choices);
        for pos in &positions {
            for &mv in pos.legal_moves().iter() {
                let mut child = *pos;
                child.play_unchecked(mv);
                prop_assert_eq!(pos.gives_check(mv), child.in_check(), "{} {:?}", pos, mv);
            }
        }
    }

    /// Perft at depth 2 is the sum of the children's move counts, wherever a random game ends.
    #[test]
    fn perft_2_is_the_sum_of_the_childrens_move_counts(fen in start_fen(), choices in prop::collection::vec(any::<u16>(), 0..100)) {
        let start = Position::from_fen(&fen).expect("start positions are valid");
        let (positions, _) = play_choices(&start, &choices);
        let last = positions.last().expect("the start is always there");
        let sum: u64 = last
            .legal_moves()
            .iter()
            .map(|&mv| {
                let mut child = *last;
                child.play_unchecked(mv);
                child.count_moves() as u64
            })
            .sum();
        prop_assert_eq!(last.perft(2), sum);
    }

    /// The same holds from random placements (odd positions no game reaches): FEN round trip and key.
    #[test]
    fn random_placements_round_trip_through_fen(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 0..20)) {
        let mut rng = Rng::new(seed);
        let start = loop {
            if let Ok(pos) = Position::from_fen(&random_fen(&mut rng)) {
                break pos;
            }
        };
        let (positions, _) = play_choices(&start, &choices);
        for pos in &positions {
            let fen = pos.to_fen();
            let back = reparse(&fen, pos);
            prop_assert_eq!(back, *pos, "{}", fen);
            prop_assert_eq!(back.key(), pos.compute_key());
        }
    }
}
