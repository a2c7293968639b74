//! The search's constants in one place: margins, reductions and history bonuses, with the range and step an
//! SPSA tuner may use for each.
//!
//! The node routine and the aspiration loop read every such constant from a [`SearchParams`] (carried by
//! [`SearchOptions`](crate::SearchOptions)), never from a literal. [`TUNABLES`] lists them by name: the UCI layer
//! makes a spin option of each when built with its `tune` feature, and [`Tunable::openbench_line`] writes the
//! SPSA input of OpenBench (or any tuner that reads the same format).

use std::fmt;

/// Every tunable constant of the search. [`SearchParams::DEFAULT`] is what the engine plays with.
///
/// ```
/// use eldest_search::SearchParams;
/// let params = SearchParams::default();
/// assert_eq!(params, SearchParams::DEFAULT);
/// assert_eq!(params.rfp_margin, 80);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse futility pruning applies at this remaining depth and below.
    pub rfp_max_depth: i32,
    /// Reverse futility margin per ply of depth, in centipawns.
    pub rfp_margin: i32,
    /// Null-move pruning applies from this remaining depth.
    pub nmp_min_depth: i32,
    /// The null move's reduction: this many plies …
    pub nmp_base_reduction: i32,
    /// … plus one per this many plies of depth …
    pub nmp_depth_divisor: i32,
    /// … plus one per this many centipawns of evaluation above beta …
    pub nmp_eval_divisor: i32,
    /// … of which at most this many plies.
    pub nmp_max_eval_reduction: i32,
    /// Singular extensions: a node of at least this depth tests whether its table move is singular …
    pub singular_min_depth: i32,
    /// … against the table score minus this many centipawns per ply of depth; …
    pub singular_margin: i32,
    /// … a move singular by this many more centipawns is extended twice (outside PV nodes) …
    pub singular_double_margin: i32,
    /// … at most this many times on one path.
    pub singular_max_doubles: i32,
    /// Late-move pruning applies at this remaining depth and below.
    pub lmp_max_depth: i32,
    /// Late-move pruning keeps `(lmp_base + depth²) / 2` quiet moves (twice as many when improving).
    pub lmp_base: i32,
    /// Futility pruning of quiet moves applies at this remaining depth and below …
    pub futility_max_depth: i32,
    /// … when the static evaluation plus this …
    pub futility_base: i32,
    /// … plus this per ply of depth is at most alpha.
    pub futility_margin: i32,
    /// History pruning of quiet moves applies at this remaining depth and below …
    pub history_prune_max_depth: i32,
    /// … to a quiet move (not a killer) whose butterfly history is below minus this per ply of depth.
    pub history_prune_margin: i32,
    /// SEE pruning of losing captures applies at this remaining depth and below.
    pub see_noisy_max_depth: i32,
    /// A capture is pruned when it loses more than this many centipawns per ply of depth.
    pub see_noisy_margin: i32,
    /// Late-move reduction: `lmr_base / 100 + ln(depth) · ln(moves) · 100 / lmr_divisor` plies.
    pub lmr_base: i32,
    /// See [`SearchParams::lmr_base`].
    pub lmr_divisor: i32,
    /// One ply less reduction per this much history score (one more for as much below zero).
    pub lmr_history_divisor: i32,
    /// History bonus per squared ply of depth.
    pub history_bonus_scale: i32,
    /// The history bonus stops growing beyond this depth.
    pub history_bonus_max_depth: i32,
    /// Half-width of the first aspiration window, in centipawns.
    pub aspiration_window: i32,
    /// Iterations shallower than this search the full window.
    pub aspiration_min_depth: i32,
}

impl SearchParams {
    /// The values the engine plays with.
    ///
    /// ```
    /// use eldest_search::SearchParams;
    /// assert_eq!(SearchParams::DEFAULT.lmr_divisor, 225);
    /// ```
    pub const DEFAULT: SearchParams = SearchParams {
        rfp_max_depth: 6,
        rfp_margin: 80,
        nmp_min_depth: 3,
        nmp_base_reduction: 3,
        nmp_depth_divisor: 4,
        nmp_eval_divisor: 200,
        nmp_max_eval_reduction: 3,
        singular_min_depth: 8,
        singular_margin: 2,
        singular_double_margin: 20,
        singular_max_doubles: 6,
        lmp_max_depth: 4,
        lmp_base: 3,
        futility_max_depth: 6,
        futility_base: 100,
        futility_margin: 100,
        history_prune_max_depth: 4,
        history_prune_margin: 2048,
        see_noisy_max_depth: 3,
        see_noisy_margin: 100,
        lmr_base: 75,
        lmr_divisor: 225,
        lmr_history_divisor: 8192,
        history_bonus_scale: 16,
        history_bonus_max_depth: 20,
        aspiration_window: 20,
        aspiration_min_depth: 4,
    };

    /// The history bonus (and malus) of a cutoff at `depth`.
    ///
    /// ```
    /// use eldest_search::SearchParams;
    /// let params = SearchParams::DEFAULT;
    /// assert_eq!(params.history_bonus(3), 9 * 16);
    /// assert_eq!(params.history_bonus(50), params.history_bonus(20));
    /// ```
    pub fn history_bonus(&self, depth: i32) -> i32 {
        let depth = depth.min(self.history_bonus_max_depth);
        depth * depth * self.history_bonus_scale
    }
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::DEFAULT
    }
}

/// One tunable constant: its UCI name, its range and the step an SPSA tuner starts from.
///
/// # Examples
///
/// ```
/// use eldest_search::{SearchParams, find_tunable};
///
/// let window = find_tunable("AspirationWindow").unwrap();
/// assert_eq!((window.min, window.max, window.step), (5, 200, 3));
/// let mut params = SearchParams::DEFAULT;
/// // A tuner's value outside the range is clamped, never applied as is.
/// window.apply(&mut params, 1);
/// assert_eq!(params.aspiration_window, window.min);
/// ```
#[derive(Clone, Copy)]
pub struct Tunable {
    /// The UCI option name (in builds with the `tune` feature of `eldest-uci`), e.g. `RfpMargin`.
    pub name: &'static str,
    /// The smallest value accepted.
    pub min: i32,
    /// The largest value accepted.
    pub max: i32,
    /// The perturbation SPSA ends with (OpenBench's `c_end`): about a twentieth of the useful range.
    pub step: i32,
    get: fn(&SearchParams) -> i32,
    set: fn(&mut SearchParams, i32),
}

impl fmt::Debug for Tunable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tunable")
            .field("name", &self.name)
            .field("default", &self.default_value())
            .field("min", &self.min)
            .field("max", &self.max)
            .field("step", &self.step)
            .finish()
    }
}

impl PartialEq for Tunable {
    fn eq(&self, other: &Tunable) -> bool {
        self.name == other.name
    }
}

impl Eq for Tunable {}

impl Tunable {
    /// The value the engine plays with.
    ///
    /// ```
    /// use eldest_search::find_tunable;
    /// assert_eq!(find_tunable("AspirationWindow").unwrap().default_value(), 20);
    /// ```
    pub fn default_value(&self) -> i32 {
        (self.get)(&SearchParams::DEFAULT)
    }

    /// The value in `params`.
    ///
    /// ```
    /// use eldest_search::{SearchParams, find_tunable};
    /// let mut params = SearchParams::DEFAULT;
    /// params.rfp_margin = 95;
    /// assert_eq!(find_tunable("RfpMargin").unwrap().value(&params), 95);
    /// ```
    pub fn value(&self, params: &SearchParams) -> i32 {
        (self.get)(params)
    }

    /// Sets the constant in `params`, clamped into `min..=max`.
    ///
    /// ```
    /// use eldest_search::{SearchParams, find_tunable};
    /// let mut params = SearchParams::DEFAULT;
    /// let margin = find_tunable("rfpmargin").unwrap();
    /// margin.apply(&mut params, 120);
    /// assert_eq!(params.rfp_margin, 120);
    /// margin.apply(&mut params, 1_000_000);
    /// assert_eq!(params.rfp_margin, margin.max);
    /// ```
    pub fn apply(&self, params: &mut SearchParams, value: i32) {
        (self.set)(params, value.clamp(self.min, self.max));
    }

    /// The line OpenBench's SPSA form reads: `name, int, default, min, max, c_end, r_end` (`r_end` 0.002,
    /// OpenBench's usual learning rate at the end).
    ///
    /// ```
    /// use eldest_search::find_tunable;
    /// assert_eq!(
    ///     find_tunable("RfpMargin").unwrap().openbench_line(),
    ///     "RfpMargin, int, 80.0, 20.0, 200.0, 8.0, 0.002"
    /// );
    /// ```
    pub fn openbench_line(&self) -> String {
        format!(
            "{}, int, {:.1}, {:.1}, {:.1}, {:.1}, 0.002",
            self.name,
            f64::from(self.default_value()),
            f64::from(self.min),
            f64::from(self.max),
            f64::from(self.step)
        )
    }
}

macro_rules! tunable {
    ($name:literal, $field:ident, $min:literal ..= $max:literal, step $step:literal) => {
        Tunable {
            name: $name,
            min: $min,
            max: $max,
            step: $step,
            get: |p| p.$field,
            set: |p, v| p.$field = v,
        }
    };
}

/// Every tunable constant of the search, in the order `uci` lists them.
///
/// ```
/// use eldest_search::{SearchParams, TUNABLES};
/// for tunable in TUNABLES {
///     assert!((tunable.min..=tunable.max).contains(&tunable.default_value()), "{}", tunable.name);
/// }
/// ```
pub static TUNABLES: &[Tunable] = &[
    tunable!("RfpMaxDepth", rfp_max_depth, 1..=12, step 1),
    tunable!("RfpMargin", rfp_margin, 20..=200, step 8),
    tunable!("NmpMinDepth", nmp_min_depth, 1..=8, step 1),
    tunable!("NmpBaseReduction", nmp_base_reduction, 1..=6, step 1),
    tunable!("NmpDepthDivisor", nmp_depth_divisor, 1..=12, step 1),
    tunable!("NmpEvalDivisor", nmp_eval_divisor, 50..=600, step 20),
    tunable!("NmpMaxEvalReduction", nmp_max_eval_reduction, 0..=6, step 1),
    tunable!("SingularMinDepth", singular_min_depth, 4..=14, step 1),
    tunable!("SingularMargin", singular_margin, 1..=8, step 1),
    tunable!("SingularDoubleMargin", singular_double_margin, 0..=80, step 5),
    tunable!("SingularMaxDoubles", singular_max_doubles, 0..=16, step 1),
    tunable!("LmpMaxDepth", lmp_max_depth, 0..=10, step 1),
    tunable!("LmpBase", lmp_base, 0..=12, step 1),
    tunable!("FutilityMaxDepth", futility_max_depth, 0..=12, step 1),
    tunable!("FutilityBase", futility_base, 0..=400, step 15),
    tunable!("FutilityMargin", futility_margin, 20..=300, step 10),
    tunable!("HistoryPruneMaxDepth", history_prune_max_depth, 0..=10, step 1),
    tunable!("HistoryPruneMargin", history_prune_margin, 256..=16384, step 256),
    tunable!("SeeNoisyMaxDepth", see_noisy_max_depth, 0..=8, step 1),
    tunable!("SeeNoisyMargin", see_noisy_margin, 20..=300, step 10),
    tunable!("LmrBase", lmr_base, 0..=200, step 10),
    tunable!("LmrDivisor", lmr_divisor, 100..=500, step 15),
    tunable!("LmrHistoryDivisor", lmr_history_divisor, 1024..=32768, step 512),
    tunable!("HistoryBonusScale", history_bonus_scale, 1..=64, step 2),
    tunable!("HistoryBonusMaxDepth", history_bonus_max_depth, 4..=40, step 2),
    tunable!("AspirationWindow", aspiration_window, 5..=200, step 3),
    tunable!("AspirationMinDepth", aspiration_min_depth, 1..=12, step 1),
];

/// The tunable called `name`, compared case-insensitively.
///
/// ```
/// use eldest_search::find_tunable;
/// assert_eq!(find_tunable("lmrdivisor").unwrap().name, "LmrDivisor");
/// assert!(find_tunable("Contempt").is_none());
/// ```
pub fn find_tunable(name: &str) -> Option<&'static Tunable> {
    TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

/// Late-move reduction in plies by depth and move number, from [`SearchParams::lmr_base`] and
/// [`SearchParams::lmr_divisor`]: computed once per change of those two, not per node.
#[derive(Clone)]
pub(crate) struct Reductions {
    table: Box<[[i8; 64]; 64]>,
    built_from: (i32, i32),
}

impl fmt::Debug for Reductions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Reductions(lmr_base {}, lmr_divisor {})",
            self.built_from.0, self.built_from.1
        )
    }
}

impl Reductions {
    pub(crate) fn new(params: &SearchParams) -> Reductions {
        let (base, divisor) = (params.lmr_base, params.lmr_divisor);
        let mut table = Box::new([[0i8; 64]; 64]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                // Hundredths divided out first: 0.75 and 2.25 are exact, so the defaults give the table of the
                // formula as published, bit for bit.
                let plies = f64::from(base) / 100.0
                    + (depth as f64).ln() * (moves as f64).ln() / (f64::from(divisor) / 100.0);
                *r = plies.clamp(0.0, 63.0) as i8;
            }
        }
        Reductions {
            table,
            built_from: (base, divisor),
        }
    }

    /// Rebuilds the table if `params` changed its formula.
    pub(crate) fn update(&mut self, params: &SearchParams) {
        if self.built_from != (params.lmr_base, params.lmr_divisor) {
            *self = Reductions::new(params);
        }
    }

    pub(crate) fn get(&self, depth: i32, moves: usize) -> i32 {
        i32::from(self.table[(depth.max(0) as usize).min(63)][moves.min(63)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_field_is_reached() {
        let mut names: Vec<String> = TUNABLES.iter().map(|t| t.name.to_ascii_lowercase()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len());
        // Each tunable sets a field of its own: moving one away from its default changes it alone.
        for tunable in TUNABLES {
            let mut params = SearchParams::DEFAULT;
            let other = if tunable.default_value() == tunable.max {
                tunable.min
            } else {
                tunable.max
            };
            tunable.apply(&mut params, other);
            assert_eq!(tunable.value(&params), other, "{}", tunable.name);
            for rest in TUNABLES.iter().filter(|t| t.name != tunable.name) {
                assert_eq!(
                    rest.value(&params),
                    rest.default_value(),
                    "{} moved {}",
                    tunable.name,
                    rest.name
                );
            }
            assert!(tunable.step >= 1 && tunable.min < tunable.max, "{}", tunable.name);
        }
    }

    #[test]
    fn the_default_reductions_are_the_published_formula() {
        let table = Reductions::new(&SearchParams::DEFAULT);
        for depth in 1..64 {
            for moves in 1..64usize {
                let expected = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as i32;
                assert_eq!(table.get(depth, moves), expected, "depth {depth} moves {moves}");
            }
        }
    }

    /// Nodes of a fixed-depth search of a middlegame with `params`.
    fn nodes_with(params: SearchParams) -> u64 {
        use crate::{Engine, SearchControl, SearchLimits, SearchOptions};
        use eldest_board::Position;
        use eldest_repetition::GameHistory;
        let root =
            Position::from_fen("r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16").unwrap();
        let game = std::sync::Arc::new(
            [(root.key(), root.halfmove_clock())]
                .into_iter()
                .collect::<GameHistory>(),
        );
        let mut engine = Engine::new(1).unwrap();
        // PeSTO's tables: the constants are the search's, and the embedded network changes with every generation.
        engine.set_evaluation(crate::Evaluation::Pesto);
        let limits = SearchLimits {
            depth: Some(8),
            ..SearchLimits::default()
        };
        let options = SearchOptions {
            params,
            ..SearchOptions::default()
        };
        engine
            .search(&root, game, &limits, &options, &SearchControl::new(), &mut |_| {})
            .nodes
    }

    #[test]
    fn the_search_reads_its_constants_from_the_options() {
        let default = nodes_with(SearchParams::DEFAULT);
        assert_eq!(
            nodes_with(SearchParams::DEFAULT),
            default,
            "a one-thread search is deterministic"
        );
        // Each of these changes the tree of this search; none may be ignored.
        for (name, value) in [
            ("RfpMargin", 20),
            ("NmpBaseReduction", 1),
            ("LmpBase", 12),
            ("LmrDivisor", 120),
            ("LmrHistoryDivisor", 1024),
            ("HistoryBonusScale", 1),
            ("AspirationWindow", 5),
        ] {
            let mut params = SearchParams::DEFAULT;
            find_tunable(name).unwrap().apply(&mut params, value);
            assert_ne!(
                nodes_with(params),
                default,
                "{name} {value} searched the default tree"
            );
        }
    }

    #[test]
    fn reductions_follow_a_change_of_formula() {
        let mut table = Reductions::new(&SearchParams::DEFAULT);
        let before = table.get(20, 30);
        let mut params = SearchParams::DEFAULT;
        params.lmr_divisor = 150;
        table.update(&params);
        assert!(table.get(20, 30) > before);
        params.lmr_divisor = SearchParams::DEFAULT.lmr_divisor;
        table.update(&params);
        assert_eq!(table.get(20, 30), before);
    }
}
