//! The attack tables against a reference written here from the rules alone (step by step along each ray, with
//! `Square::offset`), over every square and many random occupancies; and the position's attack queries
//! (`attackers_to`, `is_attacked_with`, `is_attacked`, `attacks_from`) against each other.

mod support;

use eldest_board::{
    Bitboard, Color, PieceKind, Position, Square, between, bishop_attacks, bishop_rays, king_attacks,
    knight_attacks, line, pawn_attacks, queen_attacks, rook_attacks, rook_rays,
};
use support::Rng;

const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The squares a slider on `from` reaches along `directions`, stopping at (and including) the first blocker.
fn ray_walk(from: Square, occupied: Bitboard, directions: &[(i8, i8)]) -> Bitboard {
    let mut attacks = Bitboard::EMPTY;
    for &(df, dr) in directions {
        let mut square = from;
        while let Some(next) = square.offset(df, dr) {
            attacks = attacks.with(next);
            if occupied.contains(next) {
                break;
            }
            square = next;
        }
    }
    attacks
}

/// The squares reached by single steps `steps` from `from`.
fn steps(from: Square, steps: &[(i8, i8)]) -> Bitboard {
    steps
        .iter()
        .filter_map(|&(df, dr)| from.offset(df, dr))
        .fold(Bitboard::EMPTY, Bitboard::with)
}

/// Random occupancies of every density, plus the empty and the full board.
fn occupancies(rng: &mut Rng) -> Vec<Bitboard> {
    let mut boards = vec![Bitboard::EMPTY, Bitboard::FULL];
    for _ in 0..300 {
        // AND-ing random words thins the board out: from half full to nearly empty.
        let mut bits = rng.next_u64();
        for _ in 0..rng.below(4) {
            bits &= rng.next_u64();
        }
        boards.push(Bitboard(bits));
    }
    boards
}

#[test]
fn slider_attacks_match_a_ray_walk_over_random_occupancies() {
    let mut rng = Rng::new(0xA77A_C400);
    let boards = occupancies(&mut rng);
    for square in Square::ALL {
        assert_eq!(
            rook_rays(square),
            ray_walk(square, Bitboard::EMPTY, &ROOK_DIRECTIONS)
        );
        assert_eq!(
            bishop_rays(square),
            ray_walk(square, Bitboard::EMPTY, &BISHOP_DIRECTIONS)
        );
        for &occupied in &boards {
            // The slider's own square is part of the occupancy on a real board; it must not matter.
            for occupied in [occupied.with(square), occupied.without(square)] {
                let rook = ray_walk(square, occupied, &ROOK_DIRECTIONS);
                let bishop = ray_walk(square, occupied, &BISHOP_DIRECTIONS);
                assert_eq!(rook_attacks(square, occupied), rook, "rook {square} {occupied:?}");
                assert_eq!(
                    bishop_attacks(square, occupied),
                    bishop,
                    "bishop {square} {occupied:?}"
                );
                assert_eq!(queen_attacks(square, occupied), rook | bishop);
            }
        }
    }
}

#[test]
fn leaper_attacks_match_their_steps() {
    let knight = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let king = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    for square in Square::ALL {
        assert_eq!(knight_attacks(square), steps(square, &knight), "knight {square}");
        assert_eq!(king_attacks(square), steps(square, &king), "king {square}");
        assert_eq!(
            pawn_attacks(Color::White, square),
            steps(square, &[(-1, 1), (1, 1)]),
            "white pawn {square}"
        );
        assert_eq!(
            pawn_attacks(Color::Black, square),
            steps(square, &[(-1, -1), (1, -1)]),
            "black pawn {square}"
        );
    }
}

#[test]
fn between_and_line_follow_the_shared_rank_file_or_diagonal() {
    for a in Square::ALL {
        for b in Square::ALL {
            let directions: Vec<(i8, i8)> = ROOK_DIRECTIONS
                .iter()
                .chain(&BISHOP_DIRECTIONS)
                .copied()
                .filter(|&dir| ray_walk(a, Bitboard::EMPTY, &[dir]).contains(b))
                .collect();
            match directions.as_slice() {
                [] => {
                    assert_eq!(between(a, b), Bitboard::EMPTY, "between {a} {b}");
                    assert_eq!(line(a, b), Bitboard::EMPTY, "line {a} {b}");
                }
                [(df, dr)] => {
                    let beyond_b = ray_walk(b, Bitboard::EMPTY, &[(*df, *dr)]).with(b);
                    let strictly_between = ray_walk(a, Bitboard::EMPTY, &[(*df, *dr)]) & !beyond_b;
                    assert_eq!(between(a, b), strictly_between, "between {a} {b}");
                    let whole = ray_walk(a, Bitboard::EMPTY, &[(*df, *dr), (-*df, -*dr)]).with(a);
                    assert_eq!(line(a, b), whole, "line {a} {b}");
                }
                more => panic!("{a} {b}: {more:?}"),
            }
        }
    }
}

/// `attackers_to` is the union of the pieces whose own attacks reach the square; `is_attacked_with` and
/// `is_attacked` agree with it, on the real occupancy and on altered ones (as the generator uses them).
#[test]
fn attack_queries_agree_with_each_other_and_with_piece_attacks() {
    let mut rng = Rng::new(0xA77A_C500);
    let corpus = support::corpus(0xA77A_C600, 1);
    let mut checked = 0;
    for sample in corpus.iter().step_by(10) {
        let pos: &Position = &sample.position;
        let boards = [
            pos.occupied(),
            pos.occupied().without(pos.king(pos.side_to_move())),
            Bitboard(pos.occupied().0 & rng.next_u64()),
        ];
        for occupied in boards {
            for square in Square::ALL {
                let attackers = pos.attackers_to(square, occupied);
                let mut expected = Bitboard::EMPTY;
                for from in pos.occupied() {
                    let piece = pos.piece_on(from).expect("occupied");
                    let reach = match piece.kind {
                        PieceKind::Pawn => pawn_attacks(piece.color, from),
                        PieceKind::Knight => knight_attacks(from),
                        PieceKind::Bishop => bishop_attacks(from, occupied),
                        PieceKind::Rook => rook_attacks(from, occupied),
                        PieceKind::Queen => queen_attacks(from, occupied),
                        PieceKind::King => king_attacks(from),
                    };
                    if reach.contains(square) {
                        expected = expected.with(from);
                    }
                }
                assert_eq!(attackers, expected, "{} [{}] {square}", pos, sample.origin);
                for color in [Color::White, Color::Black] {
                    let by = (attackers & pos.colored(color)).is_nonempty();
                    assert_eq!(
                        pos.is_attacked_with(square, color, occupied),
                        by,
                        "{pos} {square} {color:?}"
                    );
                    if occupied == pos.occupied() {
                        assert_eq!(pos.is_attacked(square, color), by, "{pos} {square} {color:?}");
                    }
                }
            }
        }
        for from in pos.occupied() {
            let piece = pos.piece_on(from).expect("occupied");
            let reach = pos.attacks_from(piece.kind, piece.color, from);
            for square in Square::ALL {
                assert_eq!(
                    reach.contains(square),
                    pos.attackers_to(square, pos.occupied()).contains(from),
                    "{pos}: {piece:?} on {from} vs {square}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 500, "{checked} positions");
}
