//! The models: their parameters as one flat vector (what Adam updates), forward and backward passes, and the
//! quantised file.

use crate::features::{INPUTS, Sample};
use eldest_hashing::SplitMix64;
use eldest_search::nnue::{
    KIND_LINEAR, KIND_PERSPECTIVE, MAX_OUTPUT_BUCKETS, NET_MAGIC, NET_VERSION, SCALE, output_bucket,
};
use std::io::{self, Write};

/// Quantisation of the hidden layer's weights and biases (and of SCReLU's 1.0).
///
/// # Examples
///
/// ```
/// use eldest_train::{Model, QA};
///
/// let mut net = Vec::new();
/// Model::perspective(4, 1).write_quantised(&mut net).unwrap();
/// // The file records its scales (after magic, version, kind, inputs, hidden), so the engine reads it back.
/// assert_eq!(net[24..28], (QA as u32).to_le_bytes());
/// ```
pub const QA: i32 = 255;
/// Quantisation of the output weights.
///
/// # Examples
///
/// ```
/// use eldest_train::{Model, QB};
///
/// let mut net = Vec::new();
/// Model::perspective(4, 1).write_quantised(&mut net).unwrap();
/// // The file records its scales (QB right after QA), so the engine reads it back.
/// assert_eq!(net[28..32], (QB as u32).to_le_bytes());
/// ```
pub const QB: i32 = 64;

/// Weights are kept within ±1.98 so that the quantised net stays inside `i16` (and SCReLU's products in `i32`).
const WEIGHT_LIMIT: f32 = 1.98;

/// A model and its parameters.
///
/// ```
/// use eldest_board::Position;
/// use eldest_train::{Model, Sample};
///
/// let model = Model::perspective(16, 1);
/// let sample = Sample::new(&Position::startpos(), 0, 0.5);
/// assert!(model.evaluate(&sample).abs() < 10_000.0);
/// assert_eq!(model.parameters().len(), 768 * 16 + 16 + 2 * 16 + 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    kind: Kind,
    params: Vec<f32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `output = Σ w[own inputs] − Σ w[other side's inputs]`: a piece-square table for both sides at once.
    Linear,
    /// `output = w2[b] · [SCReLU(acc(us)), SCReLU(acc(them))] + b2[b]`, `acc(side) = b1 + Σ w1[side's inputs]`,
    /// `b` the position's output bucket (one of `buckets`, by its number of pieces).
    Perspective { hidden: usize, buckets: usize },
}

/// SCReLU: clamp to [0, 1], then square.
fn screlu(x: f32) -> f32 {
    let clamped = x.clamp(0.0, 1.0);
    clamped * clamped
}

fn screlu_derivative(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

impl Model {
    /// A linear model, all weights zero.
    ///
    /// ```
    /// let model = eldest_train::Model::linear();
    /// assert_eq!(model.parameters().len(), 768);
    /// ```
    pub fn linear() -> Model {
        Model {
            kind: Kind::Linear,
            params: vec![0.0; INPUTS],
        }
    }

    /// A perspective network of `hidden` neurons and one output, its weights drawn from `seed` (uniform, scaled
    /// by the fan-in).
    ///
    /// ```
    /// let a = eldest_train::Model::perspective(8, 3);
    /// assert_eq!(a, eldest_train::Model::perspective(8, 3), "the same seed, the same start");
    /// ```
    ///
    /// # Panics
    /// If `hidden` is 0.
    pub fn perspective(hidden: usize, seed: u64) -> Model {
        Model::perspective_bucketed(hidden, 1, seed)
    }

    /// A perspective network of `hidden` neurons whose output layer has `buckets` sets of weights, one chosen
    /// by the number of pieces on the board (`eldest_search::nnue::output_bucket`). With one bucket it is
    /// [`Model::perspective`], weight for weight.
    ///
    /// ```
    /// use eldest_train::Model;
    ///
    /// let bucketed = Model::perspective_bucketed(8, 4, 3);
    /// assert_eq!(bucketed.output_buckets(), 4);
    /// // Four sets of output weights (2 × 8 each) and four biases instead of one.
    /// assert_eq!(bucketed.parameters().len(), Model::perspective(8, 3).parameters().len() + 3 * (16 + 1));
    /// assert_eq!(Model::perspective_bucketed(8, 1, 3), Model::perspective(8, 3));
    /// ```
    ///
    /// # Panics
    /// If `hidden` is 0, or `buckets` is 0 or more than `eldest_search::nnue::MAX_OUTPUT_BUCKETS`.
    pub fn perspective_bucketed(hidden: usize, buckets: usize, seed: u64) -> Model {
        assert!(hidden > 0, "a hidden layer needs neurons");
        assert!(
            (1..=MAX_OUTPUT_BUCKETS).contains(&buckets),
            "1 to {MAX_OUTPUT_BUCKETS} output buckets"
        );
        let mut stream = SplitMix64::new(seed);
        let mut uniform = |bound: f32| {
            let unit = (stream.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let mut params = Vec::with_capacity(INPUTS * hidden + hidden + (2 * hidden + 1) * buckets);
        // A position has about 30 inputs active: keep the accumulator's start inside SCReLU's slope.
        let input_bound = 1.0 / 30.0f32.sqrt();
        params.extend((0..INPUTS * hidden).map(|_| uniform(input_bound) * 0.5));
        params.extend((0..hidden).map(|_| 0.1 + uniform(0.05)));
        let output_bound = 1.0 / (2.0 * hidden as f32).sqrt();
        params.extend((0..2 * hidden * buckets).map(|_| uniform(output_bound)));
        params.extend(std::iter::repeat_n(0.0, buckets));
        Model {
            kind: Kind::Perspective { hidden, buckets },
            params,
        }
    }

    /// The parameters, flat: the linear model's 768 weights, or the network's w1 (input-major, 768 × hidden),
    /// b1, w2 (bucket by bucket, the side to move's half first) and b2 (one per bucket).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_train::Model;
    ///
    /// let model = Model::perspective(4, 1);
    /// // w1 (768 × 4), b1 (4), w2 (2 × 4) and b2 (1), in that order.
    /// assert_eq!(model.parameters().len(), 768 * 4 + 4 + 8 + 1);
    /// assert_eq!(model.parameters().last(), Some(&0.0), "the output bias starts at zero");
    /// ```
    pub fn parameters(&self) -> &[f32] {
        &self.params
    }

    pub(crate) fn parameters_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    /// Neurons of the hidden layer (0 for the linear model).
    ///
    /// ```
    /// assert_eq!(eldest_train::Model::perspective(32, 1).hidden(), 32);
    /// ```
    pub fn hidden(&self) -> usize {
        match self.kind {
            Kind::Linear => 0,
            Kind::Perspective { hidden, .. } => hidden,
        }
    }

    /// Output buckets of the network (1 for the linear model).
    ///
    /// ```
    /// assert_eq!(eldest_train::Model::perspective(32, 1).output_buckets(), 1);
    /// ```
    pub fn output_buckets(&self) -> usize {
        match self.kind {
            Kind::Linear => 1,
            Kind::Perspective { buckets, .. } => buckets,
        }
    }

    /// Where the output weights of `sample`'s bucket start in the parameters, and where its bias is.
    fn output_layer(&self, sample: &Sample, hidden: usize, buckets: usize) -> (usize, usize) {
        let bucket = output_bucket(sample.active().len() as u32, buckets);
        let w2_at = INPUTS * hidden + hidden;
        (w2_at + 2 * hidden * bucket, w2_at + 2 * hidden * buckets + bucket)
    }

    /// The model's evaluation of `sample` in centipawns, from the side to move.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_train::{Model, Sample};
    ///
    /// let sample = Sample::new(&Position::startpos(), 0, 0.5);
    /// // An untrained linear model has all weights zero: every position is level to it.
    /// assert_eq!(Model::linear().evaluate(&sample), 0.0);
    /// assert!(Model::perspective(8, 1).evaluate(&sample).is_finite());
    /// ```
    pub fn evaluate(&self, sample: &Sample) -> f32 {
        self.output(sample) * SCALE as f32
    }

    /// The raw output (`sigmoid` of it is the expected score).
    pub(crate) fn output(&self, sample: &Sample) -> f32 {
        self.forward(sample).0
    }

    /// `(sigmoid(output) − target)²` of one sample.
    pub(crate) fn loss(&self, sample: &Sample, wdl: f32) -> f32 {
        let predicted = 1.0 / (1.0 + (-self.output(sample)).exp());
        (predicted - sample.target(wdl)).powi(2)
    }

    /// The output and, for the network, both sides' accumulators (empty for the linear model), so that the
    /// backward pass does not compute them again.
    fn forward(&self, sample: &Sample) -> (f32, Vec<f32>, Vec<f32>) {
        match self.kind {
            Kind::Linear => {
                let own: f32 = sample.active().iter().map(|&f| self.params[usize::from(f)]).sum();
                let other: f32 = sample.other_side().map(|f| self.params[usize::from(f)]).sum();
                (own - other, Vec::new(), Vec::new())
            }
            Kind::Perspective { hidden, buckets } => {
                let (us, them) = self.accumulators(sample, hidden);
                let (w2_at, b2_at) = self.output_layer(sample, hidden, buckets);
                let w2 = &self.params[w2_at..w2_at + 2 * hidden];
                let b2 = self.params[b2_at];
                let ours: f32 = us.iter().zip(&w2[..hidden]).map(|(&a, &w)| screlu(a) * w).sum();
                let theirs: f32 = them.iter().zip(&w2[hidden..]).map(|(&a, &w)| screlu(a) * w).sum();
                (ours + theirs + b2, us, them)
            }
        }
    }

    fn accumulators(&self, sample: &Sample, hidden: usize) -> (Vec<f32>, Vec<f32>) {
        let b1 = &self.params[INPUTS * hidden..INPUTS * hidden + hidden];
        let mut us = b1.to_vec();
        let mut them = b1.to_vec();
        for &feature in sample.active() {
            let row = &self.params[usize::from(feature) * hidden..][..hidden];
            us.iter_mut().zip(row).for_each(|(a, &w)| *a += w);
        }
        for feature in sample.other_side() {
            let row = &self.params[usize::from(feature) * hidden..][..hidden];
            them.iter_mut().zip(row).for_each(|(a, &w)| *a += w);
        }
        (us, them)
    }

    /// Adds the gradient of the loss of `sample` to `gradient` (as long as the parameters) and returns the loss:
    /// `(sigmoid(output) − target)²`.
    pub(crate) fn accumulate_gradient(&self, sample: &Sample, wdl: f32, gradient: &mut [f32]) -> f32 {
        let (output, us, them) = self.forward(sample);
        let predicted = 1.0 / (1.0 + (-output).exp());
        let error = predicted - sample.target(wdl);
        let d_output = 2.0 * error * predicted * (1.0 - predicted);
        match self.kind {
            Kind::Linear => {
                for &feature in sample.active() {
                    gradient[usize::from(feature)] += d_output;
                }
                for feature in sample.other_side() {
                    gradient[usize::from(feature)] -= d_output;
                }
            }
            Kind::Perspective { hidden, buckets } => {
                let (w2_at, b2_at) = self.output_layer(sample, hidden, buckets);
                let b1_at = INPUTS * hidden;
                let mut d_us = vec![0.0f32; hidden];
                let mut d_them = vec![0.0f32; hidden];
                for i in 0..hidden {
                    gradient[w2_at + i] += d_output * screlu(us[i]);
                    gradient[w2_at + hidden + i] += d_output * screlu(them[i]);
                    d_us[i] = d_output * self.params[w2_at + i] * screlu_derivative(us[i]);
                    d_them[i] = d_output * self.params[w2_at + hidden + i] * screlu_derivative(them[i]);
                    gradient[b1_at + i] += d_us[i] + d_them[i];
                }
                gradient[b2_at] += d_output;
                for &feature in sample.active() {
                    let row = &mut gradient[usize::from(feature) * hidden..][..hidden];
                    row.iter_mut().zip(&d_us).for_each(|(g, &d)| *g += d);
                }
                for feature in sample.other_side() {
                    let row = &mut gradient[usize::from(feature) * hidden..][..hidden];
                    row.iter_mut().zip(&d_them).for_each(|(g, &d)| *g += d);
                }
            }
        }
        error * error
    }

    /// Keeps every weight within the range the quantised net can hold.
    pub(crate) fn clip(&mut self) {
        if let Kind::Perspective { .. } = self.kind {
            self.params
                .iter_mut()
                .for_each(|w| *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT));
        }
    }

    /// Writes the model as integers: the magic `ELDNET`, two zero bytes, then little-endian `u32` version (1, or
    /// 2 for a network of several output buckets), kind (0 linear, 1 perspective SCReLU), inputs (768), hidden,
    /// QA, QB and in version 2 the buckets; then the linear model's weights in centipawns as `i16`, or the
    /// network's w1 and b1 × QA, w2 × QB as `i16` and b2 × QA × QB as `i32` (eldest-search's `nnue` module
    /// documents the layout).
    ///
    /// # Errors
    /// Those of `out`.
    ///
    /// ```
    /// let mut bytes = Vec::new();
    /// eldest_train::Model::perspective(4, 1).write_quantised(&mut bytes).unwrap();
    /// assert_eq!(&bytes[..8], &eldest_train::NET_MAGIC);
    /// assert_eq!(bytes.len(), 8 + 6 * 4 + 2 * (768 * 4 + 4 + 8) + 4);
    /// // Three buckets: a seventh header field, three sets of output weights, three biases.
    /// let mut bucketed = Vec::new();
    /// eldest_train::Model::perspective_bucketed(4, 3, 1).write_quantised(&mut bucketed).unwrap();
    /// assert_eq!(bucketed.len(), 8 + 7 * 4 + 2 * (768 * 4 + 4 + 3 * 8) + 3 * 4);
    /// ```
    pub fn write_quantised(&self, out: &mut impl Write) -> io::Result<()> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&NET_MAGIC);
        let kind = match self.kind {
            Kind::Linear => KIND_LINEAR,
            Kind::Perspective { .. } => KIND_PERSPECTIVE,
        };
        let buckets = self.output_buckets();
        // One bucket: version 1, the layout of the nets before buckets, so they are reproduced byte for byte.
        let version = if buckets == 1 { 1 } else { NET_VERSION };
        let mut fields = vec![
            version,
            kind,
            INPUTS as u32,
            self.hidden() as u32,
            QA as u32,
            QB as u32,
        ];
        if version >= 2 {
            fields.push(buckets as u32);
        }
        for field in fields {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        let quantise = |value: f32, scale: i32| -> i16 {
            (value * scale as f32)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        match self.kind {
            Kind::Linear => {
                for &w in &self.params {
                    bytes.extend_from_slice(&quantise(w, SCALE).to_le_bytes());
                }
            }
            Kind::Perspective { hidden, buckets } => {
                let (layer1, output) = self.params.split_at(INPUTS * hidden + hidden);
                let (w2, b2) = output.split_at(2 * hidden * buckets);
                for &w in layer1 {
                    bytes.extend_from_slice(&quantise(w, QA).to_le_bytes());
                }
                for &w in w2 {
                    bytes.extend_from_slice(&quantise(w, QB).to_le_bytes());
                }
                for &bias in b2 {
                    let bias = (bias * (QA * QB) as f32).round() as i32;
                    bytes.extend_from_slice(&bias.to_le_bytes());
                }
            }
        }
        out.write_all(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_board::Position;

    fn samples() -> Vec<Sample> {
        [
            (
                "r3k2r/pp3ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R b KQkq - 0 10",
                35,
                0.5,
            ),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 120, 1.0),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                -30,
                0.0,
            ),
        ]
        .iter()
        .map(|&(fen, score, result)| Sample::new(&Position::from_fen(fen).unwrap(), score, result))
        .collect()
    }

    /// The search's integer network gives what the trainer's floats give, to within the quantisation's error.
    #[test]
    fn the_quantised_net_evaluates_as_the_model_in_the_search() {
        for buckets in [1, 3, MAX_OUTPUT_BUCKETS] {
            quantised_net_agrees(Model::perspective_bucketed(64, buckets, 5));
        }
    }

    fn quantised_net_agrees(model: Model) {
        let mut bytes = Vec::new();
        model.write_quantised(&mut bytes).unwrap();
        let network = eldest_search::nnue::Network::from_bytes(&bytes).unwrap();
        assert_eq!(network.output_buckets(), model.output_buckets());
        let fens = [
            "r3k2r/pp3ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R b KQkq - 0 10",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "8/8/3k4/8/2Q5/8/5K2/8 w - - 0 1",
        ];
        for fen in fens {
            let position = Position::from_fen(fen).unwrap();
            let float = model.evaluate(&Sample::new(&position, 0, 0.5));
            let integer = network.evaluate(&position) as f32;
            // w2 is kept to 1/64: a few centipawns of rounding over 128 neurons.
            assert!(
                (float - integer).abs() <= 12.0 + float.abs() * 0.03,
                "{fen}: {float} vs {integer}"
            );
        }
    }

    fn loss(model: &Model, samples: &[Sample], wdl: f32) -> f64 {
        samples.iter().map(|s| f64::from(model.loss(s, wdl))).sum()
    }

    /// The analytic gradient against central differences, on parameters that matter for these samples.
    fn check_gradient(mut model: Model) {
        let samples = samples();
        let wdl = 0.3;
        let mut gradient = vec![0.0; model.params.len()];
        for sample in &samples {
            model.accumulate_gradient(sample, wdl, &mut gradient);
        }
        let mut checked = 0;
        let candidates: Vec<usize> = (0..model.params.len())
            .filter(|&i| gradient[i].abs() > 1e-5)
            .collect();
        let stride = (candidates.len() / 40).max(1);
        for &index in candidates.iter().step_by(stride) {
            let h = 1e-3;
            let saved = model.params[index];
            model.params[index] = saved + h;
            let up = loss(&model, &samples, wdl);
            model.params[index] = saved - h;
            let down = loss(&model, &samples, wdl);
            model.params[index] = saved;
            let numeric = (up - down) / (2.0 * f64::from(h));
            let analytic = f64::from(gradient[index]);
            assert!(
                (numeric - analytic).abs() <= 1e-2 * numeric.abs().max(analytic.abs()) + 5e-5,
                "parameter {index}: numeric {numeric}, analytic {analytic}"
            );
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} parameters checked");
    }

    #[test]
    fn gradients_match_finite_differences() {
        let mut linear = Model::linear();
        linear
            .params
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = ((i % 13) as f32 - 6.0) * 0.01);
        check_gradient(linear);
        check_gradient(Model::perspective(8, 5));
        check_gradient(Model::perspective_bucketed(8, MAX_OUTPUT_BUCKETS, 5));
    }

    #[test]
    fn the_linear_model_is_antisymmetric_and_the_network_sees_both_sides() {
        let mut linear = Model::linear();
        linear
            .params
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = (i % 5) as f32 * 0.01);
        let position = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let flipped = Position::from_fen("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        let a = linear.evaluate(&Sample::new(&position, 0, 0.5));
        let b = linear.evaluate(&Sample::new(&flipped, 0, 0.5));
        assert!(
            (a - b).abs() < 1e-4,
            "the same position for the side to move: {a} {b}"
        );
        let start = Sample::new(&Position::startpos(), 0, 0.5);
        assert!(
            linear.evaluate(&start).abs() < 1e-4,
            "a symmetric position is level"
        );
    }

    #[test]
    fn quantised_weights_round_to_the_nearest_step() {
        let mut model = Model::perspective(2, 1);
        model.params.iter_mut().for_each(|w| *w = 0.5);
        let mut bytes = Vec::new();
        model.write_quantised(&mut bytes).unwrap();
        let first = i16::from_le_bytes([bytes[32], bytes[33]]);
        assert_eq!(i32::from(first), (0.5 * QA as f32).round() as i32);
        let b2 = i32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
        assert_eq!(b2, QA * QB / 2);
    }
}
