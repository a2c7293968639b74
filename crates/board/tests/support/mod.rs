//! Shared by the board's integration tests: a seeded PRNG, the start positions the tests play from, and seeded
//! random playouts. Every test binary uses a different part of it.
#![allow(dead_code)]

use eldest_board::Position;
use std::path::PathBuf;

/// xorshift64* (Vigna): small, fast and good enough to pick random moves. Seeded, so every run of a test sees
/// the same positions and a failure reproduces.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; zero is mapped to a non-zero state).
    pub fn new(seed: u64) -> Rng {
        Rng((seed ^ 0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A random number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: usize, denominator: usize) -> bool {
        self.below(denominator) < numerator
    }
}

/// The Chess Programming Wiki perft positions: start position, Kiwipete, 3, 4, 4 mirrored, 5, 6.
pub const CPW_FENS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// The back rank of Chess960 start position `index` (0–959, Scharnagl's numbering; 518 is the standard
/// `RNBQKBNR`), as uppercase piece letters from the a-file to the h-file.
pub fn chess960_back_rank(index: u32) -> [char; 8] {
    assert!(index < 960, "Chess960 positions are numbered 0 to 959");
    let mut rank = [' '; 8];
    let mut n = index;
    rank[(n % 4 * 2 + 1) as usize] = 'B';
    n /= 4;
    rank[(n % 4 * 2) as usize] = 'B';
    n /= 4;
    let place_on_empty = |rank: &mut [char; 8], nth: u32, piece: char| {
        let file = (0..8)
            .filter(|&f| rank[f] == ' ')
            .nth(nth as usize)
            .expect("enough empty squares");
        rank[file] = piece;
    };
    place_on_empty(&mut rank, n % 6, 'Q');
    n /= 6;
    const KNIGHTS: [(u32, u32); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[n as usize];
    // Place the second knight first, so that placing the first one does not shift its index.
    place_on_empty(&mut rank, second, 'N');
    place_on_empty(&mut rank, first, 'N');
    for piece in ['R', 'K', 'R'] {
        place_on_empty(&mut rank, 0, piece);
    }
    rank
}

/// The FEN of Chess960 start position `index`, castling in Shredder-FEN (the rooks' file letters).
pub fn chess960_start_fen(index: u32) -> String {
    let rank = chess960_back_rank(index);
    let white: String = rank.iter().collect();
    let black = white.to_ascii_lowercase();
    let rook_files: Vec<char> = (0..8)
        .filter(|&f| rank[f] == 'R')
        .map(|f| (b'a' + f as u8) as char)
        .collect();
    // Shredder-FEN: king-side rook first, as Stockfish writes it.
    let castling = format!(
        "{}{}{}{}",
        rook_files[1].to_ascii_uppercase(),
        rook_files[0].to_ascii_uppercase(),
        rook_files[1],
        rook_files[0]
    );
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}

/// The FENs of a perft suite in `tests/data/` (the first field of every non-comment line).
pub fn suite_fens(name: &str) -> Vec<String> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", name]
        .iter()
        .collect();
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split(';').next().unwrap_or(line).trim().to_string())
        .collect()
}

/// A random game of at most `plies` half-moves from `start`: every position visited, `start` first. The game
/// stops early at checkmate or stalemate.
pub fn playout(start: &Position, plies: usize, rng: &mut Rng) -> Vec<Position> {
    let mut positions = vec![*start];
    let mut pos = *start;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.below(moves.len())]);
        positions.push(pos);
    }
    positions
}

/// A position the tests check, with where it came from (to reproduce a failure).
#[derive(Debug, Clone)]
pub struct Sample {
    /// E.g. `"chess960 #518 ply 12"`.
    pub origin: String,
    /// The position.
    pub position: Position,
}

/// Seeded random playouts from the CPW positions, from Chess960 start positions, from every position of the
/// perft suites and from random placements: about `scale` × 7,000 positions, each visited position once per
/// playout.
pub fn corpus(seed: u64, scale: usize) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut samples = Vec::new();
    let mut add_playouts = |name: &str, start: &Position, games: usize, plies: usize, rng: &mut Rng| {
        for game in 0..games {
            for (ply, position) in playout(start, plies, rng).into_iter().enumerate() {
                samples.push(Sample {
                    origin: format!("{name} game {game} ply {ply}"),
                    position,
                });
            }
        }
    };
    for (i, fen) in CPW_FENS.iter().enumerate() {
        let start = Position::from_fen(fen).expect("CPW positions are valid");
        add_playouts(&format!("cpw #{i} {fen}"), &start, 4 * scale, 120, &mut rng);
    }
    for _ in 0..8 * scale {
        let index = rng.below(960) as u32;
        let fen = chess960_start_fen(index);
        let start = Position::from_fen(&fen).expect("Chess960 start positions are valid");
        add_playouts(&format!("chess960 #{index} {fen}"), &start, 1, 160, &mut rng);
    }
    for name in ["perft.epd", "perft960.epd"] {
        for fen in suite_fens(name) {
            let start = Position::from_fen(&fen).expect("suite positions are valid");
            add_playouts(&format!("{name} {fen}"), &start, 1, 8 * scale, &mut rng);
        }
    }
    // Random placements (odd positions: double and triple checks, pieces everywhere) with a few moves each.
    let mut placements = 0;
    while placements < 250 * scale {
        let fen = random_fen(&mut rng);
        if let Ok(start) = Position::from_fen(&fen) {
            add_playouts(&format!("random placement {fen}"), &start, 1, 4, &mut rng);
            placements += 1;
        }
    }
    samples
}

/// A random placement with random fields: kings anywhere, up to 30 other pieces, random castling letters, en-passant
/// square and counters. Many are rejected; the ones accepted are odd positions the playouts never reach.
pub fn random_fen(rng: &mut Rng) -> String {
    let mut board = [None::<char>; 64];
    for king in ['K', 'k'] {
        let square = loop {
            let s = rng.below(64);
            if board[s].is_none() {
                break s;
            }
        };
        board[square] = Some(king);
    }
    for _ in 0..rng.below(31) {
        let s = rng.below(64);
        if board[s].is_none() {
            let piece = ['P', 'P', 'P', 'N', 'B', 'R', 'Q'][rng.below(7)];
            let rank = s / 8;
            if piece == 'P' && (rank == 0 || rank == 7) && !rng.chance(1, 20) {
                continue;
            }
            board[s] = Some(if rng.chance(1, 2) {
                piece
            } else {
                piece.to_ascii_lowercase()
            });
        }
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(piece);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = if rng.chance(1, 2) { "w" } else { "b" };
    let castling: String = if rng.chance(1, 3) {
        "-".into()
    } else {
        (0..1 + rng.below(4))
            .map(|_| "KQkqABCDEFGHabcdefgh".as_bytes()[rng.below(20)] as char)
            .collect()
    };
    let en_passant = if rng.chance(1, 2) {
        "-".to_string()
    } else {
        format!(
            "{}{}",
            (b'a' + rng.below(8) as u8) as char,
            ['3', '6', '3', '6', '4', '5'][rng.below(6)]
        )
    };
    format!(
        "{placement} {side} {castling} {en_passant} {} {}",
        rng.below(120),
        1 + rng.below(200)
    )
}
