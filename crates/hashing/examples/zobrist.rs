//! `cargo run -p eldest-hashing --example zobrist`: the Zobrist key of a small position built from its parts,
//! updated for one move with XORs and checked against a rebuild, then Kerrigan's move hash spreading the moves
//! of that position over the rows of a `currently_searching` table of Eldest's default size.

use eldest_hashing::{castling, move_hash, piece_square, side_to_move};

// Coloured piece indices (white pawn..king = 0..6, black = 6..12) and squares (a1 = 0, h8 = 63).
const WHITE_ROOK: usize = 3;
const WHITE_KING: usize = 5;
const BLACK_KING: usize = 11;
const A1: usize = 0;
const E1: usize = 4;
const A4: usize = 24;
const E8: usize = 60;

/// The key of a position from scratch: every piece on its square, the castling rights, the side to move.
fn key_of(pieces: &[(usize, usize)], white_rights_rook_files: &[usize], black_to_move: bool) -> u64 {
    let mut key = 0;
    for &(piece, square) in pieces {
        key ^= piece_square(piece, square);
    }
    for &rook_file in white_rights_rook_files {
        key ^= castling(0, rook_file);
    }
    if black_to_move {
        key ^= side_to_move();
    }
    key
}

fn main() {
    // White: Ke1, Ra1 with the queenside castling right; black: Ke8; white to move.
    let before = key_of(
        &[(WHITE_KING, E1), (WHITE_ROOK, A1), (BLACK_KING, E8)],
        &[0],
        false,
    );
    // Ra1-a4: the rook leaves a1 and lands on a4, the right goes (the rook moved), black is to move.
    let incremental = before
        ^ piece_square(WHITE_ROOK, A1)
        ^ piece_square(WHITE_ROOK, A4)
        ^ castling(0, 0)
        ^ side_to_move();
    let rebuilt = key_of(&[(WHITE_KING, E1), (WHITE_ROOK, A4), (BLACK_KING, E8)], &[], true);
    println!("key before Ra4:      {before:#018x}");
    println!("key after, by XORs:  {incremental:#018x}");
    println!("key after, rebuilt:  {rebuilt:#018x}");
    assert_eq!(incremental, rebuilt, "an incremental update must equal a rebuild");

    // The moves of the king on e8 (from e8 to d8, f8, d7, e7, f7), as 16-bit from | to << 6 codes, hashed
    // into the 32768 rows of Eldest's default table: neighbouring move codes land on scattered rows. (The row
    // is the hash's low bits, and the low k bits of one LCG step depend only on the low k bits of the move:
    // with fewer than 2^7 rows the destination square does not count at all, from 2^12 rows it counts whole.
    // Eldest's default has 2^15.)
    let rows = 32_768u64;
    for (name, to) in [("d8", 59u16), ("f8", 61), ("d7", 51), ("e7", 52), ("f7", 53)] {
        let code = E8 as u16 | to << 6;
        let row = move_hash(rebuilt, code) & (rows - 1);
        println!("Ke8-{name}: move code {code:#06x}, row {row:5} of {rows}");
    }
}
