//! The evaluation network (NNUE): a perspective network of 768 inputs a side, one hidden layer with SCReLU and
//! one output, read from the integer net file `cargo xtask train` writes, and evaluated with accumulators that
//! every move updates instead of recomputing.
//!
//! The file (all little-endian): the magic `ELDNET\0\0`; `u32` version (1 or 2), kind (1: perspective network;
//! 0, a linear model, is a tuning aid and is refused), inputs (768), hidden (1–1024), QA, QB and, in version 2
//! only, the number of output buckets B (1–8; version 1 has one); then `i16` w1 (input-major, 768 × hidden) and
//! b1 (hidden) scaled by QA, `i16` w2 (B × 2 × hidden: bucket by bucket, the side to move's half first) scaled
//! by QB, and B `i32` b2 scaled by QA × QB. A position's bucket is chosen by its number of pieces
//! ([`output_bucket`]). The output × [`SCALE`] / (QA × QB) is the evaluation in centipawns from the side to
//! move.
//!
//! ```
//! use eldest_board::Position;
//! use eldest_search::nnue::Network;
//!
//! let network = Network::embedded();
//! let score = network.evaluate(&Position::startpos());
//! assert!(score.abs() < 100, "the start position is about level: {score}");
//! ```

mod accumulator;
mod simd;

pub(crate) use accumulator::AccumulatorStack;

use eldest_board::{Color, PieceKind, Position, Square};
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Inputs a side: two colours (the side's own, the other) × six piece kinds × 64 squares.
///
/// # Examples
///
/// ```
/// use eldest_board::{Color, PieceKind, Square};
/// use eldest_search::nnue::{INPUTS, Network, feature_index};
///
/// // The last input: the other side's king in the far corner.
/// assert_eq!(feature_index(Color::White, Color::Black, PieceKind::King, Square::H8), INPUTS - 1);
/// // The file says how many inputs it was trained with (after the magic, the version and the kind).
/// assert_eq!(Network::embedded_bytes()[16..20], (INPUTS as u32).to_le_bytes());
/// ```
pub const INPUTS: usize = 768;
/// Centipawns per unit of the network's output (`sigmoid(output)` is the expected score of the side to move).
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::nnue::{Network, SCALE};
///
/// let queen_up = Position::from_fen("3qk3/8/8/8/8/8/8/3QKQ2 w - - 0 1").unwrap();
/// let centipawns = Network::embedded().evaluate(&queen_up);
/// // Back to the network's output: the side a queen up is expected to score most of the points.
/// let expected_score = 1.0 / (1.0 + (-f64::from(centipawns) / f64::from(SCALE)).exp());
/// assert!(expected_score > 0.75, "{expected_score}");
/// ```
pub const SCALE: i32 = 400;
/// The first eight bytes of a net file.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::{NET_MAGIC, Network, NetworkError};
///
/// let mut bytes = Network::embedded_bytes().to_vec();
/// assert_eq!(bytes[..8], NET_MAGIC);
/// // Anything else is refused before a single field is read.
/// bytes[0] = b'X';
/// assert_eq!(Network::from_bytes(&bytes).unwrap_err(), NetworkError::NotANet);
/// ```
pub const NET_MAGIC: [u8; 8] = *b"ELDNET\0\0";
/// The newest net file layout: this build reads it and version 1 (the same without output buckets); the
/// trainer writes version 1 for a net of one bucket, so earlier nets are reproduced byte for byte.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::{NET_VERSION, Network, NetworkError};
///
/// let mut bytes = Network::embedded_bytes().to_vec();
/// let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
/// assert!((1..=NET_VERSION).contains(&version));
/// // A file of a later layout is refused rather than misread.
/// bytes[8..12].copy_from_slice(&(NET_VERSION + 1).to_le_bytes());
/// assert_eq!(Network::from_bytes(&bytes).unwrap_err(), NetworkError::Version(NET_VERSION + 1));
/// ```
pub const NET_VERSION: u32 = 2;
/// The kind field of a perspective network.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::{KIND_PERSPECTIVE, Network};
///
/// assert_eq!(Network::embedded_bytes()[12..16], KIND_PERSPECTIVE.to_le_bytes());
/// ```
pub const KIND_PERSPECTIVE: u32 = 1;
/// The kind field of a linear model.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::{KIND_LINEAR, Network, NetworkError};
///
/// let mut bytes = Network::embedded_bytes().to_vec();
/// bytes[12..16].copy_from_slice(&KIND_LINEAR.to_le_bytes());
/// // The trainer's linear models only help tune; the search never plays with one.
/// assert_eq!(Network::from_bytes(&bytes).unwrap_err(), NetworkError::Linear);
/// ```
pub const KIND_LINEAR: u32 = 0;
/// The largest hidden layer a net file may have: it keeps every sum of the output layer inside `i32`.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::{MAX_HIDDEN, Network, NetworkError};
///
/// assert!(Network::embedded().hidden() <= MAX_HIDDEN);
/// let mut bytes = Network::embedded_bytes().to_vec();
/// let too_many = MAX_HIDDEN as u32 + 1;
/// bytes[20..24].copy_from_slice(&too_many.to_le_bytes());
/// assert_eq!(Network::from_bytes(&bytes).unwrap_err(), NetworkError::Hidden(too_many));
/// ```
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a net file may have: one for every four pieces on the board.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::{MAX_OUTPUT_BUCKETS, output_bucket};
///
/// // With the most buckets, a full board and a bare-kings board are at the two ends.
/// assert_eq!(output_bucket(32, MAX_OUTPUT_BUCKETS), MAX_OUTPUT_BUCKETS - 1);
/// assert_eq!(output_bucket(2, MAX_OUTPUT_BUCKETS), 0);
/// ```
pub const MAX_OUTPUT_BUCKETS: usize = 8;
/// The most inputs a position activates: one per piece.
const MAX_PIECES: usize = 32;
/// Bytes before the weights in version 1: magic and six `u32` fields (version 2 adds one, the buckets).
const HEADER_BYTES: usize = 8 + 6 * 4;
/// The size of a net file with the largest hidden layer and the most buckets.
const MAX_FILE_BYTES: usize = HEADER_BYTES
    + 4
    + 2 * (INPUTS * MAX_HIDDEN + MAX_HIDDEN + 2 * MAX_HIDDEN * MAX_OUTPUT_BUCKETS)
    + 4 * MAX_OUTPUT_BUCKETS;

/// The net built into the binary (its name says its generation; docs/nnue.md says how it was made).
const EMBEDDED_NET: &[u8] = include_bytes!("../../../../nets/eldest-6.nnue");
/// The embedded net's name, as `EvalFile` shows it.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::EMBEDDED_NAME;
///
/// // The generation is in the name, so `EvalFile` tells which network a build plays with.
/// assert!(EMBEDDED_NAME.starts_with("eldest-") && EMBEDDED_NAME.ends_with(".nnue"));
/// ```
pub const EMBEDDED_NAME: &str = "eldest-6.nnue";

/// The input of a `color` `kind` on `square` seen from `perspective`: the colour relative to the side and the
/// square flipped vertically for Black, so that both sides see their own pieces the same way.
///
/// ```
/// use eldest_board::{Color, PieceKind, Square};
/// use eldest_search::nnue::feature_index;
///
/// // White's king on e1 seen by White is Black's king on e8 seen by Black.
/// assert_eq!(
///     feature_index(Color::White, Color::White, PieceKind::King, Square::E1),
///     feature_index(Color::Black, Color::Black, PieceKind::King, Square::E8),
/// );
/// assert!(feature_index(Color::Black, Color::White, PieceKind::Pawn, Square::A2) >= 384, "the other side's");
/// ```
#[inline]
pub fn feature_index(perspective: Color, color: Color, kind: PieceKind, square: Square) -> usize {
    let relative = usize::from(color != perspective);
    let square = match perspective {
        Color::White => square.index(),
        Color::Black => square.index() ^ 56,
    };
    relative * 384 + kind.index() * 64 + square
}

/// The output bucket of a position with `pieces` pieces (kings included) in a net of `buckets` buckets: the
/// pieces from 2 to 32 cut into `buckets` equal ranges, fewest pieces first, so an endgame is weighed by other
/// output weights than a middlegame.
///
/// # Panics
/// If `buckets` is 0.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::output_bucket;
///
/// // Eight buckets: four pieces each.
/// assert_eq!(output_bucket(32, 8), 7);
/// assert_eq!(output_bucket(6, 8), 1);
/// assert_eq!(output_bucket(5, 8), 0);
/// // One bucket: every position in it.
/// assert_eq!(output_bucket(17, 1), 0);
/// ```
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let pieces_per_bucket = 32usize.div_ceil(buckets);
    (pieces.saturating_sub(2) as usize / pieces_per_bucket).min(buckets - 1)
}

/// Why a net file was refused.
///
/// # Examples
///
/// ```
/// use eldest_search::nnue::{Network, NetworkError};
///
/// let bytes = Network::embedded_bytes();
/// let error = Network::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err();
/// assert_eq!(error, NetworkError::Length { expected: bytes.len(), found: bytes.len() - 2 });
/// assert!(error.to_string().starts_with("truncated or padded"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read.
    Io(String),
    /// The file does not start with `ELDNET`.
    NotANet,
    /// A layout version this build does not read.
    Version(u32),
    /// A linear model: a tuning aid of the trainer, not an evaluation network.
    Linear,
    /// A kind field that names no model.
    Kind(u32),
    /// Another input count than 768.
    Inputs(u32),
    /// A hidden layer of 0 or more than [`MAX_HIDDEN`] neurons.
    Hidden(u32),
    /// No output bucket, or more than [`MAX_OUTPUT_BUCKETS`].
    Buckets(u32),
    /// A quantisation factor outside 1–255 (QA) or 1–32767 (QB).
    Quantisation {
        /// QA.
        qa: u32,
        /// QB.
        qb: u32,
    },
    /// The file is not as long as its header says.
    Length {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// Weights so large that the accumulators or the output layer could overflow.
    Range(&'static str),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(message) => write!(f, "cannot read the net file: {message}"),
            NetworkError::NotANet => write!(f, "not an Eldest net file (no ELDNET magic)"),
            NetworkError::Version(version) => {
                write!(
                    f,
                    "net file version {version}; this build reads versions 1 to {NET_VERSION}"
                )
            }
            NetworkError::Linear => write!(
                f,
                "a linear model is a tuning aid, not an evaluation network (train it with --hidden N)"
            ),
            NetworkError::Kind(kind) => write!(f, "unknown model kind {kind}"),
            NetworkError::Inputs(inputs) => write!(f, "{inputs} inputs; this build reads {INPUTS}"),
            NetworkError::Hidden(hidden) => {
                write!(f, "hidden layer of {hidden} neurons; 1 to {MAX_HIDDEN} are read")
            }
            NetworkError::Buckets(buckets) => {
                write!(f, "{buckets} output buckets; 1 to {MAX_OUTPUT_BUCKETS} are read")
            }
            NetworkError::Quantisation { qa, qb } => {
                write!(
                    f,
                    "quantisation QA {qa}, QB {qb}; QA must be 1-255 and QB 1-32767"
                )
            }
            NetworkError::Length { expected, found } => {
                write!(
                    f,
                    "truncated or padded: {found} bytes where the header implies {expected}"
                )
            }
            NetworkError::Range(what) => {
                write!(f, "{what} out of range: the integer evaluation could overflow")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// A quantised perspective network, ready to evaluate.
///
/// ```
/// use eldest_search::nnue::Network;
///
/// let bytes = Network::embedded_bytes();
/// let network = Network::from_bytes(bytes).unwrap();
/// assert_eq!(network.hidden(), Network::embedded().hidden());
/// assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err(), "a truncated file is refused");
/// ```
pub struct Network {
    hidden: usize,
    qa: i16,
    qb: i32,
    /// Input-major: the row of input `i` is `w1[i * hidden..(i + 1) * hidden]`.
    w1: Box<[i16]>,
    b1: Box<[i16]>,
    /// Output buckets: each has its `2 * hidden` output weights and its bias.
    buckets: usize,
    /// Bucket by bucket: the side to move's half, then the other side's.
    w2: Box<[i16]>,
    b2: Box<[i32]>,
    kernels: simd::Kernels,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("buckets", &self.buckets)
            .field("qa", &self.qa)
            .field("qb", &self.qb)
            .field("kernels", &self.kernels)
            .finish_non_exhaustive()
    }
}

/// Reads little-endian fields off the front of a byte slice.
struct Reader<'b> {
    bytes: &'b [u8],
}

impl Reader<'_> {
    fn u32(&mut self) -> u32 {
        let (field, rest) = self.bytes.split_at(4);
        self.bytes = rest;
        u32::from_le_bytes([field[0], field[1], field[2], field[3]])
    }

    fn i32s(&mut self, count: usize) -> Box<[i32]> {
        (0..count).map(|_| self.u32() as i32).collect()
    }

    fn i16s(&mut self, count: usize) -> Box<[i16]> {
        let (field, rest) = self.bytes.split_at(2 * count);
        self.bytes = rest;
        field
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect()
    }
}

fn largest_magnitude(values: &[i16]) -> i32 {
    values.iter().map(|&v| i32::from(v).abs()).max().unwrap_or(0)
}

impl Network {
    /// Reads a net file's bytes, checking everything the evaluation relies on.
    ///
    /// # Errors
    /// A [`NetworkError`] saying what is wrong; nothing is half-loaded.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::nnue::{Network, NetworkError};
    ///
    /// let network = Network::from_bytes(Network::embedded_bytes())?;
    /// let start = Position::startpos();
    /// assert_eq!(network.evaluate(&start), Network::embedded().evaluate(&start));
    /// let mut bytes = Network::embedded_bytes().to_vec();
    /// bytes[24..28].copy_from_slice(&0u32.to_le_bytes());
    /// assert!(matches!(Network::from_bytes(&bytes), Err(NetworkError::Quantisation { qa: 0, .. })));
    /// # Ok::<(), NetworkError>(())
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 8 || bytes[..8] != NET_MAGIC {
            return Err(NetworkError::NotANet);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::Length {
                expected: HEADER_BYTES,
                found: bytes.len(),
            });
        }
        let mut reader = Reader { bytes: &bytes[8..] };
        let version = reader.u32();
        if !(1..=NET_VERSION).contains(&version) {
            return Err(NetworkError::Version(version));
        }
        match reader.u32() {
            KIND_PERSPECTIVE => {}
            KIND_LINEAR => return Err(NetworkError::Linear),
            kind => return Err(NetworkError::Kind(kind)),
        }
        let inputs = reader.u32();
        if inputs as usize != INPUTS {
            return Err(NetworkError::Inputs(inputs));
        }
        let hidden_field = reader.u32();
        let hidden = hidden_field as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetworkError::Hidden(hidden_field));
        }
        let (qa, qb) = (reader.u32(), reader.u32());
        if !(1..=255).contains(&qa) || !(1..=32767).contains(&qb) {
            return Err(NetworkError::Quantisation { qa, qb });
        }
        let (header, buckets) = if version == 1 {
            (HEADER_BYTES, 1)
        } else {
            if bytes.len() < HEADER_BYTES + 4 {
                return Err(NetworkError::Length {
                    expected: HEADER_BYTES + 4,
                    found: bytes.len(),
                });
            }
            let field = reader.u32();
            if field == 0 || field as usize > MAX_OUTPUT_BUCKETS {
                return Err(NetworkError::Buckets(field));
            }
            (HEADER_BYTES + 4, field as usize)
        };
        let expected = header + 2 * (INPUTS * hidden + hidden + 2 * hidden * buckets) + 4 * buckets;
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let w1 = reader.i16s(INPUTS * hidden);
        let b1 = reader.i16s(hidden);
        let w2 = reader.i16s(2 * hidden * buckets);
        let b2 = reader.i32s(buckets);
        // An accumulator is b1 plus at most 32 rows: it must stay inside i16 whatever the position.
        if largest_magnitude(&b1) + MAX_PIECES as i32 * largest_magnitude(&w1) > i32::from(i16::MAX) {
            return Err(NetworkError::Range("the hidden layer's weights"));
        }
        // SCReLU's clamped input (≤ QA) times an output weight is formed in i16.
        if qa as i32 * largest_magnitude(&w2) > i32::from(i16::MAX) {
            return Err(NetworkError::Range("the output weights"));
        }
        Ok(Network {
            hidden,
            buckets,
            qa: qa as i16,
            qb: qb as i32,
            w1,
            b1,
            w2,
            b2,
            kernels: simd::Kernels::detect(),
        })
    }

    /// Reads a net file.
    ///
    /// # Errors
    /// [`NetworkError::Io`] when it cannot be read, else as [`Network::from_bytes`].
    ///
    /// ```
    /// use eldest_search::nnue::Network;
    ///
    /// assert!(Network::from_file("no/such/file.nnue".as_ref()).unwrap_err().to_string().contains("cannot read"));
    /// assert!(Network::from_file(std::env::temp_dir().as_ref()).is_err(), "a directory");
    /// ```
    pub fn from_file(path: &Path) -> Result<Network, NetworkError> {
        use std::io::Read;
        let io_error = |e: std::io::Error| NetworkError::Io(format!("{}: {e}", path.display()));
        let file = std::fs::File::open(path).map_err(io_error)?;
        // Only a plain file: a device or a pipe (`/dev/zero`, `/dev/stdin`) could be endless or block forever.
        if !file.metadata().map_err(io_error)?.is_file() {
            return Err(NetworkError::Io(format!(
                "{}: not a regular file",
                path.display()
            )));
        }
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error)?;
        if bytes.len() > MAX_FILE_BYTES {
            return Err(NetworkError::Io(format!(
                "{}: larger than any net file ({MAX_FILE_BYTES} bytes at most)",
                path.display()
            )));
        }
        Network::from_bytes(&bytes)
    }

    /// The net built into the binary, read once and shared.
    ///
    /// # Panics
    /// Never in a released build: the embedded file is checked by this crate's tests.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::Arc;
    /// use eldest_search::nnue::Network;
    ///
    /// // Every engine of the process shares the one copy.
    /// assert!(Arc::ptr_eq(&Network::embedded(), &Network::embedded()));
    /// ```
    pub fn embedded() -> Arc<Network> {
        static EMBEDDED: OnceLock<Arc<Network>> = OnceLock::new();
        Arc::clone(EMBEDDED.get_or_init(|| {
            Arc::new(Network::from_bytes(EMBEDDED_NET).expect("the embedded net is a valid net file"))
        }))
    }

    /// The embedded net file's bytes.
    ///
    /// ```
    /// assert_eq!(&eldest_search::nnue::Network::embedded_bytes()[..6], b"ELDNET");
    /// ```
    pub fn embedded_bytes() -> &'static [u8] {
        EMBEDDED_NET
    }

    /// Neurons of the hidden layer.
    ///
    /// ```
    /// assert!(eldest_search::nnue::Network::embedded().hidden() > 0);
    /// ```
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets (1 for a version-1 file).
    ///
    /// ```
    /// use eldest_search::nnue::{MAX_OUTPUT_BUCKETS, Network};
    ///
    /// assert!((1..=MAX_OUTPUT_BUCKETS).contains(&Network::embedded().output_buckets()));
    /// ```
    pub fn output_buckets(&self) -> usize {
        self.buckets
    }

    /// Evaluates `position` from scratch, in centipawns from the side to move (the search updates its
    /// accumulators move by move instead).
    ///
    /// ```
    /// use eldest_board::Position;
    /// let network = eldest_search::nnue::Network::embedded();
    /// let queen_up = Position::from_fen("3qk3/8/8/8/8/8/8/3QKQ2 w - - 0 1").unwrap();
    /// assert!(network.evaluate(&queen_up) > 300);
    /// ```
    pub fn evaluate(&self, position: &Position) -> i32 {
        let mut accumulators = vec![0i16; 2 * self.hidden];
        let (white, black) = accumulators.split_at_mut(self.hidden);
        self.refresh(position, Color::White, white);
        self.refresh(position, Color::Black, black);
        let pieces = position.occupied().popcount();
        match position.side_to_move() {
            Color::White => self.output(white, black, pieces),
            Color::Black => self.output(black, white, pieces),
        }
    }

    /// The accumulator of `perspective` computed from the pieces of `position`.
    pub(crate) fn refresh(&self, position: &Position, perspective: Color, accumulator: &mut [i16]) {
        accumulator.copy_from_slice(&self.b1);
        for square in position.occupied() {
            if let Some(piece) = position.piece_on(square) {
                let row = self.row(feature_index(perspective, piece.color, piece.kind, square));
                self.kernels.add_assign(accumulator, row);
            }
        }
    }

    /// The weights of one input.
    #[inline]
    pub(crate) fn row(&self, feature: usize) -> &[i16] {
        &self.w1[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The kernels chosen for this CPU.
    pub(crate) fn kernels(&self) -> simd::Kernels {
        self.kernels
    }

    /// The evaluation from the side to move's accumulator and the other side's, with the output bucket of a
    /// position of `pieces` pieces.
    #[inline]
    pub(crate) fn output(&self, us: &[i16], them: &[i16], pieces: u32) -> i32 {
        let bucket = output_bucket(pieces, self.buckets);
        let weights = &self.w2[2 * self.hidden * bucket..2 * self.hidden * (bucket + 1)];
        let (ours, theirs) = weights.split_at(self.hidden);
        let sum = self.kernels.screlu_dot(us, ours, self.qa) + self.kernels.screlu_dot(them, theirs, self.qa);
        let qa = i64::from(self.qa);
        let output = sum / qa + i64::from(self.b2[bucket]);
        let centipawns = output * i64::from(SCALE) / (qa * i64::from(self.qb));
        // Far from the mate scores whatever the net says.
        centipawns.clamp(-20_000, 20_000) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small version-1 net with weights of a fixed pattern (inside the loader's ranges).
    fn version_1_net(hidden: usize) -> Vec<u8> {
        let mut bytes = NET_MAGIC.to_vec();
        for field in [1, KIND_PERSPECTIVE, INPUTS as u32, hidden as u32, 255, 64] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        for i in 0..INPUTS * hidden + 3 * hidden {
            let weight = (i % 61) as i16 - 30;
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
        bytes.extend_from_slice(&1000i32.to_le_bytes());
        bytes
    }

    /// `net` (version 1) rewritten in version 2 with `buckets` copies of its output layer, the bias of bucket
    /// `changed` raised by `shift`.
    fn bucketed_copy(net: &[u8], hidden: usize, buckets: u32, changed: usize, shift: i32) -> Vec<u8> {
        let layer1_end = HEADER_BYTES + 2 * (INPUTS * hidden + hidden);
        let w2 = &net[layer1_end..layer1_end + 4 * hidden];
        let b2 = i32::from_le_bytes(net[net.len() - 4..].try_into().unwrap());
        let mut copy = net[..HEADER_BYTES].to_vec();
        copy[8..12].copy_from_slice(&2u32.to_le_bytes());
        copy.extend_from_slice(&buckets.to_le_bytes());
        copy.extend_from_slice(&net[HEADER_BYTES..layer1_end]);
        for _ in 0..buckets {
            copy.extend_from_slice(w2);
        }
        for bucket in 0..buckets as usize {
            let bias = if bucket == changed { b2 + shift } else { b2 };
            copy.extend_from_slice(&bias.to_le_bytes());
        }
        copy
    }

    const FENS: [&str; 3] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pp3ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R b KQkq - 0 10",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ];

    #[test]
    fn a_version_2_net_with_equal_buckets_evaluates_as_its_version_1_original() {
        let original = version_1_net(8);
        let network = Network::from_bytes(&original).unwrap();
        assert_eq!(network.output_buckets(), 1);
        for buckets in [1, 3, MAX_OUTPUT_BUCKETS as u32] {
            let copy = Network::from_bytes(&bucketed_copy(&original, 8, buckets, 0, 0)).unwrap();
            assert_eq!(copy.output_buckets(), buckets as usize);
            for fen in FENS {
                let position = Position::from_fen(fen).unwrap();
                assert_eq!(copy.evaluate(&position), network.evaluate(&position), "{fen}");
            }
        }
    }

    #[test]
    fn each_position_is_weighed_by_the_bucket_of_its_piece_count() {
        let original = version_1_net(8);
        let network = Network::from_bytes(&original).unwrap();
        // Eight buckets; the full board's (the last) gets its bias raised by one unit of output (QA × QB), SCALE
        // centipawns: only the start position moves (by one less where the division's rounding crosses zero).
        let copy = Network::from_bytes(&bucketed_copy(&original, 8, 8, 7, 255 * 64)).unwrap();
        let start = Position::startpos();
        let moved = copy.evaluate(&start) - network.evaluate(&start);
        assert!((SCALE - 1..=SCALE).contains(&moved), "{moved}");
        for fen in &FENS[1..] {
            let position = Position::from_fen(fen).unwrap();
            assert_eq!(copy.evaluate(&position), network.evaluate(&position), "{fen}");
        }
    }

    #[test]
    fn a_version_2_file_with_a_bad_bucket_count_or_length_is_refused() {
        let original = version_1_net(4);
        for buckets in [0, MAX_OUTPUT_BUCKETS as u32 + 1] {
            let copy = bucketed_copy(&original, 4, buckets, 0, 0);
            assert_eq!(
                Network::from_bytes(&copy).unwrap_err(),
                NetworkError::Buckets(buckets)
            );
        }
        let copy = bucketed_copy(&original, 4, 2, 0, 0);
        assert!(matches!(
            Network::from_bytes(&copy[..copy.len() - 4]),
            Err(NetworkError::Length { .. })
        ));
        assert_eq!(
            Network::from_bytes(&copy[..HEADER_BYTES + 2]).unwrap_err(),
            NetworkError::Length {
                expected: HEADER_BYTES + 4,
                found: HEADER_BYTES + 2
            }
        );
        // Read as version 1, the same bytes are refused too: the bucket field shifts everything.
        let mut as_version_1 = copy.clone();
        as_version_1[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert!(Network::from_bytes(&as_version_1).is_err());
    }
}
