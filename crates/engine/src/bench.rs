//! `eldest bench`: the single-thread signature by default; with flags, any thread count, algorithm, table size,
//! limit, built-in set (`--set short|long|game`) or position file, and one JSON object per position for
//! `cargo xtask bench`. Timings are taken inside the process around each search, so process start-up and table
//! allocation never count.

use eldest_board::Position;
use eldest_search::bench::{
    BENCH_HASH_MIB, BenchConfig, BenchLimit, BenchPosition, BenchSet, parse_positions, run_bench_with,
};
use eldest_search::{ParallelAlgorithm, TreeProfile};
use eldest_uci::{MAX_DEPTH, MAX_THREADS, format_bestmove, format_score};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Options of `eldest bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth in plies (default 12, or the --set's depth); ignored with --movetime.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    depth: Option<u32>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS))]
    threads: u32,
    /// Parallel algorithm: lazy, ybwc, abdada or simplified-abdada.
    #[arg(long, default_value = "lazy")]
    algorithm: ParallelAlgorithm,
    /// Transposition-table size in MiB (default 16).
    #[arg(long, default_value_t = BENCH_HASH_MIB as u64, value_parser = clap::value_parser!(u64).range(1..=eldest_tt::MAX_MIB as u64))]
    hash: u64,
    /// Search each position for this many milliseconds instead of to a depth.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// Positions to search, one FEN or EPD per line (`#` starts a comment); default the built-in 44.
    #[arg(long)]
    positions: Option<PathBuf>,
    /// A built-in position set: short (the 44 signature positions, depth 12), long (middlegames of 5-30 s each
    /// at one thread, depth 22) or game (consecutive positions of one game, searched in order with the table
    /// and histories kept, depth 22).
    #[arg(long, conflicts_with = "positions")]
    set: Option<BenchSet>,
    /// Keep the table and histories between the positions of a --positions file (they follow each other in a
    /// game) instead of clearing them before each.
    #[arg(long, requires = "positions")]
    keep_tables: bool,
    /// Search only the Nth position (from 1) of the set or file, reported under its own number, so that
    /// `cargo xtask bench --interleave positions` can run every configuration on one position before the next.
    /// Not with the tables kept between positions (the game set, --keep-tables): a position's search there
    /// depends on the ones before it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub(crate) only: Option<u64>,
    /// The parallel algorithms' research knobs, one flag per row of eldest-search's knob table.
    #[command(flatten)]
    knobs: eldest_search::parallel::cli::KnobArgs,
    /// The static evaluation (the embedded network unless told otherwise, as in the engine).
    #[command(flatten)]
    pub(crate) eval: eldest_search::EvalArgs,
    /// Write one JSON object per position on stdout (before the final `<N> nodes <M> nps` line).
    #[arg(long)]
    pub(crate) json: bool,
    /// Count the work searched twice (`duplicate_nodes` in the JSON, null without this flag): one table probe
    /// more per node with several threads, so it is off unless asked.
    #[arg(long)]
    count_duplicates: bool,
    /// Compare each search with the serial one: a one-thread search of the same position to the same depth
    /// (with its own table, kept or cleared as this run's is) first records the keys of its main-search nodes, and
    /// this search looks its own up there (`serial_tree` in the JSON: which nodes the serial tree also has). It
    /// costs speed, and the serial searches' time, so it is off unless asked; not with --movetime.
    #[arg(long, conflicts_with = "movetime")]
    serial_tree: bool,
    /// With --serial-tree: the serial search's table size in MiB (default --hash's), so that a one-thread run
    /// compared with a serial search at another size shows how far a serial tree moves with its table alone.
    #[arg(long, requires = "serial_tree", value_parser = clap::value_parser!(u64).range(1..=eldest_tt::MAX_MIB as u64))]
    serial_hash: Option<u64>,
}

/// Runs the bench; exit code 2 for a bad position file, 1 for an output or allocation failure.
pub fn run(args: &BenchArgs) -> ExitCode {
    let (positions, config) = match positions_and_config(args) {
        Ok(both) => both,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let count = positions.len();
    let (first, searched) = match only_position(args.only, &positions, config.keep_tables) {
        Ok(chosen) => chosen,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    let mut write_error = None;
    let mut serial_tree_totals: Option<(TreeProfile, TreeProfile)> = None;
    let result = run_bench_with(&config, searched, &mut |result| {
        if let Some(serial) = &result.serial {
            let (serial_total, searched_total) = serial_tree_totals.get_or_insert_default();
            serial_total.add(&serial.profile);
            searched_total.add(&result.stats.profile);
        }
        // Numbered as in the whole set, whether or not `--only` picked this position out of it.
        let result = &BenchPosition {
            index: first + result.index,
            ..result.clone()
        };
        eprintln!("{}", position_line(result, count));
        if args.json
            && write_error.is_none()
            && let Err(error) = writeln!(out, "{}", position_json(result, config.count_duplicates))
        {
            write_error = Some(error);
        }
    });
    let result = match result {
        Ok(result) => result,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "{}, {:.3} s",
        describe(&config, searched.len()),
        result.time.as_secs_f64()
    );
    if let Some((serial, searched)) = &serial_tree_totals {
        eprintln!("all positions: {}", serial_tree_words(serial, searched));
    }
    let written = match write_error {
        Some(error) => Err(error),
        None => writeln!(out, "{} nodes {} nps", result.nodes, result.nps).and_then(|()| out.flush()),
    };
    if let Err(error) = written {
        eprintln!("error: cannot write the result: {error}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The positions `--only` leaves to search, with the index of the first in the whole list: all of them without it.
pub(crate) fn only_position(
    only: Option<u64>,
    positions: &[Position],
    keep_tables: bool,
) -> Result<(usize, &[Position]), String> {
    let Some(number) = only else {
        return Ok((0, positions));
    };
    if keep_tables {
        return Err(format!(
            "--only {number}: these positions are searched in order with the table and histories kept between \
             them (the game set, --keep-tables), so one of them cannot be searched alone"
        ));
    }
    // Numbers start at 1 (clap refuses 0; a 0 from elsewhere is simply no position).
    let index = number
        .checked_sub(1)
        .and_then(|index| usize::try_from(index).ok())
        .filter(|&index| index < positions.len());
    match index {
        Some(index) => Ok((index, &positions[index..=index])),
        None => Err(format!(
            "--only {number}: there are {} positions",
            positions.len()
        )),
    }
}

/// The positions and the configuration the flags ask for.
pub(crate) fn positions_and_config(args: &BenchArgs) -> Result<(Vec<Position>, BenchConfig), String> {
    let positions = match &args.positions {
        Some(path) => read_positions(path)?,
        None => args.set.unwrap_or(BenchSet::Short).positions(),
    };
    let mut config = config(args);
    config.evaluation = args.eval.evaluation()?;
    Ok((positions, config))
}

/// The run in words, for the summary line on stderr.
pub(crate) fn describe(config: &BenchConfig, count: usize) -> String {
    let limit = match config.limit {
        BenchLimit::Depth(depth) => format!("depth {depth}"),
        BenchLimit::MoveTime(time) => format!("movetime {} ms", time.as_millis()),
    };
    let tables = if config.keep_tables {
        ", tables kept between positions"
    } else {
        ""
    };
    let evaluation = match config.evaluation {
        eldest_search::Evaluation::Pesto => "",
        eldest_search::Evaluation::Nnue(_) => ", network evaluation",
    };
    format!(
        "{limit}, {count} positions, {} threads ({}){tables}{evaluation}",
        config.threads, config.parallel.algorithm
    )
}

/// The stderr line of one position (with `--serial-tree`, its comparison on a second line).
pub(crate) fn position_line(result: &BenchPosition<'_>, count: usize) -> String {
    let line = format!(
        "position {:2}/{count}: {:>9} nodes {:>6} ms {} | {}",
        result.index + 1,
        result.outcome.nodes,
        result.time.as_millis(),
        format_bestmove(&result.outcome, false),
        result.position.to_fen()
    );
    match &result.serial {
        Some(serial) => format!(
            "{line}\n    {}",
            serial_tree_words(&serial.profile, &result.stats.profile)
        ),
        None => line,
    }
}

/// `--serial-tree` in words: the main-search nodes against the serial search's, split into those of positions
/// the serial search visited and the rest, the distinct positions against the serial tree's, and how much of the
/// serial tree's positions the search reached, by band of remaining depth.
pub(crate) fn serial_tree_words(serial: &TreeProfile, searched: &TreeProfile) -> String {
    let ratio = |count: u64, whole: u64| count as f64 / whole.max(1) as f64;
    let sum = |band: &[u64]| band.iter().sum::<u64>();
    let main = serial.main_nodes;
    let in_serial = sum(&searched.serial_tree_nodes_by_depth);
    let distinct = sum(&serial.distinct_main_nodes_by_depth);
    let covered: Vec<String> = (0..TreeProfile::DEPTH_BANDS.len())
        .map(|band| {
            format!(
                "{:.0}%",
                100.0
                    * ratio(
                        searched.serial_tree_distinct_by_depth[band],
                        serial.distinct_main_nodes_by_depth[band]
                    )
            )
        })
        .collect();
    format!(
        "serial tree: main nodes x {:.3} = {:.3} in it + {:.3} outside it; distinct positions x {:.3}, {:.1}% of \
         the serial ones (by depth from {}: {})",
        ratio(searched.main_nodes, main),
        ratio(in_serial, main),
        ratio(searched.main_nodes.saturating_sub(in_serial), main),
        ratio(sum(&searched.distinct_main_nodes_by_depth), distinct),
        100.0 * ratio(sum(&searched.serial_tree_distinct_by_depth), distinct),
        TreeProfile::DEPTH_BANDS
            .map(|lowest| lowest.to_string())
            .join(", "),
        covered.join(" / "),
    )
}

pub(crate) fn config(args: &BenchArgs) -> BenchConfig {
    let set = args.set.unwrap_or(BenchSet::Short);
    let mut config = BenchConfig::signature(args.depth.unwrap_or(set.default_depth()));
    config.keep_tables = args.keep_tables || set.keeps_tables();
    config.count_duplicates = args.count_duplicates;
    config.serial_tree = args
        .serial_tree
        .then(|| args.serial_hash.unwrap_or(args.hash) as usize);
    if let Some(ms) = args.movetime {
        config.limit = BenchLimit::MoveTime(Duration::from_millis(ms));
    }
    config.threads = args.threads as usize;
    config.hash_mib = args.hash as usize;
    let parallel = &mut config.parallel;
    parallel.algorithm = args.algorithm;
    args.knobs.apply(parallel);
    config
}

/// Reads a position file: one FEN or EPD a line; blank lines and `#` comments skipped.
pub(crate) fn read_positions(path: &Path) -> Result<Vec<Position>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    parse_positions(&text).map_err(|error| format!("{} {error}", path.display()))
}

/// One position's result as a single-line JSON object (every string is a FEN or a UCI move, which hold no
/// character JSON must escape). `duplicate_nodes` is null unless `counted_duplicates`: a 0 would claim that
/// nothing was searched twice.
pub(crate) fn position_json(result: &BenchPosition<'_>, counted_duplicates: bool) -> String {
    let outcome = &result.outcome;
    let best = outcome
        .best_move
        .map_or_else(|| "0000".to_string(), |mv| result.position.move_to_uci(mv));
    let stats = &result.stats;
    let utilisation = &result.utilisation;
    format!(
        concat!(
            "{{\"index\":{},\"fen\":\"{}\",\"depth\":{},\"nodes\":{},\"time_us\":{},\"best_move\":\"{}\",",
            "\"score\":\"{}\",\"tt_hits\":{},\"cutoffs\":{},\"first_move_cutoffs\":{},\"deferred_moves\":{},",
            "\"cutoff_check_returns\":{},\"ancestor_returns\":{},\"pv_ancestor_returns\":{},\"windows_left\":{},\"alpha_adoptions\":{},\"root_researches\":{},\"best_move_changes\":{},",
            "\"splits\":{},\"split_tasks\":{},\"aborted_tasks\":{},\"speculative_nodes\":{},\"abandoned_nodes\":{},\"window_restarts\":{},\"duplicate_nodes\":{},",
            "\"main_nodes\":{},\"main_nodes_by_depth\":{:?},\"null_move_searches\":{},\"null_move_cutoffs\":{},\"singular_tests\":{},",
            "\"singular_extensions\":{},\"singular_test_nodes\":{},\"reduced_researches\":{},\"pv_researches\":{},",
            "\"table_cutoffs\":{},\"move_loops\":{:?},\"move_loop_fail_highs\":{:?},\"move_loop_moves\":{:?},",
            "\"busy_us\":{},\"idle_us\":{},\"threads\":{},\"serial_tree\":{}}}"
        ),
        result.index,
        result.position.to_fen(),
        outcome.depth,
        outcome.nodes,
        result.time.as_micros(),
        best,
        format_score(outcome.score),
        stats.tt_hits,
        stats.cutoffs,
        stats.first_move_cutoffs,
        stats.deferred_moves,
        stats.cutoff_check_returns,
        stats.ancestor_returns,
        stats.pv_ancestor_returns,
        stats.windows_left,
        stats.alpha_adoptions,
        stats.root_researches,
        stats.best_move_changes,
        stats.splits,
        stats.split_tasks,
        stats.aborted_tasks,
        stats.speculative_nodes,
        stats.abandoned_nodes,
        stats.window_restarts,
        if counted_duplicates {
            stats.duplicate_nodes.to_string()
        } else {
            "null".to_string()
        },
        stats.profile.main_nodes,
        stats.profile.main_nodes_by_depth,
        stats.profile.null_move_searches,
        stats.profile.null_move_cutoffs,
        stats.profile.singular_tests,
        stats.profile.singular_extensions,
        stats.profile.singular_test_nodes,
        stats.profile.reduced_researches,
        stats.profile.pv_researches,
        stats.profile.table_cutoffs,
        stats.profile.move_loops,
        stats.profile.move_loop_fail_highs,
        stats.profile.move_loop_moves,
        utilisation.busy.as_micros(),
        utilisation.idle().as_micros(),
        utilisation.threads,
        serial_tree_json(result),
    )
}

/// `--serial-tree`'s comparison as a JSON object (null without it): the serial search's nodes, and by band of
/// remaining depth its main-search nodes and distinct positions, this search's distinct positions, its nodes at
/// positions of the serial tree and its distinct positions in it (this search's main-search nodes by band are
/// `main_nodes_by_depth`).
fn serial_tree_json(result: &BenchPosition<'_>) -> String {
    let Some(serial) = &result.serial else {
        return "null".to_string();
    };
    let profile = &result.stats.profile;
    format!(
        concat!(
            "{{\"serial_nodes\":{},\"serial_main_nodes_by_depth\":{:?},\"serial_distinct_by_depth\":{:?},",
            "\"distinct_by_depth\":{:?},\"in_serial_by_depth\":{:?},\"in_serial_distinct_by_depth\":{:?}}}"
        ),
        serial.nodes,
        serial.profile.main_nodes_by_depth,
        serial.profile.distinct_main_nodes_by_depth,
        profile.distinct_main_nodes_by_depth,
        profile.serial_tree_nodes_by_depth,
        profile.serial_tree_distinct_by_depth,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        bench: BenchArgs,
    }

    fn config_of(args: &[&str]) -> BenchConfig {
        let cli = Cli::try_parse_from(std::iter::once("bench").chain(args.iter().copied())).unwrap();
        config(&cli.bench)
    }

    #[test]
    fn only_picks_one_position_of_a_cleared_set_by_its_number() {
        let positions = BenchSet::Long.positions();
        let (first, searched) = only_position(None, &positions, false).unwrap();
        assert_eq!((first, searched.len()), (0, positions.len()));
        let (first, searched) = only_position(Some(3), &positions, false).unwrap();
        assert_eq!((first, searched), (2, &positions[2..3]));
        let last = positions.len() as u64;
        assert_eq!(
            only_position(Some(last), &positions, false).unwrap().0,
            positions.len() - 1
        );
        let error = only_position(Some(last + 1), &positions, false).unwrap_err();
        assert!(error.contains(&format!("there are {last} positions")), "{error}");
        assert!(
            only_position(Some(0), &positions, false).is_err(),
            "no position 0"
        );
        let error = only_position(Some(1), &positions, true).unwrap_err();
        assert!(error.contains("cannot be searched alone"), "{error}");
    }

    #[test]
    fn a_set_brings_its_depth_and_table_policy_unless_told_otherwise() {
        assert_eq!(config_of(&[]), BenchConfig::signature(12), "the signature");
        assert_eq!(config_of(&["--set", "short"]), BenchConfig::signature(12));
        for set in [BenchSet::Long, BenchSet::Game] {
            let config = config_of(&["--set", set.name()]);
            assert_eq!(config.limit, BenchLimit::Depth(set.default_depth()), "{set}");
            assert_eq!(config.keep_tables, set.keeps_tables(), "{set}");
            assert_eq!(config_of(&["7", "--set", set.name()]).limit, BenchLimit::Depth(7));
        }
        let timed = config_of(&["--set", "game", "--movetime", "70"]);
        assert_eq!(timed.limit, BenchLimit::MoveTime(Duration::from_millis(70)));
        assert!(timed.keep_tables);
        assert!(config_of(&["--positions", "x.epd", "--keep-tables"]).keep_tables);
        assert!(!config_of(&["--positions", "x.epd"]).keep_tables);
    }
}
