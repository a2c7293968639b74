//! Attack tables, all computed at compile time: leapers, pawns, the squares between and on a line through two
//! squares, and magic-bitboard slider attacks.
//!
//! Sliders use "fancy" magic bitboards: for each square the relevant occupancy (the ray squares that can block,
//! excluding the board edge) is multiplied by a magic number and shifted, giving a dense index into a shared
//! table. The magic numbers were found by a random search offline; the table is filled by a `const` block that
//! asserts no two occupancies that need different attack sets share an index, so a bad magic fails the build.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn step_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = Square::ALL[sq].offset(steps[i].0, steps[i].1) {
                table[sq] = table[sq].with(to);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const KNIGHT_ATTACKS: [Bitboard; 64] = step_table(&KNIGHT_STEPS);
const KING_ATTACKS: [Bitboard; 64] = step_table(&KING_STEPS);
const PAWN_ATTACKS: [[Bitboard; 64]; 2] = [step_table(&[(-1, 1), (1, 1)]), step_table(&[(-1, -1), (1, -1)])];

/// The squares a knight on `square` attacks.
///
/// # Examples
///
/// ```
/// use eldest_board::{knight_attacks, Bitboard, Square};
///
/// let expected: Bitboard = [Square::E2, Square::F3, Square::H3].into_iter().collect();
/// assert_eq!(knight_attacks(Square::G1), expected);
/// // A knight in the centre reaches eight squares, one in a corner two.
/// assert_eq!(knight_attacks(Square::D4).popcount(), 8);
/// assert_eq!(knight_attacks(Square::A1).popcount(), 2);
/// ```
#[inline(always)]
pub fn knight_attacks(square: Square) -> Bitboard {
    KNIGHT_ATTACKS[square as usize]
}

/// The squares a king on `square` attacks.
///
/// # Examples
///
/// ```
/// use eldest_board::{king_attacks, Bitboard, Square};
///
/// let expected: Bitboard = [Square::D1, Square::F1, Square::D2, Square::E2, Square::F2].into_iter().collect();
/// assert_eq!(king_attacks(Square::E1), expected);
/// assert_eq!(king_attacks(Square::D4).popcount(), 8);
/// assert_eq!(king_attacks(Square::H8).popcount(), 3);
/// ```
#[inline(always)]
pub fn king_attacks(square: Square) -> Bitboard {
    KING_ATTACKS[square as usize]
}

/// The squares a pawn of `color` on `square` attacks (captures to).
///
/// # Examples
///
/// ```
/// use eldest_board::{pawn_attacks, Bitboard, Color, Square};
///
/// let expected: Bitboard = [Square::D5, Square::F5].into_iter().collect();
/// assert_eq!(pawn_attacks(Color::White, Square::E4), expected);
/// // Black pawns capture downwards; a pawn on the edge attacks a single square.
/// assert_eq!(pawn_attacks(Color::Black, Square::A5), Bitboard::from_square(Square::B4));
/// ```
#[inline(always)]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    PAWN_ATTACKS[color as usize][square as usize]
}

/// Slider attacks by walking rays square by square: the slow reference used to fill the magic tables. Plain
/// integer arithmetic keeps the compile-time evaluation of ~100k table entries short.
const fn ray_attacks(square: Square, occupied: Bitboard, directions: &[(i8, i8); 4]) -> Bitboard {
    let file = (square as u8 % 8) as i8;
    let rank = (square as u8 / 8) as i8;
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let (mut f, mut r) = (file + df, rank + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied.0 & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    Bitboard(attacks)
}

/// The blockers that matter for a slider on `square`: its rays without the last square of each.
const fn relevant_mask(square: Square, directions: &[(i8, i8); 4]) -> Bitboard {
    let mut mask = Bitboard::EMPTY;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut current = square;
        while let Some(next) = current.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask = mask.with(next);
            current = next;
        }
        d += 1;
    }
    mask
}

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u8,
    offset: u32,
}

impl Magic {
    #[inline(always)]
    const fn index(&self, occupied: Bitboard) -> usize {
        self.offset as usize + ((occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

const ROOK_MAGICS: [u64; 64] = [
    0x0980008011400020,
    0x8340004410002000,
    0x0880200090008268,
    0x0080080080100004,
    0x8100110004020800,
    0x0300010004000822,
    0x08801a0029000080,
    0x8100050001204882,
    0x0844800081400320,
    0x0804402010004000,
    0x0108802003100480,
    0x0004808008001000,
    0x0003001801001014,
    0x0002000200041008,
    0x0004008108042210,
    0x0105000100009042,
    0x0400808000400021,
    0xc100404010002000,
    0x0060008010002088,
    0x0400808008001000,
    0x4440808008000400,
    0x1002008004000280,
    0x40024400300d1248,
    0x0010020000408104,
    0x0101008200204200,
    0x8020002040005000,
    0x4100100080802000,
    0x4008006a80100280,
    0x1020080080040080,
    0x0004010040020040,
    0x0018a12400080290,
    0x6140004200008104,
    0x4000400020800090,
    0x2020002080804000,
    0x0000408202002010,
    0x0080100501000820,
    0x0000800400800800,
    0x000a200408014010,
    0x0100800200800100,
    0xa00800570200008c,
    0x008000406000c010,
    0x1040100028002000,
    0x0048200100110040,
    0x0068490210030020,
    0x1009080005010010,
    0x2142000804010100,
    0x1001080110840002,
    0x1801004400820001,
    0x010440208d020200,
    0x0000400020008080,
    0x0200200080100280,
    0x0000100020090100,
    0x0204008008020480,
    0x8104010040020040,
    0x78000201b0080400,
    0x0040800051002880,
    0x0050108001002041,
    0x208a801100614003,
    0x0006002042089082,
    0x0011090004201001,
    0x1002001004200802,
    0x0005000208040001,
    0x0002002701ac0822,
    0x000010250184004a,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xc0a0012206040ea0,
    0x8010228200420001,
    0x0110008220400400,
    0x02445c0080106000,
    0x0044042004008100,
    0x0880900420408c05,
    0x0201080110080002,
    0x0000108094202000,
    0x0000042002040108,
    0x0000623024110042,
    0x0086100094811002,
    0x0000044502002080,
    0x0100460211400040,
    0x0008109004200004,
    0x0202320084844000,
    0x8040042421041009,
    0x201010c05102008c,
    0x1020888208024080,
    0x0108000c80290200,
    0x8048000420425203,
    0x0005000090402000,
    0x2080400201104100,
    0x8820420111101000,
    0x4ac0302208821802,
    0x000440001002a840,
    0x2002200010041080,
    0x1012080201004400,
    0x8440040002410120,
    0x1090820084010400,
    0x2084852012021000,
    0x12040062c1011003,
    0x02008205e1090080,
    0x088c102808042080,
    0x0802102200904280,
    0x8020209002080020,
    0x2200080800060a00,
    0x20c0004010010100,
    0x0802004100821003,
    0x0008024400008080,
    0x0000840102008090,
    0x0030a40420244007,
    0x0a19084210011282,
    0x0004082090019806,
    0x6108004208020080,
    0x0081200410110100,
    0x1040810701010208,
    0x0282047832012080,
    0x0010020099000020,
    0x000e010422400840,
    0x10204208b0089090,
    0x081004440c048000,
    0x88c0180084040001,
    0x3100020803040080,
    0x890070a041210c00,
    0x0020200101010a09,
    0x0004100240410400,
    0x0006004402080200,
    0x0801062484042000,
    0x00010002d7441004,
    0x0810080000208800,
    0x0000020808030411,
    0x1450001020014440,
    0x004060081081a288,
    0x0044011404108a00,
];

const fn magics(numbers: &[u64; 64], directions: &[(i8, i8); 4], first_offset: u32) -> ([Magic; 64], u32) {
    let empty = Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    };
    let mut table = [empty; 64];
    let mut offset = first_offset;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(Square::ALL[sq], directions);
        let bits = mask.popcount();
        table[sq] = Magic {
            mask: mask.0,
            magic: numbers[sq],
            shift: (64 - bits) as u8,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    (table, offset)
}

const ROOK: ([Magic; 64], u32) = magics(&ROOK_MAGICS, &ROOK_DIRECTIONS, 0);
const BISHOP: ([Magic; 64], u32) = magics(&BISHOP_MAGICS, &BISHOP_DIRECTIONS, ROOK.1);
const SLIDER_TABLE_SIZE: usize = BISHOP.1 as usize;

const fn fill_slider_table() -> [Bitboard; SLIDER_TABLE_SIZE] {
    let mut table = [Bitboard::EMPTY; SLIDER_TABLE_SIZE];
    let mut filled = [false; SLIDER_TABLE_SIZE];
    let mut piece = 0;
    while piece < 2 {
        let (magics, directions) = if piece == 0 {
            (&ROOK.0, &ROOK_DIRECTIONS)
        } else {
            (&BISHOP.0, &BISHOP_DIRECTIONS)
        };
        let mut sq = 0;
        while sq < 64 {
            let magic = magics[sq];
            // Carry-Rippler enumeration of every subset of the mask.
            let mut subset = 0u64;
            loop {
                let attacks = ray_attacks(Square::ALL[sq], Bitboard(subset), directions);
                let index = magic.index(Bitboard(subset));
                assert!(
                    !filled[index] || table[index].0 == attacks.0,
                    "destructive magic collision"
                );
                table[index] = attacks;
                filled[index] = true;
                subset = subset.wrapping_sub(magic.mask) & magic.mask;
                if subset == 0 {
                    break;
                }
            }
            sq += 1;
        }
        piece += 1;
    }
    table
}

// Filling ~100k entries by ray walking is a long but finite const evaluation (a few seconds of build time).
#[allow(long_running_const_eval)]
static SLIDER_ATTACKS: [Bitboard; SLIDER_TABLE_SIZE] = fill_slider_table();

const fn empty_board_rays(directions: &[(i8, i8); 4]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = ray_attacks(Square::ALL[sq], Bitboard::EMPTY, directions);
        sq += 1;
    }
    table
}

const ROOK_RAYS: [Bitboard; 64] = empty_board_rays(&ROOK_DIRECTIONS);
const BISHOP_RAYS: [Bitboard; 64] = empty_board_rays(&BISHOP_DIRECTIONS);

/// The squares a rook on `square` would attack on an empty board (its rank and file).
///
/// # Examples
///
/// ```
/// use eldest_board::{rook_rays, Bitboard, File, Rank, Square};
///
/// let rays = rook_rays(Square::A1);
/// assert_eq!(rays, (Bitboard::file(File::A) | Bitboard::rank(Rank::First)).without(Square::A1));
/// // A rook sees 14 squares on an empty board, wherever it stands.
/// assert_eq!(rays.popcount(), 14);
/// assert_eq!(rook_rays(Square::D4).popcount(), 14);
/// ```
#[inline(always)]
pub fn rook_rays(square: Square) -> Bitboard {
    ROOK_RAYS[square as usize]
}

/// The squares a bishop on `square` would attack on an empty board (its diagonals).
///
/// # Examples
///
/// ```
/// use eldest_board::{bishop_rays, Square};
///
/// assert_eq!(bishop_rays(Square::A1).popcount(), 7);
/// assert!(bishop_rays(Square::A1).contains(Square::H8));
/// assert_eq!(bishop_rays(Square::D4).popcount(), 13);
/// assert!(!bishop_rays(Square::D4).contains(Square::D5));
/// ```
#[inline(always)]
pub fn bishop_rays(square: Square) -> Bitboard {
    BISHOP_RAYS[square as usize]
}

/// The squares a rook on `square` attacks when `occupied` holds the pieces on the board.
///
/// # Examples
///
/// ```
/// use eldest_board::{rook_attacks, rook_rays, Bitboard, Square};
///
/// // A rook on d4 sees up to the blockers on d6 and f4 (included), but not past them.
/// let blockers = Bitboard::from_square(Square::D6).with(Square::F4);
/// let attacks = rook_attacks(Square::D4, blockers);
/// assert_eq!(attacks.popcount(), 10);
/// assert!(attacks.contains(Square::D6) && !attacks.contains(Square::D7));
/// assert!(attacks.contains(Square::F4) && !attacks.contains(Square::G4));
/// // On an empty board the attacks are the rays.
/// assert_eq!(rook_attacks(Square::A1, Bitboard::EMPTY), rook_rays(Square::A1));
/// ```
#[inline(always)]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    SLIDER_ATTACKS[ROOK.0[square as usize].index(occupied)]
}

/// The squares a bishop on `square` attacks when `occupied` holds the pieces on the board.
///
/// # Examples
///
/// ```
/// use eldest_board::{bishop_attacks, Bitboard, Position, Square};
///
/// // In the start position the c1 bishop is hemmed in by its own pawns.
/// let occupied = Position::startpos().occupied();
/// let expected: Bitboard = [Square::B2, Square::D2].into_iter().collect();
/// assert_eq!(bishop_attacks(Square::C1, occupied), expected);
/// assert_eq!(bishop_attacks(Square::D4, Bitboard::EMPTY).popcount(), 13);
/// ```
#[inline(always)]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    SLIDER_ATTACKS[BISHOP.0[square as usize].index(occupied)]
}

/// The squares a queen on `square` attacks when `occupied` holds the pieces on the board.
///
/// # Examples
///
/// ```
/// use eldest_board::{bishop_attacks, queen_attacks, rook_attacks, Bitboard, Position, Square};
///
/// assert_eq!(queen_attacks(Square::D4, Bitboard::EMPTY).popcount(), 27);
/// // At the start the d1 queen sees c1, e1, c2, d2 and e2.
/// let occupied = Position::startpos().occupied();
/// assert_eq!(queen_attacks(Square::D1, occupied).popcount(), 5);
/// assert_eq!(
///     queen_attacks(Square::D1, occupied),
///     rook_attacks(Square::D1, occupied) | bishop_attacks(Square::D1, occupied)
/// );
/// ```
#[inline(always)]
pub fn queen_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(square, occupied) | bishop_attacks(square, occupied)
}

const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let from = Square::ALL[a];
        let mut set = 0;
        while set < 2 {
            let directions = if set == 0 {
                &ROOK_DIRECTIONS
            } else {
                &BISHOP_DIRECTIONS
            };
            let mut b = 0;
            while b < 64 {
                let to = Square::ALL[b];
                if a != b && ray_attacks(from, Bitboard::EMPTY, directions).contains(to) {
                    let from_bb = Bitboard::from_square(from);
                    let to_bb = Bitboard::from_square(to);
                    between[a][b] =
                        ray_attacks(from, to_bb, directions).and(ray_attacks(to, from_bb, directions));
                    line[a][b] = ray_attacks(from, Bitboard::EMPTY, directions)
                        .and(ray_attacks(to, Bitboard::EMPTY, directions))
                        .or(from_bb)
                        .or(to_bb);
                }
                b += 1;
            }
            set += 1;
        }
        a += 1;
    }
    (between, line)
}

#[allow(long_running_const_eval)]
static LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal; empty otherwise.
///
/// # Examples
///
/// ```
/// use eldest_board::{between, Bitboard, Square};
///
/// let expected: Bitboard = [Square::B2, Square::C3].into_iter().collect();
/// assert_eq!(between(Square::A1, Square::D4), expected);
/// assert_eq!(between(Square::E1, Square::H1).popcount(), 2);
/// // Neighbours have nothing between them; squares on no common line give the empty set.
/// assert!(between(Square::E1, Square::E2).is_empty());
/// assert!(between(Square::A1, Square::B3).is_empty());
/// ```
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a as usize][b as usize]
}

/// The whole line (edge to edge) through `a` and `b` if they share a rank, file or diagonal; empty otherwise.
///
/// # Examples
///
/// ```
/// use eldest_board::{line, Bitboard, File, Square};
///
/// assert_eq!(line(Square::E2, Square::E5), Bitboard::file(File::E));
/// // b2 and c3 lie on the long diagonal a1-h8.
/// assert_eq!(line(Square::B2, Square::C3).popcount(), 8);
/// assert!(line(Square::B2, Square::C3).contains(Square::H8));
/// assert!(line(Square::A1, Square::B3).is_empty());
/// ```
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a as usize][b as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walking() {
        // Pseudo-random occupancies on every square: the table must agree with the slow reference.
        let mut state = 0x1234_5678_9abc_def0u64;
        for sq in Square::ALL {
            for _ in 0..200 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let occupied = Bitboard(state & state.rotate_left(17));
                assert_eq!(
                    rook_attacks(sq, occupied),
                    ray_attacks(sq, occupied, &ROOK_DIRECTIONS)
                );
                assert_eq!(
                    bishop_attacks(sq, occupied),
                    ray_attacks(sq, occupied, &BISHOP_DIRECTIONS)
                );
            }
        }
    }

    #[test]
    fn leaper_tables() {
        assert_eq!(knight_attacks(Square::A1).len(), 2);
        assert_eq!(knight_attacks(Square::D4).len(), 8);
        assert_eq!(king_attacks(Square::H8).len(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from_square(Square::D5).with(Square::F5)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A5),
            Bitboard::from_square(Square::B4)
        );
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::D4),
            [Square::B2, Square::C3].into_iter().collect()
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E2), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).len(), 8);
        assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
    }
}
