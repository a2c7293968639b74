//! Differential tests against shakmaty 0.30, an independent and widely used move generator.
//!
//! A corpus of positions is built once from seeded random playouts — from the start position, from the Chess
//! Programming Wiki positions, from every one of the 960 Chess960 start positions (Shredder-FEN castling), from
//! every position of the perft suites and from random placements both sides accept — with the same move played on
//! both boards at every step. Each test then checks one rule over the whole corpus (about 58,000 positions), and
//! reports every position that breaks it.
//!
//! FENs are compared as text, Chess960 included: both sides write X-FEN (`KQkq` for the outermost rook, the
//! file letter for an inner one) and keep the en-passant square only when a pawn could capture there. X-FEN cannot
//! say whether a game is Chess960, so a Chess960 position whose castling looks standard reads back as standard
//! chess; that flag only selects the UCI form of castling and is carried over before positions are compared.
//!
//! shakmaty is run in `CastlingMode::Chess960` throughout: it then reads standard FENs as well as Shredder-FEN and
//! writes castling moves as king-takes-rook in UCI; standard UCI (`e1g1`) is compared separately for positions
//! whose castling is standard.

mod support;

use eldest_board::{FenError, Move, MoveKind, Position};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _, PositionError};
use std::collections::HashMap;
use std::sync::OnceLock;
use support::{CPW_FENS, Rng, chess960_start_fen, random_fen, suite_fens};

/// The least number of positions the corpus must hold.
const MIN_POSITIONS: usize = 10_000;

/// One position on both boards.
struct Pair {
    /// Where the position came from, to reproduce a failure.
    origin: String,
    ours: Position,
    theirs: Chess,
}

impl Pair {
    /// The position's FEN (ours), for failure messages.
    fn describe(&self) -> String {
        format!("{} [{}]", self.ours.to_fen(), self.origin)
    }
}

/// shakmaty's position for `fen`, in Chess960 mode, or its reasons for rejecting it.
///
/// Three of shakmaty's rules are stricter than ours, and are waived so that the positions they reject can still
/// be compared: an en-passant square whose capture would be illegal (we keep it, pseudo-legally, and it changes
/// nothing); a check no previous move could have given (e.g. by three pieces — the generator must still answer
/// it correctly); and material that needs more promotions than there are missing pawns when same-coloured
/// bishops are counted as promotions (we count pieces per kind only).
fn try_theirs_from_fen(fen: &str) -> Result<Chess, String> {
    let setup: Fen = fen.parse().map_err(|e| format!("{e}"))?;
    setup
        .into_position(CastlingMode::Chess960)
        .or_else(PositionError::ignore_invalid_ep_square)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_too_much_material)
        .map_err(|e| format!("{:?}", e.kinds()))
}

fn theirs_from_fen(fen: &str) -> Chess {
    try_theirs_from_fen(fen).unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e}"))
}

/// Our legal moves keyed by their UCI text with Chess960 castling (king takes own rook).
fn our_moves_by_uci(pos: &Position) -> Vec<(String, Move)> {
    let mut chess960 = *pos;
    chess960.set_chess960(true);
    pos.legal_moves()
        .iter()
        .map(|&mv| (chess960.move_to_uci(mv), mv))
        .collect()
}

/// shakmaty's legal moves keyed by their UCI text with Chess960 castling.
fn their_moves_by_uci(pos: &Chess) -> HashMap<String, shakmaty::Move> {
    pos.legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(CastlingMode::Chess960).to_string(), m))
        .collect()
}

/// How a random game picks its moves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    /// Uniformly among the legal moves.
    Uniform,
    /// A move that mates or stalemates when there is one, else a capture, promotion, check or double pawn push (for en passant) every other move
    /// when there is one: the game reaches endgames, promotions, checkmates and stalemates far more often than
    /// uniform play. The game stops at insufficient material.
    Violent,
}

/// Plays a seeded random game of at most `plies` half-moves on both boards, adding every position to `corpus`.
/// Moves are drawn from those both generators agree on, so a disagreement is reported by the tests below rather
/// than derailing the walk.
fn walk(origin: &str, fen: &str, plies: usize, rng: &mut Rng, corpus: &mut Vec<Pair>) {
    walk_with(origin, fen, plies, Policy::Uniform, rng, corpus);
}

fn walk_with(origin: &str, fen: &str, plies: usize, policy: Policy, rng: &mut Rng, corpus: &mut Vec<Pair>) {
    let mut ours = Position::from_fen(fen).unwrap_or_else(|e| panic!("we reject {fen}: {e}"));
    let mut theirs = theirs_from_fen(fen);
    for ply in 0..=plies {
        corpus.push(Pair {
            origin: format!("{origin} ply {ply}"),
            ours,
            theirs: theirs.clone(),
        });
        let their_moves = their_moves_by_uci(&theirs);
        let common: Vec<(String, Move)> = our_moves_by_uci(&ours)
            .into_iter()
            .filter(|(uci, _)| their_moves.contains_key(uci))
            .collect();
        if common.is_empty() || ply == plies || (policy == Policy::Violent && ours.is_insufficient_material())
        {
            break;
        }
        let after = |mv: Move| {
            let mut after = ours;
            after.play_unchecked(mv);
            after
        };
        let ending: Vec<&(String, Move)> = common
            .iter()
            .filter(|(_, mv)| !after(*mv).has_legal_move())
            .collect();
        let violent: Vec<&(String, Move)> = common
            .iter()
            .filter(|(_, mv)| mv.is_noisy() || mv.kind() == MoveKind::DoublePush || after(*mv).in_check())
            .collect();
        let (uci, mv) = match policy {
            Policy::Violent if !ending.is_empty() => ending[rng.below(ending.len())],
            Policy::Violent if !violent.is_empty() && rng.chance(1, 2) => violent[rng.below(violent.len())],
            _ => &common[rng.below(common.len())],
        };
        ours.play_unchecked(*mv);
        theirs.play_unchecked(their_moves[uci]);
    }
}

/// The corpus, built once and shared by every test of this file.
fn corpus() -> &'static [Pair] {
    static CORPUS: OnceLock<Vec<Pair>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut rng = Rng::new(0xE1DE_5700_0000_0001);
        let mut corpus = Vec::new();
        for game in 0..40 {
            walk(
                &format!("startpos game {game}"),
                CPW_FENS[0],
                200,
                &mut rng,
                &mut corpus,
            );
        }
        for game in 0..60 {
            walk_with(
                &format!("startpos violent game {game}"),
                CPW_FENS[0],
                300,
                Policy::Violent,
                &mut rng,
                &mut corpus,
            );
        }
        for (i, fen) in CPW_FENS.iter().enumerate().skip(1) {
            for game in 0..10 {
                walk(&format!("cpw #{i} game {game}"), fen, 120, &mut rng, &mut corpus);
            }
        }
        // Every Chess960 start position, with its opening moves (when castling rules differ most), then long games
        // from random ones.
        for index in 0..960 {
            let fen = chess960_start_fen(index);
            walk(&format!("chess960 #{index}"), &fen, 10, &mut rng, &mut corpus);
        }
        for game in 0..40 {
            let index = rng.below(960) as u32;
            let fen = chess960_start_fen(index);
            let policy = if game % 2 == 0 {
                Policy::Uniform
            } else {
                Policy::Violent
            };
            walk_with(
                &format!("chess960 #{index} game {game}"),
                &fen,
                200,
                policy,
                &mut rng,
                &mut corpus,
            );
        }
        // Random placements (castling and en-passant fields included) that both sides accept: odd positions no
        // playout reaches, such as double and triple checks, with a few moves of each.
        let mut accepted = 0;
        while accepted < 2_500 {
            let fen = random_fen(&mut rng);
            if Position::from_fen(&fen).is_ok() && try_theirs_from_fen(&fen).is_ok() {
                walk(
                    &format!("random placement {accepted}"),
                    &fen,
                    4,
                    &mut rng,
                    &mut corpus,
                );
                accepted += 1;
            }
        }
        for name in ["perft.epd", "perft960.epd"] {
            for (line, fen) in suite_fens(name).iter().enumerate() {
                walk(&format!("{name} position {line}"), fen, 30, &mut rng, &mut corpus);
            }
        }
        corpus
    })
}

/// Runs `check` on every pair; it returns a description of each violation. Fails with (at most 30 of) them.
fn check_all(rule: &str, mut check: impl FnMut(&Pair, &mut Vec<String>)) {
    let corpus = corpus();
    assert!(
        corpus.len() >= MIN_POSITIONS,
        "corpus has {} positions",
        corpus.len()
    );
    let mut failures = Vec::new();
    for pair in corpus {
        let before = failures.len();
        check(pair, &mut failures);
        for failure in &mut failures[before..] {
            *failure = format!("{}: {failure}", pair.describe());
        }
    }
    let total = failures.len();
    failures.truncate(30);
    assert!(
        failures.is_empty(),
        "{rule}: {total} violations over {} positions, e.g.\n{}",
        corpus.len(),
        failures.join("\n")
    );
}

fn sorted<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort();
    items
}

#[test]
fn corpus_is_large_and_exercises_every_special_move() {
    let corpus = corpus();
    assert!(corpus.len() >= MIN_POSITIONS, "{} positions", corpus.len());
    let mut castling = 0;
    let mut en_passant = 0;
    let mut promotions = 0;
    let mut checks = 0;
    let mut chess960 = 0;
    for pair in corpus {
        let moves = pair.ours.legal_moves();
        castling += usize::from(moves.iter().any(|m| m.is_castle()));
        en_passant += usize::from(moves.iter().any(|m| m.is_en_passant()));
        promotions += usize::from(moves.iter().any(|m| m.promotion().is_some()));
        checks += usize::from(pair.ours.in_check());
        chess960 += usize::from(pair.ours.is_chess960());
    }
    println!(
        "{} positions: {castling} with castling, {en_passant} with en passant, {promotions} with promotions, \
         {checks} in check, {chess960} Chess960",
        corpus.len()
    );
    assert!(castling >= 1_000, "{castling} positions with castling");
    assert!(en_passant >= 100, "{en_passant} positions with en passant");
    assert!(promotions >= 300, "{promotions} positions with promotions");
    assert!(checks >= 1_000, "{checks} positions in check");
    assert!(chess960 >= 5_000, "{chess960} Chess960 positions");
}

#[test]
fn legal_move_sets_match_shakmaty() {
    check_all("legal move sets", |pair, failures| {
        // Chess960 UCI (king takes own rook): every position.
        let ours = sorted(
            our_moves_by_uci(&pair.ours)
                .into_iter()
                .map(|(uci, _)| uci)
                .collect(),
        );
        let theirs = sorted(their_moves_by_uci(&pair.theirs).into_keys().collect());
        if ours != theirs {
            failures.push(format!("moves {ours:?} vs shakmaty {theirs:?}"));
        }
        // Standard UCI (king to destination) where the castling is standard.
        let mut standard = pair.ours;
        if standard.set_chess960(false) {
            let ours = sorted(
                standard
                    .legal_moves()
                    .iter()
                    .map(|&mv| standard.move_to_uci(mv))
                    .collect(),
            );
            let theirs = sorted(
                pair.theirs
                    .legal_moves()
                    .into_iter()
                    .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                    .collect(),
            );
            if ours != theirs {
                failures.push(format!("standard UCI {ours:?} vs shakmaty {theirs:?}"));
            }
        }
        let count = pair.ours.count_moves();
        if count != pair.theirs.legal_moves().len() {
            failures.push(format!(
                "count_moves {count} vs shakmaty {}",
                pair.theirs.legal_moves().len()
            ));
        }
    });
}

#[test]
fn gives_check_of_every_move_matches_shakmaty() {
    check_all("gives_check", |pair, failures| {
        let their_moves = their_moves_by_uci(&pair.theirs);
        for (uci, mv) in our_moves_by_uci(&pair.ours) {
            let Some(m) = their_moves.get(&uci) else {
                continue;
            };
            let mut after = pair.theirs.clone();
            after.play_unchecked(*m);
            let ours = pair.ours.gives_check(mv);
            if ours != after.is_check() {
                failures.push(format!(
                    "{uci}: gives_check {ours} vs shakmaty {}",
                    after.is_check()
                ));
            }
        }
    });
}

#[test]
fn san_of_every_move_matches_shakmaty_and_parses_back() {
    check_all("SAN", |pair, failures| {
        let their_moves = their_moves_by_uci(&pair.theirs);
        for (uci, mv) in our_moves_by_uci(&pair.ours) {
            let ours = pair.ours.move_to_san(mv);
            if let Some(&m) = their_moves.get(&uci) {
                let theirs = SanPlus::from_move(pair.theirs.clone(), m).to_string();
                if ours != theirs {
                    failures.push(format!("{uci}: SAN {ours:?} vs shakmaty {theirs:?}"));
                }
            }
            match pair.ours.parse_san(&ours) {
                Ok(parsed) if parsed == mv => {}
                other => failures.push(format!("{uci}: parse_san({ours:?}) = {other:?}, expected {mv:?}")),
            }
            // Without the check / mate suffix, too.
            let bare = ours.trim_end_matches(['+', '#']);
            if pair.ours.parse_san(bare) != Ok(mv) {
                failures.push(format!("{uci}: parse_san({bare:?}) is not {mv:?}"));
            }
        }
    });
}

#[test]
fn uci_of_every_move_parses_back_to_the_same_move() {
    check_all("UCI", |pair, failures| {
        let mut chess960 = pair.ours;
        chess960.set_chess960(true);
        let mut standard = pair.ours;
        let has_standard = standard.set_chess960(false);
        for &mv in pair.ours.legal_moves().iter() {
            for pos in [&chess960, &pair.ours]
                .into_iter()
                .chain(has_standard.then_some(&standard))
            {
                let uci = pos.move_to_uci(mv);
                if pos.parse_uci_move(&uci) != Ok(mv) {
                    failures.push(format!(
                        "parse_uci_move({uci:?}) = {:?} (chess960 {}), expected {mv:?}",
                        pos.parse_uci_move(&uci),
                        pos.is_chess960()
                    ));
                }
            }
            // The king-takes-rook form is accepted in every mode.
            let uci = chess960.move_to_uci(mv);
            if pair.ours.parse_uci_move(&uci) != Ok(mv) {
                failures.push(format!("parse_uci_move({uci:?}) in the position's own mode"));
            }
            if mv.to_uci(true).to_string() != uci {
                failures.push(format!("Move::to_uci(true) differs from move_to_uci: {uci}"));
            }
        }
    });
}

#[test]
fn fen_matches_shakmaty_and_round_trips() {
    check_all("FEN", |pair, failures| {
        let fen = pair.ours.to_fen();
        let theirs = Fen::from_position(&pair.theirs, EnPassantMode::PseudoLegal).to_string();
        // Both write X-FEN: `KQkq` for the outermost rook, the file letter for an inner one (Chess960).
        if fen != theirs {
            failures.push(format!("FEN {fen:?} vs shakmaty {theirs:?}"));
        }
        match Position::from_fen(&fen) {
            Ok(mut reparsed) => {
                // X-FEN does not say whether a game is Chess960: a Chess960 position whose castling looks
                // standard (or that has no rights left) reads back as standard chess. That flag only chooses the
                // UCI notation of castling; everything else must be identical.
                if reparsed.is_chess960() && !pair.ours.is_chess960() {
                    failures.push("standard position read back as Chess960".into());
                }
                reparsed.set_chess960(pair.ours.is_chess960());
                if reparsed != pair.ours {
                    failures.push(format!("from_fen(to_fen()) differs: {reparsed:?}"));
                }
                if reparsed.to_fen() != fen {
                    failures.push(format!("FEN not stable: {}", reparsed.to_fen()));
                }
            }
            Err(e) => failures.push(format!("from_fen(to_fen()) fails: {e}")),
        }
        // shakmaty reads our FEN back to the same position (Chess960 mode reads every castling notation).
        match try_theirs_from_fen(&fen) {
            Ok(back) => {
                let back = Fen::from_position(&back, EnPassantMode::PseudoLegal).to_string();
                if back != theirs {
                    failures.push(format!("shakmaty reads our FEN as {back:?}"));
                }
            }
            Err(e) => failures.push(format!("shakmaty rejects our FEN: {e}")),
        }
        // EPD: the four fields plus operations; without `hmvc` / `fmvn` the counters are 0 and 1.
        let fields = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        let epd = format!("{fields} bm e4; id \"x y\";");
        match (
            Position::from_epd(&epd),
            Position::from_fen(&format!("{fields} 0 1")),
        ) {
            (Ok(parsed), Ok(mut expected)) => {
                let mut got = parsed.position;
                got.set_chess960(pair.ours.is_chess960());
                expected.set_chess960(pair.ours.is_chess960());
                if got != expected
                    || parsed.operation("id") != Some("x y")
                    || parsed.operation("bm") != Some("e4")
                {
                    failures.push(format!("from_epd({epd:?}) = {parsed:?}"));
                }
            }
            (parsed, expected) => {
                failures.push(format!("from_epd({epd:?}) = {parsed:?}, from_fen: {expected:?}"))
            }
        }
    });
}

#[test]
fn checkmate_stalemate_and_insufficient_material_match_shakmaty() {
    let mut mates = 0;
    let mut stalemates = 0;
    let mut insufficient = 0;
    check_all("game end", |pair, failures| {
        let (ours, theirs) = (&pair.ours, &pair.theirs);
        let facts = [
            ("in_check", ours.in_check(), theirs.is_check()),
            ("is_checkmate", ours.is_checkmate(), theirs.is_checkmate()),
            ("is_stalemate", ours.is_stalemate(), theirs.is_stalemate()),
            (
                "is_insufficient_material",
                ours.is_insufficient_material(),
                theirs.is_insufficient_material(),
            ),
        ];
        for (name, a, b) in facts {
            if a != b {
                failures.push(format!("{name}: {a} vs shakmaty {b}"));
            }
        }
        for color in [eldest_board::Color::White, eldest_board::Color::Black] {
            let theirs_color = match color {
                eldest_board::Color::White => shakmaty::Color::White,
                eldest_board::Color::Black => shakmaty::Color::Black,
            };
            let (a, b) = (
                ours.has_insufficient_material(color),
                has_lone_minor_or_less(theirs, theirs_color),
            );
            if a != b {
                failures.push(format!("has_insufficient_material({color:?}): {a} vs {b}"));
            }
        }
        mates += usize::from(ours.is_checkmate());
        stalemates += usize::from(ours.is_stalemate());
        insufficient += usize::from(ours.is_insufficient_material());
    });
    println!("{mates} checkmates, {stalemates} stalemates, {insufficient} with insufficient material");
    assert!(mates >= 20 && stalemates >= 5 && insufficient >= 100);
}

/// The documented rule of `has_insufficient_material(color)` ("no pawn, rook or queen, and at most one minor
/// piece"), computed on shakmaty's board. (shakmaty's own per-colour helper also looks at the opponent's pieces
/// for self-mate patterns, which is a different rule.)
fn has_lone_minor_or_less(pos: &Chess, color: shakmaty::Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(color);
    (ours & (board.pawns() | board.rooks_and_queens())).is_empty()
        && (ours & (board.knights() | board.bishops())).count() <= 1
}

#[test]
fn incremental_key_equals_recomputed_key() {
    check_all("key", |pair, failures| {
        if pair.ours.key() != pair.ours.compute_key() {
            failures.push(format!(
                "key {:#018x} vs compute_key {:#018x}",
                pair.ours.key(),
                pair.ours.compute_key()
            ));
        }
    });
}

/// The FEN parsers agree on what they accept: every random FEN that shakmaty accepts (strictly, in Chess960 mode)
/// we accept too, and every one we accept shakmaty accepts but for its three stricter rules (see
/// [`try_theirs_from_fen`]).
#[test]
fn fen_acceptance_matches_shakmaty_on_random_placements() {
    let mut rng = Rng::new(0xACCE_0001);
    let mut failures = Vec::new();
    let (mut both, mut neither) = (0, 0);
    for _ in 0..50_000 {
        let fen = random_fen(&mut rng);
        let ours = Position::from_fen(&fen);
        let strict = fen
            .parse::<Fen>()
            .ok()
            .and_then(|setup| setup.into_position::<Chess>(CastlingMode::Chess960).ok());
        match (&ours, strict.is_some(), try_theirs_from_fen(&fen)) {
            // shakmaty ignores a right written twice (`KK`, or `KH` for the same rook); we reject the field.
            (Err(FenError::InvalidCastling(field)), true, _) if names_a_right_twice(&fen, field) => {
                neither += 1
            }
            (Err(e), true, _) => failures.push(format!("{fen}: we reject ({e}), shakmaty accepts")),
            (Ok(_), _, Err(kinds)) => failures.push(format!("{fen}: we accept, shakmaty rejects: {kinds}")),
            (Ok(_), _, Ok(_)) => both += 1,
            (Err(_), false, _) => neither += 1,
        }
    }
    println!("{both} accepted by both, {neither} rejected by both");
    let total = failures.len();
    failures.truncate(30);
    assert!(
        failures.is_empty(),
        "{total} disagreements, e.g.\n{}",
        failures.join("\n")
    );
    assert!(both >= 2_000, "{both}");
}

/// Whether dropping one letter of the castling `field` of `fen` makes it acceptable: the field named one right
/// twice.
fn names_a_right_twice(fen: &str, field: &str) -> bool {
    (0..field.len()).any(|i| {
        let shorter = format!("{}{}", &field[..i], &field[i + 1..]);
        let fields: Vec<&str> = fen.split(' ').collect();
        let fen = format!("{} {} {shorter} {}", fields[0], fields[1], fields[3..].join(" "));
        field.is_ascii() && Position::from_fen(&fen).is_ok()
    })
}

/// Two positions are the same (by shakmaty's FEN, which drops an unusable en-passant square) exactly when our
/// keys are equal — barring a 64-bit collision, which this corpus is far too small to meet.
#[test]
fn equal_keys_mean_equal_positions() {
    let mut by_key: HashMap<u64, String> = HashMap::new();
    let mut by_position: HashMap<String, u64> = HashMap::new();
    check_all("key identity", |pair, failures| {
        let fen = Fen::from_position(&pair.theirs, EnPassantMode::PseudoLegal).to_string();
        let position: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        let key = pair.ours.key();
        let known = by_key.entry(key).or_insert_with(|| position.clone());
        if *known != position {
            failures.push(format!("same key {key:#018x} as {known}"));
        }
        let known = by_position.entry(position).or_insert(key);
        if *known != key {
            failures.push(format!("key {key:#018x}, but {known:#018x} when seen before"));
        }
    });
}
