//! Internal consistency of the board over thousands of positions from seeded random playouts (CPW positions,
//! Chess960 start positions, every perft-suite position): legality checking agrees with generation over every
//! possible move encoding, staged generation partitions full generation, the incremental key never drifts, and
//! the helpers built on generation (count, evasions, game end, try_play, divide) agree with it.

mod support;

use eldest_board::{Bitboard, Move, MoveKind, PieceKind, Position, Square, Stage};
use std::sync::OnceLock;
use support::{Sample, chess960_back_rank, chess960_start_fen};

/// The positions of this file, built once.
fn corpus() -> &'static [Sample] {
    static CORPUS: OnceLock<Vec<Sample>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let corpus = support::corpus(0x1A7A_71A7_0000_0002, 2);
        assert!(corpus.len() >= 10_000, "{} positions", corpus.len());
        corpus
    })
}

/// Every `step`-th position of the corpus (for the expensive checks), at least `minimum` of them.
fn every(step: usize, minimum: usize) -> impl Iterator<Item = &'static Sample> {
    let corpus = corpus();
    assert!(
        corpus.len() / step >= minimum,
        "{} positions / {step} < {minimum}",
        corpus.len()
    );
    corpus.iter().step_by(step)
}

/// Runs `check` on `samples`; it pushes a description of each violation. Fails with (at most 30 of) them.
fn check_all<'a>(
    rule: &str,
    samples: impl Iterator<Item = &'a Sample>,
    mut check: impl FnMut(&Position, &mut Vec<String>),
) -> usize {
    let mut failures = Vec::new();
    let mut checked = 0;
    for sample in samples {
        let before = failures.len();
        check(&sample.position, &mut failures);
        for failure in &mut failures[before..] {
            *failure = format!("{} [{}]: {failure}", sample.position, sample.origin);
        }
        checked += 1;
    }
    let total = failures.len();
    failures.truncate(30);
    assert!(
        failures.is_empty(),
        "{rule}: {total} violations over {checked} positions, e.g.\n{}",
        failures.join("\n")
    );
    checked
}

fn sorted(moves: &[Move]) -> Vec<Move> {
    let mut moves = moves.to_vec();
    moves.sort();
    moves
}

/// `is_legal(m)` ⇔ `m` is generated, for every one of the 65536 16-bit encodings that decodes to a move —
/// every from × to × kind, promotions to each piece, with and without the capture flag.
#[test]
fn is_legal_holds_exactly_for_generated_moves_over_every_encoding() {
    let checked = check_all("is_legal", every(20, 500), |pos, failures| {
        let mut generated = vec![false; 1 << 16];
        for &mv in pos.legal_moves().iter() {
            let bits = mv.to_bits();
            if generated[bits as usize] {
                failures.push(format!("{mv:?} generated twice"));
            }
            generated[bits as usize] = true;
            if Move::from_bits(bits) != Some(mv) {
                failures.push(format!("{mv:?} does not round-trip through its bits"));
            }
        }
        for bits in 0..=u16::MAX {
            let Some(mv) = Move::from_bits(bits) else {
                continue;
            };
            if pos.is_legal(mv) != generated[bits as usize] {
                failures.push(format!(
                    "is_legal({mv:?}) = {}, generated = {}",
                    pos.is_legal(mv),
                    generated[bits as usize]
                ));
            }
        }
    });
    println!("{checked} positions × 65536 encodings");
}

/// The same through [`Move::new`]: every from × to × kind built from its parts.
#[test]
fn move_new_encodings_are_legal_exactly_when_generated() {
    let mut kinds = vec![
        MoveKind::Quiet,
        MoveKind::DoublePush,
        MoveKind::Castle,
        MoveKind::Capture,
        MoveKind::EnPassant,
    ];
    for piece in eldest_board::PROMOTION_PIECES {
        for capture in [false, true] {
            kinds.push(MoveKind::Promotion { piece, capture });
        }
    }
    check_all("Move::new", every(97, 100), |pos, failures| {
        let legal = pos.legal_moves();
        for from in Square::ALL {
            for to in Square::ALL {
                if from == to {
                    continue;
                }
                for &kind in &kinds {
                    let mv = Move::new(from, to, kind);
                    if (mv.from(), mv.to(), mv.kind()) != (from, to, kind) {
                        failures.push(format!("Move::new({from}, {to}, {kind:?}) reads back as {mv:?}"));
                    }
                    if pos.is_legal(mv) != legal.contains(&mv) {
                        failures.push(format!("is_legal({mv:?}) = {}", pos.is_legal(mv)));
                    }
                }
            }
        }
    });
}

#[test]
fn try_play_rejects_illegal_moves_and_leaves_the_position_unchanged() {
    check_all("try_play", every(50, 200), |pos, failures| {
        for bits in 0..=u16::MAX {
            let Some(mv) = Move::from_bits(bits) else {
                continue;
            };
            let mut tried = *pos;
            match tried.try_play(mv) {
                Ok(()) => {
                    let mut played = *pos;
                    if !pos.is_legal(mv) {
                        failures.push(format!("try_play accepted illegal {mv:?}"));
                        continue;
                    }
                    played.play_unchecked(mv);
                    if tried != played {
                        failures.push(format!("try_play({mv:?}) differs from play"));
                    }
                }
                Err(e) => {
                    if e.0 != mv || pos.is_legal(mv) {
                        failures.push(format!("try_play({mv:?}) refused with {e}"));
                    }
                    if tried != *pos {
                        failures.push(format!("refused try_play({mv:?}) changed the position"));
                    }
                }
            }
        }
    });
}

/// `moves(Noisy)` ∪ `moves(Quiet)` = `legal_moves()` as multisets, with no move in both.
#[test]
fn noisy_and_quiet_stages_partition_all_legal_moves() {
    let checked = check_all("stages", corpus().iter(), |pos, failures| {
        let all = pos.legal_moves();
        let noisy = pos.moves(Stage::Noisy);
        let quiet = pos.moves(Stage::Quiet);
        let mut union = noisy.to_vec();
        union.extend_from_slice(&quiet);
        if sorted(&union) != sorted(&all) {
            failures.push(format!("noisy {noisy:?} + quiet {quiet:?} != all {all:?}"));
        }
        if noisy.iter().any(|mv| quiet.contains(mv)) {
            failures.push("a move in both stages".into());
        }
        if *pos.noisy_moves() != *noisy || *pos.quiet_moves() != *quiet || *pos.moves(Stage::All) != *all {
            failures.push("noisy_moves / quiet_moves / moves(All) differ from moves(stage)".into());
        }
    });
    println!("{checked} positions");
}

#[test]
fn noisy_stage_holds_exactly_captures_and_promotions() {
    check_all(
        "noisy = captures + promotions",
        corpus().iter(),
        |pos, failures| {
            for mv in pos.moves(Stage::Noisy).iter() {
                if !mv.is_noisy() || !(mv.is_capture() || mv.promotion().is_some()) {
                    failures.push(format!("{mv:?} in the noisy stage"));
                }
            }
            for mv in pos.moves(Stage::Quiet).iter() {
                if mv.is_noisy() || mv.is_capture() || mv.promotion().is_some() {
                    failures.push(format!("{mv:?} in the quiet stage"));
                }
            }
        },
    );
}

/// Each generated move's kind bits describe what it does on this board.
#[test]
fn move_kinds_agree_with_the_board() {
    check_all("move kinds", corpus().iter(), |pos, failures| {
        let us = pos.side_to_move();
        for &mv in pos.legal_moves().iter() {
            let (from, to) = (mv.from(), mv.to());
            let Some(moving) = pos.piece_on(from) else {
                failures.push(format!("{mv:?} from an empty square"));
                continue;
            };
            let target = pos.piece_on(to);
            let ok = moving.color == us
                && match mv.kind() {
                    MoveKind::Quiet => target.is_none() && !is_double_push(mv, moving.kind),
                    MoveKind::DoublePush => target.is_none() && is_double_push(mv, moving.kind),
                    MoveKind::Castle => {
                        moving.kind == PieceKind::King
                            && target.is_some_and(|t| t.color == us && t.kind == PieceKind::Rook)
                            && pos.castling_rights().bits() != 0
                    }
                    MoveKind::Capture => target.is_some_and(|t| t.color != us && t.kind != PieceKind::King),
                    MoveKind::EnPassant => {
                        moving.kind == PieceKind::Pawn && target.is_none() && pos.en_passant() == Some(to)
                    }
                    MoveKind::Promotion { piece, capture } => {
                        moving.kind == PieceKind::Pawn
                            && to.rank() == eldest_board::Rank::Eighth.relative_to(us)
                            && piece != PieceKind::Pawn
                            && piece != PieceKind::King
                            && capture == target.is_some_and(|t| t.color != us)
                    }
                };
            if !ok {
                failures.push(format!("{mv:?} of {moving:?} onto {target:?}"));
            }
            if mv.is_capture() != (target.is_some() && !mv.is_castle() || mv.is_en_passant()) {
                failures.push(format!("{mv:?}: is_capture {}", mv.is_capture()));
            }
        }
    });
}

fn is_double_push(mv: Move, kind: PieceKind) -> bool {
    kind == PieceKind::Pawn && (mv.from() as u8).abs_diff(mv.to() as u8) == 16
}

/// `count_moves()` (popcounts of the move sets) = `legal_moves().len()` = `perft(1)`, and the sets the generator
/// visits describe exactly their moves.
#[test]
fn count_moves_equals_the_number_of_legal_moves() {
    check_all("count_moves", corpus().iter(), |pos, failures| {
        let legal = pos.legal_moves();
        if pos.count_moves() != legal.len() || pos.perft(1) != legal.len() as u64 {
            failures.push(format!(
                "count_moves {} perft(1) {} legal {}",
                pos.count_moves(),
                pos.perft(1),
                legal.len()
            ));
        }
        let has_moves = !legal.is_empty();
        if pos.has_legal_move() != has_moves {
            failures.push("has_legal_move disagrees".into());
        }
        let mut from_sets = Vec::new();
        pos.generate_moves(Stage::All, |set| {
            let moves: Vec<Move> = set.into_iter().collect();
            if moves.len() != set.len() || set.is_empty() || set.into_iter().len() != set.len() {
                failures.push(format!("set {set:?} has {} moves", moves.len()));
            }
            for &mv in &moves {
                if mv.from() != set.from
                    || !set.to.contains(mv.to())
                    || !set.contains(mv)
                    || pos.kind_on(set.from) != Some(set.piece)
                {
                    failures.push(format!("{mv:?} in set {set:?}"));
                }
            }
            from_sets.extend(moves);
            false
        });
        if sorted(&from_sets) != sorted(&legal) {
            failures.push("generate_moves differs from legal_moves".into());
        }
        // Restricting the from-squares restricts the moves and nothing else, in every stage.
        for stage in [Stage::All, Stage::Noisy, Stage::Quiet] {
            let staged = pos.moves(stage);
            for square in pos.colored(pos.side_to_move()) {
                let mut here = Vec::new();
                pos.generate_moves_from(stage, Bitboard::from_square(square), |set| {
                    here.extend(set);
                    false
                });
                let expected: Vec<Move> = staged.iter().copied().filter(|m| m.from() == square).collect();
                if sorted(&here) != sorted(&expected) {
                    failures.push(format!("generate_moves_from({stage:?}, {square}) = {here:?}"));
                }
            }
        }
        // A set's iterator knows how many moves it has left at every step.
        pos.generate_moves(Stage::All, |set| {
            let mut iter = set.into_iter();
            for left in (0..set.len()).rev() {
                if iter.next().is_none() || iter.len() != left || iter.size_hint() != (left, Some(left)) {
                    failures.push(format!("set {set:?}: wrong length with {left} left"));
                    break;
                }
            }
            if iter.next().is_some() {
                failures.push(format!("set {set:?} yields too many moves"));
            }
            false
        });
        // A visitor that stops at once is told so.
        if pos.generate_moves(Stage::All, |_| true) != has_moves {
            failures.push("generate_moves does not report a stop".into());
        }
    });
}

/// After every legal move of every position (and after a null move where allowed), the incrementally updated key
/// equals the key computed from scratch.
#[test]
fn incremental_key_equals_compute_key_after_every_move() {
    let mut played = 0;
    check_all("incremental key", corpus().iter(), |pos, failures| {
        if pos.key() != pos.compute_key() {
            failures.push("key drifted before any move".into());
        }
        for &mv in pos.legal_moves().iter() {
            let mut child = *pos;
            child.play_unchecked(mv);
            played += 1;
            if child.key() != child.compute_key() {
                failures.push(format!("key drifted after {mv:?}"));
            }
            if child.key() == pos.key() {
                failures.push(format!("{mv:?} did not change the key"));
            }
        }
        let mut null = *pos;
        if null.play_null() {
            played += 1;
            if null.key() != null.compute_key() {
                failures.push("key drifted after the null move".into());
            }
        }
    });
    println!("{played} moves played");
}

#[test]
fn null_move_passes_the_turn_and_is_refused_in_check() {
    check_all("null move", corpus().iter(), |pos, failures| {
        let mut null = *pos;
        let done = null.play_null();
        if pos.in_check() {
            if done || null != *pos {
                failures.push("play_null in check did something".into());
            }
            return;
        }
        if !done {
            failures.push("play_null refused out of check".into());
            return;
        }
        let ok = null.side_to_move() == !pos.side_to_move()
            && null.en_passant().is_none()
            && !null.in_check()
            && null.occupied() == pos.occupied()
            && null.castling_rights() == pos.castling_rights()
            && null.halfmove_clock() == pos.halfmove_clock().saturating_add(1);
        if !ok {
            failures.push(format!("after play_null: {null}"));
        }
        // The result is a valid position that reads back from its FEN, key and all.
        match Position::from_fen(&null.to_fen()) {
            Ok(back) if back.key() == null.key() => {}
            other => failures.push(format!("after play_null, from_fen(to_fen()) = {other:?}")),
        }
        // Passing twice gives the position back (without its en-passant square, which a pass forfeits).
        let mut twice = null;
        if !twice.play_null() {
            failures.push("play_null refused after a null move".into());
        } else if pos.en_passant().is_none() && twice.key() != pos.key() {
            failures.push("two null moves do not restore the key".into());
        }
    });
}

#[test]
fn evasions_are_nonempty_exactly_in_check_with_moves() {
    let mut in_check = 0;
    check_all("evasions", corpus().iter(), |pos, failures| {
        let evasions = pos.evasions();
        let legal = pos.legal_moves();
        let should_have_evasions = pos.in_check() && !legal.is_empty();
        if evasions.is_empty() == should_have_evasions {
            failures.push(format!("evasions {evasions:?}, in check {}", pos.in_check()));
        }
        if pos.in_check() {
            in_check += 1;
            if sorted(&evasions) != sorted(&legal) {
                failures.push("evasions differ from legal moves in check".into());
            }
            // Every evasion gets out of check.
            for &mv in evasions.iter() {
                let mut child = *pos;
                child.play_unchecked(mv);
                let ours = child.king(pos.side_to_move());
                if child.is_attacked(ours, child.side_to_move()) {
                    failures.push(format!("{mv:?} leaves the king in check"));
                }
            }
        }
        if pos.in_check() != pos.checkers().is_nonempty()
            || pos.in_check() != pos.is_attacked(pos.king(pos.side_to_move()), !pos.side_to_move())
        {
            failures.push("in_check / checkers / is_attacked disagree".into());
        }
    });
    assert!(in_check >= 200, "only {in_check} positions in check");
}

#[test]
fn checkmate_and_stalemate_follow_from_check_and_moves() {
    check_all("game end", corpus().iter(), |pos, failures| {
        let none = pos.legal_moves().is_empty();
        if pos.is_checkmate() != (none && pos.in_check()) || pos.is_stalemate() != (none && !pos.in_check()) {
            failures.push(format!(
                "is_checkmate {} is_stalemate {}",
                pos.is_checkmate(),
                pos.is_stalemate()
            ));
        }
    });
}

#[test]
fn divide_sums_to_perft() {
    assert!(
        eldest_board::Position::startpos().divide(0).is_empty(),
        "depth 0 has no root moves to split by"
    );
    check_all("divide", every(40, 200), |pos, failures| {
        for depth in 1..=3 {
            let divide = pos.divide(depth);
            let legal = pos.legal_moves();
            let total: u64 = divide.iter().map(|&(_, n)| n).sum();
            if total != pos.perft(depth) || divide.iter().map(|&(mv, _)| mv).collect::<Vec<_>>() != *legal {
                failures.push(format!(
                    "divide({depth}) sums to {total}, perft {}",
                    pos.perft(depth)
                ));
            }
            // perft(d) = Σ perft(d-1) over the children, computed without the bulk count at the last ply.
            let slow: u64 = legal
                .iter()
                .map(|&mv| {
                    let mut child = *pos;
                    child.play_unchecked(mv);
                    slow_perft(&child, depth - 1)
                })
                .sum();
            if slow != total {
                failures.push(format!("perft({depth}) {total} vs move-by-move {slow}"));
            }
        }
    });
}

/// Perft that plays every move, leaves included: no bulk counting.
fn slow_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            slow_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn all_960_chess960_start_positions_are_distinct_and_valid() {
    let mut seen = std::collections::HashSet::new();
    for index in 0..960 {
        let rank = chess960_back_rank(index);
        let fen = chess960_start_fen(index);
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("#{index} {fen}: {e}"));
        assert!(seen.insert(pos.key()), "#{index} {fen}: duplicate key");
        assert!(
            pos.is_chess960(),
            "#{index} {fen}: Shredder-FEN letters mark Chess960"
        );
        assert_eq!(pos.castling_rights().bits(), 0b1111, "#{index} {fen}");
        // The king stands between the rooks and the bishops on squares of opposite colours.
        let file = |piece: char| rank.iter().position(|&c| c == piece).expect("piece present");
        let rooks: Vec<usize> = (0..8).filter(|&f| rank[f] == 'R').collect();
        assert!(rooks[0] < file('K') && file('K') < rooks[1], "#{index} {fen}");
        let bishops: Vec<usize> = (0..8).filter(|&f| rank[f] == 'B').collect();
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "#{index} {fen}");
        assert_eq!(pos.perft(2), pos.divide(2).iter().map(|&(_, n)| n).sum::<u64>());
    }
    assert_eq!(
        chess960_start_fen(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    // Standard chess written in Shredder-FEN is standard chess: same key.
    let standard = Position::startpos();
    let shredder = Position::from_fen(&chess960_start_fen(518)).expect("valid");
    assert_eq!(standard.key(), shredder.key());
    assert_eq!(standard.perft(4), shredder.perft(4));
}
