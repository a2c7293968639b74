//! Perft (move path enumeration) with bulk counting, divide, and game-end helpers.

use crate::movegen::Stage;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind};

impl Position {
    /// The number of leaf nodes of the legal move tree `depth` plies deep. At the last ply the moves are
    /// counted set by set (a popcount), not played.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.perft(0), 1);
    /// assert_eq!(pos.perft(1), 20);
    /// assert_eq!(pos.perft(2), 400);
    /// assert_eq!(pos.perft(3), 8_902);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves() as u64,
            _ => {
                let mut nodes = 0;
                self.generate_moves(Stage::All, |set| {
                    for mv in set {
                        let mut child = *self;
                        child.play_unchecked(mv);
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let pos = Position::startpos();
    /// let split = pos.divide(2);
    /// assert_eq!(split.len(), 20);
    /// // Black has 20 replies to each of white's 20 first moves.
    /// assert!(split.iter().all(|&(_, nodes)| nodes == 20));
    /// assert_eq!(split.iter().map(|&(_, nodes)| nodes).sum::<u64>(), pos.perft(2));
    /// assert!(pos.divide(0).is_empty());
    /// ```
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal_moves()
            .iter()
            .map(|&mv| {
                let mut child = *self;
                child.play_unchecked(mv);
                (mv, child.perft(depth.saturating_sub(1)))
            })
            .collect()
    }

    /// Whether the side to move is checkmated.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// // Fool's mate.
    /// let mut pos = Position::startpos();
    /// for san in ["f3", "e5", "g4", "Qh4#"] {
    ///     let mv = pos.parse_san(san)?;
    ///     pos.play_unchecked(mv);
    /// }
    /// assert!(pos.is_checkmate());
    /// assert!(!pos.is_stalemate());
    /// assert!(!Position::startpos().is_checkmate());
    /// # Ok::<(), eldest_board::SanError>(())
    /// ```
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether the side to move is stalemated.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// // The black king on a8 cannot move and is not in check.
    /// let pos = Position::from_fen("k7/8/1Q6/8/8/8/8/7K b - - 0 1")?;
    /// assert!(pos.is_stalemate());
    /// assert!(!pos.is_checkmate());
    /// assert!(!Position::startpos().is_stalemate());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// Whether neither side can ever checkmate: bare kings, a single minor piece, or only bishops all on squares
    /// of one colour.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// assert!(!Position::startpos().is_insufficient_material());
    /// let bare_kings = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")?;
    /// assert!(bare_kings.is_insufficient_material());
    /// // Bishops all on dark squares (c1, f8) can never mate...
    /// let same_colour = Position::from_fen("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1")?;
    /// assert!(same_colour.is_insufficient_material());
    /// // ...but bishops on both colours (c1, g8) can.
    /// let both_colours = Position::from_fen("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1")?;
    /// assert!(!both_colours.is_insufficient_material());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position};
    ///
    /// // King and rook against a bare king: only white can still mate.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")?;
    /// assert!(!pos.has_insufficient_material(Color::White));
    /// assert!(pos.has_insufficient_material(Color::Black));
    /// assert!(!Position::startpos().has_insufficient_material(Color::Black));
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.colored(color);
        let heavy =
            self.pieces(PieceKind::Pawn) | self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen);
        (heavy & ours).is_empty()
            && ((self.pieces(PieceKind::Knight) | self.pieces(PieceKind::Bishop)) & ours).len() <= 1
    }
}
