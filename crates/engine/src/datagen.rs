//! `eldest datagen`: self-play games for training the evaluation network, written in eldest-data's format.
//!
//! Game *i* of a run is a function of the seed and *i* alone: its random opening plies come from a SplitMix64
//! stream seeded by both, and every move is a one-thread search of a fixed node budget from a cleared table and
//! history. So a run can be stopped at any moment and resumed with the same command: the games already in the
//! file are kept (a record cut short by the stop is cut off), the missing ones are played, and the file ends up
//! the same set of games as an uninterrupted run. The settings that decide the games are kept beside the file
//! (`<file>.settings`), and a resume with other settings is refused.

use crate::bench::read_positions;
use eldest_board::{Color, Position};
use eldest_data::{DataError, GameRecord, GameResult, ScoredMove, scan, write_header};
use eldest_hashing::SplitMix64;
use eldest_repetition::GameHistory;
use eldest_search::{Engine, Evaluation, Score, SearchControl, SearchLimits, SearchOptions};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// A side whose score has stayed at least this far ahead (centipawns, both sides' searches agreeing) for
/// [`WIN_ADJUDICATION_PLIES`] plies in a row wins.
const WIN_ADJUDICATION_CP: i32 = 1000;
const WIN_ADJUDICATION_PLIES: usize = 4;
/// From this ply on, a game whose scores stay within ±[`DRAW_ADJUDICATION_CP`] for [`DRAW_ADJUDICATION_PLIES`]
/// plies in a row is a draw.
const DRAW_ADJUDICATION_START: usize = 80;
const DRAW_ADJUDICATION_CP: i32 = 10;
const DRAW_ADJUDICATION_PLIES: usize = 10;
/// Random openings whose first search scores beyond this (centipawns) are drawn again: a lost position from
/// move one teaches little.
const MAX_OPENING_IMBALANCE_CP: i32 = 400;
/// Draws of a random opening before the game starts from the opening itself (random plies rarely all fail).
const OPENING_ATTEMPTS: u32 = 1000;
/// Seconds between progress lines.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(2);

/// Options of `eldest datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// The data file to write, or to complete when it exists (a stopped run resumes).
    #[arg(long)]
    out: PathBuf,
    /// Games the file holds when the run ends (game numbers 0 to N-1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    nodes: u64,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=eldest_uci::MAX_THREADS as i64))]
    threads: u32,
    /// Seed of the random opening plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random legal plies played before the game starts, from the start position or an opening.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Openings to start from, one FEN or EPD a line (`#` starts a comment); each game draws one at random.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Transposition table of each game in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// The evaluation that plays the games (a net generation's data comes from the previous net's games).
    #[command(flatten)]
    eval: eldest_search::EvalArgs,
}

/// What decides the games of a run (written beside the file; a resume must match it).
#[derive(Debug, Clone)]
struct Recipe {
    nodes: u64,
    seed: u64,
    random_plies: u32,
    openings: Vec<Position>,
    evaluation: Evaluation,
}

impl Recipe {
    fn settings_text(&self, openings_path: Option<&Path>, eval: &eldest_search::EvalArgs) -> String {
        let evaluation = match (&self.evaluation, &eval.file) {
            (Evaluation::Pesto, _) => "pesto".to_string(),
            (Evaluation::Nnue(_), Some(file)) => format!("nnue {}", file.display()),
            (Evaluation::Nnue(_), None) => format!("nnue {}", eldest_search::nnue::EMBEDDED_NAME),
        };
        format!(
            "eldest datagen, eldest-data version {}\nnodes {}\nseed {}\nrandom-plies {}\nopenings {}\nevaluation {}\n",
            eldest_data::VERSION,
            self.nodes,
            self.seed,
            self.random_plies,
            openings_path.map_or_else(|| "start position".to_string(), |path| path.display().to_string()),
            evaluation,
        )
    }
}

/// Runs `eldest datagen`: exit code 2 for bad input (an unreadable opening file, a data file that is not one or
/// was written with other settings), 1 for a failure while writing.
pub fn run(args: &DatagenArgs) -> ExitCode {
    match generate(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(DatagenError::Input(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(DatagenError::Output(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

enum DatagenError {
    Input(String),
    Output(String),
}

fn generate(args: &DatagenArgs) -> Result<(), DatagenError> {
    let openings = match &args.openings {
        Some(path) => {
            let mut openings = read_positions(path).map_err(DatagenError::Input)?;
            // A game needs a move to play and a side that can still win.
            openings.retain(|position| position.has_legal_move() && !position.is_insufficient_material());
            if openings.is_empty() {
                return Err(DatagenError::Input(format!(
                    "{}: no opening with a legal move and mating material",
                    path.display()
                )));
            }
            openings
        }
        None => vec![Position::startpos()],
    };
    let recipe = Recipe {
        nodes: args.nodes,
        seed: args.seed,
        random_plies: args.random_plies,
        openings,
        evaluation: args.eval.evaluation().map_err(DatagenError::Input)?,
    };
    let settings = recipe.settings_text(args.openings.as_deref(), &args.eval);
    let (mut file, done, mut positions) = open_output(&args.out, &settings)?;
    let pending: Vec<u32> = (0..args.games).filter(|index| !done.contains(index)).collect();
    let already = args.games as usize - pending.len();
    if pending.is_empty() {
        println!(
            "{}: all {} games already there ({positions} positions)",
            args.out.display(),
            args.games
        );
        return Ok(());
    }
    eprintln!(
        "datagen: {} games to play ({already} already in {}), {} nodes a move, {} threads, seed {}",
        pending.len(),
        args.out.display(),
        args.nodes,
        args.threads,
        args.seed
    );

    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<GameRecord>();
    let start = Instant::now();
    let mut written = 0usize;
    let mut new_positions = 0u64;
    let mut write_error = None;
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            let sender = sender.clone();
            let (next, failed, pending, recipe) = (&next, &failed, &pending, &recipe);
            scope.spawn(move || {
                let Ok(mut engine) = Engine::new(args.hash as usize) else {
                    failed.store(true, Ordering::Relaxed);
                    return;
                };
                while !failed.load(Ordering::Relaxed) {
                    let Some(&index) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let game = play_game(&mut engine, recipe, index);
                    if sender.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut last_progress = Instant::now();
        for game in receiver {
            if let Err(error) = game.write_to(&mut file).and_then(|()| file.flush()) {
                write_error = Some(format!("cannot write {}: {error}", args.out.display()));
                failed.store(true, Ordering::Relaxed);
                break;
            }
            written += 1;
            let scored = game.moves.iter().filter(|m| m.score.is_some()).count() as u64;
            new_positions += scored;
            positions += scored;
            if last_progress.elapsed() >= PROGRESS_INTERVAL || written == pending.len() {
                last_progress = Instant::now();
                eprintln!(
                    "{}",
                    progress_line(
                        already + written,
                        args.games as usize,
                        positions,
                        new_positions,
                        written,
                        start.elapsed()
                    )
                );
            }
        }
    });
    if let Some(message) = write_error {
        return Err(DatagenError::Output(message));
    }
    if written < pending.len() {
        return Err(DatagenError::Output(format!(
            "cannot allocate a {} MiB table for each thread",
            args.hash
        )));
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{}: {} games, {positions} positions ({written} games and {new_positions} positions in {seconds:.1} s, {:.0} positions/s)",
        args.out.display(),
        args.games,
        new_positions as f64 / seconds.max(1e-9)
    );
    Ok(())
}

/// `games 120/1000 (12.0%), positions 10234, 412 positions/s, ETA 0:35:12`
fn progress_line(
    games: usize,
    total: usize,
    positions: u64,
    new_positions: u64,
    new_games: usize,
    elapsed: Duration,
) -> String {
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let rate = new_positions as f64 / seconds;
    let remaining = (total - games) as f64 * seconds / new_games.max(1) as f64;
    let eta = remaining.round() as u64;
    format!(
        "games {games}/{total} ({:.1}%), positions {positions}, {rate:.0} positions/s, ETA {}:{:02}:{:02}",
        100.0 * games as f64 / total as f64,
        eta / 3600,
        eta / 60 % 60,
        eta % 60
    )
}

/// Opens the data file for appending: a new one gets the header and the settings file; an existing one is
/// checked against the settings and scanned, and a record cut short at its end is cut off. Returns the file,
/// the games it holds and their positions.
fn open_output(path: &Path, settings: &str) -> Result<(File, Vec<u32>, u64), DatagenError> {
    let settings_path = settings_path(path);
    let exists = path.metadata().is_ok_and(|meta| meta.len() > 0);
    let output =
        |error: std::io::Error| DatagenError::Output(format!("cannot write {}: {error}", path.display()));
    if !exists {
        let mut file = File::create(path).map_err(output)?;
        write_header(&mut file).map_err(output)?;
        std::fs::write(&settings_path, settings).map_err(|error| {
            DatagenError::Output(format!("cannot write {}: {error}", settings_path.display()))
        })?;
        return Ok((file, Vec::new(), 0));
    }
    match std::fs::read_to_string(&settings_path) {
        Ok(previous) if previous == settings => {}
        Ok(previous) => {
            return Err(DatagenError::Input(format!(
                "{} was written with other settings ({}: {}); resume with those or choose another --out",
                path.display(),
                settings_path.display(),
                previous.lines().skip(1).collect::<Vec<_>>().join(", ")
            )));
        }
        Err(error) => {
            return Err(DatagenError::Input(format!(
                "{} exists but its settings file {} cannot be read ({error}); choose another --out",
                path.display(),
                settings_path.display()
            )));
        }
    }
    let reader = File::open(path)
        .map_err(|error| DatagenError::Input(format!("cannot read {}: {error}", path.display())))?;
    let found = scan(std::io::BufReader::new(reader)).map_err(|error| match error {
        DataError::Io(error) => DatagenError::Input(format!("cannot read {}: {error}", path.display())),
        error => DatagenError::Input(format!("{}: {error}", path.display())),
    })?;
    let file = OpenOptions::new().write(true).open(path).map_err(output)?;
    if found.truncated {
        eprintln!(
            "datagen: the last game record of {} was cut short; it is removed and played again",
            path.display()
        );
    }
    file.set_len(found.complete_len).map_err(output)?;
    let mut file = file;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(output)?;
    Ok((file, found.games, found.positions))
}

fn settings_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".settings");
    path.with_file_name(name)
}

/// The stream of random numbers of game `index`.
fn game_stream(seed: u64, index: u32) -> SplitMix64 {
    SplitMix64::new(seed ^ u64::from(index).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A search of `position` (the last of `history`) with the recipe's node budget, one thread.
fn search(
    engine: &mut Engine,
    position: &Position,
    history: &GameHistory,
    nodes: u64,
) -> (Option<eldest_board::Move>, Score) {
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let options = SearchOptions::default();
    let outcome = engine.search(
        position,
        Arc::new(history.clone()),
        &limits,
        &options,
        &SearchControl::new(),
        &mut |_| {},
    );
    (outcome.best_move, outcome.score)
}

fn history_of(position: &Position) -> GameHistory {
    let mut history = GameHistory::new();
    history.push(position.key(), position.halfmove_clock());
    history
}

/// The position game `index` starts from: an opening (drawn at random when there are several) and the random
/// plies, drawn again until the position has a legal move, mating material and a first search within ±400 cp.
/// After [`OPENING_ATTEMPTS`] failed draws the last opening drawn is played without random plies.
fn opening(engine: &mut Engine, recipe: &Recipe, stream: &mut SplitMix64) -> Position {
    let mut book_position = Position::startpos();
    for _ in 0..OPENING_ATTEMPTS {
        book_position = recipe.openings[stream.below(recipe.openings.len() as u64) as usize];
        let mut position = book_position;
        for _ in 0..recipe.random_plies {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            position.play_unchecked(legal[stream.below(legal.len() as u64) as usize]);
        }
        if !position.has_legal_move() || position.is_insufficient_material() {
            continue;
        }
        engine.new_game();
        let (_, score) = search(engine, &position, &history_of(&position), recipe.nodes);
        if matches!(score, Score::Centipawns(cp) if cp.abs() <= MAX_OPENING_IMBALANCE_CP) {
            return position;
        }
    }
    book_position
}

/// Plays game `index` of the recipe to its end.
fn play_game(engine: &mut Engine, recipe: &Recipe, index: u32) -> GameRecord {
    if *engine.evaluation() != recipe.evaluation {
        engine.set_evaluation(recipe.evaluation.clone());
    }
    let mut stream = game_stream(recipe.seed, index);
    let start = opening(engine, recipe, &mut stream);
    engine.new_game();
    let mut position = start;
    let mut history = history_of(&position);
    let mut moves = Vec::new();
    let mut scores = Adjudicator::default();
    let result = loop {
        if let Some(result) = rule_result(&position, &history) {
            break result;
        }
        let (best, score) = search(engine, &position, &history, recipe.nodes);
        let Some(mv) = best else {
            // The search found no move in a position with legal moves: never expected; end the game as drawn
            // rather than write a wrong move.
            break GameResult::Draw;
        };
        let us = position.side_to_move();
        let trainable = match score {
            Score::Centipawns(cp) if !position.in_check() && !mv.is_noisy() => Some(white_view(us, cp)),
            _ => None,
        };
        moves.push(ScoredMove {
            mv,
            score: trainable.map(|cp| cp.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16),
        });
        let cp = match score {
            // A forced mate found by the search decides the game: no need to play it out.
            Score::Mate(moves_to_mate) if moves_to_mate > 0 => break GameResult::won_by(us),
            Score::Mate(_) => break GameResult::won_by(!us),
            Score::Centipawns(cp) => cp,
        };
        if let Some(result) = scores.record(white_view(us, cp)) {
            break result;
        }
        position.play_unchecked(mv);
        history.push(position.key(), position.halfmove_clock());
    };
    GameRecord {
        index,
        start,
        result,
        moves,
    }
}

fn white_view(us: Color, cp: i32) -> i32 {
    match us {
        Color::White => cp,
        Color::Black => -cp,
    }
}

/// The end of the game by the rules in `position` (the last of `history`), as datagen plays them: checkmate,
/// stalemate, insufficient material, the fifty-move rule, threefold repetition.
fn rule_result(position: &Position, history: &GameHistory) -> Option<GameResult> {
    if !position.has_legal_move() {
        return Some(if position.in_check() {
            GameResult::won_by(!position.side_to_move())
        } else {
            GameResult::Draw
        });
    }
    let drawn = position.is_insufficient_material()
        || position.halfmove_clock() >= 100
        || history.count(position.key()) >= 3;
    drawn.then_some(GameResult::Draw)
}

/// Score-based adjudication over the scores of successive plies (centipawns, White's side).
#[derive(Debug, Default)]
struct Adjudicator {
    plies: usize,
    winning: usize,
    winner: Option<Color>,
    quiet: usize,
}

impl Adjudicator {
    /// Records the next ply's score; the result when the game is decided.
    fn record(&mut self, white_cp: i32) -> Option<GameResult> {
        self.plies += 1;
        let leader = if white_cp >= WIN_ADJUDICATION_CP {
            Some(Color::White)
        } else if white_cp <= -WIN_ADJUDICATION_CP {
            Some(Color::Black)
        } else {
            None
        };
        self.winning = match leader {
            Some(side) if self.winner == Some(side) => self.winning + 1,
            Some(_) => 1,
            None => 0,
        };
        self.winner = leader;
        if let Some(side) = leader
            && self.winning >= WIN_ADJUDICATION_PLIES
        {
            return Some(GameResult::won_by(side));
        }
        self.quiet = if white_cp.abs() <= DRAW_ADJUDICATION_CP {
            self.quiet + 1
        } else {
            0
        };
        (self.plies >= DRAW_ADJUDICATION_START && self.quiet >= DRAW_ADJUDICATION_PLIES)
            .then_some(GameResult::Draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_plies_agreeing_on_a_big_lead_win_and_a_broken_run_starts_again() {
        let mut judge = Adjudicator::default();
        assert_eq!(judge.record(1200), None);
        assert_eq!(judge.record(1100), None);
        assert_eq!(
            judge.record(-1500),
            None,
            "the lead changed sides: counting starts again"
        );
        assert_eq!(judge.record(-1000), None);
        assert_eq!(judge.record(-1000), None);
        assert_eq!(judge.record(-2000), Some(GameResult::BlackWin));
    }

    #[test]
    fn ten_quiet_plies_draw_only_from_ply_80() {
        let mut judge = Adjudicator::default();
        for _ in 0..DRAW_ADJUDICATION_START - 1 {
            assert_eq!(judge.record(5), None);
        }
        assert_eq!(judge.record(0), Some(GameResult::Draw));
        let mut judge = Adjudicator::default();
        for ply in 0..DRAW_ADJUDICATION_START + 9 {
            let score = if ply == DRAW_ADJUDICATION_START - 1 {
                50
            } else {
                -3
            };
            assert_eq!(judge.record(score), None, "ply {ply}");
        }
        assert_eq!(judge.record(2), Some(GameResult::Draw));
    }

    #[test]
    fn the_rules_end_games_as_a_match_would() {
        let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            rule_result(&mated, &history_of(&mated)),
            Some(GameResult::WhiteWin)
        );
        let stalemate = Position::from_fen("7k/8/6QK/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            rule_result(&stalemate, &history_of(&stalemate)),
            Some(GameResult::Draw)
        );
        let fifty = Position::from_fen("7k/8/8/8/8/8/8/KQ6 w - - 100 80").unwrap();
        assert_eq!(rule_result(&fifty, &history_of(&fifty)), Some(GameResult::Draw));
        let bare = Position::from_fen("7k/8/8/8/8/8/8/KN6 w - - 0 1").unwrap();
        assert_eq!(rule_result(&bare, &history_of(&bare)), Some(GameResult::Draw));
        let mut position = Position::startpos();
        let mut history = history_of(&position);
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
            assert_eq!(rule_result(&position, &history), None, "before {uci}");
            let mv = position.parse_uci_move(uci).unwrap();
            position.play_unchecked(mv);
            history.push(position.key(), position.halfmove_clock());
        }
        assert_eq!(
            rule_result(&position, &history),
            Some(GameResult::Draw),
            "threefold"
        );
    }

    #[test]
    fn a_game_is_the_same_whoever_plays_it_and_its_positions_are_filtered() {
        let recipe = Recipe {
            nodes: 800,
            seed: 11,
            random_plies: 6,
            openings: vec![Position::startpos()],
            evaluation: Evaluation::Pesto,
        };
        let mut first = Engine::new(1).unwrap();
        let mut second = Engine::new(1).unwrap();
        let game = play_game(&mut first, &recipe, 3);
        // Another engine, with something else searched before: the same game.
        play_game(&mut second, &recipe, 4);
        assert_eq!(play_game(&mut second, &recipe, 3), game);
        assert!(!game.moves.is_empty());
        let mut position = game.start;
        for scored in &game.moves {
            if scored.score.is_some() {
                assert!(
                    !position.in_check() && !scored.mv.is_noisy(),
                    "{position} {:?}",
                    scored.mv
                );
            }
            position.play_unchecked(scored.mv);
        }
        assert_ne!(
            play_game(&mut first, &recipe, 5).start,
            game.start,
            "another game, another opening"
        );
    }

    #[test]
    fn the_network_plays_the_same_game_whichever_engine_plays_it() {
        let recipe = Recipe {
            nodes: 500,
            seed: 5,
            random_plies: 6,
            openings: vec![Position::startpos()],
            evaluation: Evaluation::network(),
        };
        let mut first = Engine::new(1).unwrap();
        let mut second = Engine::new(1).unwrap();
        let game = play_game(&mut first, &recipe, 2);
        play_game(&mut second, &recipe, 7);
        assert_eq!(play_game(&mut second, &recipe, 2), game);
        let pesto = Recipe {
            evaluation: Evaluation::Pesto,
            ..recipe.clone()
        };
        assert_ne!(
            play_game(&mut Engine::new(1).unwrap(), &pesto, 2).moves,
            game.moves,
            "PeSTO plays another game from the same opening"
        );
    }

    #[test]
    fn progress_reports_rate_and_time_left() {
        let line = progress_line(30, 100, 5000, 2000, 20, Duration::from_secs(10));
        assert_eq!(
            line,
            "games 30/100 (30.0%), positions 5000, 200 positions/s, ETA 0:00:35"
        );
    }
}
