//! From raw runs to the figures of each (algorithm, threads): medians and spreads over repeats of totals,
//! geometric means over positions of per-position ratios against the 1-thread baseline and against lazy SMP.
//!
//! Each repeat of a configuration yields one value of every figure (its positions against the medians of the
//! baseline's repeats); the spread of those values over the repeats is the noise the verdicts use.
//!
//! The figures are also broken down by the 1-thread search time of the positions ([`TIME_BUCKETS`]): a
//! parallel search has little to split in a 50 ms search and much in a 20 s one, and an average over both hides
//! where it loses. A second breakdown places each position by its search size, the geometric mean of the
//! 1-thread and the configuration's times, so that the baseline's luck alone does not decide its range.

use super::model::{ConfigSummary, PositionRun, PositionSummary, Run, Settings, TimeBucket};
use crate::stats::summary::{Spread, geometric_mean, median, nps_efficiency, overhead, speedup};

/// The algorithm name of lazy SMP, the baseline of `speedup_vs_lazy`.
pub const LAZY: &str = "lazy";

/// The ranges of 1-thread median search time, in seconds, by which the figures are broken down: label, lower
/// bound (inclusive), upper bound (exclusive; `None` = open).
pub const TIME_BUCKETS: [(&str, f64, Option<f64>); 5] = [
    ("<0.1 s", 0.0, Some(0.1)),
    ("0.1–1 s", 0.1, Some(1.0)),
    ("1–5 s", 1.0, Some(5.0)),
    ("5–30 s", 5.0, Some(30.0)),
    ("≥30 s", 30.0, None),
];

/// The index in [`TIME_BUCKETS`] of a 1-thread time in seconds.
pub fn bucket_of(seconds: f64) -> usize {
    TIME_BUCKETS
        .iter()
        .position(|&(_, _, to)| to.is_none_or(|to| seconds < to))
        .unwrap_or(TIME_BUCKETS.len() - 1)
}

/// The figures of one configuration by [`TIME_BUCKETS`], from per-position medians over repeats: for each
/// range holding at least one of `valid` positions (by `seconds`, a position's time in seconds for the breakdown),
/// the geometric means of the speedups and node overheads and the NPS ratio over those positions.
fn time_buckets(
    base: &PositionMedians,
    own: &PositionMedians,
    valid: &[usize],
    seconds: impl Fn(usize) -> f64,
) -> Vec<TimeBucket> {
    let mut buckets = Vec::new();
    for (index, &(label, from_s, to_s)) in TIME_BUCKETS.iter().enumerate() {
        let members: Vec<usize> = valid
            .iter()
            .copied()
            .filter(|&p| bucket_of(seconds(p)) == index)
            .collect();
        if members.is_empty() {
            continue;
        }
        let ratios = |f: &dyn Fn(usize) -> Option<f64>| -> Option<f64> {
            let values: Option<Vec<f64>> = members.iter().map(|&p| f(p)).collect();
            values.and_then(|v| geometric_mean(&v))
        };
        let total = |values: &[f64]| members.iter().map(|&p| values[p]).sum::<f64>();
        let base_nps = total(&base.nodes) / total(&base.time_us);
        let own_nps = total(&own.nodes) / total(&own.time_us);
        buckets.push(TimeBucket {
            label: label.to_string(),
            from_s,
            to_s,
            positions: members.len(),
            one_thread_time_s: total(&base.time_us) / 1e6,
            speedup: ratios(&|p| speedup(base.time_us[p], own.time_us[p])),
            node_overhead: ratios(&|p| overhead(base.nodes[p], own.nodes[p])),
            nps_ratio: (base_nps > 0.0 && own_nps.is_finite()).then(|| own_nps / base_nps),
        });
    }
    buckets
}

/// Medians over repeats, per position, of one configuration's runs.
struct PositionMedians {
    time_us: Vec<f64>,
    nodes: Vec<f64>,
    depth: Vec<f64>,
    root_researches: Vec<f64>,
    best_move_changes: Vec<f64>,
    speculative_share: Vec<Option<f64>>,
    duplicate_share: Vec<Option<f64>>,
}

/// A counter of nodes as a share of the search's nodes, `None` where the file predates the counter.
fn node_share(run: &PositionRun, counter: fn(&PositionRun) -> Option<u64>) -> Option<f64> {
    Some(counter(run)? as f64 / run.nodes.max(1) as f64)
}

/// The same share over all positions of a run.
fn run_node_share(run: &Run, counter: fn(&PositionRun) -> Option<u64>) -> Option<f64> {
    let counted: Option<u64> = run.positions.iter().map(counter).sum();
    let nodes: u64 = run.positions.iter().map(|p| p.nodes).sum();
    Some(counted? as f64 / nodes.max(1) as f64)
}

fn position_medians(runs: &[&Run], count: usize) -> PositionMedians {
    let share = |counter: fn(&PositionRun) -> Option<u64>| -> Vec<Option<f64>> {
        (0..count)
            .map(|p| {
                let shares: Option<Vec<f64>> = runs
                    .iter()
                    .filter_map(|r| r.positions.get(p))
                    .map(|run| node_share(run, counter))
                    .collect();
                shares.and_then(|s| median(&s))
            })
            .collect()
    };
    let per = |f: &dyn Fn(&PositionRun) -> f64| -> Vec<f64> {
        (0..count)
            .map(|p| {
                let values: Vec<f64> = runs.iter().filter_map(|r| r.positions.get(p)).map(f).collect();
                median(&values).unwrap_or(0.0)
            })
            .collect()
    };
    PositionMedians {
        time_us: per(&|p| p.time_us.max(1) as f64),
        nodes: per(&|p| p.nodes as f64),
        depth: per(&|p| f64::from(p.depth)),
        root_researches: per(&|p| p.root_researches as f64),
        best_move_changes: per(&|p| p.best_move_changes as f64),
        speculative_share: share(|p| p.speculative_nodes),
        duplicate_share: share(|p| p.duplicate_nodes),
    }
}

/// The runs of one configuration. At one thread every algorithm is the serial search, so every algorithm's
/// 1-thread row is the baseline's runs (whatever algorithm name they were run with).
pub(super) fn runs_of<'r>(runs: &'r [Run], algorithm: &str, threads: usize) -> Vec<&'r Run> {
    runs.iter()
        .filter(|r| r.threads == threads && (threads == 1 || r.algorithm == algorithm))
        .collect()
}

/// The positions every figure is taken over: those the first 1-thread run (the baseline's) had a move to
/// search in.
pub(super) fn searched_positions(runs: &[Run]) -> Vec<usize> {
    runs.iter()
        .find(|r| r.threads == 1)
        .map(|first| {
            (0..first.positions.len())
                .filter(|&p| first.positions[p].searched())
                .collect()
        })
        .unwrap_or_default()
}

/// Summarises `runs` (every configuration of `settings`, 1-thread baseline included), one summary per
/// (algorithm, threads) in the order of the settings, with `logical_cpus` deciding what is oversubscribed.
///
/// # Errors
/// When the baseline is missing or the runs disagree on the positions.
pub fn summarise(
    settings: &Settings,
    runs: &[Run],
    logical_cpus: usize,
) -> Result<Vec<ConfigSummary>, String> {
    let baseline = runs_of(runs, "", 1);
    let first = baseline
        .first()
        .ok_or("no 1-thread run: the baseline is missing")?;
    let count = first.positions.len();
    if let Some(odd) = runs.iter().find(|r| {
        r.positions.len() != count
            || r.positions
                .iter()
                .zip(&first.positions)
                .any(|(a, b)| a.fen != b.fen)
    }) {
        return Err(format!(
            "{} ×{} searched other positions than the baseline",
            odd.algorithm, odd.threads
        ));
    }
    let depth_mode = settings.depth.is_some();
    let base = position_medians(&baseline, count);
    let valid = searched_positions(runs);
    let base_nps = median(&baseline.iter().map(|r| totals(r).nps).collect::<Vec<_>>()).unwrap_or(0.0);

    let mut threads: Vec<usize> = settings.threads.clone();
    threads.push(1);
    threads.sort_unstable();
    threads.dedup();
    let mut summaries = Vec::new();
    for algorithm in &settings.algorithms {
        for &t in &threads {
            let own = runs_of(runs, algorithm, t);
            if own.is_empty() {
                continue;
            }
            let lazy = settings
                .algorithms
                .iter()
                .any(|a| a == LAZY)
                .then(|| position_medians(&runs_of(runs, LAZY, t), count));
            let spread = |f: &dyn Fn(&Run) -> Option<f64>| -> Option<Spread> {
                let values: Option<Vec<f64>> = own.iter().map(|r| f(r)).collect();
                values.and_then(|v| Spread::of(&v))
            };
            let ratio_over_positions = |run: &Run, f: &dyn Fn(usize, &PositionRun) -> Option<f64>| {
                let ratios: Option<Vec<f64>> = valid.iter().map(|&p| f(p, &run.positions[p])).collect();
                ratios.and_then(|r| geometric_mean(&r))
            };
            let share = |run: &Run, same: &dyn Fn(&PositionRun, &PositionRun) -> bool| -> Option<f64> {
                let agreeing = valid
                    .iter()
                    .filter(|&&p| same(&run.positions[p], &first.positions[p]))
                    .count();
                Some(if valid.is_empty() {
                    1.0
                } else {
                    agreeing as f64 / valid.len() as f64
                })
            };
            let medians = position_medians(&own, count);
            let summary = ConfigSummary {
                algorithm: algorithm.clone(),
                threads: t,
                oversubscribed: t > logical_cpus,
                shared_baseline: t == 1,
                positions: valid.len(),
                total_time_s: spread(&|r| Some(totals(r).time_s)).ok_or("empty run")?,
                total_nodes: spread(&|r| Some(totals(r).nodes)).ok_or("empty run")?,
                nps: spread(&|r| Some(totals(r).nps)).ok_or("empty run")?,
                speedup: depth_mode
                    .then(|| {
                        spread(&|r| {
                            ratio_over_positions(r, &|p, run| {
                                speedup(base.time_us[p], run.time_us.max(1) as f64)
                            })
                        })
                    })
                    .flatten(),
                speedup_vs_lazy: match (&lazy, depth_mode) {
                    (Some(lazy), true) => spread(&|r| {
                        ratio_over_positions(r, &|p, run| speedup(lazy.time_us[p], run.time_us.max(1) as f64))
                    }),
                    _ => None,
                },
                node_overhead: depth_mode
                    .then(|| {
                        spread(&|r| {
                            ratio_over_positions(r, &|p, run| overhead(base.nodes[p], run.nodes as f64))
                        })
                    })
                    .flatten(),
                whole_set_speedup: depth_mode
                    .then(|| {
                        spread(&|r| {
                            let (base_time, own_time) = sums_over(&valid, &base.time_us, r, |p| p.time_us);
                            speedup(base_time, own_time.max(1.0))
                        })
                    })
                    .flatten(),
                whole_set_overhead: depth_mode
                    .then(|| {
                        spread(&|r| {
                            let (base_nodes, own_nodes) = sums_over(&valid, &base.nodes, r, |p| p.nodes);
                            overhead(base_nodes, own_nodes)
                        })
                    })
                    .flatten(),
                nps_efficiency: spread(&|r| nps_efficiency(base_nps, totals(r).nps, t)),
                nps_ratio: spread(&|r| (base_nps > 0.0).then(|| totals(r).nps / base_nps)),
                best_move_agreement: spread(&|r| share(r, &|a, b| a.best_move == b.best_move))
                    .ok_or("empty run")?,
                score_agreement: spread(&|r| share(r, &|a, b| a.score == b.score)).ok_or("empty run")?,
                depth_reached: spread(&|r| {
                    median(
                        &valid
                            .iter()
                            .map(|&p| f64::from(r.positions[p].depth))
                            .collect::<Vec<_>>(),
                    )
                    .or(Some(0.0))
                })
                .ok_or("empty run")?,
                depth_mean: spread(&|r| {
                    Some(if valid.is_empty() {
                        0.0
                    } else {
                        valid
                            .iter()
                            .map(|&p| f64::from(r.positions[p].depth))
                            .sum::<f64>()
                            / valid.len() as f64
                    })
                }),
                deferred_moves: spread(&|r| Some(sum(r, |p| p.deferred_moves))).ok_or("empty run")?,
                splits: spread(&|r| Some(sum(r, |p| p.splits))).ok_or("empty run")?,
                aborted_tasks: spread(&|r| Some(sum(r, |p| p.aborted_tasks))).ok_or("empty run")?,
                idle_fraction: spread(&|r| {
                    let busy = sum(r, |p| p.busy_us);
                    let idle = sum(r, |p| p.idle_us);
                    Some(if busy + idle > 0.0 {
                        idle / (busy + idle)
                    } else {
                        0.0
                    })
                })
                .ok_or("empty run")?,
                root_researches: spread(&|r| Some(sum(r, |p| p.root_researches))),
                best_move_changes: spread(&|r| Some(sum(r, |p| p.best_move_changes))),
                speculative_share: spread(&|r| run_node_share(r, |p| p.speculative_nodes)),
                duplicate_share: spread(&|r| run_node_share(r, |p| p.duplicate_nodes)),
                per_position: (0..count)
                    .map(|p| {
                        let reference = &own[0].positions[p];
                        let searched = first.positions[p].searched();
                        PositionSummary {
                            index: p,
                            fen: reference.fen.clone(),
                            time_ms: medians.time_us[p] / 1000.0,
                            nodes: medians.nodes[p],
                            depth: medians.depth[p],
                            root_researches: medians.root_researches[p],
                            best_move_changes: medians.best_move_changes[p],
                            speculative_share: medians.speculative_share[p],
                            duplicate_share: medians.duplicate_share[p],
                            speedup: (searched && depth_mode)
                                .then(|| speedup(base.time_us[p], medians.time_us[p]))
                                .flatten(),
                            node_overhead: (searched && depth_mode)
                                .then(|| overhead(base.nodes[p], medians.nodes[p]))
                                .flatten(),
                            best_move: reference.best_move.clone(),
                            agrees_with_one_thread: reference.best_move == first.positions[p].best_move,
                        }
                    })
                    .collect(),
                time_buckets: if depth_mode {
                    time_buckets(&base, &medians, &valid, |p| base.time_us[p] / 1e6)
                } else {
                    Vec::new()
                },
                size_buckets: if depth_mode {
                    time_buckets(&base, &medians, &valid, |p| {
                        (base.time_us[p] * medians.time_us[p]).sqrt() / 1e6
                    })
                } else {
                    Vec::new()
                },
            };
            summaries.push(summary);
        }
    }
    Ok(summaries)
}

struct Totals {
    time_s: f64,
    nodes: f64,
    nps: f64,
}

fn totals(run: &Run) -> Totals {
    let time_s = sum(run, |p| p.time_us) / 1e6;
    let nodes = sum(run, |p| p.nodes);
    Totals {
        time_s,
        nodes,
        nps: if time_s > 0.0 { nodes / time_s } else { 0.0 },
    }
}

/// Over the `positions`, the baseline's per-position `base` values summed and the run's `field` summed.
fn sums_over(positions: &[usize], base: &[f64], run: &Run, field: fn(&PositionRun) -> u64) -> (f64, f64) {
    positions.iter().fold((0.0, 0.0), |(base_sum, own_sum), &p| {
        (base_sum + base[p], own_sum + field(&run.positions[p]) as f64)
    })
}

fn sum(run: &Run, field: impl Fn(&PositionRun) -> u64) -> f64 {
    run.positions.iter().map(field).sum::<u64>() as f64
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::bench) fn position(index: usize, nodes: u64, time_us: u64, best_move: &str) -> PositionRun {
        PositionRun {
            index,
            fen: format!("fen {index}"),
            depth: 10,
            nodes,
            time_us,
            best_move: best_move.into(),
            score: "cp 10".into(),
            tt_hits: 0,
            cutoffs: 0,
            first_move_cutoffs: 0,
            deferred_moves: 5,
            cutoff_check_returns: 0,
            ancestor_returns: 0,
            pv_ancestor_returns: 0,
            windows_left: 0,
            alpha_adoptions: 0,
            window_restarts: 0,
            root_researches: 0,
            best_move_changes: 0,
            splits: 0,
            split_tasks: 0,
            aborted_tasks: 0,
            speculative_nodes: Some(0),
            abandoned_nodes: Some(0),
            duplicate_nodes: Some(0),
            main_nodes: 0,
            main_nodes_by_depth: Vec::new(),
            null_move_searches: 0,
            null_move_cutoffs: 0,
            singular_tests: 0,
            singular_extensions: 0,
            singular_test_nodes: 0,
            reduced_researches: 0,
            pv_researches: 0,
            table_cutoffs: 0,
            move_loops: Vec::new(),
            move_loop_fail_highs: Vec::new(),
            move_loop_moves: Vec::new(),
            serial_tree: None,
            busy_us: time_us,
            idle_us: 0,
            threads: 1,
        }
    }

    pub(in crate::bench) fn run(
        algorithm: &str,
        threads: usize,
        repeat: usize,
        positions: Vec<PositionRun>,
    ) -> Run {
        Run {
            algorithm: algorithm.into(),
            threads,
            repeat,
            machine_busy_before_percent: 0.0,
            positions,
        }
    }

    pub(in crate::bench) fn settings() -> Settings {
        Settings {
            algorithms: vec!["lazy".into(), "abdada".into()],
            threads: vec![1, 2],
            oversubscribe: false,
            depth: Some(10),
            movetime_ms: None,
            positions: "built-in".into(),
            set: Some("short".into()),
            keep_tables: false,
            count_duplicates: false,
            serial_tree: false,
            interleave_positions: false,
            repeat: 2,
            hash_mib: 16,
            knobs: vec![],
            engine: "eldest".into(),
            launcher: Vec::new(),
            idle_check_ms: 300,
        }
    }

    #[test]
    fn speedup_overhead_and_agreement_on_fixed_numbers() {
        // Baseline: two positions, 1000 and 4000 µs, 100 and 400 nodes; a third without legal moves.
        let base = |r| {
            run(
                "lazy",
                1,
                r,
                vec![
                    position(0, 100, 1000, "e2e4"),
                    position(1, 400, 4000, "d2d4"),
                    position(2, 0, 3, "0000"),
                ],
            )
        };
        // ABDADA at 2 threads: twice as fast on position 0, 4/3 as fast on position 1, 10% more nodes on
        // each; the second repeat is slower on position 1 and disagrees on its move.
        let abdada = vec![
            run(
                "abdada",
                2,
                0,
                vec![
                    position(0, 110, 500, "e2e4"),
                    position(1, 440, 3000, "d2d4"),
                    position(2, 0, 2, "0000"),
                ],
            ),
            run(
                "abdada",
                2,
                1,
                vec![
                    position(0, 110, 500, "e2e4"),
                    position(1, 440, 4000, "c2c4"),
                    position(2, 0, 2, "0000"),
                ],
            ),
        ];
        let lazy = vec![
            run(
                "lazy",
                2,
                0,
                vec![
                    position(0, 200, 1000, "e2e4"),
                    position(1, 800, 4000, "d2d4"),
                    position(2, 0, 2, "0000"),
                ],
            ),
            run(
                "lazy",
                2,
                1,
                vec![
                    position(0, 200, 1000, "e2e4"),
                    position(1, 800, 4000, "d2d4"),
                    position(2, 0, 2, "0000"),
                ],
            ),
        ];
        let mut runs = vec![base(0), base(1)];
        runs.extend(abdada);
        runs.extend(lazy);
        let summaries = summarise(&settings(), &runs, 2).unwrap();
        let labels: Vec<(String, usize)> = summaries
            .iter()
            .map(|s| (s.algorithm.clone(), s.threads))
            .collect();
        assert_eq!(
            labels,
            [
                ("lazy".into(), 1),
                ("lazy".into(), 2),
                ("abdada".into(), 1),
                ("abdada".into(), 2)
            ]
        );
        let abdada = &summaries[3];
        assert_eq!(abdada.positions, 2, "the position without a move is left out");
        let speedup = abdada.speedup.unwrap();
        // Repeat 0: sqrt(2 × 4/3); repeat 1: sqrt(2 × 1).
        assert!((speedup.max - (2.0f64 * 4.0 / 3.0).sqrt()).abs() < 1e-9);
        assert!((speedup.min - 2.0f64.sqrt()).abs() < 1e-9);
        let node_overhead = abdada.node_overhead.unwrap();
        assert!((node_overhead.median - 1.1).abs() < 1e-9);
        // The whole set: 5000 µs of the baseline over 3500 and 4500 µs (the moveless position left out),
        // where the geometric means read √(8/3) and √2; 550 nodes over 500.
        let whole_set = abdada.whole_set_speedup.unwrap();
        assert!((whole_set.max - 5000.0 / 3500.0).abs() < 1e-9);
        assert!((whole_set.min - 5000.0 / 4500.0).abs() < 1e-9);
        assert!(
            whole_set.max < speedup.max,
            "the long position weighs more in the whole set"
        );
        assert!((abdada.whole_set_overhead.unwrap().median - 1.1).abs() < 1e-9);
        // Lazy at 2 threads takes as long as the baseline: ABDADA's speedup over it equals its speedup.
        assert_eq!(abdada.speedup_vs_lazy, abdada.speedup);
        assert_eq!(
            (abdada.best_move_agreement.min, abdada.best_move_agreement.max),
            (0.5, 1.0)
        );
        assert_eq!(abdada.deferred_moves.median, 15.0);
        let serial = &summaries[2];
        assert!(serial.shared_baseline);
        assert!((serial.speedup.unwrap().median - 1.0).abs() < 1e-9);
        assert!((serial.nps_efficiency.unwrap().median - 1.0).abs() < 1e-9);
        // NPS: baseline 500 nodes / 5003 µs; ABDADA repeat 0: 550 / 3502 µs, over 2 threads.
        let expected = (550.0 / 3502e-6) / (500.0 / 5003e-6 * 2.0);
        assert!((abdada.nps_efficiency.unwrap().max - expected).abs() < 1e-9);
        assert_eq!(abdada.per_position[0].speedup, Some(2.0));
        // Per-position moves are the first repeat's, which agrees with one thread.
        assert_eq!(abdada.per_position[1].best_move, "d2d4");
        assert!(abdada.per_position[1].agrees_with_one_thread);
    }

    #[test]
    fn a_missing_baseline_or_other_positions_are_errors() {
        let only_two = vec![run("lazy", 2, 0, vec![position(0, 1, 1, "e2e4")])];
        assert!(
            summarise(&settings(), &only_two, 2)
                .unwrap_err()
                .contains("baseline")
        );
        let mismatched = vec![
            run("lazy", 1, 0, vec![position(0, 1, 1, "e2e4")]),
            run("abdada", 2, 0, vec![position(5, 1, 1, "e2e4")]),
        ];
        assert!(
            summarise(&settings(), &mismatched, 2)
                .unwrap_err()
                .contains("other positions")
        );
    }

    #[test]
    fn time_buckets_have_inclusive_lower_bounds() {
        let cases = [
            (0.0, 0),
            (0.099, 0),
            (0.1, 1),
            (0.999, 1),
            (1.0, 2),
            (4.99, 2),
            (5.0, 3),
            (29.9, 3),
            (30.0, 4),
            (1e6, 4),
        ];
        for (seconds, bucket) in cases {
            assert_eq!(bucket_of(seconds), bucket, "{seconds} s");
        }
        assert_eq!(TIME_BUCKETS.map(|(label, _, _)| label)[bucket_of(7.0)], "5–30 s");
    }

    /// A run whose positions take `times_ms` with `nodes` (index-aligned); a zero time means no legal move.
    pub(in crate::bench) fn timed_run(
        algorithm: &str,
        threads: usize,
        repeat: usize,
        times_ms: &[u64],
        nodes: &[u64],
    ) -> Run {
        let positions = times_ms
            .iter()
            .zip(nodes)
            .enumerate()
            .map(|(i, (&ms, &n))| {
                if ms == 0 {
                    position(i, 0, 3, "0000")
                } else {
                    position(i, n, ms * 1000, "e2e4")
                }
            })
            .collect();
        run(algorithm, threads, repeat, positions)
    }

    #[test]
    fn figures_are_broken_down_by_one_thread_time() {
        // One thread: 50 ms, 80 ms, 500 ms, 2 s, 10 s and 40 s, 1000 nodes a millisecond; one mate.
        let base_ms = [50, 80, 500, 2_000, 10_000, 40_000, 0];
        let base_nodes: Vec<u64> = base_ms.iter().map(|ms| ms * 1000).collect();
        // Two threads: slower on the short searches, faster on the long ones; nodes up 50%, 40%, 20%, 10%,
        // 10% and 5%.
        let two_ms = [100, 80, 400, 1_000, 6_250, 20_000, 0];
        let two_nodes = [75_000, 112_000, 600_000, 2_200_000, 11_000_000, 42_000_000, 0];
        let runs = vec![
            timed_run("lazy", 1, 0, &base_ms, &base_nodes),
            timed_run("lazy", 2, 0, &two_ms, &two_nodes),
        ];
        let settings = Settings {
            algorithms: vec!["lazy".into()],
            repeat: 1,
            ..settings()
        };
        let summaries = summarise(&settings, &runs, 2).unwrap();
        let serial = &summaries[0];
        let buckets = &summaries[1].time_buckets;
        let labels: Vec<&str> = buckets.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["<0.1 s", "0.1–1 s", "1–5 s", "5–30 s", "≥30 s"]);
        assert_eq!(
            buckets.iter().map(|b| b.positions).collect::<Vec<_>>(),
            [2, 1, 1, 1, 1],
            "the mate is left out"
        );
        let close = |a: Option<f64>, b: f64| assert!((a.unwrap() - b).abs() < 1e-9, "{a:?} vs {b}");
        // Below 0.1 s: speedups 0.5 and 1.0, overheads 1.5 and 1.4 (geometric means).
        close(buckets[0].speedup, 0.5f64.sqrt());
        close(buckets[0].node_overhead, (1.5f64 * 1.4).sqrt());
        // NPS over the range: (75 000 + 112 000) nodes / 180 ms against 130 000 nodes / 130 ms.
        close(buckets[0].nps_ratio, (187_000.0 / 180.0) / (130_000.0 / 130.0));
        assert!((buckets[0].one_thread_time_s - 0.13).abs() < 1e-9);
        close(buckets[1].speedup, 1.25);
        close(buckets[2].speedup, 2.0);
        close(buckets[3].speedup, 1.6);
        close(buckets[3].node_overhead, 1.1);
        close(buckets[4].speedup, 2.0);
        close(buckets[4].node_overhead, 1.05);
        assert_eq!((buckets[4].from_s, buckets[4].to_s), (30.0, None));
        // By search size, √(1-thread × two-thread time): the 40 s position's two threads took 20 s, so it is a
        // search of 28 s and joins the 10 s one (size 7.9 s) in 5–30 s.
        let sizes = &summaries[1].size_buckets;
        assert_eq!(
            sizes
                .iter()
                .map(|b| (b.label.as_str(), b.positions))
                .collect::<Vec<_>>(),
            [("<0.1 s", 2), ("0.1–1 s", 1), ("1–5 s", 1), ("5–30 s", 2)]
        );
        close(sizes[3].speedup, (1.6f64 * 2.0).sqrt());
        close(sizes[3].node_overhead, (1.1f64 * 1.05).sqrt());
        assert!((sizes[3].one_thread_time_s - 50.0).abs() < 1e-9);
        // The serial row's buckets are the baseline against itself.
        assert!(serial.time_buckets.iter().all(|b| b.speedup == Some(1.0)));
        assert_eq!(
            serial.size_buckets, serial.time_buckets,
            "for one thread both sizes are its time"
        );
        // The whole: NPS ratio and mean depth.
        close(
            summaries[1].nps_ratio.map(|s| s.median),
            (sum_of(&two_nodes) / (sum_of(&two_ms) + 0.003))
                / (sum_of(&base_nodes) / (sum_of(&base_ms) + 0.003)),
        );
        assert_eq!(summaries[1].depth_mean.unwrap().median, 10.0);
    }

    fn sum_of(values: &[u64]) -> f64 {
        values.iter().sum::<u64>() as f64
    }

    #[test]
    fn fixed_time_runs_have_no_time_buckets_but_an_nps_ratio_and_depths() {
        let mut slow = timed_run("lazy", 1, 0, &[70, 70], &[100_000, 120_000]);
        let mut fast = timed_run("lazy", 2, 0, &[70, 70], &[180_000, 200_000]);
        for (p, depth) in slow.positions.iter_mut().zip([12, 13]) {
            p.depth = depth;
        }
        for (p, depth) in fast.positions.iter_mut().zip([13, 14]) {
            p.depth = depth;
        }
        let settings = Settings {
            algorithms: vec!["lazy".into()],
            depth: None,
            movetime_ms: Some(70),
            repeat: 1,
            ..settings()
        };
        let summaries = summarise(&settings, &[slow, fast], 2).unwrap();
        let two = &summaries[1];
        assert!(two.time_buckets.is_empty() && two.speedup.is_none());
        assert!((two.nps_ratio.unwrap().median - 380.0 / 220.0).abs() < 1e-9);
        assert_eq!(two.depth_mean.unwrap().median, 13.5);
        assert_eq!(two.depth_reached.median, 13.5);
        assert_eq!(summaries[0].depth_mean.unwrap().median, 12.5);
    }
}
