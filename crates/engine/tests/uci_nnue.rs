//! The evaluation network over UCI: `Evaluation` switches between the network and PeSTO's tables, `EvalFile`
//! loads another net and refuses a bad one with a clear message while the network in use stays.

mod common;

use common::{Engine, assert_legal_bestmove, info_strings};
use eldest_board::Position;
use eldest_search::nnue::EMBEDDED_NAME;

fn search_answers(engine: &mut Engine, position: &Position) {
    engine.send("go depth 6");
    let lines = engine.until_bestmove();
    assert_legal_bestmove(position, lines.last().unwrap());
}

#[test]
fn the_network_is_an_option_and_searches() {
    let mut engine = Engine::start();
    let lines = engine.handshake();
    for option in [
        "option name Evaluation type combo default nnue var nnue var pesto".to_string(),
        format!("option name EvalFile type string default {EMBEDDED_NAME}"),
    ] {
        assert!(lines.contains(&option), "missing {option:?} in {lines:?}");
    }
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let position = Position::from_fen(fen).unwrap();
    engine.send(&format!("position fen {fen}"));
    engine.send("setoption name Evaluation value nnue");
    assert!(engine.sync().is_empty());
    search_answers(&mut engine, &position);
    engine.send("eval");
    let eval = engine.until(|l| l.starts_with("Final evaluation"));
    assert!(eval[0].starts_with("Network evaluation "), "{eval:?}");
    assert!(eval[0].contains(EMBEDDED_NAME), "{eval:?}");
    engine.send("setoption name evaluation value PESTO");
    engine.send("eval");
    let eval = engine.until(|l| l.starts_with("Final evaluation"));
    assert!(!eval.iter().any(|l| l.contains("Network")), "{eval:?}");
    engine.send("setoption name Evaluation value psqt");
    let notes = engine.sync();
    assert!(
        info_strings(&notes)[0].contains("expected one of nnue, pesto"),
        "{notes:?}"
    );
    engine.quit();
}

#[test]
fn a_bad_eval_file_is_refused_and_the_network_stays() {
    let dir = std::env::temp_dir().join(format!("eldest-uci-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = eldest_search::nnue::Network::embedded_bytes();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &net[..net.len() / 2]).unwrap();
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, b"not a network at all").unwrap();
    let copy = dir.join("copy.nnue");
    std::fs::write(&copy, net).unwrap();

    let mut engine = Engine::start();
    engine.handshake();
    engine.send("setoption name Evaluation value nnue");
    for (file, says) in [
        (dir.join("missing.nnue"), "cannot read the net file"),
        (truncated, "truncated or padded"),
        (garbage, "not an Eldest net file"),
        // An endless device, and a directory: refused without reading them.
        (std::path::PathBuf::from("/dev/zero"), "not a regular file"),
        (dir.clone(), "not a regular file"),
    ] {
        if cfg!(not(unix)) && file.starts_with("/dev") {
            continue;
        }
        engine.send(&format!("setoption name EvalFile value {}", file.display()));
        let answer = engine.sync();
        let notes = info_strings(&answer);
        assert_eq!(notes.len(), 1, "{answer:?}");
        assert!(notes[0].contains(says), "{notes:?} lacks {says:?}");
        assert!(
            notes[0].contains(&format!("keeping {EMBEDDED_NAME}")),
            "{notes:?}"
        );
        search_answers(&mut engine, &Position::startpos());
    }
    engine.send(&format!("setoption name EvalFile value {}", copy.display()));
    let answer = engine.sync();
    assert!(info_strings(&answer)[0].contains("loaded"), "{answer:?}");
    search_answers(&mut engine, &Position::startpos());
    engine.send("eval");
    let eval = engine.until(|l| l.starts_with("Final evaluation"));
    assert!(eval[0].contains("copy.nnue"), "{eval:?}");
    // The embedded net again, by its name.
    engine.send(&format!("setoption name EvalFile value {EMBEDDED_NAME}"));
    assert!(engine.sync().is_empty());
    engine.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A version-2 net of `hidden` neurons and `buckets` output buckets, its weights a fixed pattern inside the
/// loader's ranges (the layout of `eldest_search::nnue`).
fn bucketed_net(hidden: usize, buckets: usize) -> Vec<u8> {
    use eldest_search::nnue::{INPUTS, KIND_PERSPECTIVE, NET_MAGIC};
    let mut bytes = NET_MAGIC.to_vec();
    for field in [
        2,
        KIND_PERSPECTIVE,
        INPUTS as u32,
        hidden as u32,
        255,
        64,
        buckets as u32,
    ] {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    for i in 0..INPUTS * hidden + hidden + 2 * hidden * buckets {
        let weight = (i % 53) as i16 - 26;
        bytes.extend_from_slice(&weight.to_le_bytes());
    }
    for bucket in 0..buckets as i32 {
        bytes.extend_from_slice(&(bucket * 1000).to_le_bytes());
    }
    bytes
}

#[test]
fn a_net_with_output_buckets_loads_and_searches() {
    let dir = std::env::temp_dir().join(format!("eldest-uci-buckets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bucketed.nnue");
    std::fs::write(&file, bucketed_net(16, 8)).unwrap();
    let too_many = dir.join("nine-buckets.nnue");
    std::fs::write(&too_many, bucketed_net(16, 9)).unwrap();

    let mut engine = Engine::start();
    engine.handshake();
    engine.send(&format!("setoption name EvalFile value {}", too_many.display()));
    let answer = engine.sync();
    assert!(
        info_strings(&answer)[0].contains("9 output buckets; 1 to 8"),
        "{answer:?}"
    );
    engine.send(&format!("setoption name EvalFile value {}", file.display()));
    let answer = engine.sync();
    assert!(
        info_strings(&answer)[0].contains("8 output buckets"),
        "{answer:?}"
    );
    // An endgame and a full board: two buckets of the same net.
    for fen in [
        "8/5k2/8/3K4/8/8/2P5/8 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ] {
        engine.send(&format!("position fen {fen}"));
        search_answers(&mut engine, &Position::from_fen(fen).unwrap());
    }
    engine.quit();
    std::fs::remove_dir_all(&dir).unwrap();
}
