//! `--resume`: a match picked up where it stopped. The JSON file, rewritten after every game, holds what is
//! needed: each game's number, round, players, opening, result and termination, and each engine's fault and
//! clock tallies. Every game read back is checked against the schedule that the command line gives now (the
//! same engines, options and limits, the same openings in the same order), so a resumed match is the match that
//! one uninterrupted run would have played, and its statistics are the same.

use super::output::{EngineTally, GameSummary, PairingTally};
use super::{Plan, json_engines};
use eldest_board::Color;
use std::collections::{BTreeMap, HashSet};

/// What a resumed match starts from.
#[derive(Debug)]
pub(super) struct Resumed {
    /// Schedule slots already played (a game's number minus one).
    pub(super) done: HashSet<usize>,
    /// Seconds the earlier runs took.
    pub(super) seconds: f64,
    /// When the first run started (Unix seconds).
    pub(super) started_unix: u64,
}

/// Everything counted so far: what the JSON file holds.
#[derive(Debug)]
pub(super) struct Counted {
    pub(super) pairings: Vec<PairingTally>,
    pub(super) engines: Vec<EngineTally>,
    pub(super) terminations: BTreeMap<String, u64>,
    pub(super) games: Vec<GameSummary>,
}

/// Reads the JSON file of `plan` back into `counted` (empty tallies of this plan).
///
/// # Errors
/// A missing or unreadable file, or one whose engines, limits, game count or games do not fit the plan.
pub(super) fn load(plan: &Plan, counted: &mut Counted) -> Result<Resumed, String> {
    let path = &plan.json_path;
    let cannot = |why: String| format!("cannot resume from {}: {why}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| cannot(e.to_string()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| cannot(format!("not JSON: {e}")))?;
    if !plan.pgn_path.is_file() {
        return Err(cannot(format!(
            "its PGN file {} is missing",
            plan.pgn_path.display()
        )));
    }

    let played_engines = json["engines"]
        .as_array()
        .ok_or_else(|| cannot("no engines in it".into()))?;
    let empty_tallies = counted.engines.clone();
    let planned_engines = json_engines(plan, &empty_tallies);
    if played_engines.len() != planned_engines.len() {
        return Err(cannot(format!(
            "it has {} engines, the command line {}",
            played_engines.len(),
            planned_engines.len()
        )));
    }
    for (index, (played, planned)) in played_engines.iter().zip(&planned_engines).enumerate() {
        let identity = |engine: &serde_json::Value| {
            let mut engine = engine.clone();
            if let Some(fields) = engine.as_object_mut() {
                fields.remove("tally");
            }
            engine
        };
        let planned = serde_json::to_value(planned).map_err(|e| cannot(e.to_string()))?;
        if identity(played) != identity(&planned) {
            return Err(cannot(format!(
                "engine {} differs: it was {}, the command line gives {}",
                index + 1,
                identity(played),
                identity(&planned)
            )));
        }
        counted.engines[index] = serde_json::from_value(played["tally"].clone())
            .map_err(|e| cannot(format!("engine {}'s tally: {e}", index + 1)))?;
    }
    for (field, planned) in [
        ("games_per_pairing", plan.games_per_pairing),
        ("openings", plan.openings.len()),
    ] {
        if json[field].as_u64() != Some(planned as u64) {
            return Err(cannot(format!(
                "its {field} is {}, the command line gives {planned}",
                json[field]
            )));
        }
    }

    let games: Vec<GameSummary> =
        serde_json::from_value(json["games"].clone()).map_err(|e| cannot(format!("its games: {e}")))?;
    let names: Vec<&str> = plan.specs.iter().map(|spec| spec.name.as_str()).collect();
    let mut done = HashSet::new();
    for game in &games {
        let slot = game.number.checked_sub(1);
        let job = slot.and_then(|slot| plan.job(slot));
        let fits = job.is_some_and(|job| {
            job.round == game.round
                && names[job.white] == game.white
                && names[job.black] == game.black
                && plan.openings[job.opening].name == game.opening
        });
        let (Some(slot), Some(job), true) = (slot, job, fits) else {
            return Err(cannot(format!(
                "game {} ({} vs {}, {}) is not that game of this schedule (other openings, seed or engines?)",
                game.number, game.white, game.black, game.opening
            )));
        };
        if !done.insert(slot) {
            return Err(cannot(format!("game {} is in it twice", game.number)));
        }
        let result = match game.result.as_str() {
            "1-0" => super::game::GameResult::WhiteWins,
            "0-1" => super::game::GameResult::BlackWins,
            "1/2-1/2" => super::game::GameResult::Draw,
            other => return Err(cannot(format!("game {} has the result '{other}'", game.number))),
        };
        let tally = &mut counted.pairings[job.pairing];
        let first_color = if job.white == tally.first {
            Color::White
        } else {
            Color::Black
        };
        tally.record_outcome(job.round, first_color, result.outcome_for(first_color));
        *counted.terminations.entry(game.termination.clone()).or_insert(0) += 1;
    }
    counted.games = games;
    Ok(Resumed {
        done,
        seconds: json["seconds"].as_f64().unwrap_or(0.0),
        started_unix: json["started_unix"].as_u64().unwrap_or(0),
    })
}
