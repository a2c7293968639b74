//! [`Position`]: the state of a game at one moment, played by copy-make with an incrementally updated key.

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, queen_attacks,
    rook_attacks, rook_rays,
};
use crate::bitboard::Bitboard;
use crate::castling::{CastleSide, CastlingRights};
use crate::moves::{Move, MoveKind};
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use eldest_hashing as zobrist;

/// A chess position: placement, side to move, castling rooks, en-passant square, move counters, and derived
/// facts the move generator needs (checkers, pinned pieces, Zobrist key).
///
/// `Position` is a small `Copy` value: to search a move, copy the position and [`play_unchecked`](Position::play_unchecked) the
/// move on the copy. This makes undo trivial and lets a parallel search hand a node to another thread by value.
///
/// The en-passant square is kept only when an enemy pawn could capture there (pseudo-legally), so that
/// transpositions that differ only in an unusable en-passant square share a key.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
///
/// let pos = Position::startpos();
/// let mut child = pos; // a copy: playing the move on it leaves `pos` as the undo
/// child.play_unchecked(pos.parse_uci_move("e2e4")?);
/// assert_eq!(pos, Position::startpos());
/// assert_eq!(child.key(), child.compute_key());
/// // No black pawn can take on e3, so no en-passant square sets this position's key apart.
/// assert_eq!(child.en_passant(), None);
/// # Ok::<(), eldest_board::UciMoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) by_kind: [Bitboard; PieceKind::NUM],
    pub(crate) by_color: [Bitboard; Color::NUM],
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move that shield their king from an enemy slider.
    pub(crate) pinned: Bitboard,
    pub(crate) key: u64,
    /// `[color][side]`: the square of the rook that may still castle, if any.
    pub(crate) castling_rooks: [[Option<Square>; 2]; Color::NUM],
    pub(crate) en_passant: Option<Square>,
    pub(crate) side_to_move: Color,
    pub(crate) halfmove_clock: u16,
    pub(crate) fullmove_number: u16,
    pub(crate) chess960: bool,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position, STARTPOS_FEN};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos, Position::from_fen(STARTPOS_FEN)?);
    /// assert_eq!(pos, Position::default());
    /// assert_eq!(pos.side_to_move(), Color::White);
    /// assert_eq!(pos.legal_moves().len(), 20);
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn startpos() -> Position {
        Position::from_fen(crate::fen::STARTPOS_FEN).expect("the start position is valid")
    }

    /// An empty board with white to move, no rights and no derived state; the FEN parser fills it.
    pub(crate) const fn empty() -> Position {
        Position {
            by_kind: [Bitboard::EMPTY; PieceKind::NUM],
            by_color: [Bitboard::EMPTY; Color::NUM],
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            key: 0,
            castling_rooks: [[None; 2]; 2],
            en_passant: None,
            side_to_move: Color::White,
            halfmove_clock: 0,
            fullmove_number: 1,
            chess960: false,
        }
    }

    /// The side to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position};
    ///
    /// let mut pos = Position::startpos();
    /// assert_eq!(pos.side_to_move(), Color::White);
    /// let mv = pos.legal_moves()[0];
    /// pos.play_unchecked(mv);
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// ```
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The Zobrist key of the position (placement, side, castling rights, usable en-passant file).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// // The knights go out and come back: the same position, so the same key, although the
    /// // move counters (which the key leaves out) differ.
    /// let start = Position::startpos();
    /// let mut pos = start;
    /// for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     let mv = pos.parse_uci_move(uci)?;
    ///     pos.play_unchecked(mv);
    /// }
    /// assert_eq!(pos.key(), start.key());
    /// assert_ne!(pos, start);
    /// # Ok::<(), eldest_board::UciMoveError>(())
    /// ```
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Half-moves since the last capture or pawn move (for the fifty-move rule).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let mut pos = Position::startpos();
    /// for uci in ["g1f3", "g8f6"] {
    ///     let mv = pos.parse_uci_move(uci)?;
    ///     pos.play_unchecked(mv);
    /// }
    /// assert_eq!(pos.halfmove_clock(), 2);
    /// // A pawn move resets the clock.
    /// let mv = pos.parse_uci_move("e2e4")?;
    /// pos.play_unchecked(mv);
    /// assert_eq!(pos.halfmove_clock(), 0);
    /// # Ok::<(), eldest_board::UciMoveError>(())
    /// ```
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after black moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let mut pos = Position::startpos();
    /// assert_eq!(pos.fullmove_number(), 1);
    /// let mv = pos.parse_uci_move("e2e4")?;
    /// pos.play_unchecked(mv);
    /// assert_eq!(pos.fullmove_number(), 1);
    /// let mv = pos.parse_uci_move("e7e5")?;
    /// pos.play_unchecked(mv);
    /// assert_eq!(pos.fullmove_number(), 2);
    /// # Ok::<(), eldest_board::UciMoveError>(())
    /// ```
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The square a pawn could capture to en passant, if one can.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Position, Square};
    ///
    /// // After 1.e4 no black pawn can take en passant, so no square is kept.
    /// let mut pos = Position::startpos();
    /// let mv = pos.parse_uci_move("e2e4")?;
    /// pos.play_unchecked(mv);
    /// assert_eq!(pos.en_passant(), None);
    /// // With a black pawn on d4, the same double push can be taken on e3.
    /// let mut pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3")?;
    /// let mv = pos.parse_uci_move("e2e4")?;
    /// pos.play_unchecked(mv);
    /// assert_eq!(pos.en_passant(), Some(Square::E3));
    /// assert!(pos.parse_san("dxe3")?.is_en_passant());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// The pieces giving check to the side to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Position, Square};
    ///
    /// assert!(Position::startpos().checkers().is_empty());
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1")?;
    /// assert_eq!(pos.checkers(), Bitboard::from_square(Square::H1));
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// assert!(!Position::startpos().in_check());
    /// // The rook on h1 checks the king on e1.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1")?;
    /// assert!(pos.in_check());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// The pieces of the side to move that are pinned to their king.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Position, Square};
    ///
    /// // The rook on e7 pins the knight on e2 to the king on e1: the knight cannot move.
    /// let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")?;
    /// assert_eq!(pos.pinned(), Bitboard::from_square(Square::E2));
    /// assert!(pos.legal_moves().iter().all(|mv| mv.from() != Square::E2));
    /// assert!(Position::startpos().pinned().is_empty());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Whether castling is written and read the Chess960 way (king takes own rook in UCI, file letters in FEN).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// assert!(!Position::startpos().is_chess960());
    /// // Shredder-FEN castling letters ask for Chess960 notation.
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")?;
    /// assert!(pos.is_chess960());
    /// assert_eq!(pos.move_to_uci(pos.parse_san("O-O")?), "e1h1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches between standard and Chess960 notation for castling. The position itself is unchanged; a
    /// standard game can be written in Chess960 notation, but castling with a king or rook off its standard
    /// square cannot be written in standard notation, so this is refused (returns `false`) for such a position.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let mut pos = Position::startpos();
    /// assert!(pos.set_chess960(true));
    /// assert!(pos.is_chess960());
    /// assert!(pos.set_chess960(false));
    /// // Rooks on b1 and g1 cannot castle in standard notation.
    /// let mut shuffled = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1")?;
    /// assert!(shuffled.is_chess960());
    /// assert!(!shuffled.set_chess960(false));
    /// assert!(shuffled.is_chess960());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn set_chess960(&mut self, chess960: bool) -> bool {
        if !chess960 && !self.castling_is_standard() {
            return false;
        }
        self.chess960 = chess960;
        true
    }

    /// Whether every castling right has its king on the e-file and its rook on the a- or h-file.
    pub(crate) fn castling_is_standard(&self) -> bool {
        Color::ALL.into_iter().all(|color| {
            let king = self.king(color);
            CastleSide::ALL
                .into_iter()
                .all(|side| match self.castling_rooks[color as usize][side as usize] {
                    None => true,
                    Some(rook) => {
                        king.file() == File::E
                            && rook.file()
                                == if side == CastleSide::King {
                                    File::H
                                } else {
                                    File::A
                                }
                    }
                })
        })
    }

    /// Every occupied square.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Position, Rank};
    ///
    /// let pos = Position::startpos();
    /// let home_ranks = Bitboard::rank(Rank::First)
    ///     | Bitboard::rank(Rank::Second)
    ///     | Bitboard::rank(Rank::Seventh)
    ///     | Bitboard::rank(Rank::Eighth);
    /// assert_eq!(pos.occupied(), home_ranks);
    /// assert_eq!(pos.occupied().popcount(), 32);
    /// ```
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Color, Position, Rank};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.colored(Color::White), Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Second));
    /// assert_eq!(pos.colored(Color::Black).popcount(), 16);
    /// ```
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares of pieces of `kind`, of both colours.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, PieceKind, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// let rooks: Bitboard = [Square::A1, Square::H1, Square::A8, Square::H8].into_iter().collect();
    /// assert_eq!(pos.pieces(PieceKind::Rook), rooks);
    /// assert_eq!(pos.pieces(PieceKind::Pawn).popcount(), 16);
    /// ```
    #[inline(always)]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize]
    }

    /// The squares of `color`'s pieces of `kind`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Color, PieceKind, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// let knights: Bitboard = [Square::B1, Square::G1].into_iter().collect();
    /// assert_eq!(pos.pieces_of(Color::White, PieceKind::Knight), knights);
    /// assert_eq!(pos.pieces_of(Color::Black, PieceKind::Queen).single(), Some(Square::D8));
    /// ```
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize] & self.by_color[color as usize]
    }

    /// The square of `color`'s king.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.king(Color::White), Square::E1);
    /// assert_eq!(pos.king(Color::Black), Square::E8);
    /// ```
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        // Every Position has exactly one king per side: the FEN parser rejects anything else and moves
        // never capture a king.
        self.pieces_of(color, PieceKind::King)
            .first()
            .expect("each side has a king")
    }

    /// The kind of piece on `square`, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{PieceKind, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.kind_on(Square::D1), Some(PieceKind::Queen));
    /// assert_eq!(pos.kind_on(Square::G8), Some(PieceKind::Knight));
    /// assert_eq!(pos.kind_on(Square::E4), None);
    /// ```
    #[inline(always)]
    pub fn kind_on(&self, square: Square) -> Option<PieceKind> {
        let bb = Bitboard::from_square(square);
        PieceKind::ALL
            .into_iter()
            .find(|&kind| (self.by_kind[kind as usize] & bb).is_nonempty())
    }

    /// The piece on `square`, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Piece, PieceKind, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.piece_on(Square::E8), Some(Piece::new(Color::Black, PieceKind::King)));
    /// assert_eq!(pos.piece_on(Square::A2).map(|piece| piece.to_char()), Some('P'));
    /// assert_eq!(pos.piece_on(Square::E4), None);
    /// ```
    pub fn piece_on(&self, square: Square) -> Option<Piece> {
        let kind = self.kind_on(square)?;
        let color = if self.by_color[0].contains(square) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }

    /// The square of `color`'s rook that may still castle towards `side`, if the right remains.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{CastleSide, Color, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.castling_rook(Color::White, CastleSide::King), Some(Square::H1));
    /// assert_eq!(pos.castling_rook(Color::Black, CastleSide::Queen), Some(Square::A8));
    /// // In Chess960 the castling rooks may stand on other files.
    /// let pos = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1")?;
    /// assert_eq!(pos.castling_rook(Color::White, CastleSide::King), Some(Square::G1));
    /// assert_eq!(pos.castling_rook(Color::Black, CastleSide::Queen), Some(Square::B8));
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.castling_rooks[color as usize][side as usize]
    }

    /// The castling rights that remain.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{CastlingRights, Position};
    ///
    /// assert_eq!(Position::startpos().castling_rights(), CastlingRights::all());
    /// let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1")?;
    /// assert_eq!(
    ///     pos.castling_rights(),
    ///     CastlingRights::WHITE_KING_SIDE | CastlingRights::BLACK_QUEEN_SIDE
    /// );
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn castling_rights(&self) -> CastlingRights {
        let mut rights = CastlingRights::empty();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if self.castling_rook(color, side).is_some() {
                    rights |= CastlingRights::of(color, side);
                }
            }
        }
        rights
    }

    /// All pieces of either colour that attack `square`, with `occupied` as the blockers of sliders.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Position, Square};
    ///
    /// // After 1.e4 d5 the pawn on e4 and the queen on d8 both bear on d5.
    /// let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")?;
    /// let expected: Bitboard = [Square::E4, Square::D8].into_iter().collect();
    /// assert_eq!(pos.attackers_to(Square::D5, pos.occupied()), expected);
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen);
        let bishops = self.pieces(PieceKind::Bishop) | self.pieces(PieceKind::Queen);
        (knight_attacks(square) & self.pieces(PieceKind::Knight))
            | (king_attacks(square) & self.pieces(PieceKind::King))
            | (pawn_attacks(Color::White, square) & self.pieces_of(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, square) & self.pieces_of(Color::White, PieceKind::Pawn))
            | (rook_attacks(square, occupied) & rooks)
            | (bishop_attacks(square, occupied) & bishops)
    }

    /// Whether any piece of `by` attacks `square` when `occupied` holds the blockers of sliders. Cheaper than
    /// [`attackers_to`](Position::attackers_to): it stops at the first attacker and tries leapers first.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position, Square};
    ///
    /// // The rook on h1 checks the king on e1; d1 is shielded only by the king itself.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1")?;
    /// assert!(!pos.is_attacked_with(Square::D1, Color::Black, pos.occupied()));
    /// let without_king = pos.occupied().without(pos.king(Color::White));
    /// assert!(pos.is_attacked_with(Square::D1, Color::Black, without_king));
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn is_attacked_with(&self, square: Square, by: Color, occupied: Bitboard) -> bool {
        let theirs = self.colored(by);
        if (knight_attacks(square) & self.pieces(PieceKind::Knight) & theirs).is_nonempty()
            || (pawn_attacks(!by, square) & self.pieces(PieceKind::Pawn) & theirs).is_nonempty()
            || (king_attacks(square) & self.pieces(PieceKind::King) & theirs).is_nonempty()
        {
            return true;
        }
        let queens = self.pieces(PieceKind::Queen);
        let rooks = (self.pieces(PieceKind::Rook) | queens) & theirs;
        let bishops = (self.pieces(PieceKind::Bishop) | queens) & theirs;
        (rook_rays(square) & rooks).is_nonempty() && (rook_attacks(square, occupied) & rooks).is_nonempty()
            || (bishop_rays(square) & bishops).is_nonempty()
                && (bishop_attacks(square, occupied) & bishops).is_nonempty()
    }

    /// Whether any piece of `by` attacks `square` in the current position.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// assert!(pos.is_attacked(Square::F3, Color::White));
    /// assert!(pos.is_attacked(Square::F6, Color::Black));
    /// assert!(!pos.is_attacked(Square::E4, Color::White));
    /// ```
    pub fn is_attacked(&self, square: Square, by: Color) -> bool {
        self.is_attacked_with(square, by, self.occupied())
    }

    /// The squares `piece` kind of `color` on `square` attacks given the current occupancy.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Bitboard, Color, PieceKind, Position, Square};
    ///
    /// let pos = Position::startpos();
    /// let knight: Bitboard = [Square::E2, Square::F3, Square::H3].into_iter().collect();
    /// assert_eq!(pos.attacks_from(PieceKind::Knight, Color::White, Square::G1), knight);
    /// let pawn: Bitboard = [Square::D6, Square::F6].into_iter().collect();
    /// assert_eq!(pos.attacks_from(PieceKind::Pawn, Color::Black, Square::E7), pawn);
    /// // Sliders stop at the first piece: the c1 bishop only sees b2 and d2.
    /// assert_eq!(pos.attacks_from(PieceKind::Bishop, Color::White, Square::C1).popcount(), 2);
    /// ```
    pub fn attacks_from(&self, kind: PieceKind, color: Color, square: Square) -> Bitboard {
        let occupied = self.occupied();
        match kind {
            PieceKind::Pawn => pawn_attacks(color, square),
            PieceKind::Knight => knight_attacks(square),
            PieceKind::Bishop => bishop_attacks(square, occupied),
            PieceKind::Rook => rook_attacks(square, occupied),
            PieceKind::Queen => queen_attacks(square, occupied),
            PieceKind::King => king_attacks(square),
        }
    }

    /// Whether the legal move `mv` gives check, decided without playing it: a direct check by the piece that
    /// lands on the destination, or a discovered check by a slider the move unmasks. Castling and en passant,
    /// rare and with more than one piece moving, are answered by playing the move on a copy. Equal to
    /// playing the move and asking [`in_check`](Position::in_check), at a fraction of the cost: the search
    /// uses it to decide whether a move may be pruned before making it.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// // Direct check: Bb5+ after 1.e4 d6 attacks the king on e8 along the opened diagonal.
    /// let pos = Position::from_fen("rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")?;
    /// assert!(pos.gives_check(pos.parse_san("Bb5+")?));
    /// assert!(!pos.gives_check(pos.parse_san("Nf3")?));
    /// // Discovered check: the knight leaves the e-file and the rook on e1 sees the king on e8.
    /// let pos = Position::from_fen("4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1")?;
    /// assert!(pos.gives_check(pos.parse_san("Nc5+")?));
    /// for mv in pos.legal_moves().iter().copied() {
    ///     let mut child = pos;
    ///     child.play_unchecked(mv);
    ///     assert_eq!(pos.gives_check(mv), child.in_check());
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn gives_check(&self, mv: Move) -> bool {
        if matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant) {
            return self.gives_check_by_playing(mv);
        }
        let us = self.side_to_move;
        let their_king = self.king(!us);
        let from = mv.from();
        let to = mv.to();
        // Most moves neither land on a line or a knight's jump from the king nor leave one: no check, and no
        // need to know the piece.
        let (rook_lines, bishop_lines) = (rook_rays(their_king), bishop_rays(their_king));
        let lines = rook_lines | bishop_lines;
        if !lines.contains(from) && !(lines | knight_attacks(their_king)).contains(to) {
            return false;
        }
        let moving = self.kind_on(from).unwrap_or(PieceKind::Pawn);
        let occupied = self.occupied().without(from) | Bitboard::from_square(to);
        let direct = match mv.promotion().unwrap_or(moving) {
            PieceKind::Pawn => pawn_attacks(us, to),
            PieceKind::Knight => knight_attacks(to),
            PieceKind::Bishop => bishop_attacks(to, occupied),
            PieceKind::Rook => rook_attacks(to, occupied),
            PieceKind::Queen => queen_attacks(to, occupied),
            PieceKind::King => Bitboard::EMPTY,
        };
        if direct.contains(their_king) {
            return true;
        }
        // A discovered check needs the vacated square on a line from the king to one of our sliders. The moved
        // piece still counts among the sliders on its old square, harmlessly: were that square open to the king,
        // the king would have been in check with the opponent to move.
        let queens = self.pieces(PieceKind::Queen);
        let ours = self.colored(us);
        let rooks = (self.pieces(PieceKind::Rook) | queens) & ours;
        let bishops = (self.pieces(PieceKind::Bishop) | queens) & ours;
        rook_lines.contains(from) && (rook_attacks(their_king, occupied) & rooks).is_nonempty()
            || bishop_lines.contains(from) && (bishop_attacks(their_king, occupied) & bishops).is_nonempty()
    }

    /// [`gives_check`](Position::gives_check) for the moves that move two pieces: out of line, so that the copy of
    /// the position is not paid for by every call.
    #[cold]
    #[inline(never)]
    fn gives_check_by_playing(&self, mv: Move) -> bool {
        let mut child = *self;
        child.play_unchecked(mv);
        child.in_check()
    }

    /// Puts or removes a piece: bitboards and key together, so they cannot drift apart.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, color: Color, kind: PieceKind, square: Square) {
        let bb = Bitboard::from_square(square);
        self.by_kind[kind as usize] ^= bb;
        self.by_color[color as usize] ^= bb;
        self.key ^= zobrist::piece_square(Piece::new(color, kind).index(), square as usize);
    }

    #[inline(always)]
    fn remove_castling_right(&mut self, color: Color, side: CastleSide) {
        if let Some(rook) = self.castling_rooks[color as usize][side as usize].take() {
            self.key ^= zobrist::castling(color as usize, rook.file() as usize);
        }
    }

    /// Plays a legal move in place: the copy-make step of the search.
    ///
    /// The move must be legal in this position (generated by it, or checked with
    /// [`is_legal`](Position::is_legal)); an illegal move leaves the position in an unspecified (but memory-safe)
    /// state. Use [`try_play`](Position::try_play) for moves from outside.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Piece, PieceKind, Position, Square};
    ///
    /// let mut pos = Position::startpos();
    /// let mv = pos.parse_san("e4")?;
    /// pos.play_unchecked(mv);
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert_eq!(pos.piece_on(Square::E4), Some(Piece::new(Color::White, PieceKind::Pawn)));
    /// assert_eq!(pos.piece_on(Square::E2), None);
    /// // Copy-make: play on a copy, and the original stays as it was.
    /// let mut child = pos;
    /// let reply = child.legal_moves()[0];
    /// child.play_unchecked(reply);
    /// assert_ne!(child, pos);
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// # Ok::<(), eldest_board::SanError>(())
    /// ```
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in {self}");
        let us = self.side_to_move;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let moving = self.kind_on(from).unwrap_or(PieceKind::Pawn);

        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant_file(ep.file() as usize);
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);

        match mv.kind() {
            MoveKind::Castle => {
                let side = if to.file() > from.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                let rank = us.back_rank();
                self.toggle(us, PieceKind::King, from);
                self.toggle(us, PieceKind::Rook, to);
                self.toggle(us, PieceKind::King, Square::new(side.king_destination(), rank));
                self.toggle(us, PieceKind::Rook, Square::new(side.rook_destination(), rank));
            }
            kind => {
                if kind == MoveKind::EnPassant {
                    let captured = Square::new(to.file(), from.rank());
                    self.toggle(them, PieceKind::Pawn, captured);
                } else if mv.is_capture() {
                    let captured = self.kind_on(to).unwrap_or(PieceKind::Pawn);
                    self.toggle(them, captured, to);
                }
                self.toggle(us, moving, from);
                self.toggle(us, mv.promotion().unwrap_or(moving), to);
                if moving == PieceKind::Pawn || mv.is_capture() {
                    self.halfmove_clock = 0;
                }
                if kind == MoveKind::DoublePush {
                    let passed = Square::new(from.file(), Rank::Third.relative_to(us));
                    if (pawn_attacks(us, passed) & self.pieces_of(them, PieceKind::Pawn)).is_nonempty() {
                        self.en_passant = Some(passed);
                        self.key ^= zobrist::en_passant_file(passed.file() as usize);
                    }
                }
            }
        }

        if self.castling_rooks != [[None; 2]; 2] {
            self.update_castling_rights(us, moving, from, to);
        }
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = them;
        self.key ^= zobrist::side_to_move();
        self.update_checks_and_pins();
        debug_assert_eq!(
            self.key,
            self.compute_key(),
            "incremental key drifted after {mv:?}"
        );
    }

    /// A king move or a move from or to a castling rook's square ends that right.
    fn update_castling_rights(&mut self, us: Color, moving: PieceKind, from: Square, to: Square) {
        if moving == PieceKind::King {
            self.remove_castling_right(us, CastleSide::King);
            self.remove_castling_right(us, CastleSide::Queen);
        }
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rooks[color as usize][side as usize]
                    && (rook == from || rook == to)
                {
                    self.remove_castling_right(color, side);
                }
            }
        }
    }

    /// Passes the move to the opponent (a "null move", for null-move pruning). Returns `false` and does nothing
    /// when the side to move is in check, where passing would leave the king capturable.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position};
    ///
    /// let mut pos = Position::startpos();
    /// let key = pos.key();
    /// assert!(pos.play_null());
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert_ne!(pos.key(), key);
    /// assert!(pos.play_null());
    /// assert_eq!(pos.key(), key);
    /// // In check, passing is refused.
    /// let mut checked = Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1")?;
    /// assert!(!checked.play_null());
    /// assert_eq!(checked.side_to_move(), Color::White);
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn play_null(&mut self) -> bool {
        if self.in_check() {
            return false;
        }
        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant_file(ep.file() as usize);
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if self.side_to_move == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = !self.side_to_move;
        self.key ^= zobrist::side_to_move();
        self.update_checks_and_pins();
        true
    }

    /// Recomputes the checkers of, and the pins against, the side to move's king.
    #[inline(always)]
    pub(crate) fn update_checks_and_pins(&mut self) {
        let us = self.side_to_move;
        let them = !us;
        let king = self.king(us);
        let theirs = self.colored(them);
        let occupied = self.occupied();
        let mut checkers = (knight_attacks(king) & self.pieces(PieceKind::Knight)
            | pawn_attacks(us, king) & self.pieces(PieceKind::Pawn))
            & theirs;
        let queens = self.pieces(PieceKind::Queen);
        let snipers = (rook_rays(king) & (self.pieces(PieceKind::Rook) | queens)
            | bishop_rays(king) & (self.pieces(PieceKind::Bishop) | queens))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers |= Bitboard::from_square(sniper);
            } else if !blockers.has_more_than_one() {
                pinned |= blockers & self.colored(us);
            }
        }
        self.checkers = checkers;
        self.pinned = pinned;
    }

    /// The Zobrist key computed from scratch; [`play_unchecked`](Position::play_unchecked) keeps [`key`](Position::key) equal to it.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let mut pos = Position::startpos();
    /// assert_eq!(pos.compute_key(), pos.key());
    /// for uci in ["e2e4", "c7c5", "g1f3"] {
    ///     let mv = pos.parse_uci_move(uci)?;
    ///     pos.play_unchecked(mv);
    ///     assert_eq!(pos.compute_key(), pos.key());
    /// }
    /// # Ok::<(), eldest_board::UciMoveError>(())
    /// ```
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for square in self.pieces_of(color, kind) {
                    key ^= zobrist::piece_square(Piece::new(color, kind).index(), square as usize);
                }
            }
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    key ^= zobrist::castling(color as usize, rook.file() as usize);
                }
            }
        }
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant_file(ep.file() as usize);
        }
        if self.side_to_move == Color::Black {
            key ^= zobrist::side_to_move();
        }
        key
    }
}

impl core::fmt::Debug for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Position({self})")
    }
}
