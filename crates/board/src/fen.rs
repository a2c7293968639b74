//! FEN and EPD: parsing into a validated [`Position`] with a typed error for every rejection, and writing.
//!
//! Castling may be given as standard `KQkq`, X-FEN (`K`/`Q` for the outermost rook, a file letter otherwise)
//! or Shredder-FEN (file letters `A`–`H` / `a`–`h`). A position whose castling needs Chess960 notation (file
//! letters, or a king or castling rook off its standard square) is marked Chess960. Positions are written in
//! X-FEN, which is plain FEN for standard chess.

use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::position::Position;
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use core::fmt;
use eldest_hashing as zobrist;

/// The FEN of the standard starting position.
///
/// # Examples
///
/// ```
/// use eldest_board::{Position, STARTPOS_FEN};
///
/// assert_eq!(Position::from_fen(STARTPOS_FEN)?, Position::startpos());
/// assert_eq!(Position::startpos().to_fen(), STARTPOS_FEN);
/// # Ok::<(), eldest_board::FenError>(())
/// ```
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN or EPD string was rejected. Each variant names the field at fault.
///
/// # Examples
///
/// ```
/// use eldest_board::{FenError, Position};
///
/// assert_eq!(Position::from_fen("rnbqkbnr/pppppppp"), Err(FenError::FieldCount(1)));
/// let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1";
/// let error = Position::from_fen(fen).unwrap_err();
/// assert_eq!(error, FenError::InvalidSideToMove("x".to_string()));
/// assert_eq!(error.to_string(), r#"side to move must be 'w' or 'b', found "x""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// A FEN has 4 to 6 space-separated fields (an EPD has 4 plus operations); this one had another count.
    FieldCount(usize),
    /// The placement field must have 8 ranks separated by `/`.
    RankCount(usize),
    /// A rank of the placement field did not describe exactly 8 squares.
    RankLength {
        /// The rank at fault.
        rank: Rank,
        /// How many squares it described.
        squares: usize,
    },
    /// A character of the placement field is neither a piece letter nor a digit 1–8.
    InvalidPiece(char),
    /// A side does not have exactly one king.
    KingCount {
        /// The side at fault.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// A side has material no game can reach: more than 16 pieces or 8 pawns, or more promoted pieces than
    /// missing pawns.
    ImpossibleMaterial(Color),
    /// The side-to-move field is not `w` or `b`.
    InvalidSideToMove(String),
    /// The castling field has a character other than `KQkqA-Ha-h`, or is malformed.
    InvalidCastling(String),
    /// A castling right names no rook that could castle with the king on its back rank.
    ImpossibleCastling(char),
    /// The en-passant field is not `-` or a square.
    InvalidEnPassant(String),
    /// The en-passant square is not one a pawn of the side that just moved can have passed over.
    ImpossibleEnPassant(Square),
    /// The halfmove clock is not a number from 0 to 65535.
    InvalidHalfmoveClock(String),
    /// The fullmove number is not a number from 0 to 65535.
    InvalidFullmoveNumber(String),
    /// The side that is not to move is in check: its king could be captured.
    OpponentInCheck,
    /// An EPD operation is malformed (an unterminated string, or no opcode).
    InvalidOperation(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "FEN needs 4 to 6 fields, found {n}"),
            FenError::RankCount(n) => write!(f, "piece placement needs 8 ranks, found {n}"),
            FenError::RankLength { rank, squares } => {
                write!(
                    f,
                    "piece placement: rank {rank} describes {squares} squares instead of 8"
                )
            }
            FenError::InvalidPiece(c) => write!(f, "piece placement: invalid character {c:?}"),
            FenError::KingCount { color, count } => {
                write!(f, "piece placement: {color:?} has {count} kings instead of 1")
            }
            FenError::PawnOnBackRank(sq) => write!(f, "piece placement: pawn on back rank square {sq}"),
            FenError::ImpossibleMaterial(color) => {
                write!(
                    f,
                    "piece placement: {color:?} has more pieces than promotions allow"
                )
            }
            FenError::InvalidSideToMove(s) => write!(f, "side to move must be 'w' or 'b', found {s:?}"),
            FenError::InvalidCastling(s) => write!(f, "invalid castling field {s:?}"),
            FenError::ImpossibleCastling(c) => {
                write!(f, "castling right {c:?} has no king and rook that could castle")
            }
            FenError::InvalidEnPassant(s) => write!(f, "invalid en-passant field {s:?}"),
            FenError::ImpossibleEnPassant(sq) => {
                write!(f, "en-passant square {sq} does not follow a pawn's double push")
            }
            FenError::InvalidHalfmoveClock(s) => write!(f, "invalid halfmove clock {s:?}"),
            FenError::InvalidFullmoveNumber(s) => write!(f, "invalid fullmove number {s:?}"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::InvalidOperation(s) => write!(f, "invalid EPD operation {s:?}"),
        }
    }
}

impl std::error::Error for FenError {}

/// A position with its EPD operations, e.g. `bm Nf3; id "opening 1";`.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
///
/// let epd = Position::from_epd(r#"4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id "castle";"#)?;
/// assert_eq!(epd.position.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// assert_eq!(epd.operations[1], ("id".to_string(), "castle".to_string()));
/// // The best move is SAN: it only means something in the EPD's own position.
/// let best = epd.position.parse_san(epd.operation("bm").unwrap())?;
/// assert!(best.is_castle());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Epd {
    /// The position of the four FEN fields (counters from `hmvc` / `fmvn` operations if present).
    pub position: Position,
    /// The operations in order: opcode and operand text (quotes removed from string operands).
    pub operations: Vec<(String, String)>,
}

impl Epd {
    /// The operand of the first operation with `opcode`, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let epd = Position::from_epd(
    ///     r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id "start";"#,
    /// )?;
    /// assert_eq!(epd.operation("bm"), Some("e4"));
    /// // String operands come without their quotes.
    /// assert_eq!(epd.operation("id"), Some("start"));
    /// assert_eq!(epd.operation("am"), None);
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn operation(&self, opcode: &str) -> Option<&str> {
        self.operations
            .iter()
            .find(|(op, _)| op == opcode)
            .map(|(_, operand)| operand.as_str())
    }
}

impl Position {
    /// Parses a FEN (4 to 6 fields: the move counters may be missing, as in EPD) into a validated position.
    ///
    /// # Errors
    /// A [`FenError`] naming the field at fault; see its variants for every rule.
    ///
    /// # Examples
    /// ```
    /// use eldest_board::{Position, FenError};
    /// let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1")?;
    /// assert_eq!(pos.legal_moves().len(), 3);
    /// assert_eq!(Position::from_fen("8/8/8 w - -"), Err(FenError::RankCount(3)));
    /// # Ok::<(), FenError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut position = parse_fields(&fields[..4])?;
        if let Some(text) = fields.get(4) {
            position.halfmove_clock = text
                .parse()
                .map_err(|_| FenError::InvalidHalfmoveClock(text.to_string()))?;
        }
        if let Some(text) = fields.get(5) {
            let number: u16 = text
                .parse()
                .map_err(|_| FenError::InvalidFullmoveNumber(text.to_string()))?;
            // Some tools write 0; the first move of a game is number 1.
            position.fullmove_number = number.max(1);
        }
        Ok(position)
    }

    /// Parses an EPD line: four FEN fields, then operations separated by `;` (e.g. `bm e4; id "x";`). The
    /// `hmvc` and `fmvn` operations set the move counters.
    ///
    /// # Errors
    /// A [`FenError`] for the position fields or a malformed operation.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{FenError, Position};
    ///
    /// let epd = Position::from_epd("4k3/8/8/8/8/8/8/4K2R w K - hmvc 7; fmvn 40;")?;
    /// assert_eq!(epd.position.halfmove_clock(), 7);
    /// assert_eq!(epd.position.fullmove_number(), 40);
    /// assert_eq!(epd.operations.len(), 2);
    /// assert_eq!(Position::from_epd("8/8/8 w - -"), Err(FenError::RankCount(3)));
    /// # Ok::<(), FenError>(())
    /// ```
    pub fn from_epd(line: &str) -> Result<Epd, FenError> {
        let line = line.trim();
        let mut fields = Vec::with_capacity(4);
        let mut rest = line;
        for _ in 0..4 {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                return Err(FenError::FieldCount(fields.len()));
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        let mut position = parse_fields(&fields)?;
        let operations = parse_operations(rest)?;
        let epd = Epd { position, operations };
        if let Some(text) = epd.operation("hmvc") {
            position.halfmove_clock = text
                .parse()
                .map_err(|_| FenError::InvalidHalfmoveClock(text.into()))?;
        }
        if let Some(text) = epd.operation("fmvn") {
            let number: u16 = text
                .parse()
                .map_err(|_| FenError::InvalidFullmoveNumber(text.into()))?;
            position.fullmove_number = number.max(1);
        }
        Ok(Epd { position, ..epd })
    }

    /// The position as X-FEN (plain FEN for standard chess).
    ///
    /// X-FEN does not record Chess960 mode, which only chooses the UCI notation of castling: a Chess960
    /// position whose castling looks standard (king on e, rooks on a and h, or no rights) reads back in
    /// standard mode; everything else reads back identical.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Position, STARTPOS_FEN};
    ///
    /// assert_eq!(Position::startpos().to_fen(), STARTPOS_FEN);
    /// // Missing move counters are written as 0 and 1.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -")?;
    /// assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    /// assert_eq!(pos.to_string(), pos.to_fen());
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn to_fen(&self) -> String {
        self.to_string()
    }

    /// The castling field: `KQkq` letters for the outermost rook, file letters otherwise (X-FEN).
    fn castling_field(&self) -> String {
        let mut field = String::new();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                let Some(rook) = self.castling_rook(color, side) else {
                    continue;
                };
                let letter = if outermost_rook(self, color, side) == Some(rook) {
                    if side == CastleSide::King { 'k' } else { 'q' }
                } else {
                    rook.file().to_char()
                };
                field.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if field.is_empty() { "-".into() } else { field }
    }
}

impl fmt::Display for Position {
    /// Writes the position as X-FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_on(Square::new(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{piece}")?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if *rank != Rank::First {
                write!(f, "/")?;
            }
        }
        write!(f, " {} {} ", self.side_to_move.to_char(), self.castling_field())?;
        match self.en_passant {
            Some(ep) => write!(f, "{ep}")?,
            None => write!(f, "-")?,
        }
        write!(f, " {} {}", self.halfmove_clock, self.fullmove_number)
    }
}

/// The rook furthest from the king on `side` of `color`'s back rank, if the king stands on its back rank.
fn outermost_rook(position: &Position, color: Color, side: CastleSide) -> Option<Square> {
    let king = position.king(color);
    let rank = color.back_rank();
    if king.rank() != rank {
        return None;
    }
    let rooks = position.pieces_of(color, PieceKind::Rook) & Bitboard::rank(rank);
    let mut candidates = rooks.filter(|rook| match side {
        CastleSide::King => rook.file() > king.file(),
        CastleSide::Queen => rook.file() < king.file(),
    });
    match side {
        CastleSide::King => candidates.last(),
        CastleSide::Queen => candidates.next(),
    }
}

fn parse_fields(fields: &[&str]) -> Result<Position, FenError> {
    let mut position = Position::empty();
    parse_placement(&mut position, fields[0])?;
    position.side_to_move = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::InvalidSideToMove(other.to_string())),
    };
    validate_material(&position)?;
    if position.is_attacked(position.king(!position.side_to_move), position.side_to_move) {
        return Err(FenError::OpponentInCheck);
    }
    parse_castling(&mut position, fields[2])?;
    parse_en_passant(&mut position, fields[3])?;
    position.key = position.compute_key();
    position.update_checks_and_pins();
    Ok(position)
}

fn parse_placement(position: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (row, text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - row];
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip as usize;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::InvalidPiece(c))?;
                if let Some(f) = File::try_index(file) {
                    position.toggle(piece.color, piece.kind, Square::new(f, rank));
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength { rank, squares: file });
        }
    }
    Ok(())
}

fn validate_material(position: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let count = position.pieces_of(color, PieceKind::King).popcount();
        if count != 1 {
            return Err(FenError::KingCount { color, count });
        }
    }
    let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
    if let Some(square) = (position.pieces(PieceKind::Pawn) & back_ranks).first() {
        return Err(FenError::PawnOnBackRank(square));
    }
    for color in Color::ALL {
        let count = |kind| position.pieces_of(color, kind).popcount();
        let pawns = count(PieceKind::Pawn);
        let promoted = count(PieceKind::Knight).saturating_sub(2)
            + count(PieceKind::Bishop).saturating_sub(2)
            + count(PieceKind::Rook).saturating_sub(2)
            + count(PieceKind::Queen).saturating_sub(1);
        if position.colored(color).popcount() > 16 || pawns > 8 || promoted > 8 - pawns {
            return Err(FenError::ImpossibleMaterial(color));
        }
    }
    Ok(())
}

fn parse_castling(position: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    if field.is_empty() || field.len() > 4 {
        return Err(FenError::InvalidCastling(field.to_string()));
    }
    let mut file_letters = false;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let king = position.king(color);
        let rank = color.back_rank();
        let (side, rook) = match c.to_ascii_lowercase() {
            'k' => (
                CastleSide::King,
                outermost_rook(position, color, CastleSide::King),
            ),
            'q' => (
                CastleSide::Queen,
                outermost_rook(position, color, CastleSide::Queen),
            ),
            letter @ 'a'..='h' => {
                file_letters = true;
                let file = File::from_char(letter).ok_or(FenError::InvalidCastling(field.to_string()))?;
                let side = if file > king.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                (side, Some(Square::new(file, rank)))
            }
            _ => return Err(FenError::InvalidCastling(field.to_string())),
        };
        let rook = rook.ok_or(FenError::ImpossibleCastling(c))?;
        let rook_ok = position.pieces_of(color, PieceKind::Rook).contains(rook);
        if king.rank() != rank || !rook_ok || rook.file() == king.file() {
            return Err(FenError::ImpossibleCastling(c));
        }
        let slot = &mut position.castling_rooks[color as usize][side as usize];
        if slot.is_some() {
            return Err(FenError::InvalidCastling(field.to_string()));
        }
        *slot = Some(rook);
    }
    position.chess960 = file_letters || !position.castling_is_standard();
    Ok(())
}

fn parse_en_passant(position: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let ep: Square = field
        .parse()
        .map_err(|_| FenError::InvalidEnPassant(field.to_string()))?;
    let us = position.side_to_move;
    let them = !us;
    let occupied = position.occupied();
    let double_pushed_to = Square::new(ep.file(), Rank::Fifth.relative_to(us));
    let came_from = Square::new(ep.file(), Rank::Seventh.relative_to(us));
    let plausible = ep.rank() == Rank::Sixth.relative_to(us)
        && position
            .pieces_of(them, PieceKind::Pawn)
            .contains(double_pushed_to)
        && !occupied.contains(ep)
        && !occupied.contains(came_from);
    if !plausible {
        return Err(FenError::ImpossibleEnPassant(ep));
    }
    // Keep the square only when a pawn could capture there, as Position::play_unchecked does.
    let capturers = crate::attacks::pawn_attacks(them, ep) & position.pieces_of(us, PieceKind::Pawn);
    if capturers.is_nonempty() {
        position.en_passant = Some(ep);
        position.key ^= zobrist::en_passant_file(ep.file() as usize);
    }
    Ok(())
}

fn parse_operations(text: &str) -> Result<Vec<(String, String)>, FenError> {
    let mut operations = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let mut operation = String::new();
        let mut in_string = false;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '"' => in_string = !in_string,
                ';' if !in_string => {
                    end = i;
                    break;
                }
                _ => {}
            }
            operation.push(c);
        }
        if in_string {
            return Err(FenError::InvalidOperation(operation));
        }
        let operation = operation.trim();
        if !operation.is_empty() {
            let (opcode, operand) = operation
                .split_once(char::is_whitespace)
                .unwrap_or((operation, ""));
            let operand = operand.trim();
            let operand = operand
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or(operand);
            operations.push((opcode.to_string(), operand.to_string()));
        }
        rest = rest.get(end + 1..).unwrap_or("").trim_start();
    }
    Ok(operations)
}
