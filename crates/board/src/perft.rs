//! Perft (move path enumeration) with bulk counting, divide, and game-end helpers.

use crate::movegen::Stage;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind};

impl Position {
    /// The number of leaf nodes of the legal move tree `depth` plies deep. At the last ply the moves are
    /// counted set by set (a popcount), not played.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves() as u64,
            _ => {
                let mut nodes = 0;
                self.generate_moves(Stage::All, |set| {
                    for mv in set {
                        let mut child = *self;
                        child.play(mv);
                        nodes += child.perft(depth - 1);
                    }
                    false
                });
                nodes
            }
        }
    }

    /// Perft split by root move: each legal move with the leaf count below it, in generation order. Depth 0
    /// has no root moves to split by, so it is empty (its perft is 1, the root itself).
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal_moves()
            .iter()
            .map(|&mv| {
                let mut child = *self;
                child.play(mv);
                (mv, child.perft(depth.saturating_sub(1)))
            })
            .collect()
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// Whether neither side can ever checkmate: bare kings, a single minor piece, or only bishops all on squares
    /// of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy =
            self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen);
        if heavy.is_nonempty() {
            return false;
        }
        let knights = self.pieces(PieceKind::Knight);
        let bishops = self.pieces(PieceKind::Bishop);
        if (knights | bishops).len() <= 1 {
            return true;
        }
        const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;
        knights.is_empty() && (bishops.0 & DARK_SQUARES == 0 || bishops.0 & !DARK_SQUARES == 0)
    }

    /// Whether `color` alone lacks mating material (for "timeout vs insufficient material" adjudication): no
    /// pawn, rook or queen, and at most one minor piece.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.colored(color);
        let heavy =
            self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen);
        (heavy & ours).is_empty()
            && ((self.pieces(PieceKind::Knight) | self.pieces(PieceKind::Bishop)) & ours).len() <= 1
    }
}
