//! The tree profile (`profile.md`, `profile.csv`): where each configuration's nodes went, set against the
//! serial search's.
//!
//! A parallel search's node overhead is its tree differing from the serial one, and the node routine's selective
//! parts decide much of a tree's size: the singular-extension tests (their own nodes, and the plies their
//! extensions add), late-move reductions undone by a re-search, PV re-searches, null-move pruning. The engine
//! counts each (`eldest bench --json`); here every configuration's counts are summed over its runs and positions
//! and set beside the one-thread baseline's, so that a reader sees which part of the tree grew with the threads.
//! Reports of engines before these counters (no main-search nodes) have no profile.

use super::model::{BenchReport, PositionRun, Run, SerialTreeCounts};
use crate::report::csv::Csv;
use crate::report::table::Table;
use eldest_search::TreeProfile;

/// The engine's bands of remaining depth ([`TreeProfile::DEPTH_BANDS`]).
const BANDS: usize = TreeProfile::DEPTH_BANDS.len();

/// The engine's kinds of node ([`TreeProfile::NODE_KINDS`]).
const KINDS: usize = TreeProfile::NODE_KINDS.len();

/// A band's label: `3–5`, the last one `15+`.
fn band_label(band: usize) -> String {
    let lowest = TreeProfile::DEPTH_BANDS[band];
    match TreeProfile::DEPTH_BANDS.get(band + 1) {
        Some(next) if next - 1 == lowest => lowest.to_string(),
        Some(next) => format!("{lowest}–{}", next - 1),
        None => format!("{lowest}+"),
    }
}

/// One configuration's tree, summed over its runs and averaged per run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TreeCounts {
    /// Nodes (main search and quiescence).
    pub nodes: f64,
    /// Main-search nodes.
    pub main_nodes: f64,
    /// Main-search nodes by remaining depth ([`TreeProfile::DEPTH_BANDS`]; zeros from engines that did not count
    /// them).
    pub main_nodes_by_depth: [f64; BANDS],
    /// Nodes inside singular-extension tests.
    pub singular_test_nodes: f64,
    /// Singular-extension tests.
    pub singular_tests: f64,
    /// Tests that extended the table move.
    pub singular_extensions: f64,
    /// Null-move searches.
    pub null_move_searches: f64,
    /// Null-move searches that cut.
    pub null_move_cutoffs: f64,
    /// Reduced searches searched again at full depth.
    pub reduced_researches: f64,
    /// Null-window searches of PV nodes searched again with the window.
    pub pv_researches: f64,
    /// Nodes below brothers searched past the one that cut their node (engines that did not count it: 0).
    pub speculative_nodes: f64,
    /// Nodes of brothers left when another thread's stored result answered their node.
    pub abandoned_nodes: f64,
    /// Main-search nodes outside the PV answered by their table entry (0 from engines that did not count it, as
    /// are the move loops).
    pub table_cutoffs: f64,
    /// Main-search nodes that searched a move, by kind ([`TreeProfile::NODE_KINDS`]).
    pub move_loops: [f64; KINDS],
    /// Of those, the ones that failed high.
    pub move_loop_fail_highs: [f64; KINDS],
    /// The moves they searched.
    pub move_loop_moves: [f64; KINDS],
    /// The comparison with the serial tree, over the positions that carry one (`--serial-tree`).
    pub serial_tree: SerialTreeSums,
}

/// The comparison with the serial tree summed over positions, by band of remaining depth: the serial searches'
/// main-search nodes and distinct positions, and the compared searches' main-search nodes, distinct positions,
/// nodes at the serial tree's positions and distinct positions in it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SerialTreeSums {
    /// Positions compared (0: no comparison).
    pub positions: f64,
    /// The serial searches' main-search nodes.
    pub serial_main_nodes: [f64; BANDS],
    /// The serial searches' distinct positions.
    pub serial_distinct: [f64; BANDS],
    /// The compared searches' main-search nodes.
    pub main_nodes: [f64; BANDS],
    /// Their distinct positions.
    pub distinct: [f64; BANDS],
    /// Their main-search nodes at positions of the serial tree.
    pub in_serial: [f64; BANDS],
    /// Their distinct positions in the serial tree.
    pub in_serial_distinct: [f64; BANDS],
}

impl SerialTreeSums {
    /// Adds one position's comparison (left out when its bands are another engine's).
    fn add(&mut self, main_nodes_by_depth: &[u64], counts: &SerialTreeCounts, weight: f64) {
        let all: [(&mut [f64; BANDS], &[u64]); 6] = [
            (&mut self.serial_main_nodes, &counts.serial_main_nodes_by_depth),
            (&mut self.serial_distinct, &counts.serial_distinct_by_depth),
            (&mut self.main_nodes, main_nodes_by_depth),
            (&mut self.distinct, &counts.distinct_by_depth),
            (&mut self.in_serial, &counts.in_serial_by_depth),
            (&mut self.in_serial_distinct, &counts.in_serial_distinct_by_depth),
        ];
        if all.iter().any(|(_, counts)| counts.len() != BANDS) {
            return;
        }
        for (sums, counts) in all {
            for (sum, &count) in sums.iter_mut().zip(counts) {
                *sum += count as f64 * weight;
            }
        }
        self.positions += weight;
    }
}

impl TreeCounts {
    /// The counts of `runs`, summed over their positions with a move and divided by the runs' number.
    fn of(runs: &[&Run]) -> TreeCounts {
        let per_run = 1.0 / runs.len().max(1) as f64;
        let mut total = TreeCounts::default();
        for position in runs.iter().flat_map(|r| &r.positions).filter(|p| p.searched()) {
            total.add(position, per_run);
        }
        total
    }

    /// Adds `p`'s counts, each times `weight`.
    fn add(&mut self, p: &PositionRun, weight: f64) {
        let weighted = |count: u64| count as f64 * weight;
        self.nodes += weighted(p.nodes);
        self.main_nodes += weighted(p.main_nodes);
        // Another number of bands is another engine's: left out rather than misread.
        if p.main_nodes_by_depth.len() == BANDS {
            for (band, &count) in self.main_nodes_by_depth.iter_mut().zip(&p.main_nodes_by_depth) {
                *band += weighted(count);
            }
        }
        self.singular_test_nodes += weighted(p.singular_test_nodes);
        self.singular_tests += weighted(p.singular_tests);
        self.singular_extensions += weighted(p.singular_extensions);
        self.null_move_searches += weighted(p.null_move_searches);
        self.null_move_cutoffs += weighted(p.null_move_cutoffs);
        self.reduced_researches += weighted(p.reduced_researches);
        self.pv_researches += weighted(p.pv_researches);
        self.speculative_nodes += weighted(p.speculative_nodes.unwrap_or(0));
        self.abandoned_nodes += weighted(p.abandoned_nodes.unwrap_or(0));
        self.table_cutoffs += weighted(p.table_cutoffs);
        // As with the bands: another number of kinds is another engine's.
        for (counts, engine_counts) in [
            (&mut self.move_loops, &p.move_loops),
            (&mut self.move_loop_fail_highs, &p.move_loop_fail_highs),
            (&mut self.move_loop_moves, &p.move_loop_moves),
        ] {
            if engine_counts.len() == KINDS {
                for (count, &engine_count) in counts.iter_mut().zip(engine_counts) {
                    *count += weighted(engine_count);
                }
            }
        }
        if let Some(serial_tree) = &p.serial_tree {
            self.serial_tree.add(&p.main_nodes_by_depth, serial_tree, weight);
        }
    }

    /// Quiescence nodes.
    fn quiescence_nodes(&self) -> f64 {
        self.nodes - self.main_nodes
    }

    /// `count` per thousand main-search nodes.
    fn per_mille(&self, count: f64) -> Option<f64> {
        ratio(count * 1000.0, self.main_nodes)
    }
}

fn ratio(numerator: f64, denominator: f64) -> Option<f64> {
    (denominator > 0.0).then(|| numerator / denominator)
}

/// A cell of `value` formatted by `format`, `-` where there is no value.
fn cell(value: Option<f64>, format: impl Fn(f64) -> String) -> String {
    value.map_or_else(|| "-".to_string(), format)
}

/// A share as a percentage with one decimal.
fn share(value: Option<f64>) -> String {
    cell(value, |v| format!("{:.1}%", v * 100.0))
}

/// A rate (per thousand, or a count) with one decimal.
fn rate(value: Option<f64>) -> String {
    cell(value, |v| format!("{v:.1}"))
}

/// A growth factor against the one-thread search, three decimals.
fn times(value: Option<f64>) -> String {
    cell(value, |v| format!("{v:.3}"))
}

/// One row of the profile.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileRow {
    /// The configuration (an algorithm or a variant label).
    pub configuration: String,
    /// Threads.
    pub threads: usize,
    /// Runs summed.
    pub runs: usize,
    /// The counts, per run.
    pub counts: TreeCounts,
    /// The one-thread baseline's counts, per run (the same for every row).
    pub baseline: TreeCounts,
}

impl ProfileRow {
    /// This count ÷ the baseline's, for runs to a fixed depth (under a clock the trees are not comparable).
    fn growth(&self, fixed_depth: bool, count: impl Fn(&TreeCounts) -> f64) -> Option<f64> {
        if fixed_depth {
            ratio(count(&self.counts), count(&self.baseline))
        } else {
            None
        }
    }
}

/// The profile of every configuration of `report`, the baseline first; empty when the engine did not count
/// main-search nodes (older reports).
pub fn rows(report: &BenchReport) -> Vec<ProfileRow> {
    let runs = &report.runs;
    let baseline_runs: Vec<&Run> = runs.iter().filter(|r| r.threads == 1).collect();
    let baseline = TreeCounts::of(&baseline_runs);
    if baseline.main_nodes == 0.0 {
        return Vec::new();
    }
    let mut rows = vec![ProfileRow {
        configuration: "1 thread".to_string(),
        threads: 1,
        runs: baseline_runs.len(),
        counts: baseline,
        baseline,
    }];
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for run in runs.iter().filter(|r| r.threads > 1) {
        let configuration = (run.algorithm.as_str(), run.threads);
        if seen.contains(&configuration) {
            continue;
        }
        seen.push(configuration);
        let own: Vec<&Run> = runs
            .iter()
            .filter(|r| (r.algorithm.as_str(), r.threads) == configuration)
            .collect();
        rows.push(ProfileRow {
            configuration: run.algorithm.clone(),
            threads: run.threads,
            runs: own.len(),
            counts: TreeCounts::of(&own),
            baseline,
        });
    }
    rows
}

const HEADER: [&str; 16] = [
    "configuration",
    "threads",
    "runs",
    "nodes ×",
    "main ×",
    "quiescence ×",
    "in singular tests ×",
    "singular-test share",
    "singular tests ‰",
    "extended",
    "null moves ‰",
    "null cuts",
    "LMR re-searches ‰",
    "PV re-searches ‰",
    "past a cut",
    "left",
];

fn cells(row: &ProfileRow, fixed_depth: bool) -> Vec<String> {
    let c = &row.counts;
    vec![
        row.configuration.clone(),
        row.threads.to_string(),
        row.runs.to_string(),
        times(row.growth(fixed_depth, |t| t.nodes)),
        times(row.growth(fixed_depth, |t| t.main_nodes)),
        times(row.growth(fixed_depth, TreeCounts::quiescence_nodes)),
        times(row.growth(fixed_depth, |t| t.singular_test_nodes)),
        share(ratio(c.singular_test_nodes, c.nodes)),
        rate(c.per_mille(c.singular_tests)),
        share(ratio(c.singular_extensions, c.singular_tests)),
        rate(c.per_mille(c.null_move_searches)),
        share(ratio(c.null_move_cutoffs, c.null_move_searches)),
        rate(c.per_mille(c.reduced_researches)),
        rate(c.per_mille(c.pv_researches)),
        share(ratio(c.speculative_nodes, c.nodes)),
        share(ratio(c.abandoned_nodes, c.nodes)),
    ]
}

/// The profile as a table (terminal or Markdown).
pub fn table(rows: &[ProfileRow], fixed_depth: bool) -> Table {
    let mut table = Table::new(HEADER);
    for row in rows {
        table.push(cells(row, fixed_depth));
    }
    table
}

/// Main-search nodes by remaining depth: each band's nodes against the one-thread search's (fixed depth only),
/// with the band's share of the configuration's main-search nodes.
pub fn depth_table(rows: &[ProfileRow], fixed_depth: bool) -> Table {
    let mut header = vec!["configuration".to_string(), "threads".to_string()];
    header.extend((0..BANDS).map(|band| format!("depth {}", band_label(band))));
    let mut table = Table::new(header);
    for row in rows {
        let mut cells = vec![row.configuration.clone(), row.threads.to_string()];
        cells.extend((0..BANDS).map(|band| {
            let band_share = share(ratio(row.counts.main_nodes_by_depth[band], row.counts.main_nodes));
            match row.growth(fixed_depth, |t| t.main_nodes_by_depth[band]) {
                Some(growth) => format!("{growth:.3} ({band_share})"),
                None => band_share,
            }
        }));
        table.push(cells);
    }
    table
}

/// Whether the engine of these rows counted its move loops by kind of node (engines before 2026-12-07 did not).
pub fn has_move_loops(rows: &[ProfileRow]) -> bool {
    rows.first()
        .is_some_and(|row| row.baseline.move_loops.iter().sum::<f64>() > 0.0)
}

/// The table's cutoffs and the move loops by kind of node: each count against the 1-thread search's (fixed
/// depth only), the share of each kind's nodes that failed high and the moves a node of the kind searched.
/// Whether a larger tree found fewer transpositions, mispredicted more nodes (a node expected to cut that fails
/// low searches all its moves) or searched more moves where it searched.
pub fn kind_table(rows: &[ProfileRow], fixed_depth: bool) -> Table {
    let mut header = vec![
        "configuration".to_string(),
        "threads".to_string(),
        "table cutoffs ×".to_string(),
        "table cutoffs ‰".to_string(),
    ];
    for kind in TreeProfile::NODE_KINDS {
        header.extend([
            format!("{kind} ×"),
            format!("{kind} failed high"),
            format!("{kind} moves"),
        ]);
    }
    let mut table = Table::new(header);
    for row in rows {
        let c = &row.counts;
        let mut cells = vec![
            row.configuration.clone(),
            row.threads.to_string(),
            times(row.growth(fixed_depth, |t| t.table_cutoffs)),
            rate(c.per_mille(c.table_cutoffs)),
        ];
        for kind in 0..KINDS {
            cells.push(times(row.growth(fixed_depth, |t| t.move_loops[kind])));
            cells.push(share(ratio(c.move_loop_fail_highs[kind], c.move_loops[kind])));
            cells.push(cell(ratio(c.move_loop_moves[kind], c.move_loops[kind]), |v| {
                format!("{v:.2}")
            }));
        }
        table.push(cells);
    }
    table
}

/// Whether any row was compared with the serial tree (`--serial-tree`).
pub fn has_serial_tree(rows: &[ProfileRow]) -> bool {
    rows.iter().any(|row| row.counts.serial_tree.positions > 0.0)
}

/// Each compared configuration against the serial tree of the same process: its main-search nodes against the
/// serial search's, split into nodes at positions the serial search visited (`in it`) and the rest (`outside`),
/// its distinct positions against the serial tree's, how often it visited a position, and which share of the
/// serial tree's positions it reached, in all and by band of remaining depth.
pub fn serial_tree_table(rows: &[ProfileRow]) -> Table {
    let mut header: Vec<String> = [
        "configuration",
        "threads",
        "positions",
        "main ×",
        "in it ×",
        "outside ×",
        "distinct ×",
        "visits a position",
        "serial visits",
        "serial reached",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    header.extend((0..BANDS).map(|band| format!("reached at {}", band_label(band))));
    let mut table = Table::new(header);
    for row in rows.iter().filter(|row| row.counts.serial_tree.positions > 0.0) {
        let t = &row.counts.serial_tree;
        let sum = |bands: &[f64; BANDS]| bands.iter().sum::<f64>();
        let serial_main = sum(&t.serial_main_nodes);
        let main = sum(&t.main_nodes);
        let in_serial = sum(&t.in_serial);
        let mut cells = vec![
            row.configuration.clone(),
            row.threads.to_string(),
            format!("{:.0}", t.positions),
            times(ratio(main, serial_main)),
            times(ratio(in_serial, serial_main)),
            times(ratio(main - in_serial, serial_main)),
            times(ratio(sum(&t.distinct), sum(&t.serial_distinct))),
            cell(ratio(main, sum(&t.distinct)), |v| format!("{v:.2}")),
            cell(ratio(serial_main, sum(&t.serial_distinct)), |v| format!("{v:.2}")),
            share(ratio(sum(&t.in_serial_distinct), sum(&t.serial_distinct))),
        ];
        cells
            .extend((0..BANDS).map(|band| share(ratio(t.in_serial_distinct[band], t.serial_distinct[band]))));
        table.push(cells);
    }
    table
}

/// `profile.md`: the table with what its columns mean.
pub fn markdown(rows: &[ProfileRow], fixed_depth: bool) -> String {
    if rows.is_empty() {
        return "No tree profile: the engine of this report did not count main-search nodes.\n".to_string();
    }
    format!(
        "Tree profile: each configuration's counts summed over its positions, per run. \
         `×`: against the 1-thread search (fixed depth only) — all nodes, main-search nodes, quiescence nodes, \
         and the nodes inside singular-extension tests. `singular-test share`: of the configuration's nodes. \
         `‰`: per thousand main-search nodes. `extended`: tests that extended the table move; `null cuts`: \
         null-move searches that cut; `LMR re-searches`: reduced searches that failed high and were searched at \
         full depth; `PV re-searches`: null-window searches in PV nodes searched again with the window; \
         `past a cut`: the nodes below brothers searched after the brother that cut their node (YBWC's split \
         points, the ABDADAs' deferred brothers), work the serial search never does; `left`: the nodes of \
         brothers the ABDADAs' threads left unfinished when another thread's stored result answered their node \
         (both of the configuration's nodes).\n\n{}\n\
         Main-search nodes by remaining depth: each band's nodes against the 1-thread search's (fixed depth only) \
         and, in brackets, the band's share of the configuration's main-search nodes.\n\n{}{}{}",
        table(rows, fixed_depth).to_markdown(),
        depth_table(rows, fixed_depth).to_markdown(),
        if has_move_loops(rows) {
            format!(
                "\nThe table's cutoffs (nodes outside the PV its entry answered) and the nodes that searched a move, \
                 by kind: `PV`, `expected cut` (outside the PV, static evaluation at or above beta), `expected all` \
                 (the others). `×`: against the 1-thread search (fixed depth only); `‰`: per thousand main-search \
                 nodes; `failed high`: the share of the kind's nodes that did; `moves`: the moves a node of the kind \
                 searched.\n\n{}",
                kind_table(rows, fixed_depth).to_markdown()
            )
        } else {
            String::new()
        },
        if has_serial_tree(rows) {
            format!(
                "\nAgainst the serial tree (`--serial-tree`: each process searched every position with one thread \
                 first and recorded its positions, each band of remaining depth apart): `main ×`, the main-search \
                 nodes against that serial search's; `in it ×` and `outside ×`, the nodes at positions the serial \
                 search visited in the same band and the rest, against the same; `distinct ×`, distinct positions \
                 against the serial tree's; `visits a position`, main-search nodes per distinct position (`serial \
                 visits` the serial search's); `serial reached`, the share of the serial tree's positions the search \
                 visited, in all and by band.\n\n{}",
                serial_tree_table(rows).to_markdown()
            )
        } else {
            String::new()
        }
    )
}

/// `profile.csv`, one row per configuration with the raw counts per run.
pub fn csv(rows: &[ProfileRow]) -> Csv {
    let mut csv = Csv::new(
        &[
            "configuration",
            "threads",
            "runs",
            "nodes",
            "main_nodes",
            "singular_test_nodes",
            "singular_tests",
            "singular_extensions",
            "null_move_searches",
            "null_move_cutoffs",
            "reduced_researches",
            "pv_researches",
            "speculative_nodes",
            "abandoned_nodes",
            "table_cutoffs",
        ]
        .into_iter()
        .map(String::from)
        .chain((0..BANDS).map(|band| format!("main_nodes_depth_{}", band_label(band))))
        .chain(
            [
                "serial_main_nodes",
                "serial_distinct",
                "compared_main_nodes",
                "distinct",
                "in_serial",
                "in_serial_distinct",
            ]
            .iter()
            .flat_map(|count| (0..BANDS).map(move |band| format!("{count}_depth_{}", band_label(band)))),
        )
        .chain(
            ["move_loops", "move_loop_fail_highs", "move_loop_moves"]
                .iter()
                .flat_map(|count| {
                    TreeProfile::NODE_KINDS
                        .iter()
                        .map(move |kind| format!("{count}_{}", kind.replace(' ', "_").to_lowercase()))
                }),
        )
        .collect::<Vec<_>>(),
    );
    for row in rows {
        let c = &row.counts;
        let number = |v: f64| format!("{v:.1}");
        let mut cells = vec![
            row.configuration.clone(),
            row.threads.to_string(),
            row.runs.to_string(),
            number(c.nodes),
            number(c.main_nodes),
            number(c.singular_test_nodes),
            number(c.singular_tests),
            number(c.singular_extensions),
            number(c.null_move_searches),
            number(c.null_move_cutoffs),
            number(c.reduced_researches),
            number(c.pv_researches),
            number(c.speculative_nodes),
            number(c.abandoned_nodes),
            number(c.table_cutoffs),
        ];
        cells.extend(c.main_nodes_by_depth.iter().map(|&v| number(v)));
        let t = &c.serial_tree;
        for bands in [
            &t.serial_main_nodes,
            &t.serial_distinct,
            &t.main_nodes,
            &t.distinct,
            &t.in_serial,
            &t.in_serial_distinct,
        ] {
            cells.extend(bands.iter().map(|&v| number(v)));
        }
        for counts in [&c.move_loops, &c.move_loop_fail_highs, &c.move_loop_moves] {
            cells.extend(counts.iter().map(|&v| number(v)));
        }
        csv.row(&cells);
    }
    csv
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::bench::analysis::tests::{position as bare_position, run as bare_run};

    /// A searched position with its tree: `main_nodes` of `nodes` in the main search (half of them at one or
    /// two plies left), `singular_tests` tests of which half extended, a tenth of the nodes inside them.
    fn position(nodes: u64, main_nodes: u64, singular_tests: u64) -> PositionRun {
        PositionRun {
            main_nodes,
            main_nodes_by_depth: vec![main_nodes / 2, main_nodes / 4, main_nodes / 8, main_nodes / 8, 0],
            singular_tests,
            singular_extensions: singular_tests / 2,
            singular_test_nodes: nodes / 10,
            ..bare_position(0, nodes, 1000, "a1a2")
        }
    }

    fn run(algorithm: &str, threads: usize, positions: Vec<PositionRun>) -> Run {
        bare_run(algorithm, threads, 0, positions)
    }

    /// The row of `runs[1..]` (one configuration's runs) against `runs[0]`, the one-thread baseline.
    fn row_against_first(configuration: &str, threads: usize, runs: &[Run]) -> ProfileRow {
        let refs: Vec<&Run> = runs.iter().collect();
        ProfileRow {
            configuration: configuration.to_string(),
            threads,
            runs: refs.len() - 1,
            counts: TreeCounts::of(&refs[1..]),
            baseline: TreeCounts::of(&refs[..1]),
        }
    }

    #[test]
    fn growth_is_per_run_against_the_one_thread_search() {
        let runs = [
            run("ybwc", 1, vec![position(1000, 400, 4)]),
            run("ybwc", 2, vec![position(1300, 500, 10)]),
            run("ybwc", 2, vec![position(1100, 500, 6)]),
        ];
        let row = row_against_first("ybwc", 2, &runs);
        let two = row.counts;
        // Two runs averaged: 1200 nodes, 500 main nodes, 8 tests.
        assert_eq!(row.growth(true, |t| t.nodes), Some(1.2));
        assert_eq!(row.growth(true, |t| t.main_nodes), Some(1.25));
        assert_eq!(
            row.growth(true, TreeCounts::quiescence_nodes),
            Some(700.0 / 600.0)
        );
        assert_eq!(two.per_mille(two.singular_tests), Some(16.0));
        // Under a clock the trees are not comparable.
        assert_eq!(row.growth(false, |t| t.nodes), None);
        let cells = cells(&row, true);
        assert_eq!(cells[3], "1.200");
        assert_eq!(cells[9], "50.0%");
        // By depth: the first band holds half the main nodes at both counts, so it grew as they did.
        assert_eq!(row.growth(true, |t| t.main_nodes_by_depth[0]), Some(1.25));
        let text = depth_table(&[row], true).to_markdown();
        assert!(text.contains("depth 1–2") && text.contains("depth 15+"), "{text}");
        assert!(text.contains("1.250 (50.0%)"), "{text}");
    }

    #[test]
    fn work_past_a_cut_and_left_are_shares_of_the_nodes() {
        let mut two = position(1000, 400, 4);
        two.speculative_nodes = Some(50);
        two.abandoned_nodes = Some(200);
        // Older reports: no counts, read as none.
        let mut older = position(1000, 400, 4);
        older.speculative_nodes = None;
        older.abandoned_nodes = None;
        let runs = [
            run("abdada", 1, vec![position(1000, 400, 4)]),
            run("abdada", 2, vec![two, older]),
        ];
        let row = row_against_first("abdada", 2, &runs);
        let cells = cells(&row, true);
        assert_eq!(&cells[HEADER.len() - 2..], ["2.5%", "10.0%"]);
    }

    #[test]
    fn move_loops_by_kind_grow_against_the_one_thread_search() {
        let with_loops = |loops: u64, fail_highs: u64, table_cutoffs: u64| PositionRun {
            table_cutoffs,
            move_loops: vec![10, loops, 2 * loops],
            move_loop_fail_highs: vec![1, fail_highs, 0],
            move_loop_moves: vec![100, 2 * loops, 40 * loops],
            ..position(1000, 400, 4)
        };
        let runs = [
            run("abdada", 1, vec![with_loops(50, 45, 40)]),
            run("abdada", 2, vec![with_loops(60, 48, 30)]),
        ];
        let row = row_against_first("abdada", 2, &runs);
        assert!(has_move_loops(std::slice::from_ref(&row)));
        let text = kind_table(&[row], true).to_markdown();
        // Table cutoffs 30 against 40, 75 per thousand of 400 main nodes; PV: as many, 1 of 10 failed high, ten
        // moves each; expected cut: 60 against 50 nodes, 48 of 60 failed high, two moves each; expected all: 120
        // against 100, none failed high, twenty moves each.
        let row_line = "| abdada | 2 | 0.750 | 75.0 | 1.000 | 10.0% | 10.00 | 1.200 | 80.0% | 2.00 | 1.200 | 0.0% | 20.00 |";
        assert!(text.lines().any(|line| line == row_line), "{text}");
        assert!(
            text.contains("expected cut ×") && text.contains("PV moves"),
            "{text}"
        );
        // Older reports: no loops counted, no table.
        let older = [
            run("abdada", 1, vec![position(1000, 400, 4)]),
            run("abdada", 2, vec![position(1000, 400, 4)]),
        ];
        assert!(!has_move_loops(&[row_against_first("abdada", 2, &older)]));
    }

    #[test]
    fn a_tree_compared_with_the_serial_one_is_split_into_its_positions_and_the_rest() {
        let mut compared = position(1000, 400, 4);
        compared.main_nodes_by_depth = vec![200, 100, 50, 50, 0];
        compared.serial_tree = Some(SerialTreeCounts {
            serial_nodes: 800,
            serial_main_nodes_by_depth: vec![160, 80, 40, 40, 0],
            serial_distinct_by_depth: vec![100, 40, 16, 4, 0],
            distinct_by_depth: vec![120, 50, 20, 10, 0],
            in_serial_by_depth: vec![120, 60, 30, 30, 0],
            in_serial_distinct_by_depth: vec![50, 20, 8, 2, 0],
        });
        let runs = [
            run("abdada", 1, vec![position(1000, 400, 4)]),
            run("abdada", 2, vec![compared]),
        ];
        let rows = [
            row_against_first("1 thread", 1, &runs[..1]),
            row_against_first("abdada", 2, &runs),
        ];
        assert!(has_serial_tree(&rows));
        let text = serial_tree_table(&rows).to_markdown();
        // 400 main nodes against the serial 320, 240 of them at its positions; 200 distinct positions against
        // 160, 80 of those reached (half in every band; none in the last, where the serial search had none).
        let row_line = "| abdada | 2 | 1 | 1.250 | 0.750 | 0.500 | 1.250 | 2.00 | 2.00 | 50.0% | 50.0% | 50.0% | 50.0% | 50.0% | - |";
        assert!(text.lines().any(|line| line == row_line), "{text}");
        assert!(!text.contains("1 thread"), "only compared rows: {text}");
        assert!(markdown(&rows, true).contains("Against the serial tree"));
        // Another engine's bands: left out.
        let mut other = position(1000, 400, 4);
        other.serial_tree = Some(SerialTreeCounts {
            serial_main_nodes_by_depth: vec![1],
            ..SerialTreeCounts::default()
        });
        let runs = [
            run("abdada", 1, vec![position(1000, 400, 4)]),
            run("abdada", 2, vec![other]),
        ];
        assert!(!has_serial_tree(&[row_against_first("abdada", 2, &runs)]));
    }

    #[test]
    fn bands_of_another_engine_are_left_out() {
        let mut other = position(100, 40, 1);
        other.main_nodes_by_depth = vec![40];
        let runs = [run("lazy", 1, vec![other])];
        let refs: Vec<&Run> = runs.iter().collect();
        assert_eq!(TreeCounts::of(&refs).main_nodes_by_depth, [0.0; BANDS]);
    }

    #[test]
    fn positions_without_a_move_are_left_out() {
        let mut mated = position(0, 0, 0);
        mated.best_move = "0000".to_string();
        let runs = [run("lazy", 1, vec![position(100, 40, 1), mated])];
        let refs: Vec<&Run> = runs.iter().collect();
        assert_eq!(TreeCounts::of(&refs).nodes, 100.0);
    }
}
