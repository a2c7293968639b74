//! Shared workloads of the Eldest criterion benchmarks (in `benches/benches/`): the perft cases and the perft
//! functions of eldest-board and of the libraries it is compared with, and reproducible random keys for the
//! table benchmarks.
#![forbid(unsafe_code)]

/// A perft workload with its known node count, so a fast but wrong generator cannot look like a win.
#[derive(Debug, Clone, Copy)]
pub struct PerftCase {
    /// Short name for reports.
    pub name: &'static str,
    /// The position.
    pub fen: &'static str,
    /// The depth.
    pub depth: u32,
    /// The published node count.
    pub nodes: u64,
}

/// The benchmark positions: the start position at depth 5 and Kiwipete at depth 4.
pub const PERFT_CASES: [PerftCase; 2] = [
    PerftCase {
        name: "startpos",
        fen: eldest_board::STARTPOS_FEN,
        depth: 5,
        nodes: 4_865_609,
    },
    PerftCase {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 4,
        nodes: 4_085_603,
    },
];

/// Bulk-counting perft with eldest-board.
pub fn eldest_perft(fen: &str, depth: u32) -> u64 {
    eldest_board::Position::from_fen(fen)
        .expect("benchmark FEN is valid")
        .perft(depth)
}

/// Bulk-counting perft with cozy-chess, written the way its own documentation does.
pub fn cozy_perft(fen: &str, depth: u32) -> u64 {
    fn perft(board: &cozy_chess::Board, depth: u32) -> u64 {
        let mut nodes = 0;
        if depth == 1 {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        } else {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += perft(&child, depth - 1);
                }
                false
            });
        }
        nodes
    }
    let board: cozy_chess::Board = fen.parse().expect("benchmark FEN is valid");
    perft(&board, depth)
}

/// Bulk-counting perft with shakmaty's own `perft`.
pub fn shakmaty_perft(fen: &str, depth: u32) -> u64 {
    let fen: shakmaty::fen::Fen = fen.parse().expect("benchmark FEN is valid");
    let position: shakmaty::Chess = fen
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("benchmark FEN is legal");
    shakmaty::perft(&position, depth)
}

/// `count` reproducible random 64-bit keys (SplitMix64 from `seed`): stand-ins for Zobrist keys and move hashes
/// in the table benchmarks, without a dependency.
pub fn random_keys(seed: u64, count: usize) -> Vec<u64> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}
