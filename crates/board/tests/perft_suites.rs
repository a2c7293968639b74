//! Perft against the reference suites in `tests/data/`: every line of every file is run at every depth it lists,
//! and the number of lines checked is asserted, so a truncated or unreadable file cannot pass silently.
//!
//! Line format: `<fen> ;D1 <n> ;D2 <n> ...`; lines starting with `#` and blank lines are comments. A header
//! comment `# <N> positions; ...` (written by `make_perft_suite.py`) is checked against the lines found too.

use eldest_board::Position;
use std::path::PathBuf;

/// One line of a suite: where it is, the FEN, and `(depth, nodes)` pairs.
struct SuiteLine {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
}

/// A suite file read and parsed; panics (failing the test) on any malformed line.
struct Suite {
    name: &'static str,
    lines: Vec<SuiteLine>,
    /// Non-blank, non-comment lines of the file: what `lines` must account for.
    data_lines: usize,
    /// The `# N positions` header, if the file has one.
    header_count: Option<usize>,
}

fn read_suite(name: &'static str) -> Suite {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", name]
        .iter()
        .collect();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read perft suite {}: {e}", path.display()));
    let mut lines = Vec::new();
    let mut data_lines = 0;
    let mut header_count = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if let Some(comment) = trimmed.strip_prefix('#') {
            if header_count.is_none()
                && let Some((count, rest)) = comment.trim().split_once(' ')
                && rest.starts_with("positions")
                && let Ok(count) = count.parse()
            {
                header_count = Some(count);
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        data_lines += 1;
        let mut fields = trimmed.split(';');
        let fen = fields.next().expect("split yields one field").trim().to_string();
        let counts: Vec<(u32, u64)> = fields
            .map(|field| {
                let field = field.trim();
                let (depth, nodes) = field
                    .strip_prefix('D')
                    .and_then(|rest| rest.split_once(char::is_whitespace))
                    .unwrap_or_else(|| panic!("{name}:{line}: malformed count {field:?}"));
                let depth = depth
                    .parse()
                    .unwrap_or_else(|_| panic!("{name}:{line}: bad depth in {field:?}"));
                let nodes = nodes
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("{name}:{line}: bad node count in {field:?}"));
                (depth, nodes)
            })
            .collect();
        assert!(!counts.is_empty(), "{name}:{line}: no perft counts");
        lines.push(SuiteLine { line, fen, counts });
    }
    Suite {
        name,
        lines,
        data_lines,
        header_count,
    }
}

impl Suite {
    /// Checks the file's bookkeeping: every data line parsed, at least `minimum` of them, and as many as the
    /// header announces.
    fn check_counts(&self, minimum: usize) {
        let name = self.name;
        assert_eq!(
            self.lines.len(),
            self.data_lines,
            "{name}: lines parsed vs data lines"
        );
        assert!(
            self.lines.len() >= minimum,
            "{name}: {} positions, expected at least {minimum}",
            self.lines.len()
        );
        if let Some(header) = self.header_count {
            assert_eq!(
                self.lines.len(),
                header,
                "{name}: positions vs the header's count"
            );
        }
    }

    /// Runs perft for the lines `select` picks, at every listed depth; returns how many lines ran. All
    /// mismatches are collected and reported together.
    fn run(&self, select: impl Fn(&SuiteLine) -> bool) -> usize {
        let mut failures = Vec::new();
        let mut checked = 0;
        for entry in self.lines.iter().filter(|entry| select(entry)) {
            let position = match Position::from_fen(&entry.fen) {
                Ok(position) => position,
                Err(e) => {
                    failures.push(format!(
                        "{}:{}: {:?} rejected: {e}",
                        self.name, entry.line, entry.fen
                    ));
                    continue;
                }
            };
            for &(depth, expected) in &entry.counts {
                let actual = position.perft(depth);
                if actual != expected {
                    failures.push(format!(
                        "{}:{}: {} depth {depth}: expected {expected}, got {actual}",
                        self.name, entry.line, entry.fen
                    ));
                }
            }
            checked += 1;
        }
        assert!(
            failures.is_empty(),
            "{} perft mismatches:\n{}",
            failures.len(),
            failures.join("\n")
        );
        checked
    }

    /// Runs every line and checks that every line ran.
    fn run_all(&self, minimum: usize) {
        self.check_counts(minimum);
        let checked = self.run(|_| true);
        assert_eq!(checked, self.lines.len(), "{}: lines checked", self.name);
    }
}

const CPW: &str = "perft-cpw.epd";
const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Runs the one CPW line whose FEN starts with `fen`, asserting its deepest depth is at least `depth`.
fn run_cpw_line(fen: &str, depth: u32) {
    let suite = read_suite(CPW);
    let is_it = |entry: &SuiteLine| entry.fen.starts_with(fen);
    let entry = suite
        .lines
        .iter()
        .find(|entry| is_it(entry))
        .unwrap_or_else(|| panic!("{CPW} lacks {fen}"));
    let deepest = entry.counts.iter().map(|&(d, _)| d).max();
    assert!(deepest >= Some(depth), "{CPW}: {fen} only to depth {deepest:?}");
    assert_eq!(suite.run(is_it), 1);
}

#[test]
fn cpw_start_position_to_depth_6() {
    run_cpw_line(STARTPOS, 6);
}

#[test]
fn cpw_kiwipete_to_depth_5() {
    run_cpw_line(KIWIPETE, 5);
}

/// The other CPW positions (3 to 6, and 4 mirrored) at their published depths.
#[test]
fn cpw_positions_3_to_6_at_published_depths() {
    let suite = read_suite(CPW);
    suite.check_counts(7);
    let big = |entry: &SuiteLine| entry.fen.starts_with(STARTPOS) || entry.fen.starts_with(KIWIPETE);
    assert_eq!(
        suite.lines.iter().filter(|entry| big(entry)).count(),
        2,
        "{CPW}: the start position and Kiwipete, once each"
    );
    let checked = suite.run(|entry| !big(entry));
    // With the two lines the tests above run, every line of the file is checked.
    assert_eq!(checked + 2, suite.lines.len(), "{CPW}: lines checked");
}

#[test]
fn standard_suite_perft_epd_every_line() {
    read_suite("perft.epd").run_all(120);
}

#[test]
fn chess960_suite_perft960_epd_every_line() {
    let suite = read_suite("perft960.epd");
    suite.run_all(20);
    // The Chess960 file must really exercise Chess960 castling: most of its positions are marked Chess960.
    let chess960 = suite
        .lines
        .iter()
        .filter(|entry| Position::from_fen(&entry.fen).is_ok_and(|p| p.is_chess960()))
        .count();
    assert!(
        chess960 >= 20,
        "perft960.epd: only {chess960} positions are Chess960"
    );
}
