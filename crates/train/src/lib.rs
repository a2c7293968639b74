//! The trainer of Eldest's evaluation network, on the CPU and on Eldest's own self-play data only.
//!
//! [`Sample`]s are made from `eldest datagen` files (crate `eldest-data`); a [`Model`] — a perspective network
//! with one SCReLU hidden layer, or a linear model on the same 768 inputs per side — is fitted by
//! [`Trainer`] (Adam, cosine learning rate, mini-batches split into a fixed number of slices that run on every
//! core and are summed in order, so a seed gives the same net whatever the thread count). The result is written
//! as integers by [`Model::write_quantised`].
//!
//! ```
//! use eldest_board::Position;
//! use eldest_train::{Model, Sample, TrainSettings, Trainer};
//!
//! // Two positions: the start position scored level, one with White a queen up scored +900 and won.
//! let level = Sample::new(&Position::startpos(), 0, 0.5);
//! let queen_up = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
//! let won = Sample::new(&queen_up, 900, 1.0);
//! let settings = TrainSettings { epochs: 60, batch: 2, learning_rate: 0.05, ..TrainSettings::default() };
//! let mut trainer = Trainer::new(Model::linear(), settings);
//! let samples = [level, won];
//! for _ in 0..settings.epochs {
//!     trainer.epoch(&samples);
//! }
//! assert!(trainer.model().evaluate(&won) > trainer.model().evaluate(&level));
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod features;
mod model;
mod trainer;

pub use eldest_search::nnue::{NET_MAGIC, SCALE};
pub use features::{INPUTS, MAX_ACTIVE, Sample, feature_index};
pub use model::{Model, QA, QB};
pub use trainer::{TrainSettings, Trainer, load_samples};
