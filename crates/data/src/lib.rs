//! Eldest's self-play training data: the compact game format that `eldest datagen` writes and the evaluation
//! network's trainer reads.
//!
//! A file holds whole games: each its start position, its moves with the search's score of the position before
//! each move (or a mark that the position is not for training) and its result. A reader replays the moves, so
//! every position it yields is legal by construction, and a damaged file is refused with the offset of the
//! record that is wrong. The byte layout is in the crate's README.
//!
//! ```
//! use eldest_board::Position;
//! use eldest_data::{DataReader, GameRecord, GameResult, ScoredMove, write_header};
//!
//! let start = Position::startpos();
//! let e4 = start.parse_uci_move("e2e4").unwrap();
//! let game = GameRecord {
//!     index: 0,
//!     start,
//!     result: GameResult::Draw,
//!     moves: vec![ScoredMove { mv: e4, score: Some(35) }],
//! };
//! let mut file = Vec::new();
//! write_header(&mut file).unwrap();
//! game.write_to(&mut file).unwrap();
//!
//! let games: Vec<GameRecord> = DataReader::new(file.as_slice()).unwrap().collect::<Result<_, _>>().unwrap();
//! assert_eq!(games, vec![game]);
//! let positions: Vec<_> = games[0].training_positions().collect();
//! assert_eq!(positions.len(), 1);
//! assert_eq!(positions[0].score, 35);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use eldest_board::{Color, Move, Position};
use std::fmt;
use std::io::{self, Read, Write};

/// The first eight bytes of a data file.
///
/// # Examples
///
/// ```
/// use eldest_data::{DataError, DataReader, MAGIC, write_header};
///
/// let mut bytes = Vec::new();
/// write_header(&mut bytes).unwrap();
/// assert!(bytes.starts_with(&MAGIC));
/// // Any other start is refused before a single game is read.
/// bytes[0] = b'X';
/// assert!(matches!(DataReader::new(bytes.as_slice()), Err(DataError::NotDataFile)));
/// ```
pub const MAGIC: [u8; 8] = *b"ELDDATA\0";

/// The layout version this crate writes and reads.
///
/// # Examples
///
/// ```
/// use eldest_data::{DataError, DataReader, VERSION, write_header};
///
/// let mut bytes = Vec::new();
/// write_header(&mut bytes).unwrap();
/// assert_eq!(bytes[8..10], VERSION.to_le_bytes());
/// // A file of a later layout is refused by its version rather than misread.
/// bytes[8..10].copy_from_slice(&(VERSION + 1).to_le_bytes());
/// let refused = DataReader::new(bytes.as_slice());
/// assert!(matches!(refused, Err(DataError::UnsupportedVersion(v)) if v == VERSION + 1));
/// ```
pub const VERSION: u16 = 1;

/// Bytes of the file header: the magic, the version, six zero bytes.
///
/// # Examples
///
/// ```
/// use eldest_data::{HEADER_LEN, scan, write_header};
///
/// let mut bytes = Vec::new();
/// write_header(&mut bytes).unwrap();
/// assert_eq!(bytes.len() as u64, HEADER_LEN);
/// // A file of no games is complete at the end of its header: a resumed run keeps exactly that.
/// assert_eq!(scan(bytes.as_slice()).unwrap().complete_len, HEADER_LEN);
/// ```
pub const HEADER_LEN: u64 = 16;

/// The stored score that marks a position as not for training.
const NO_SCORE: i16 = i16::MIN;

/// The longest FEN a record holds.
const MAX_FEN_LEN: usize = 100;

/// How a game ended, from White's side.
///
/// ```
/// use eldest_data::GameResult;
///
/// assert_eq!(GameResult::WhiteWin.white_score(), 1.0);
/// assert_eq!(GameResult::from_byte(1), Some(GameResult::Draw));
/// assert_eq!(GameResult::from_byte(3), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black won.
    BlackWin,
    /// Drawn.
    Draw,
    /// White won.
    WhiteWin,
}

impl GameResult {
    /// The result of a game won by `winner`.
    ///
    /// ```
    /// use eldest_board::Color;
    /// use eldest_data::GameResult;
    ///
    /// assert_eq!(GameResult::won_by(Color::Black), GameResult::BlackWin);
    /// ```
    pub fn won_by(winner: Color) -> GameResult {
        match winner {
            Color::White => GameResult::WhiteWin,
            Color::Black => GameResult::BlackWin,
        }
    }

    /// White's points: 0, ½ or 1.
    ///
    /// ```
    /// use eldest_data::GameResult;
    ///
    /// assert_eq!(GameResult::Draw.white_score(), 0.5);
    /// ```
    pub fn white_score(self) -> f32 {
        match self {
            GameResult::BlackWin => 0.0,
            GameResult::Draw => 0.5,
            GameResult::WhiteWin => 1.0,
        }
    }

    /// The byte a record stores: 0, 1 or 2.
    ///
    /// ```
    /// use eldest_data::GameResult;
    ///
    /// assert_eq!(GameResult::WhiteWin.to_byte(), 2);
    /// ```
    pub fn to_byte(self) -> u8 {
        match self {
            GameResult::BlackWin => 0,
            GameResult::Draw => 1,
            GameResult::WhiteWin => 2,
        }
    }

    /// The result a stored byte stands for (`None` for anything but 0, 1, 2).
    ///
    /// ```
    /// use eldest_data::GameResult;
    ///
    /// assert_eq!(GameResult::from_byte(0), Some(GameResult::BlackWin));
    /// ```
    pub fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }

    /// `1-0`, `1/2-1/2` or `0-1`.
    ///
    /// ```
    /// use eldest_data::GameResult;
    ///
    /// assert_eq!(GameResult::BlackWin.to_pgn(), "0-1");
    /// ```
    pub fn to_pgn(self) -> &'static str {
        match self {
            GameResult::BlackWin => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::WhiteWin => "1-0",
        }
    }
}

/// A move of a stored game with the score of the position it was played from.
///
/// ```
/// use eldest_board::Position;
/// use eldest_data::ScoredMove;
///
/// let mv = Position::startpos().parse_uci_move("g1f3").unwrap();
/// let scored = ScoredMove { mv, score: None };
/// assert!(scored.score.is_none(), "a position that is not for training");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move played.
    pub mv: Move,
    /// The search's score of the position before the move in centipawns, from White's side; `None` when the
    /// position is not for training. A score of -32768 cannot be stored: [`GameRecord::write_to`] clamps to
    /// ±32767.
    pub score: Option<i16>,
}

/// One self-play game.
///
/// ```
/// use eldest_board::Position;
/// use eldest_data::{GameRecord, GameResult};
///
/// let game = GameRecord { index: 7, start: Position::startpos(), result: GameResult::Draw, moves: vec![] };
/// let mut bytes = Vec::new();
/// game.write_to(&mut bytes).unwrap();
/// assert_eq!(bytes.len() as u64, game.encoded_len());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number in its run.
    pub index: u32,
    /// The position the game was played from.
    pub start: Position,
    /// How it ended.
    pub result: GameResult,
    /// The moves played, each with its score.
    pub moves: Vec<ScoredMove>,
}

/// A position to train on: the position, the search's score from White's side and the game's result.
///
/// ```
/// use eldest_board::Position;
/// use eldest_data::{GameRecord, GameResult, ScoredMove};
///
/// let start = Position::startpos();
/// let d4 = start.parse_uci_move("d2d4").unwrap();
/// let game = GameRecord {
///     index: 0,
///     start,
///     result: GameResult::WhiteWin,
///     moves: vec![ScoredMove { mv: d4, score: Some(20) }],
/// };
/// let first = game.training_positions().next().unwrap();
/// assert_eq!(first.position, start);
/// assert_eq!(first.result, GameResult::WhiteWin);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainingPosition {
    /// The position, before the move that was played from it.
    pub position: Position,
    /// The search's score in centipawns, from White's side.
    pub score: i16,
    /// The game's result.
    pub result: GameResult,
}

impl GameRecord {
    /// Bytes the record takes in a file.
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_data::{GameRecord, GameResult};
    ///
    /// let game = GameRecord { index: 0, start: Position::startpos(), result: GameResult::Draw, moves: vec![] };
    /// // index, result, FEN length, the 56-byte start FEN, move count.
    /// assert_eq!(game.encoded_len(), 4 + 1 + 1 + 56 + 2);
    /// ```
    pub fn encoded_len(&self) -> u64 {
        (4 + 1 + 1 + self.start.to_fen().len() + 2 + 4 * self.moves.len()) as u64
    }

    /// Appends the record to `out`.
    ///
    /// # Errors
    /// Those of `out`, and `InvalidInput` for a game of more than 65,535 moves (none is that long: the fifty-move
    /// rule ends games far earlier).
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_data::{GameRecord, GameResult};
    ///
    /// let mut bytes = Vec::new();
    /// GameRecord { index: 1, start: Position::startpos(), result: GameResult::Draw, moves: vec![] }
    ///     .write_to(&mut bytes)
    ///     .unwrap();
    /// assert_eq!(&bytes[..4], &1u32.to_le_bytes());
    /// ```
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let fen = self.start.to_fen();
        let fen_len = u8::try_from(fen.len())
            .ok()
            .filter(|&len| usize::from(len) <= MAX_FEN_LEN)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "start FEN longer than 100 bytes"))?;
        let count = u16::try_from(self.moves.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a game of more than 65,535 moves"))?;
        let mut bytes = Vec::with_capacity(self.encoded_len() as usize);
        bytes.extend_from_slice(&self.index.to_le_bytes());
        bytes.push(self.result.to_byte());
        bytes.push(fen_len);
        bytes.extend_from_slice(fen.as_bytes());
        bytes.extend_from_slice(&count.to_le_bytes());
        for scored in &self.moves {
            let score = scored.score.map_or(NO_SCORE, |score| score.max(-i16::MAX));
            bytes.extend_from_slice(&scored.mv.to_bits().to_le_bytes());
            bytes.extend_from_slice(&score.to_le_bytes());
        }
        // One write per record: a run killed mid-game leaves whole records or one cut short at the end.
        out.write_all(&bytes)
    }

    /// The positions of the game that are for training, in the order they were played. The moves must be legal
    /// in turn, as in every record [`DataReader`] yields (it replays them) and every game `eldest datagen` plays.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_data::{GameRecord, GameResult, ScoredMove};
    ///
    /// let start = Position::startpos();
    /// let e4 = start.parse_uci_move("e2e4").unwrap();
    /// let mut after_e4 = start;
    /// after_e4.try_play(e4).unwrap();
    /// let e5 = after_e4.parse_uci_move("e7e5").unwrap();
    /// // The first move came from an opening book, so its position carries no score to train on.
    /// let moves = vec![ScoredMove { mv: e4, score: None }, ScoredMove { mv: e5, score: Some(-20) }];
    /// let game = GameRecord { index: 0, start, result: GameResult::Draw, moves };
    /// let positions: Vec<_> = game.training_positions().collect();
    /// assert_eq!(positions.len(), 1);
    /// assert_eq!((positions[0].position, positions[0].score), (after_e4, -20));
    /// ```
    pub fn training_positions(&self) -> impl Iterator<Item = TrainingPosition> + '_ {
        let mut position = self.start;
        self.moves.iter().filter_map(move |scored| {
            let before = position;
            position.play_unchecked(scored.mv);
            scored.score.map(|score| TrainingPosition {
                position: before,
                score,
                result: self.result,
            })
        })
    }
}

/// Writes the file header (magic, version) to the start of a new data file.
///
/// # Errors
/// Those of `out`.
///
/// ```
/// let mut bytes = Vec::new();
/// eldest_data::write_header(&mut bytes).unwrap();
/// assert_eq!(bytes.len() as u64, eldest_data::HEADER_LEN);
/// assert_eq!(&bytes[..8], &eldest_data::MAGIC);
/// ```
pub fn write_header(out: &mut impl Write) -> io::Result<()> {
    let mut header = [0u8; HEADER_LEN as usize];
    header[..8].copy_from_slice(&MAGIC);
    header[8..10].copy_from_slice(&VERSION.to_le_bytes());
    out.write_all(&header)
}

/// Why a data file cannot be read.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_data::{DataError, DataReader, GameRecord, GameResult, HEADER_LEN, write_header};
///
/// let mut bytes = Vec::new();
/// write_header(&mut bytes).unwrap();
/// GameRecord { index: 0, start: Position::startpos(), result: GameResult::Draw, moves: vec![] }
///     .write_to(&mut bytes)
///     .unwrap();
/// // Damage the result byte (after the 4-byte index): the error names the record's offset.
/// bytes[HEADER_LEN as usize + 4] = 9;
/// let error = DataReader::new(bytes.as_slice()).unwrap().next().unwrap().unwrap_err();
/// assert!(matches!(error, DataError::Corrupt { offset: HEADER_LEN, .. }));
/// assert_eq!(error.to_string(), "the game record at byte 16 is invalid: result byte 9");
/// ```
#[derive(Debug)]
pub enum DataError {
    /// Reading failed.
    Io(io::Error),
    /// The file does not start with [`MAGIC`]: not an Eldest data file.
    NotDataFile,
    /// A layout version this build does not know.
    UnsupportedVersion(u16),
    /// The record starting at this byte offset ends before its last field (a run killed while writing).
    Truncated {
        /// Offset of the record's first byte.
        offset: u64,
    },
    /// The record starting at this byte offset is not a valid game.
    Corrupt {
        /// Offset of the record's first byte.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(error) => write!(f, "reading the data file failed: {error}"),
            DataError::NotDataFile => write!(f, "not an Eldest data file (its first bytes are not ELDDATA)"),
            DataError::UnsupportedVersion(version) => {
                write!(
                    f,
                    "data file version {version}; this build reads version {VERSION}"
                )
            }
            DataError::Truncated { offset } => write!(f, "the game record at byte {offset} is cut short"),
            DataError::Corrupt { offset, reason } => {
                write!(f, "the game record at byte {offset} is invalid: {reason}")
            }
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Io(error) => Some(error),
            _ => None,
        }
    }
}

/// Reads the games of a data file one by one, checking each (its FEN, its result byte, every move legal in
/// turn); an iterator of `Result<GameRecord, DataError>` that stops after the first error.
///
/// ```
/// use eldest_data::{DataError, DataReader};
///
/// // A file that is not a data file is refused before any game is read.
/// assert!(matches!(DataReader::new(&b"PGN [Event]"[..]), Err(DataError::NotDataFile)));
/// ```
#[derive(Debug)]
pub struct DataReader<R> {
    input: R,
    offset: u64,
    failed: bool,
}

impl<R: Read> DataReader<R> {
    /// Reads and checks the header.
    ///
    /// # Errors
    /// [`DataError::NotDataFile`] or [`DataError::UnsupportedVersion`] for a header that is not this crate's, and
    /// reading errors.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_data::{DataError, DataReader, write_header};
    ///
    /// let mut bytes = Vec::new();
    /// write_header(&mut bytes).unwrap();
    /// // A header alone is a valid file that holds no games.
    /// assert!(DataReader::new(bytes.as_slice()).unwrap().next().is_none());
    /// // Input too short for a header is not a data file (rather than a reading error).
    /// assert!(matches!(DataReader::new(&b"ELD"[..]), Err(DataError::NotDataFile)));
    /// ```
    pub fn new(mut input: R) -> Result<DataReader<R>, DataError> {
        let mut header = [0u8; HEADER_LEN as usize];
        input
            .read_exact(&mut header)
            .map_err(|error| match error.kind() {
                io::ErrorKind::UnexpectedEof => DataError::NotDataFile,
                _ => DataError::Io(error),
            })?;
        if header[..8] != MAGIC {
            return Err(DataError::NotDataFile);
        }
        let version = u16::from_le_bytes([header[8], header[9]]);
        if version != VERSION {
            return Err(DataError::UnsupportedVersion(version));
        }
        Ok(DataReader {
            input,
            offset: HEADER_LEN,
            failed: false,
        })
    }

    /// The byte offset just after the last record read.
    ///
    /// ```
    /// let mut bytes = Vec::new();
    /// eldest_data::write_header(&mut bytes).unwrap();
    /// let reader = eldest_data::DataReader::new(bytes.as_slice()).unwrap();
    /// assert_eq!(reader.offset(), eldest_data::HEADER_LEN);
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Fills `buffer`; `Ok(false)` at a clean end of the input when `at_start`.
    fn fill(&mut self, buffer: &mut [u8], record: u64, at_start: bool) -> Result<bool, DataError> {
        let mut filled = 0;
        while filled < buffer.len() {
            match self.input.read(&mut buffer[filled..]) {
                Ok(0) if at_start && filled == 0 => return Ok(false),
                Ok(0) => return Err(DataError::Truncated { offset: record }),
                Ok(read) => filled += read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(DataError::Io(error)),
            }
        }
        Ok(true)
    }

    fn read_record(&mut self) -> Result<Option<GameRecord>, DataError> {
        let record = self.offset;
        let corrupt = |reason: String| DataError::Corrupt {
            offset: record,
            reason,
        };
        let mut head = [0u8; 6];
        if !self.fill(&mut head, record, true)? {
            return Ok(None);
        }
        let index = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let result =
            GameResult::from_byte(head[4]).ok_or_else(|| corrupt(format!("result byte {}", head[4])))?;
        let fen_len = usize::from(head[5]);
        if fen_len == 0 || fen_len > MAX_FEN_LEN {
            return Err(corrupt(format!("FEN length {fen_len}")));
        }
        let mut fen = vec![0u8; fen_len + 2];
        self.fill(&mut fen, record, false)?;
        let count = usize::from(u16::from_le_bytes([fen[fen_len], fen[fen_len + 1]]));
        let fen = std::str::from_utf8(&fen[..fen_len]).map_err(|_| corrupt("the FEN is not UTF-8".into()))?;
        let mut start = Position::from_fen(fen).map_err(|error| corrupt(format!("FEN {fen:?}: {error}")))?;
        // X-FEN records no notation mode: a start whose castling is standard reads as standard chess however its
        // rights were spelt (`KAkq` marks Chess960), so a game read, written and read again is the same game.
        start.set_chess960(false);
        let mut body = vec![0u8; 4 * count];
        self.fill(&mut body, record, false)?;
        let mut position = start;
        let mut moves = Vec::with_capacity(count);
        for (ply, pair) in body.chunks_exact(4).enumerate() {
            let bits = u16::from_le_bytes([pair[0], pair[1]]);
            let score = i16::from_le_bytes([pair[2], pair[3]]);
            let mv = Move::from_bits(bits)
                .filter(|&mv| position.is_legal(mv))
                .ok_or_else(|| corrupt(format!("move {} (bits {bits:#06x}) is not legal", ply + 1)))?;
            position.play_unchecked(mv);
            moves.push(ScoredMove {
                mv,
                score: (score != NO_SCORE).then_some(score),
            });
        }
        self.offset += (6 + fen_len + 2 + 4 * count) as u64;
        Ok(Some(GameRecord {
            index,
            start,
            result,
            moves,
        }))
    }
}

impl<R: Read> Iterator for DataReader<R> {
    type Item = Result<GameRecord, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.read_record() {
            Ok(record) => record.map(Ok),
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }
}

/// What [`scan`] found in a data file.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_data::{GameRecord, GameResult, Scan, ScoredMove, scan, write_header};
///
/// let start = Position::startpos();
/// let e4 = start.parse_uci_move("e2e4").unwrap();
/// let mut bytes = Vec::new();
/// write_header(&mut bytes).unwrap();
/// let moves = vec![ScoredMove { mv: e4, score: Some(30) }];
/// GameRecord { index: 3, start, result: GameResult::WhiteWin, moves }.write_to(&mut bytes).unwrap();
/// let whole = Scan { games: vec![3], positions: 1, complete_len: bytes.len() as u64, truncated: false };
/// assert_eq!(scan(bytes.as_slice()).unwrap(), whole);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// The indices of the complete games, in file order.
    pub games: Vec<u32>,
    /// Positions for training in those games.
    pub positions: u64,
    /// Bytes of the header and the complete records: a resumed run cuts the file here.
    pub complete_len: u64,
    /// Whether a record cut short follows them.
    pub truncated: bool,
}

/// Reads a whole data file to learn which games it holds, for resuming: a record cut short at the end is
/// reported, not an error.
///
/// # Errors
/// Every [`DataError`] but a truncated last record.
///
/// ```
/// use eldest_board::Position;
/// use eldest_data::{GameRecord, GameResult, scan, write_header};
///
/// let mut bytes = Vec::new();
/// write_header(&mut bytes).unwrap();
/// GameRecord { index: 4, start: Position::startpos(), result: GameResult::Draw, moves: vec![] }
///     .write_to(&mut bytes)
///     .unwrap();
/// let whole = bytes.len() as u64;
/// bytes.extend_from_slice(&[9, 0]); // a record cut short
/// let found = scan(bytes.as_slice()).unwrap();
/// assert_eq!(found.games, vec![4]);
/// assert_eq!(found.complete_len, whole);
/// assert!(found.truncated);
/// ```
pub fn scan(input: impl Read) -> Result<Scan, DataError> {
    let mut reader = DataReader::new(input)?;
    let mut found = Scan {
        complete_len: HEADER_LEN,
        ..Scan::default()
    };
    loop {
        match reader.read_record() {
            Ok(Some(game)) => {
                found.positions += game.moves.iter().filter(|m| m.score.is_some()).count() as u64;
                found.games.push(game.index);
                found.complete_len = reader.offset();
            }
            Ok(None) => return Ok(found),
            Err(DataError::Truncated { .. }) => {
                found.truncated = true;
                return Ok(found);
            }
            Err(error) => return Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A game of `plies` moves from the start position, choosing the `choice % n`-th legal move at each ply.
    fn game(index: u32, choices: &[u16]) -> GameRecord {
        let mut position = Position::startpos();
        let mut moves = Vec::new();
        for (ply, &choice) in choices.iter().enumerate() {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[usize::from(choice) % legal.len()];
            let score = (ply % 3 != 0).then_some((choice % 2000) as i16 - 1000);
            moves.push(ScoredMove { mv, score });
            position.play_unchecked(mv);
        }
        GameRecord {
            index,
            start: Position::startpos(),
            result: GameResult::from_byte((index % 3) as u8).unwrap(),
            moves,
        }
    }

    fn file(games: &[GameRecord]) -> Vec<u8> {
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        for game in games {
            game.write_to(&mut bytes).unwrap();
        }
        bytes
    }

    #[test]
    fn a_start_spelt_in_chess960_letters_reads_back_the_same_after_writing() {
        // Found by the data_reader fuzz target: `KAkq` (a file letter) marks the start Chess960, its FEN is
        // written `KQkq`, and the second reading must not differ from the first.
        let start = Position::from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KAkq - 0 1").unwrap();
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        let fen = start.to_fen();
        let mut record = Vec::new();
        record.extend_from_slice(&7u32.to_le_bytes());
        record.push(0);
        let spelt = fen.replace("KQkq", "KAkq");
        record.push(spelt.len() as u8);
        record.extend_from_slice(spelt.as_bytes());
        record.extend_from_slice(&0u16.to_le_bytes());
        bytes.extend_from_slice(&record);
        let first = DataReader::new(bytes.as_slice())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert!(!first.start.is_chess960());
        let again = DataReader::new(file(std::slice::from_ref(&first)).as_slice())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(again, first);
        // A start that can only castle in Chess960 notation keeps it.
        let shuffled = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1").unwrap();
        let game = GameRecord {
            index: 1,
            start: shuffled,
            result: GameResult::from_byte(0).unwrap(),
            moves: Vec::new(),
        };
        let read = DataReader::new(file(&[game]).as_slice())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert!(read.start.is_chess960());
    }

    #[test]
    fn an_empty_file_has_no_games_and_a_wrong_version_is_refused() {
        let bytes = file(&[]);
        assert_eq!(DataReader::new(bytes.as_slice()).unwrap().count(), 0);
        let mut other = bytes.clone();
        other[8] = 2;
        assert!(matches!(
            DataReader::new(other.as_slice()),
            Err(DataError::UnsupportedVersion(2))
        ));
        assert!(matches!(
            DataReader::new(&bytes[..10]),
            Err(DataError::NotDataFile)
        ));
    }

    #[test]
    fn every_cut_of_a_record_is_found_and_scan_keeps_the_whole_ones() {
        let games = [game(0, &[1, 2, 3, 4]), game(1, &[5, 6, 7])];
        let bytes = file(&games);
        let first_end = HEADER_LEN + games[0].encoded_len();
        for cut in first_end as usize + 1..bytes.len() {
            let read: Vec<_> = DataReader::new(&bytes[..cut]).unwrap().collect();
            assert_eq!(read.len(), 2, "cut at {cut}");
            assert!(matches!(read[1], Err(DataError::Truncated { offset }) if offset == first_end));
            let found = scan(&bytes[..cut]).unwrap();
            assert_eq!(
                (found.games.as_slice(), found.complete_len, found.truncated),
                (&[0][..], first_end, true)
            );
        }
        let found = scan(bytes.as_slice()).unwrap();
        assert_eq!(found.games, vec![0, 1]);
        assert_eq!(found.complete_len, bytes.len() as u64);
        assert_eq!(found.positions, 2 + 2);
        assert!(!found.truncated);
    }

    #[test]
    fn an_illegal_move_a_bad_result_or_a_bad_fen_is_corrupt_not_a_panic() {
        let bytes = file(&[game(0, &[1, 2])]);
        let moves_at = (HEADER_LEN + 6 + 56 + 2) as usize;
        let mut illegal = bytes.clone();
        // e1e8 as the first move: from e1 (4) to e8 (60), quiet.
        illegal[moves_at..moves_at + 2].copy_from_slice(&(4u16 | 60 << 6).to_le_bytes());
        let error = DataReader::new(illegal.as_slice())
            .unwrap()
            .next()
            .unwrap()
            .unwrap_err();
        assert!(error.to_string().contains("move 1"), "{error}");
        let mut result = bytes.clone();
        result[HEADER_LEN as usize + 4] = 3;
        assert!(matches!(scan(result.as_slice()), Err(DataError::Corrupt { .. })));
        let mut fen = bytes.clone();
        fen[HEADER_LEN as usize + 6] = b'X';
        assert!(matches!(scan(fen.as_slice()), Err(DataError::Corrupt { .. })));
    }

    #[test]
    fn scores_keep_their_sign_and_the_mark_is_never_a_score() {
        let mut record = game(0, &[0, 0]);
        record.moves[0].score = Some(i16::MIN);
        record.moves[1].score = Some(-i16::MAX);
        let read = DataReader::new(file(&[record]).as_slice())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(
            read.moves[0].score,
            Some(-i16::MAX),
            "clamped, not turned into the mark"
        );
        assert_eq!(read.moves[1].score, Some(-i16::MAX));
    }

    proptest! {
        #[test]
        fn games_read_back_as_written(choices in proptest::collection::vec(proptest::collection::vec(any::<u16>(), 0..120), 0..6)) {
            let games: Vec<GameRecord> = choices.iter().enumerate().map(|(i, c)| game(i as u32 * 7, c)).collect();
            let bytes = file(&games);
            prop_assert_eq!(bytes.len() as u64, HEADER_LEN + games.iter().map(GameRecord::encoded_len).sum::<u64>());
            let read: Vec<GameRecord> = DataReader::new(bytes.as_slice()).unwrap().collect::<Result<_, _>>().unwrap();
            prop_assert_eq!(&read, &games);
            for game in &read {
                let expected = game.moves.iter().filter(|m| m.score.is_some()).count();
                prop_assert_eq!(game.training_positions().count(), expected);
            }
        }
    }
}
