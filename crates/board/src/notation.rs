//! Move notation: UCI long algebraic (standard and Chess960 castling) and SAN, both ways, with typed errors.

use crate::castling::CastleSide;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{File, PieceKind, Rank, Square};
use core::fmt;

/// Why a move in UCI notation was rejected.
///
/// # Examples
///
/// ```
/// use eldest_board::{Position, UciMoveError};
///
/// let pos = Position::startpos();
/// assert_eq!(pos.parse_uci_move("e2-e4"), Err(UciMoveError::Syntax("e2-e4".to_string())));
/// let illegal = pos.parse_uci_move("e2e5").unwrap_err();
/// assert_eq!(illegal, UciMoveError::Illegal("e2e5".to_string()));
/// assert_eq!(illegal.to_string(), r#"illegal move "e2e5" in this position"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciMoveError {
    /// The text is not of the form `e2e4` / `e7e8q` (from square, to square, optional promotion letter).
    Syntax(String),
    /// The text is well formed but names no legal move in the position.
    Illegal(String),
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Syntax(s) => write!(f, "invalid UCI move {s:?}: expected e.g. e2e4 or e7e8q"),
            UciMoveError::Illegal(s) => write!(f, "illegal move {s:?} in this position"),
        }
    }
}

impl std::error::Error for UciMoveError {}

/// Why a move in SAN was rejected.
///
/// # Examples
///
/// ```
/// use eldest_board::{Position, SanError};
///
/// // Knights on b1 and f1: both can reach d2.
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")?;
/// let ambiguous = pos.parse_san("Nd2").unwrap_err();
/// assert_eq!(ambiguous, SanError::Ambiguous("Nd2".to_string()));
/// assert_eq!(ambiguous.to_string(), r#"ambiguous SAN move "Nd2" in this position"#);
/// assert_eq!(pos.parse_san("Nd3"), Err(SanError::Illegal("Nd3".to_string())));
/// assert_eq!(pos.parse_san("N-d2"), Err(SanError::Syntax("N-d2".to_string())));
/// # Ok::<(), eldest_board::FenError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN (e.g. `Nf3`, `exd5`, `e8=Q`, `O-O`).
    Syntax(String),
    /// The text is SAN but matches no legal move.
    Illegal(String),
    /// The text matches more than one legal move: it needs disambiguation.
    Ambiguous(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(s) => write!(f, "invalid SAN {s:?}"),
            SanError::Illegal(s) => write!(f, "illegal SAN move {s:?} in this position"),
            SanError::Ambiguous(s) => write!(f, "ambiguous SAN move {s:?} in this position"),
        }
    }
}

impl std::error::Error for SanError {}

/// Why [`Position::try_play`] refused a move.
///
/// # Examples
///
/// ```
/// use eldest_board::{IllegalMoveError, Move, MoveKind, Position, Square};
///
/// let mut pos = Position::startpos();
/// // The queen's path is blocked by her own pawn.
/// let blocked = Move::new(Square::D1, Square::D3, MoveKind::Quiet);
/// let error = pos.try_play(blocked).unwrap_err();
/// assert_eq!(error, IllegalMoveError(blocked));
/// assert_eq!(error.to_string(), "illegal move d1d3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMoveError(pub Move);

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}{}", self.0.from(), self.0.to())
    }
}

impl std::error::Error for IllegalMoveError {}

/// A move in UCI notation, as returned by [`Move::to_uci`].
///
/// # Examples
///
/// ```
/// use eldest_board::{Move, MoveKind, Square};
///
/// let castle = Move::new(Square::E8, Square::A8, MoveKind::Castle);
/// // A `Display` value: formatted straight into the line it belongs to, with no `String` of its own.
/// assert_eq!(format!("bestmove {}", castle.to_uci(false)), "bestmove e8c8");
/// assert_eq!(format!("bestmove {}", castle.to_uci(true)), "bestmove e8a8");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, mut to) = (self.mv.from(), self.mv.to());
        if self.mv.is_castle() && !self.chess960 {
            let side = if to.file() > from.file() {
                CastleSide::King
            } else {
                CastleSide::Queen
            };
            to = Square::new(side.king_destination(), from.rank());
        }
        write!(f, "{from}{to}")?;
        if let Some(piece) = self.mv.promotion() {
            write!(f, "{}", piece.to_char())?;
        }
        Ok(())
    }
}

impl Move {
    /// The move in UCI long algebraic notation: castling as king-to-destination (`e1g1`), or as king takes own
    /// rook (`e1h1`) when `chess960` is set.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, PieceKind, Square};
    ///
    /// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castle);
    /// assert_eq!(castle.to_uci(false).to_string(), "e1g1");
    /// assert_eq!(castle.to_uci(true).to_string(), "e1h1");
    /// let promotion = MoveKind::Promotion { piece: PieceKind::Queen, capture: false };
    /// assert_eq!(Move::new(Square::E7, Square::E8, promotion).to_uci(false).to_string(), "e7e8q");
    /// ```
    pub fn to_uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }
}

impl Position {
    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when `mv` is not legal here; the position is then unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{IllegalMoveError, Move, MoveKind, Position, Square};
    ///
    /// let mut pos = Position::startpos();
    /// pos.try_play(Move::new(Square::E2, Square::E4, MoveKind::DoublePush))?;
    /// assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// // White may not move twice in a row; the position is left unchanged.
    /// let before = pos;
    /// let nf3 = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
    /// assert_eq!(pos.try_play(nf3), Err(IllegalMoveError(nf3)));
    /// assert_eq!(pos, before);
    /// # Ok::<(), IllegalMoveError>(())
    /// ```
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if !self.is_legal(mv) {
            return Err(IllegalMoveError(mv));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// `mv` in UCI notation, castling written the way this position's [Chess960 mode](Position::is_chess960)
    /// asks.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Move, MoveKind, Position, Square};
    ///
    /// let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
    /// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castle);
    /// assert_eq!(pos.move_to_uci(castle), "e1g1");
    /// assert!(pos.set_chess960(true));
    /// assert_eq!(pos.move_to_uci(castle), "e1h1");
    /// # Ok::<(), eldest_board::FenError>(())
    /// ```
    pub fn move_to_uci(&self, mv: Move) -> String {
        mv.to_uci(self.chess960).to_string()
    }

    /// Parses a move in UCI notation and checks it is legal. Castling is accepted both as king to destination
    /// (`e1g1`, standard positions only) and as king takes own rook (`e1h1`, always).
    ///
    /// # Errors
    /// [`UciMoveError::Syntax`] for malformed text, [`UciMoveError::Illegal`] for a move not legal here.
    ///
    /// # Examples
    /// ```
    /// use eldest_board::Position;
    /// let pos = Position::startpos();
    /// let mv = pos.parse_uci_move("g1f3")?;
    /// assert_eq!(pos.move_to_san(mv), "Nf3");
    /// assert!(pos.parse_uci_move("e2e5").is_err());
    /// # Ok::<(), eldest_board::UciMoveError>(())
    /// ```
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, UciMoveError> {
        let syntax = || UciMoveError::Syntax(text.to_string());
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let _to: Square = text[2..4].parse().map_err(|_| syntax())?;
        if let Some(c) = text[4..].chars().next()
            && !matches!(c, 'n' | 'b' | 'r' | 'q')
        {
            return Err(syntax());
        }
        let mut found = None;
        self.generate_moves_from(crate::Stage::All, crate::Bitboard::from_square(from), |set| {
            found = set.into_iter().find(|&mv| {
                mv.to_uci(true).to_string() == text
                    || (!self.chess960 && mv.to_uci(false).to_string() == text)
            });
            found.is_some()
        });
        found.ok_or_else(|| UciMoveError::Illegal(text.to_string()))
    }

    /// `mv` in Standard Algebraic Notation, with `+` for check and `#` for mate.
    ///
    /// `mv` must be legal in this position.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.move_to_san(pos.parse_uci_move("g1f3")?), "Nf3");
    /// assert_eq!(pos.move_to_san(pos.parse_uci_move("e2e4")?), "e4");
    /// // Both knights can reach d2: the file of the one that moves is added.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")?;
    /// assert_eq!(pos.move_to_san(pos.parse_uci_move("b1d2")?), "Nbd2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_to_san(&self, mv: Move) -> String {
        let mut san = String::new();
        let from = mv.from();
        let to = mv.to();
        if mv.is_castle() {
            san.push_str(if to.file() > from.file() { "O-O" } else { "O-O-O" });
        } else {
            let kind = self.kind_on(from).unwrap_or(PieceKind::Pawn);
            if kind == PieceKind::Pawn {
                if mv.is_capture() {
                    san.push(from.file().to_char());
                }
            } else {
                san.push(kind.to_char().to_ascii_uppercase());
                // Disambiguate among the other pieces of the same kind that can reach the same square.
                let rivals: Vec<Square> = self
                    .legal_moves()
                    .iter()
                    .filter(|m| m.to() == to && m.from() != from && !m.is_castle())
                    .filter(|m| self.kind_on(m.from()) == Some(kind))
                    .map(|m| m.from())
                    .collect();
                if !rivals.is_empty() {
                    if rivals.iter().all(|r| r.file() != from.file()) {
                        san.push(from.file().to_char());
                    } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                        san.push(from.rank().to_char());
                    } else {
                        san.push_str(&from.to_string());
                    }
                }
            }
            if mv.is_capture() {
                san.push('x');
            }
            san.push_str(&to.to_string());
            if let Some(piece) = mv.promotion() {
                san.push('=');
                san.push(piece.to_char().to_ascii_uppercase());
            }
        }
        let mut after = *self;
        after.play_unchecked(mv);
        if after.in_check() {
            san.push(if after.has_legal_move() { '+' } else { '#' });
        }
        san
    }

    /// Parses a move in Standard Algebraic Notation (`Nf3`, `exd5`, `e8=Q`, `R1a3`, `O-O`; check marks and
    /// annotations like `+`, `#`, `!?` are ignored; `0-0` is accepted for castling) and checks it is legal.
    ///
    /// # Errors
    /// [`SanError::Syntax`], [`SanError::Illegal`] or [`SanError::Ambiguous`].
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Position, SanError, Square};
    ///
    /// let pos = Position::startpos();
    /// assert_eq!(pos.move_to_uci(pos.parse_san("Nf3")?), "g1f3");
    /// assert_eq!(pos.parse_san("Ke2"), Err(SanError::Illegal("Ke2".to_string())));
    /// assert_eq!(pos.parse_san("e9"), Err(SanError::Syntax("e9".to_string())));
    /// // With knights on b1 and f1, "Nd2" could be either.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")?;
    /// assert_eq!(pos.parse_san("Nd2"), Err(SanError::Ambiguous("Nd2".to_string())));
    /// assert_eq!(pos.parse_san("Nfd2")?.from(), Square::F1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let syntax = || SanError::Syntax(text.to_string());
        let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if core.is_empty() || !core.is_ascii() {
            return Err(syntax());
        }
        let castle = match core {
            "O-O" | "0-0" => Some(CastleSide::King),
            "O-O-O" | "0-0-0" => Some(CastleSide::Queen),
            _ => None,
        };
        let matches: Vec<Move> = if let Some(side) = castle {
            self.legal_moves()
                .iter()
                .copied()
                .filter(|m| m.is_castle() && (m.to().file() > m.from().file()) == (side == CastleSide::King))
                .collect()
        } else {
            let pattern = SanPattern::parse(core).ok_or_else(syntax)?;
            self.legal_moves()
                .iter()
                .copied()
                .filter(|&m| pattern.matches(self, m))
                .collect()
        };
        match matches.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(SanError::Illegal(text.to_string())),
            _ => Err(SanError::Ambiguous(text.to_string())),
        }
    }
}

/// The parts of a non-castling SAN move.
struct SanPattern {
    piece: PieceKind,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<PieceKind>,
}

impl SanPattern {
    fn parse(text: &str) -> Option<SanPattern> {
        let mut rest = text;
        let piece = match rest.chars().next()? {
            c @ ('N' | 'B' | 'R' | 'Q' | 'K') => {
                rest = &rest[1..];
                PieceKind::from_char(c)?
            }
            _ => PieceKind::Pawn,
        };
        // Promotion suffix: "=Q" or "Q".
        let mut promotion = None;
        if piece == PieceKind::Pawn
            && let Some(last) = rest.chars().last()
            && matches!(last, 'N' | 'B' | 'R' | 'Q')
        {
            promotion = PieceKind::from_char(last);
            rest = rest[..rest.len() - 1]
                .strip_suffix('=')
                .unwrap_or(&rest[..rest.len() - 1]);
        }
        if rest.len() < 2 {
            return None;
        }
        let to: Square = rest[rest.len() - 2..].parse().ok()?;
        let mut from_file = None;
        let mut from_rank = None;
        for c in rest[..rest.len() - 2].chars() {
            if let Some(file) = File::from_char(c) {
                from_file = Some(file);
            } else if let Some(rank) = Rank::from_char(c) {
                from_rank = Some(rank);
            } else if c != 'x' && c != ':' {
                return None;
            }
        }
        Some(SanPattern {
            piece,
            from_file,
            from_rank,
            to,
            promotion,
        })
    }

    fn matches(&self, position: &Position, mv: Move) -> bool {
        !mv.is_castle()
            && mv.to() == self.to
            && position.kind_on(mv.from()) == Some(self.piece)
            && mv.promotion() == self.promotion
            && self.from_file.is_none_or(|f| mv.from().file() == f)
            && self.from_rank.is_none_or(|r| mv.from().rank() == r)
    }
}
