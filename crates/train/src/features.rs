//! The inputs: 768 per side, and a position reduced to what training needs.

use eldest_board::{Color, Position};

pub use eldest_search::nnue::{INPUTS, feature_index};

/// The most inputs active at once: one per piece on the board.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_train::{MAX_ACTIVE, Sample};
///
/// // The start position has every piece on the board, so its sample is full.
/// assert_eq!(Sample::new(&Position::startpos(), 0, 0.5).active().len(), MAX_ACTIVE);
/// ```
pub const MAX_ACTIVE: usize = 32;

/// The same piece seen from the other side.
pub(crate) fn mirror(feature: u16) -> u16 {
    ((feature + 384) % 768) ^ 56
}

/// A training position: the inputs active for the side to move, the search's score and the game's result, both
/// from the side to move.
///
/// ```
/// use eldest_board::Position;
/// use eldest_train::Sample;
///
/// let sample = Sample::new(&Position::startpos(), 25, 1.0);
/// assert_eq!(sample.active().len(), 32);
/// assert_eq!(sample.target(0.0), 1.0 / (1.0 + (-25.0f32 / 400.0).exp()));
/// assert_eq!(sample.target(1.0), 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    features: [u16; MAX_ACTIVE],
    count: u8,
    /// The search's score in centipawns, from the side to move.
    pub score: i16,
    /// The game's result for the side to move: 0, ½ or 1.
    pub result: f32,
}

impl Sample {
    /// The sample of `position` with the search's `score` and the game's `result` (0, ½, 1), both from the side
    /// to move.
    ///
    /// # Panics
    /// If the position has more than 32 pieces: never for a position eldest-board accepts (its FEN reader
    /// refuses more pieces than promotions allow, at most 16 a side).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_train::Sample;
    ///
    /// let lost = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
    /// // Black is to move, so score and result are Black's: a queen down and the game lost.
    /// let sample = Sample::new(&lost, -850, 0.0);
    /// assert_eq!((sample.score, sample.result), (-850, 0.0));
    /// assert_eq!(sample.active().len(), 3, "one input per piece");
    /// ```
    pub fn new(position: &Position, score: i16, result: f32) -> Sample {
        let us = position.side_to_move();
        let mut features = [0u16; MAX_ACTIVE];
        let mut count = 0;
        for square in position.occupied() {
            let piece = position
                .piece_on(square)
                .expect("an occupied square holds a piece");
            features[count] = feature_index(us, piece.color, piece.kind, square) as u16;
            count += 1;
        }
        Sample {
            features,
            count: count as u8,
            score,
            result,
        }
    }

    /// The sample of a stored training position (score and result from White's side in the data).
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_data::{GameResult, TrainingPosition};
    /// use eldest_train::Sample;
    ///
    /// let black_to_move = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
    /// let stored = TrainingPosition { position: black_to_move, score: 850, result: GameResult::WhiteWin };
    /// let sample = Sample::from_training(&stored);
    /// assert_eq!((sample.score, sample.result), (-850, 0.0), "seen from Black, who is to move");
    /// ```
    pub fn from_training(position: &eldest_data::TrainingPosition) -> Sample {
        let white = position.result.white_score();
        let (score, result) = match position.position.side_to_move() {
            Color::White => (position.score, white),
            Color::Black => (position.score.saturating_neg(), 1.0 - white),
        };
        Sample::new(&position.position, score, result)
    }

    /// The same position with the board mirrored left to right (a file to h file): as good a training example
    /// when neither side may castle, since nothing else in chess tells the wings apart.
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_train::Sample;
    ///
    /// let a = Position::from_fen("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1").unwrap();
    /// let h = Position::from_fen("3k4/8/8/8/8/8/6P1/3K4 w - - 0 1").unwrap();
    /// let mut mirrored: Vec<u16> = Sample::new(&a, 30, 0.5).mirrored_files().active().to_vec();
    /// let mut direct: Vec<u16> = Sample::new(&h, 30, 0.5).active().to_vec();
    /// mirrored.sort();
    /// direct.sort();
    /// assert_eq!(mirrored, direct);
    /// ```
    pub fn mirrored_files(&self) -> Sample {
        let mut mirrored = *self;
        // The file is the input's lowest three bits (square = 8 × rank + file, whatever the side and kind).
        mirrored.features[..usize::from(self.count)]
            .iter_mut()
            .for_each(|feature| *feature ^= 7);
        mirrored
    }

    /// The active inputs of the side to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, PieceKind, Position, Square};
    /// use eldest_train::{Sample, feature_index};
    ///
    /// let kings = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    /// let sample = Sample::new(&kings, 0, 0.5);
    /// let own_king = feature_index(Color::White, Color::White, PieceKind::King, Square::E1) as u16;
    /// assert_eq!(sample.active().len(), 2);
    /// assert!(sample.active().contains(&own_king));
    /// ```
    pub fn active(&self) -> &[u16] {
        &self.features[..usize::from(self.count)]
    }

    /// The active inputs of the other side (the same pieces seen from there).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_train::Sample;
    ///
    /// let white_to_move = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    /// let black_to_move = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
    /// // The other side's inputs are the same pieces as the opponent sees them on its own move.
    /// let mut theirs: Vec<u16> = Sample::new(&white_to_move, 0, 0.5).other_side().collect();
    /// let mut direct = Sample::new(&black_to_move, 0, 0.5).active().to_vec();
    /// theirs.sort();
    /// direct.sort();
    /// assert_eq!(theirs, direct);
    /// ```
    pub fn other_side(&self) -> impl Iterator<Item = u16> + '_ {
        self.active().iter().map(|&feature| mirror(feature))
    }

    /// What the model is fitted to: `wdl` × result + (1 − `wdl`) × sigmoid(score / 400).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_train::Sample;
    ///
    /// let sample = Sample::new(&Position::startpos(), 0, 1.0);
    /// // A level score is an expected ½; `wdl` blends in the result of the game that was played.
    /// assert_eq!(sample.target(0.0), 0.5);
    /// assert_eq!(sample.target(0.5), 0.75);
    /// assert_eq!(sample.target(1.0), 1.0);
    /// ```
    pub fn target(&self, wdl: f32) -> f32 {
        let from_score = 1.0 / (1.0 + (-f32::from(self.score) / crate::SCALE as f32).exp());
        wdl * self.result + (1.0 - wdl) * from_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_other_side_sees_the_mirrored_board() {
        let position =
            Position::from_fen("r3k2r/pp3ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R b KQkq - 0 10").unwrap();
        let black = Sample::new(&position, 0, 0.5);
        let mirrored =
            Position::from_fen("r2qk2r/ppp2ppp/2n2n2/8/3QP3/2N5/PP3PPP/R3K2R w KQkq - 0 10").unwrap();
        let white = Sample::new(&mirrored, 0, 0.5);
        let mut ours: Vec<u16> = black.active().to_vec();
        let mut theirs: Vec<u16> = white.active().to_vec();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(
            ours, theirs,
            "a colour-flipped position is the same input for its side to move"
        );
        let mut other: Vec<u16> = black.other_side().collect();
        other.sort_unstable();
        let mut direct: Vec<u16> = position
            .occupied()
            .into_iter()
            .map(|sq| {
                let piece = position.piece_on(sq).unwrap();
                feature_index(Color::White, piece.color, piece.kind, sq) as u16
            })
            .collect();
        direct.sort_unstable();
        assert_eq!(other, direct);
        assert!((0..768u16).all(|f| mirror(mirror(f)) == f));
    }
}
