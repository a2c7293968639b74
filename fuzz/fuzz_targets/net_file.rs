//! The net file reader on arbitrary bytes: it never panics, and a net it accepts evaluates positions, from
//! scratch and incrementally along a game, without a panic (no overflow in debug builds either).
#![no_main]

use eldest_board::Position;
use eldest_search::nnue::Network;
use eldest_search::{Engine, Evaluation, SearchControl, SearchLimits, SearchOptions};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(network) = Network::from_bytes(data) else {
        return;
    };
    let network = Arc::new(network);
    for fen in [
        eldest_board::STARTPOS_FEN,
        "r3k2r/pppq1ppp/2npbn2/4p3/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
        "8/2P3k1/8/3pP3/8/8/5p2/R3K3 w Q d6 0 1",
    ] {
        let position = Position::from_fen(fen).unwrap();
        let _ = network.evaluate(&position);
    }
    let root = Position::startpos();
    let game = Arc::new([(root.key(), root.halfmove_clock())].into_iter().collect());
    let mut engine = Engine::new(1).unwrap();
    engine.set_evaluation(Evaluation::Nnue(network));
    let limits = SearchLimits {
        nodes: Some(300),
        ..SearchLimits::default()
    };
    let outcome = engine.search(
        &root,
        game,
        &limits,
        &SearchOptions::default(),
        &SearchControl::new(),
        &mut |_| {},
    );
    assert!(outcome.best_move.is_some());
});
