//! The repetition check the search makes at every node: push the child's key, ask whether it is a draw, pop.
//!
//! Keys are random stand-ins for Zobrist keys (the crate takes plain `u64`s). The game history is a realistic
//! stretch of 40 reversible plies with repeated positions; the search path is 20 plies deep, either all
//! reversible — the longest lookback, reaching into the game table — or cut by a capture 6 plies up.
//! One iteration is one node; criterion reports the time per node.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use eldest_benches::random_keys as keys;
use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions};

/// 40 plies since the last pawn move, in which the first 8 positions were gone through twice.
fn game() -> (Arc<GameHistory>, u16) {
    let distinct = keys(1, 32);
    let played = distinct[..8]
        .iter()
        .chain(&distinct[..8])
        .chain(&distinct[8..])
        .copied();
    let history: GameHistory = played.zip(0u16..).collect();
    let root_clock = history.halfmove_clock().expect("non-empty game");
    (Arc::new(history), root_clock)
}

/// A thread's path `depth` plies deep; `capture_at` is the ply (if any) reached by a capture.
fn path(
    game: &Arc<GameHistory>,
    root_clock: u16,
    depth: u16,
    capture_at: Option<u16>,
) -> (SearchRepetitions, u16) {
    let mut path = SearchRepetitions::new(Arc::clone(game), RepetitionRule::Stockfish);
    let mut clock = root_clock;
    for (ply, key) in (1..=depth).zip(keys(2, usize::from(depth))) {
        clock = if capture_at == Some(ply) { 0 } else { clock + 1 };
        path.push(key, clock);
    }
    (path, clock)
}

fn repetition(c: &mut Criterion) {
    let (game, root_clock) = game();
    // Children of the leaf: mostly new positions, one in eight a game position (as after a retreat).
    let mut children = keys(3, 64);
    for (child, game_key) in children.iter_mut().step_by(8).zip(game.keys()) {
        *child = *game_key;
    }

    let mut group = c.benchmark_group("repetition/node");
    for (name, capture_at) in [
        ("quiet path ply 20", None),
        ("capture at ply 14, ply 20", Some(14)),
    ] {
        let (mut path, leaf_clock) = path(&game, root_clock, 20, capture_at);
        let mut next = children.iter().copied().cycle();
        group.bench_function(name, |b| {
            b.iter(|| {
                let child = next.next().unwrap_or_default();
                path.push(black_box(child), leaf_clock + 1);
                let draw = black_box(path.is_repetition_draw());
                path.pop();
                draw
            });
        });
    }
    group.finish();
}

criterion_group!(benches, repetition);
criterion_main!(benches);
