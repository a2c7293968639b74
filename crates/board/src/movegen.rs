//! Legal move generation.
//!
//! Moves are produced as [`PieceMoves`]: one piece's from-square with a *set* of destinations. Counting the
//! moves of a set is a popcount, which is what makes bulk-counting perft fast; iterating a set yields
//! [`Move`]s. Legality is built in: check masks (capture or block the checker), pin masks (a pinned piece
//! stays on the line through its king), the king never steps onto an attacked square (tested with the king
//! removed from the board, so it cannot hide behind itself), the en-passant capture that would uncover a
//! rank attack on the king, and castling never out of, through or into check.
//!
//! Generation can be staged for the search: [`Stage::Noisy`] yields captures, en-passant captures and all
//! promotions; [`Stage::Quiet`] the rest (including castling). Together they are exactly [`Stage::All`]. In check
//! every stage yields only evasions, since only legal moves are generated.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::moves::{Move, MoveKind, PROMOTION_PIECES};
use crate::position::Position;
use crate::types::{File, PieceKind, Rank, Square};

/// Which moves to generate.
///
/// # Examples
///
/// ```
/// use eldest_board::{Position, Stage};
///
/// let pos = Position::from_fen("1r2k3/P7/8/3pP3/8/8/8/4K2R w K d6 0 2")?;
/// let (noisy, quiet, all) = (pos.moves(Stage::Noisy), pos.moves(Stage::Quiet), pos.moves(Stage::All));
/// // Every legal move is in exactly one of the two stages.
/// assert_eq!(noisy.len() + quiet.len(), all.len());
/// assert!(all.iter().all(|mv| noisy.contains(mv) != quiet.contains(mv)));
/// assert!(noisy.iter().any(|mv| mv.is_en_passant()) && quiet.iter().any(|mv| mv.is_castle()));
/// # Ok::<(), eldest_board::FenError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Every legal move.
    All,
    /// Captures (en passant included) and promotions (quiet ones and under-promotions included).
    Noisy,
    /// Every legal move that neither captures nor promotes, castling included.
    Quiet,
}

/// How the destinations of a [`PieceMoves`] set turn into moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum SetKind {
    /// Ordinary moves; captures where the destination holds an enemy piece.
    Normal,
    /// Pawn moves to the last rank: four moves (knight, bishop, rook, queen) per destination.
    Promotions,
    /// One en-passant capture.
    EnPassant,
    /// One castling move; the destination is the rook's square.
    Castle,
}

/// The legal moves of one piece from one square, as a set of destinations.
///
/// # Examples
///
/// ```
/// use eldest_board::{Bitboard, PieceKind, Position, Square, Stage};
///
/// let pos = Position::startpos();
/// let mut sans = Vec::new();
/// pos.generate_moves_from(Stage::All, Bitboard::from_square(Square::G1), |set| {
///     assert_eq!((set.piece, set.from, set.to.popcount()), (PieceKind::Knight, Square::G1, 2));
///     // A set is cheap to produce; its moves are built only when it is iterated.
///     sans.extend(set.into_iter().map(|mv| pos.move_to_san(mv)));
///     true
/// });
/// assert_eq!(sans, ["Nf3", "Nh3"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceMoves {
    /// The kind of the moving piece.
    pub piece: PieceKind,
    /// Where it stands.
    pub from: Square,
    /// Where it may go (for castling: the square of the castling rook).
    pub to: Bitboard,
    kind: SetKind,
    /// Enemy pieces, to tell captures from quiet moves when expanding the set.
    enemies: Bitboard,
}

impl PieceMoves {
    /// The number of moves in the set (four per destination for promotions).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Position, Square, Stage};
    ///
    /// let pos = Position::from_fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1")?;
    /// let mut len = 0;
    /// pos.generate_moves_from(Stage::All, Bitboard::from_square(Square::E7), |set| {
    ///     len = set.len();
    ///     true
    /// });
    /// // One destination, e8, and four pieces to promote to.
    /// assert_eq!(len, 4);
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        let n = self.to.popcount() as usize;
        if self.kind == SetKind::Promotions {
            n * 4
        } else {
            n
        }
    }

    /// Whether the set holds no move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Position, Stage};
    ///
    /// // The generator only reports sets that hold at least one move.
    /// let mut sets = 0;
    /// Position::startpos().generate_moves(Stage::All, |set| {
    ///     assert!(!set.is_empty());
    ///     sets += 1;
    ///     false
    /// });
    /// // At the start, two knights and eight pawns can move.
    /// assert_eq!(sets, 10);
    /// ```
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The move of this set to `to` (`promotion` chooses among a promotion's four moves).
    #[inline(always)]
    fn move_to(&self, to: Square, promotion: PieceKind) -> Move {
        let capture = self.enemies.contains(to);
        let kind = match self.kind {
            SetKind::Castle => MoveKind::Castle,
            SetKind::EnPassant => MoveKind::EnPassant,
            SetKind::Promotions => MoveKind::Promotion {
                piece: promotion,
                capture,
            },
            SetKind::Normal if capture => MoveKind::Capture,
            SetKind::Normal
                if self.piece == PieceKind::Pawn && (to as u8).abs_diff(self.from as u8) == 16 =>
            {
                MoveKind::DoublePush
            }
            SetKind::Normal => MoveKind::Quiet,
        };
        Move::new(self.from, to, kind)
    }

    /// Whether `mv` is one of the moves of this set.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Move, MoveKind, PieceKind, Position, Square, Stage};
    ///
    /// let pos = Position::startpos();
    /// let double_push = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
    /// let mut found = false;
    /// pos.generate_moves_from(Stage::All, Bitboard::from_square(Square::E2), |set| {
    ///     assert_eq!(set.piece, PieceKind::Pawn);
    ///     found = set.contains(double_push);
    ///     // The kind must match too: e2e4 is a double push, not a quiet move.
    ///     assert!(!set.contains(Move::new(Square::E2, Square::E4, MoveKind::Quiet)));
    ///     true
    /// });
    /// assert!(found);
    /// ```
    pub fn contains(&self, mv: Move) -> bool {
        mv.from() == self.from
            && self.to.contains(mv.to())
            && mv == self.move_to(mv.to(), mv.promotion().unwrap_or(PieceKind::Queen))
    }
}

impl IntoIterator for PieceMoves {
    type Item = Move;
    type IntoIter = PieceMovesIter;

    fn into_iter(self) -> PieceMovesIter {
        PieceMovesIter {
            set: self,
            promotion: 0,
        }
    }
}

/// Iterator over the moves of a [`PieceMoves`] set; promotions come queen first.
///
/// # Examples
///
/// ```
/// use eldest_board::{Bitboard, PieceKind, Position, Square, Stage};
///
/// let pos = Position::from_fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1")?;
/// let mut promotions = Vec::new();
/// pos.generate_moves_from(Stage::All, Bitboard::from_square(Square::E7), |set| {
///     let moves = set.into_iter();
///     assert_eq!(moves.len(), 4);
///     promotions.extend(moves.map(|mv| mv.promotion().unwrap()));
///     true
/// });
/// // The likeliest best promotion comes first.
/// assert_eq!(promotions, [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight]);
/// # Ok::<(), eldest_board::FenError>(())
/// ```
#[derive(Debug, Clone)]
pub struct PieceMovesIter {
    set: PieceMoves,
    promotion: usize,
}

impl Iterator for PieceMovesIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let to = self.set.to.first()?;
        if self.set.kind == SetKind::Promotions {
            let piece = PROMOTION_PIECES[3 - self.promotion];
            self.promotion += 1;
            if self.promotion == 4 {
                self.promotion = 0;
                self.set.to = self.set.to.without(to);
            }
            Some(self.set.move_to(to, piece))
        } else {
            self.set.to = self.set.to.without(to);
            Some(self.set.move_to(to, PieceKind::Queen))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.set.len() - self.promotion;
        (n, Some(n))
    }
}

impl ExactSizeIterator for PieceMovesIter {}

/// The most moves any position this crate accepts can have. The record for a legal position is 218; the FEN
/// parser rejects material that no game could reach (more than 16 pieces or 8 pawns a side, or more promoted
/// pieces than missing pawns), which keeps every accepted position within this bound.
///
/// # Examples
///
/// ```
/// use eldest_board::{Position, MAX_MOVES};
///
/// // The record: 218 legal moves for white.
/// let pos = Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1")?;
/// assert_eq!(pos.legal_moves().len(), 218);
/// assert!(pos.legal_moves().len() <= MAX_MOVES);
/// # Ok::<(), eldest_board::FenError>(())
/// ```
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves on the stack.
///
/// # Examples
///
/// ```
/// use eldest_board::{MoveList, Position};
///
/// let pos = Position::startpos();
/// let mut moves: MoveList = pos.legal_moves();
/// let e4 = pos.parse_uci_move("e2e4")?;
/// // A slice underneath: move ordering sorts it in place, with no allocation.
/// moves.sort_by_key(|&mv| mv != e4);
/// assert_eq!((moves[0], moves.len()), (e4, 20));
/// # Ok::<(), eldest_board::UciMoveError>(())
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::MoveList;
    ///
    /// let list = MoveList::new();
    /// assert!(list.is_empty());
    /// assert_eq!(list.len(), 0);
    /// ```
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::A1, Square::B1, MoveKind::Quiet); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves, which no position accepted by this crate can produce.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, MoveList, Square};
    ///
    /// let mut list = MoveList::new();
    /// list.push(Move::new(Square::E2, Square::E4, MoveKind::DoublePush));
    /// list.push(Move::new(Square::G1, Square::F3, MoveKind::Quiet));
    /// assert_eq!(list.len(), 2);
    /// assert_eq!(list[1].to(), Square::F3);
    /// ```
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Empties the list.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let mut moves = Position::startpos().legal_moves();
    /// assert_eq!(moves.len(), 20);
    /// moves.clear();
    /// assert!(moves.is_empty());
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl core::ops::DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Position {
    /// Calls `visit` with each non-empty set of legal moves of `stage`, for pieces standing on `from_mask`,
    /// until `visit` returns `true` (stop). Returns whether it was stopped.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{PieceKind, Position, Stage};
    ///
    /// let pos = Position::startpos();
    /// let mut knight_moves = 0;
    /// // Only the side to move's pieces move, though the mask holds the black knights too.
    /// let stopped = pos.generate_moves_from(Stage::All, pos.pieces(PieceKind::Knight), |set| {
    ///     knight_moves += set.len();
    ///     false
    /// });
    /// assert!(!stopped);
    /// assert_eq!(knight_moves, 4);
    /// ```
    #[inline]
    pub fn generate_moves_from(
        &self,
        stage: Stage,
        from_mask: Bitboard,
        mut visit: impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        match stage {
            Stage::All => self.generate::<ALL>(from_mask, &mut visit),
            Stage::Noisy => self.generate::<NOISY>(from_mask, &mut visit),
            Stage::Quiet => self.generate::<QUIET>(from_mask, &mut visit),
        }
    }

    /// Calls `visit` with each non-empty set of legal moves of `stage` until it returns `true` (stop).
    /// Returns whether it was stopped.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Position, Stage};
    ///
    /// let pos = Position::startpos();
    /// let mut moves = 0;
    /// let stopped = pos.generate_moves(Stage::All, |set| {
    ///     moves += set.len();
    ///     false
    /// });
    /// assert!(!stopped);
    /// assert_eq!(moves, 20);
    /// // Returning `true` stops the generation at once.
    /// assert!(pos.generate_moves(Stage::All, |_| true));
    /// ```
    #[inline]
    pub fn generate_moves(&self, stage: Stage, visit: impl FnMut(PieceMoves) -> bool) -> bool {
        self.generate_moves_from(stage, Bitboard::FULL, visit)
    }

    /// The legal moves of `stage` in a list.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Position, Stage};
    ///
    /// // After 1.e4 d5, exd5 is white's only capture.
    /// let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")?;
    /// let noisy = pos.moves(Stage::Noisy);
    /// assert_eq!(noisy.len(), 1);
    /// assert_eq!(pos.move_to_san(noisy[0]), "exd5");
    /// assert_eq!(pos.moves(Stage::Quiet).len(), 30);
    /// assert_eq!(pos.moves(Stage::All).len(), 31);
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn moves(&self, stage: Stage) -> MoveList {
        let mut list = MoveList::new();
        self.moves_into(stage, &mut list);
        list
    }

    /// Appends the legal moves of `stage` to `list`: [`moves`](Position::moves) without a new list, for a caller
    /// that keeps its lists (the search refills one per ply instead of copying one out at every node).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{MoveList, Position, Stage};
    ///
    /// let mut list = MoveList::new();
    /// Position::startpos().moves_into(Stage::All, &mut list);
    /// assert_eq!(list.len(), 20);
    /// list.clear();
    /// Position::startpos().moves_into(Stage::Noisy, &mut list);
    /// assert!(list.is_empty());
    /// ```
    pub fn moves_into(&self, stage: Stage, list: &mut MoveList) {
        self.generate_moves(stage, |set| {
            for mv in set {
                list.push(mv);
            }
            false
        });
    }

    /// All legal moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let moves = Position::startpos().legal_moves();
    /// assert_eq!(moves.len(), 20);
    /// assert!(moves.iter().all(|mv| !mv.is_capture()));
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        self.moves(Stage::All)
    }

    /// Captures and promotions: the search's first stage and its quiescence moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{PieceKind, Position};
    ///
    /// assert!(Position::startpos().noisy_moves().is_empty());
    /// // A pawn about to promote: all four promotions are noisy, captures or not.
    /// let pos = Position::from_fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1")?;
    /// let noisy = pos.noisy_moves();
    /// assert_eq!(noisy.len(), 4);
    /// assert!(noisy.iter().all(|mv| mv.promotion().is_some()));
    /// assert!(noisy.iter().any(|mv| mv.promotion() == Some(PieceKind::Knight)));
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn noisy_moves(&self) -> MoveList {
        self.moves(Stage::Noisy)
    }

    /// Legal moves that neither capture nor promote.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// assert_eq!(Position::startpos().quiet_moves().len(), 20);
    /// // Promotions are not quiet: here only the five king moves are.
    /// let pos = Position::from_fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1")?;
    /// let quiet = pos.quiet_moves();
    /// assert_eq!(quiet.len(), 5);
    /// assert!(quiet.iter().all(|mv| mv.from() == pos.king(pos.side_to_move())));
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn quiet_moves(&self) -> MoveList {
        self.moves(Stage::Quiet)
    }

    /// The legal replies to a check: all legal moves when in check, none otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// assert!(Position::startpos().evasions().is_empty());
    /// // The rook on h1 checks the king on e1, which must step up to d2, e2 or f2.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1")?;
    /// let evasions = pos.evasions();
    /// assert_eq!(evasions.len(), 3);
    /// assert_eq!(evasions.len(), pos.legal_moves().len());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn evasions(&self) -> MoveList {
        if self.in_check() {
            self.legal_moves()
        } else {
            MoveList::new()
        }
    }

    /// The number of legal moves, counted set by set without building a list; the pushes and captures of
    /// unpinned pawns are counted for all pawns at once.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// assert_eq!(Position::startpos().count_moves(), 20);
    /// // "Kiwipete", a standard perft test position.
    /// let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")?;
    /// assert_eq!(pos.count_moves(), 48);
    /// assert_eq!(pos.count_moves(), pos.legal_moves().len());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline]
    pub fn count_moves(&self) -> usize {
        let mut count = 0;
        let mut bulk = 0;
        self.generate_with::<ALL, true>(Bitboard::FULL, &mut bulk, &mut |set: PieceMoves| {
            count += set.len();
            false
        });
        count + bulk
    }

    /// Whether the side to move has any legal move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// assert!(Position::startpos().has_legal_move());
    /// // Stalemate: the black king on a8 cannot move and is not in check.
    /// let pos = Position::from_fen("k7/8/1Q6/8/8/8/8/7K b - - 0 1")?;
    /// assert!(!pos.has_legal_move());
    /// assert!(!pos.in_check());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn has_legal_move(&self) -> bool {
        self.generate::<ALL>(Bitboard::FULL, &mut |_| true)
    }

    /// Whether `mv` is legal in this position (including that its kind bits match the position: a quiet move
    /// onto an enemy piece, or a castling flag on a normal king move, is not legal).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert!(pos.is_legal(Move::new(Square::E2, Square::E4, MoveKind::DoublePush)));
    /// // The wrong kind, an unreachable square, and a black move with white to move:
    /// assert!(!pos.is_legal(Move::new(Square::E2, Square::E4, MoveKind::Quiet)));
    /// assert!(!pos.is_legal(Move::new(Square::E2, Square::E5, MoveKind::Quiet)));
    /// assert!(!pos.is_legal(Move::new(Square::E7, Square::E5, MoveKind::DoublePush)));
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut found = false;
        if !self.colored(self.side_to_move).contains(mv.from()) {
            return false;
        }
        self.generate::<ALL>(Bitboard::from_square(mv.from()), &mut |set: PieceMoves| {
            found = set.contains(mv);
            found
        });
        found
    }

    /// The generator for every stage, visiting each set of moves.
    #[inline(always)]
    fn generate<const STAGE: u8>(
        &self,
        from_mask: Bitboard,
        visit: &mut impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        self.generate_with::<STAGE, false>(from_mask, &mut 0, visit)
    }

    /// The generator proper, monomorphised per stage so the stage tests fold away. With `BULK_PAWNS`, the pushes
    /// and captures of unpinned pawns are not visited but added to `bulk_count` (en passant and pinned pawns are
    /// still visited), which lets [`count_moves`](Position::count_moves) count them for all pawns at once.
    #[inline(always)]
    fn generate_with<const STAGE: u8, const BULK_PAWNS: bool>(
        &self,
        from_mask: Bitboard,
        bulk_count: &mut usize,
        visit: &mut impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        let us = self.side_to_move;
        let them = !us;
        let ours = self.colored(us);
        let theirs = self.colored(them);
        let occupied = ours | theirs;
        let king = self.king(us);
        let stage_targets = match STAGE {
            NOISY => theirs,
            QUIET => !occupied,
            _ => !ours,
        };

        macro_rules! emit {
            ($piece:expr, $from:expr, $to:expr, $kind:expr) => {
                let to: Bitboard = $to;
                if to.is_nonempty()
                    && visit(PieceMoves {
                        piece: $piece,
                        from: $from,
                        to,
                        kind: $kind,
                        enemies: theirs,
                    })
                {
                    return true;
                }
            };
        }

        // King moves: test each destination with the king lifted off the board, so that stepping back along
        // the line of a checking slider is seen as attacked.
        if from_mask.contains(king) {
            let occupied_without_king = occupied.without(king);
            let mut to = Bitboard::EMPTY;
            for square in king_attacks(king) & stage_targets {
                if !self.is_attacked_with(square, them, occupied_without_king) {
                    to |= Bitboard::from_square(square);
                }
            }
            emit!(PieceKind::King, king, to, SetKind::Normal);
        }

        let checkers = self.checkers;
        if checkers.has_more_than_one() {
            return false;
        }
        // Out of check anything goes; in single check, capture the checker or block its line.
        let check_mask = match checkers.first() {
            Some(checker) => between(king, checker) | checkers,
            None => Bitboard::FULL,
        };
        let targets = stage_targets & check_mask;
        let pinned = self.pinned;

        for from in self.pieces_of(us, PieceKind::Knight) & !pinned & from_mask {
            emit!(
                PieceKind::Knight,
                from,
                knight_attacks(from) & targets,
                SetKind::Normal
            );
        }
        let queens = self.pieces_of(us, PieceKind::Queen);
        for from in (self.pieces_of(us, PieceKind::Bishop) | queens) & from_mask {
            let mut to = bishop_attacks(from, occupied) & targets;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            if queens.contains(from) {
                to |= self.queen_rook_moves(from, occupied, targets, king);
                emit!(PieceKind::Queen, from, to, SetKind::Normal);
            } else {
                emit!(PieceKind::Bishop, from, to, SetKind::Normal);
            }
        }
        for from in self.pieces_of(us, PieceKind::Rook) & from_mask {
            emit!(
                PieceKind::Rook,
                from,
                self.queen_rook_moves(from, occupied, targets, king),
                SetKind::Normal
            );
        }

        // Pawns: pushes onto empty squares, captures onto enemies; the last rank makes promotions.
        let promotion_rank = Bitboard::rank(Rank::Eighth.relative_to(us));
        let mut pawns = self.pieces_of(us, PieceKind::Pawn) & from_mask;
        if BULK_PAWNS && STAGE == ALL {
            let unpinned = pawns & !pinned;
            pawns &= pinned;
            let steps = self.pawn_steps(unpinned);
            for to in [steps.single, steps.double, steps.west, steps.east] {
                let to = to & check_mask;
                *bulk_count += (to & !promotion_rank).popcount() as usize
                    + 4 * (to & promotion_rank).popcount() as usize;
            }
        }
        for from in pawns {
            let mut to = self.pawn_steps(Bitboard::from_square(from)).union() & check_mask;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            if (to & promotion_rank).is_nonempty() {
                if STAGE != QUIET {
                    emit!(PieceKind::Pawn, from, to, SetKind::Promotions);
                }
            } else {
                let to = match STAGE {
                    NOISY => to & theirs,
                    QUIET => to & !theirs,
                    _ => to,
                };
                emit!(PieceKind::Pawn, from, to, SetKind::Normal);
            }
        }

        if STAGE != QUIET
            && let Some(ep) = self.en_passant
        {
            let captured = Square::new(ep.file(), Rank::Fifth.relative_to(us));
            // The capture must resolve any check: block on the ep square or take the checking pawn.
            if check_mask.contains(ep) || checkers.contains(captured) {
                for from in pawn_attacks(them, ep) & self.pieces_of(us, PieceKind::Pawn) & from_mask {
                    if self.en_passant_is_legal(from, ep, captured, king) {
                        emit!(
                            PieceKind::Pawn,
                            from,
                            Bitboard::from_square(ep),
                            SetKind::EnPassant
                        );
                    }
                }
            }
        }

        if STAGE != NOISY && checkers.is_empty() && from_mask.contains(king) {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(us, side)
                    && self.castling_is_legal(side, king, rook)
                {
                    emit!(
                        PieceKind::King,
                        king,
                        Bitboard::from_square(rook),
                        SetKind::Castle
                    );
                }
            }
        }
        false
    }

    /// The pushes and captures (without en passant) of a set of pawns of the side to move, one set per kind of
    /// step so that each is a shift of the pawns and counts them one to one.
    #[inline(always)]
    fn pawn_steps(&self, pawns: Bitboard) -> PawnSteps {
        let us = self.side_to_move;
        let empty = !self.occupied();
        let theirs = self.colored(!us);
        let single = pawns.forward(us) & empty;
        let double = single.forward(us) & empty & Bitboard::rank(Rank::Fourth.relative_to(us));
        let advanced_west = (pawns & !Bitboard::file(File::A)).forward(us);
        let advanced_east = (pawns & !Bitboard::file(File::H)).forward(us);
        PawnSteps {
            single,
            double,
            west: Bitboard(advanced_west.0 >> 1) & theirs,
            east: Bitboard(advanced_east.0 << 1) & theirs,
        }
    }

    /// Rook-wise moves of a rook or queen on `from`, kept on the pin line if pinned.
    #[inline(always)]
    fn queen_rook_moves(
        &self,
        from: Square,
        occupied: Bitboard,
        targets: Bitboard,
        king: Square,
    ) -> Bitboard {
        let to = rook_attacks(from, occupied) & targets;
        if self.pinned.contains(from) {
            to & line(king, from)
        } else {
            to
        }
    }

    /// En passant removes two pawns from one rank at once, which the pin mask cannot see: replay the capture
    /// on the occupancy and look for a slider that now sees the king.
    fn en_passant_is_legal(&self, from: Square, ep: Square, captured: Square, king: Square) -> bool {
        let them = !self.side_to_move;
        let occupied = (self.occupied().without(from).without(captured)).with(ep);
        let queens = self.pieces_of(them, PieceKind::Queen);
        let rooks = self.pieces_of(them, PieceKind::Rook) | queens;
        let bishops = self.pieces_of(them, PieceKind::Bishop) | queens;
        (rook_attacks(king, occupied) & rooks).is_empty()
            && (bishop_attacks(king, occupied) & bishops).is_empty()
    }

    /// Castling (standard or Chess960): the squares both pieces cross or land on must be empty but for the king
    /// and rook themselves, and no square the king crosses or lands on may be attacked. Attacks are tested with
    /// king and rook lifted, which also catches the Chess960 case of the rook shielding the king's destination.
    fn castling_is_legal(&self, side: CastleSide, king: Square, rook: Square) -> bool {
        let rank = self.side_to_move.back_rank();
        let king_to = Square::new(side.king_destination(), rank);
        let rook_to = Square::new(side.rook_destination(), rank);
        let occupied = self.occupied().without(king).without(rook);
        let must_be_empty = between(king, king_to).with(king_to) | between(rook, rook_to).with(rook_to);
        if (must_be_empty & occupied).is_nonempty() {
            return false;
        }
        let them = !self.side_to_move;
        (between(king, king_to).with(king_to))
            .into_iter()
            .all(|square| !self.is_attacked_with(square, them, occupied))
    }
}

/// Pawn destinations by kind of step; see [`Position::pawn_steps`].
struct PawnSteps {
    single: Bitboard,
    double: Bitboard,
    west: Bitboard,
    east: Bitboard,
}

impl PawnSteps {
    #[inline(always)]
    fn union(&self) -> Bitboard {
        self.single | self.double | self.west | self.east
    }
}

const ALL: u8 = 0;
const NOISY: u8 = 1;
const QUIET: u8 = 2;
