#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod attacks;
mod bitboard;
mod castling;
mod fen;
mod movegen;
mod moves;
mod notation;
mod perft;
mod position;
mod types;

pub use attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks, rook_rays,
};
pub use bitboard::Bitboard;
pub use castling::{CastleSide, CastlingRights};
pub use fen::{Epd, FenError, STARTPOS_FEN};
pub use movegen::{MAX_MOVES, MoveList, PieceMoves, PieceMovesIter, Stage};
pub use moves::{Move, MoveKind, PROMOTION_PIECES};
pub use notation::{IllegalMoveError, SanError, UciMove, UciMoveError};
pub use position::Position;
pub use types::{Color, File, Piece, PieceKind, Rank, Square, SquareParseError};
