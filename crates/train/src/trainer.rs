//! Fitting a model: loading samples, mini-batches on every core, Adam with a cosine learning rate.

use crate::features::Sample;
use crate::model::Model;
use eldest_data::DataReader;
use eldest_hashing::SplitMix64;
use rayon::prelude::*;
use std::path::Path;

/// Every mini-batch is cut into this many slices whatever the thread count; their gradients are summed in slice
/// order, so the same seed gives the same model on any machine.
const SLICES: usize = 16;

/// How a model is fitted.
///
/// ```
/// let settings = eldest_train::TrainSettings::default();
/// assert!(settings.wdl >= 0.0 && settings.wdl <= 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainSettings {
    /// Passes over the training samples (the learning rate follows a cosine over them).
    pub epochs: usize,
    /// Samples per Adam step.
    pub batch: usize,
    /// Adam's step size at the start.
    pub learning_rate: f32,
    /// The step size at the end, as a fraction of the start.
    pub final_learning_rate: f32,
    /// Weight of the game's result in the target (the rest is the search's score).
    pub wdl: f32,
    /// Seed of the shuffles.
    pub seed: u64,
}

impl Default for TrainSettings {
    fn default() -> TrainSettings {
        TrainSettings {
            epochs: 10,
            batch: 16_384,
            learning_rate: 0.001,
            final_learning_rate: 0.05,
            wdl: 0.3,
            seed: 1,
        }
    }
}

/// A model being fitted, with Adam's moments.
///
/// ```
/// use eldest_board::Position;
/// use eldest_train::{Model, Sample, TrainSettings, Trainer};
///
/// let samples = [Sample::new(&Position::startpos(), 0, 0.5)];
/// let mut trainer = Trainer::new(Model::perspective(8, 1), TrainSettings { batch: 1, ..TrainSettings::default() });
/// let before = trainer.loss(&samples);
/// trainer.epoch(&samples);
/// assert_eq!(trainer.epochs_done(), 1);
/// assert!(trainer.loss(&samples) <= before);
/// ```
#[derive(Debug, Clone)]
pub struct Trainer {
    model: Model,
    settings: TrainSettings,
    first_moment: Vec<f32>,
    second_moment: Vec<f32>,
    steps: u64,
    epochs_done: usize,
}

impl Trainer {
    /// A trainer for `model`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_train::{Model, TrainSettings, Trainer};
    ///
    /// let model = Model::perspective(4, 7);
    /// let trainer = Trainer::new(model.clone(), TrainSettings::default());
    /// // Training continues from the given weights, with no epochs behind it yet.
    /// assert_eq!(trainer.model(), &model);
    /// assert_eq!(trainer.epochs_done(), 0);
    /// ```
    pub fn new(model: Model, settings: TrainSettings) -> Trainer {
        let count = model.parameters().len();
        Trainer {
            model,
            settings,
            first_moment: vec![0.0; count],
            second_moment: vec![0.0; count],
            steps: 0,
            epochs_done: 0,
        }
    }

    /// The model as fitted so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_train::{Model, Sample, TrainSettings, Trainer};
    ///
    /// let queen_up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    /// let samples = [Sample::new(&queen_up, 900, 1.0)];
    /// let settings = TrainSettings { batch: 1, learning_rate: 0.05, ..TrainSettings::default() };
    /// let mut trainer = Trainer::new(Model::linear(), settings);
    /// trainer.epoch(&samples);
    /// // One Adam step already moves the model towards White's extra queen.
    /// assert!(trainer.model().evaluate(&samples[0]) > 0.0);
    /// ```
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Epochs run.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_train::{Model, TrainSettings, Trainer};
    ///
    /// let settings = TrainSettings { epochs: 2, ..TrainSettings::default() };
    /// let mut trainer = Trainer::new(Model::linear(), settings);
    /// trainer.epoch(&[]);
    /// trainer.epoch(&[]);
    /// assert_eq!(trainer.epochs_done(), 2);
    /// // The count drives the cosine schedule: after the last epoch the rate is at its final fraction.
    /// let floor = settings.learning_rate * settings.final_learning_rate;
    /// assert!((trainer.learning_rate() - floor).abs() < 1e-9);
    /// ```
    pub fn epochs_done(&self) -> usize {
        self.epochs_done
    }

    /// The learning rate of the coming epoch: a cosine from the start value to its final fraction.
    ///
    /// ```
    /// use eldest_train::{Model, TrainSettings, Trainer};
    ///
    /// let trainer = Trainer::new(Model::linear(), TrainSettings { epochs: 4, ..TrainSettings::default() });
    /// assert_eq!(trainer.learning_rate(), 0.001);
    /// ```
    pub fn learning_rate(&self) -> f32 {
        let settings = &self.settings;
        let progress = self.epochs_done as f32 / settings.epochs.max(1) as f32;
        let floor = settings.learning_rate * settings.final_learning_rate;
        floor
            + 0.5
                * (settings.learning_rate - floor)
                * (1.0 + (std::f32::consts::PI * progress.min(1.0)).cos())
    }

    /// One pass over `samples` in an order shuffled from the seed and the epoch; the mean loss of its batches.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_train::{Model, Sample, TrainSettings, Trainer};
    ///
    /// let queen_up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    /// let samples = [Sample::new(&queen_up, 900, 1.0)];
    /// let settings = TrainSettings { batch: 1, learning_rate: 0.05, ..TrainSettings::default() };
    /// let mut trainer = Trainer::new(Model::linear(), settings);
    /// let first = trainer.epoch(&samples);
    /// // Each pass reports the loss its batches met before their steps: lower once the model has learnt.
    /// assert!(trainer.epoch(&samples) < first);
    /// ```
    pub fn epoch(&mut self, samples: &[Sample]) -> f64 {
        let mut order: Vec<u32> = (0..samples.len() as u32).collect();
        let mut stream = SplitMix64::new(
            self.settings.seed ^ (self.epochs_done as u64).wrapping_mul(0xA076_1D64_78BD_642F),
        );
        for i in (1..order.len()).rev() {
            order.swap(i, stream.below(i as u64 + 1) as usize);
        }
        let learning_rate = self.learning_rate();
        let mut total = 0.0;
        for batch in order.chunks(self.settings.batch.max(1)) {
            total += self.step(samples, batch, learning_rate);
        }
        self.epochs_done += 1;
        total / samples.len().max(1) as f64
    }

    /// The mean loss over `samples` (a validation set), computed on every core.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_train::{Model, Sample, TrainSettings, Trainer};
    ///
    /// let trainer = Trainer::new(Model::linear(), TrainSettings::default());
    /// // The zero model predicts ½ everywhere: exactly the target of a level position that was drawn.
    /// assert_eq!(trainer.loss(&[Sample::new(&Position::startpos(), 0, 0.5)]), 0.0);
    /// // An empty validation set has no loss, rather than a division by zero.
    /// assert_eq!(trainer.loss(&[]), 0.0);
    /// ```
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        let wdl = self.settings.wdl;
        let model = &self.model;
        let total: f64 = samples
            .par_chunks(samples.len().div_ceil(SLICES).max(1))
            .map(|slice| {
                slice
                    .iter()
                    .map(|sample| f64::from(model.loss(sample, wdl)))
                    .sum::<f64>()
            })
            .collect::<Vec<f64>>()
            .into_iter()
            .sum();
        total / samples.len().max(1) as f64
    }

    /// One Adam step on the samples at `batch`; the batch's summed loss.
    fn step(&mut self, samples: &[Sample], batch: &[u32], learning_rate: f32) -> f64 {
        let wdl = self.settings.wdl;
        let model = &self.model;
        let count = model.parameters().len();
        let slices: Vec<(Vec<f32>, f64)> = batch
            .par_chunks(batch.len().div_ceil(SLICES).max(1))
            .map(|slice| {
                let mut gradient = vec![0.0f32; count];
                let loss: f64 = slice
                    .iter()
                    .map(|&index| {
                        f64::from(model.accumulate_gradient(&samples[index as usize], wdl, &mut gradient))
                    })
                    .sum();
                (gradient, loss)
            })
            .collect();
        let mut slices = slices.into_iter();
        let (mut gradient, mut loss) = slices.next().unwrap_or((vec![0.0; count], 0.0));
        for (part, part_loss) in slices {
            gradient.iter_mut().zip(&part).for_each(|(g, &p)| *g += p);
            loss += part_loss;
        }
        let scale = 1.0 / batch.len() as f32;
        self.steps += 1;
        let (beta1, beta2, epsilon) = (0.9f32, 0.999f32, 1e-8f32);
        let correction1 = 1.0 - beta1.powi(self.steps.min(i32::MAX as u64) as i32);
        let correction2 = 1.0 - beta2.powi(self.steps.min(i32::MAX as u64) as i32);
        let params = self.model.parameters_mut();
        for (((param, &g), m), v) in params
            .iter_mut()
            .zip(&gradient)
            .zip(&mut self.first_moment)
            .zip(&mut self.second_moment)
        {
            let g = g * scale;
            *m = beta1 * *m + (1.0 - beta1) * g;
            *v = beta2 * *v + (1.0 - beta2) * g * g;
            *param -= learning_rate * (*m / correction1) / ((*v / correction2).sqrt() + epsilon);
        }
        self.model.clip();
        loss
    }
}

/// The samples of the data files at `paths`, split by game: games whose number is a multiple of
/// `validation_every` (0: none) go to the second vector, the validation set. With `mirror`, every training
/// position in which neither side may castle is added a second time with the board mirrored left to right
/// ([`Sample::mirrored_files`]); the validation set stays as played.
///
/// # Errors
/// A message naming the file for a file that cannot be read or is not valid data.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_data::{GameRecord, GameResult, ScoredMove, write_header};
///
/// let (start, mut file) = (Position::startpos(), Vec::new());
/// let mv = start.parse_uci_move("e2e4").unwrap();
/// write_header(&mut file).unwrap();
/// for index in 0..4 {
///     let moves = vec![ScoredMove { mv, score: Some(10) }];
///     GameRecord { index, start, result: GameResult::Draw, moves }.write_to(&mut file).unwrap();
/// }
/// let path = std::env::temp_dir().join(format!("eldest-train-doc-{}.data", std::process::id()));
/// std::fs::write(&path, &file).unwrap();
/// // Games 0 and 2 (every second one) are held back for validation.
/// let (training, validation) = eldest_train::load_samples(&[&path], 2, false).unwrap();
/// std::fs::remove_file(&path).unwrap();
/// assert_eq!((training.len(), validation.len()), (2, 2));
/// assert!(eldest_train::load_samples(&["no/such.data"], 0, false).unwrap_err().contains("no/such.data"));
/// ```
pub fn load_samples(
    paths: &[impl AsRef<Path>],
    validation_every: u32,
    mirror: bool,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let mut training = Vec::new();
    let mut validation = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let file =
            std::fs::File::open(path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let reader = DataReader::new(std::io::BufReader::new(file))
            .map_err(|error| format!("{}: {error}", path.display()))?;
        for game in reader {
            let game = game.map_err(|error| format!("{}: {error}", path.display()))?;
            if validation_every > 0 && game.index % validation_every == 0 {
                validation.extend(
                    game.training_positions()
                        .map(|position| Sample::from_training(&position)),
                );
                continue;
            }
            for position in game.training_positions() {
                let sample = Sample::from_training(&position);
                training.push(sample);
                if mirror && position.position.castling_rights().is_empty() {
                    training.push(sample.mirrored_files());
                }
            }
        }
    }
    Ok((training, validation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_board::Position;

    fn material_samples() -> Vec<Sample> {
        // Positions where White (to move) is up material and won, and level ones drawn.
        [
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 900, 1.0),
            ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", 500, 1.0),
            ("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", 100, 0.5),
            ("4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1", 0, 0.5),
            ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", -900, 0.0),
            ("3rk3/8/8/8/8/8/8/4K3 w - - 0 1", -500, 0.0),
        ]
        .iter()
        .map(|&(fen, score, result)| Sample::new(&Position::from_fen(fen).unwrap(), score, result))
        .collect()
    }

    #[test]
    fn both_models_learn_material_and_the_thread_count_does_not_change_the_result() {
        let samples = material_samples();
        for model in [Model::linear(), Model::perspective(16, 2)] {
            let settings = TrainSettings {
                epochs: 150,
                batch: 3,
                learning_rate: 0.02,
                ..TrainSettings::default()
            };
            let mut trainer = Trainer::new(model.clone(), settings);
            let start = trainer.loss(&samples);
            for _ in 0..settings.epochs {
                trainer.epoch(&samples);
            }
            let end = trainer.loss(&samples);
            assert!(end < start * 0.5, "loss {start} -> {end}");
            let queen = trainer.model().evaluate(&samples[0]);
            let rook = trainer.model().evaluate(&samples[1]);
            assert!(queen > rook && rook > 100.0, "queen {queen}, rook {rook}");

            let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
            let mut again = Trainer::new(model, settings);
            one_thread.install(|| {
                for _ in 0..settings.epochs {
                    again.epoch(&samples);
                }
            });
            assert_eq!(
                again.model(),
                trainer.model(),
                "one thread or many, the same model"
            );
        }
    }

    #[test]
    fn the_learning_rate_falls_along_a_cosine() {
        let settings = TrainSettings {
            epochs: 4,
            learning_rate: 1.0,
            final_learning_rate: 0.1,
            ..TrainSettings::default()
        };
        let mut trainer = Trainer::new(Model::linear(), settings);
        let mut rates = Vec::new();
        for _ in 0..4 {
            rates.push(trainer.learning_rate());
            trainer.epoch(&[]);
        }
        rates.push(trainer.learning_rate());
        assert_eq!(rates[0], 1.0);
        assert!((rates[2] - 0.55).abs() < 1e-6, "{rates:?}");
        assert!((rates[4] - 0.1).abs() < 1e-6, "{rates:?}");
        assert!(rates.windows(2).all(|pair| pair[1] < pair[0]));
    }
}
