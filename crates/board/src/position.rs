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
/// `Position` is a small `Copy` value: to search a move, copy the position and [`play`](Position::play) the
/// move on the copy. This makes undo trivial and lets a parallel search hand a node to another thread by value.
///
/// The en-passant square is kept only when an enemy pawn could capture there (pseudo-legally), so that
/// transpositions that differ only in an unusable en-passant square share a key.
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
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The Zobrist key of the position (placement, side, castling rights, usable en-passant file).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Half-moves since the last capture or pawn move (for the fifty-move rule).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The square a pawn could capture to en passant, if one can.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// The pieces of the side to move that are pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Whether castling is written and read the Chess960 way (king takes own rook in UCI, file letters in FEN).
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches between standard and Chess960 notation for castling. The position itself is unchanged; a
    /// standard game can be written in Chess960 notation, but castling with a king or rook off its standard
    /// square cannot be written in standard notation, so this is refused (returns `false`) for such a position.
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
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares of pieces of `kind`, of both colours.
    #[inline(always)]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind as usize] & self.by_color[color as usize]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        // Every Position has exactly one king per side: the FEN parser rejects anything else and moves
        // never capture a king.
        self.pieces_of(color, PieceKind::King)
            .first()
            .expect("each side has a king")
    }

    /// The kind of piece on `square`, if any.
    #[inline(always)]
    pub fn kind_on(&self, square: Square) -> Option<PieceKind> {
        let bb = Bitboard::from_square(square);
        PieceKind::ALL
            .into_iter()
            .find(|&kind| (self.by_kind[kind as usize] & bb).is_nonempty())
    }

    /// The piece on `square`, if any.
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
    #[inline(always)]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.castling_rooks[color as usize][side as usize]
    }

    /// The castling rights that remain.
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
    pub fn is_attacked(&self, square: Square, by: Color) -> bool {
        self.is_attacked_with(square, by, self.occupied())
    }

    /// The squares `piece` kind of `color` on `square` attacks given the current occupancy.
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
    #[inline]
    pub fn play(&mut self, mv: Move) {
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

    /// The Zobrist key computed from scratch; [`play`](Position::play) keeps [`key`](Position::key) equal to it.
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
