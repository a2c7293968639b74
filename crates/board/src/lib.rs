//! The chess board of the Eldest engine: squares, bitboards, moves, positions, exact legal move generation
//! (standard chess and Chess960), FEN/EPD, UCI and SAN notation, and perft.
//!
//! A [`Position`] is a small `Copy` value played by copy-make: copy it, [`play`](Position::play) a move on the
//! copy, and the Zobrist [`key`](Position::key) is updated incrementally. Move generation is legal only —
//! there is no pseudo-legal stage to filter — and can be staged for a search (captures and promotions first,
//! then quiet moves). Slider attacks come from magic bitboards computed at compile time: there is no runtime
//! initialisation and no global mutable state, so the crate is usable from any number of threads at once.
//!
//! ```
//! use eldest_board::{Position, Stage};
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.perft(3), 8_902);
//! let mv = pos.parse_san("e4")?;
//! pos.play(mv);
//! assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! // Captures and promotions, then quiet moves: together, every legal move.
//! assert_eq!(pos.moves(Stage::Noisy).len() + pos.moves(Stage::Quiet).len(), pos.legal_moves().len());
//! # Ok::<(), eldest_board::SanError>(())
//! ```
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
