//! `cargo xtask train`: fits the evaluation network (or the linear model) to `eldest datagen` files with
//! eldest-train, printing the training and validation loss of every epoch, keeping them in a CSV file and
//! writing the quantised net after every epoch (so a stopped run leaves its last net).

use crate::report::charts::{LineChart, Series, draw};
use eldest_search::nnue::{MAX_HIDDEN, MAX_OUTPUT_BUCKETS};
use eldest_train::{Model, TrainSettings, Trainer, load_samples};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Options of `cargo xtask train`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Data files written by `eldest datagen`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The net file to write (after every epoch).
    #[arg(long)]
    out: PathBuf,
    /// Fit the linear model (a piece-square table of 768 weights) instead of the network.
    #[arg(long)]
    linear: bool,
    /// Neurons of the hidden layer (at most the engine's MAX_HIDDEN, 1,024: a larger net could not be loaded).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=MAX_HIDDEN as i64))]
    hidden: u32,
    /// Sets of output weights, one chosen by the number of pieces on the board (1: a single output; 8: one for
    /// every four pieces). A net of several is written in net file version 2.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_OUTPUT_BUCKETS as i64))]
    output_buckets: u32,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    batch: u32,
    /// Adam's learning rate at the start (a cosine takes it to --final-lr times this).
    #[arg(long, default_value_t = 0.001, value_parser = positive)]
    lr: f32,
    /// The learning rate at the end, as a fraction of --lr.
    #[arg(long, default_value_t = 0.05, value_parser = fraction)]
    final_lr: f32,
    /// Weight of the game result in the target (0: the search's score only, 1: the result only).
    #[arg(long, default_value_t = 0.3, value_parser = fraction)]
    wdl: f32,
    /// Seed of the first weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core). The result does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Games whose number is a multiple of this form the validation set (0: no validation set).
    #[arg(long, default_value_t = 20)]
    validation_every: u32,
    /// Also train on every position without castling rights mirrored left to right (about 1.8 times the
    /// positions; the validation set stays as played).
    #[arg(long)]
    mirror: bool,
    /// CSV file of the losses per epoch (default: the net file with `.csv` appended).
    #[arg(long)]
    log: Option<PathBuf>,
}

fn positive(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok(value),
        _ => Err(format!("{text:?} is not a positive number")),
    }
}

fn fraction(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(value) if (0.0..=1.0).contains(&value) => Ok(value),
        _ => Err(format!("{text:?} is not a number from 0 to 1")),
    }
}

/// Runs the training.
///
/// # Errors
/// Unreadable or empty data, a net or log file that cannot be written.
pub fn run(args: &Args) -> Result<(), String> {
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads as usize)
            .build_global()
            .map_err(|error| format!("cannot start {threads} threads: {error}"))?;
    }
    let start = Instant::now();
    let (training, validation) = load_samples(&args.data, args.validation_every, args.mirror)?;
    if training.is_empty() {
        return Err("the data files hold no training positions".into());
    }
    eprintln!(
        "train: {} training and {} validation positions from {} file(s), read in {:.1} s",
        training.len(),
        validation.len(),
        args.data.len(),
        start.elapsed().as_secs_f64()
    );
    let model = if args.linear {
        Model::linear()
    } else {
        Model::perspective_bucketed(args.hidden as usize, args.output_buckets as usize, args.seed)
    };
    let settings = TrainSettings {
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        learning_rate: args.lr,
        final_learning_rate: args.final_lr,
        wdl: args.wdl,
        seed: args.seed,
    };
    let mut trainer = Trainer::new(model, settings);
    let log_path = args.log.clone().unwrap_or_else(|| {
        let mut name = args.out.clone().into_os_string();
        name.push(".csv");
        PathBuf::from(name)
    });
    let chart_path = log_path.with_extension("svg");
    let mut curves = [
        Series {
            name: "training loss".into(),
            points: Vec::new(),
        },
        Series {
            name: "validation loss".into(),
            points: Vec::new(),
        },
    ];
    let mut log = String::from("epoch,learning_rate,training_loss,validation_loss,seconds\n");
    let training_start = Instant::now();
    for epoch in 1..=settings.epochs {
        let learning_rate = trainer.learning_rate();
        let epoch_start = Instant::now();
        let training_loss = trainer.epoch(&training);
        let seconds = epoch_start.elapsed().as_secs_f64();
        let validation_loss = (!validation.is_empty()).then(|| trainer.loss(&validation));
        let validation_text = validation_loss.map_or_else(|| "-".to_string(), |loss| format!("{loss:.6}"));
        eprintln!(
            "epoch {epoch}/{}: lr {learning_rate:.6}, training loss {training_loss:.6}, validation loss \
             {validation_text}, {:.0} positions/s, {:.0} s in all",
            settings.epochs,
            training.len() as f64 / seconds.max(1e-9),
            training_start.elapsed().as_secs_f64()
        );
        log.push_str(&format!(
            "{epoch},{learning_rate},{training_loss},{},{:.3}\n",
            validation_loss.map_or_else(String::new, |loss| loss.to_string()),
            training_start.elapsed().as_secs_f64()
        ));
        curves[0].points.push((epoch as f64, training_loss));
        if let Some(loss) = validation_loss {
            curves[1].points.push((epoch as f64, loss));
        }
        let series: Vec<Series> = curves.iter().filter(|s| !s.points.is_empty()).cloned().collect();
        draw(
            &chart_path,
            &LineChart {
                title: "Loss per epoch",
                x_label: "epoch",
                y_label: "mean squared error of the expected score",
                series: &series,
                ideal: false,
            },
        )?;
        let written = std::fs::File::create(&args.out)
            .and_then(|mut file| {
                trainer
                    .model()
                    .write_quantised(&mut file)
                    .and_then(|()| file.flush())
            })
            .and_then(|()| std::fs::write(&log_path, &log));
        written.map_err(|error| {
            format!(
                "cannot write {} or {}: {error}",
                args.out.display(),
                log_path.display()
            )
        })?;
    }
    println!(
        "{}: {} after {} epochs ({:.1} s); losses per epoch in {} and {}",
        args.out.display(),
        if args.linear {
            "linear model".to_string()
        } else {
            format!(
                "768x2 -> {} (SCReLU) -> 1 network, {} output bucket(s)",
                args.hidden, args.output_buckets
            )
        },
        settings.epochs,
        training_start.elapsed().as_secs_f64(),
        log_path.display(),
        chart_path.display()
    );
    Ok(())
}
