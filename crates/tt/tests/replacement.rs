//! Each replacement rule of docs/tt.md, tested on its own. A table of one bucket puts every key in the same
//! three slots, so the rules decide everything.

use eldest_tt::{
    Bound, ExclusiveProbe, MATE, MAX_DEPTH, MIN_DEPTH, PINNED_DEPTH, ProbeOutcome, Record, StoreOutcome,
    TranspositionTable, probe_cutoff,
};

/// Keys that differ in their top bits: distinct positions, and distinct `nproc` tags.
const A: u64 = 0xA000_0000_0000_0000;
const B: u64 = 0xB000_0000_0000_0000;
const C: u64 = 0xC000_0000_0000_0000;
const D: u64 = 0xD000_0000_0000_0000;

fn one_bucket() -> TranspositionTable {
    TranspositionTable::with_buckets(1).expect("one bucket")
}

fn result(best_move: u16, depth: i32, bound: Bound) -> Record {
    Record {
        best_move,
        score: 25,
        static_eval: Some(7),
        depth,
        bound,
    }
}

fn depth_of(tt: &TranspositionTable, key: u64) -> Option<i32> {
    tt.probe(key).map(|entry| entry.depth())
}

#[test]
fn same_key_update_keeps_the_old_move_when_the_new_result_has_none() {
    let tt = one_bucket();
    tt.store(A, 0, result(0x1234, 4, Bound::LOWER));
    // A deeper fail-low has no best move: the result is replaced, the move is kept.
    assert_eq!(tt.store(A, 0, result(0, 6, Bound::UPPER)), StoreOutcome::Updated);
    let entry = tt.probe(A).unwrap();
    assert_eq!(
        (entry.depth(), entry.bound(), entry.best_move()),
        (6, Bound::UPPER, Some(0x1234))
    );
    // A new move does replace the old one.
    tt.store(A, 0, result(0x0777, 7, Bound::LOWER));
    assert_eq!(tt.probe(A).unwrap().best_move(), Some(0x0777));
}

#[test]
fn shallower_current_generation_result_does_not_evict_a_deeper_one() {
    let tt = one_bucket();
    for key in [A, B, C] {
        assert_eq!(
            tt.store(key, 0, result(1, 9, Bound::LOWER)),
            StoreOutcome::Inserted
        );
    }
    // Another position, shallower: every slot holds a deeper result of this search.
    assert_eq!(
        tt.store(D, 0, result(1, 8, Bound::LOWER)),
        StoreOutcome::TooShallow
    );
    assert!(tt.probe(D).is_none());
    // The same position, shallower bound: the deeper result stays.
    assert_eq!(
        tt.store(A, 0, result(2, 3, Bound::UPPER)),
        StoreOutcome::KeptExisting
    );
    assert_eq!(depth_of(&tt, A), Some(9));
    // Equal depth is enough to evict.
    assert_eq!(tt.store(D, 0, result(1, 9, Bound::LOWER)), StoreOutcome::Inserted);
}

#[test]
fn old_generation_entry_is_replaced() {
    let tt = one_bucket();
    for key in [A, B, C] {
        tt.store(key, 0, result(1, 30, Bound::EXACT));
    }
    tt.new_search();
    // A shallow result of the new search evicts a deep result of the previous one.
    assert_eq!(tt.store(D, 0, result(1, 1, Bound::UPPER)), StoreOutcome::Inserted);
    assert_eq!(depth_of(&tt, D), Some(1));
    // And a stale result of the same position gives way to a shallower fresh one.
    let survivor = [A, B, C]
        .into_iter()
        .find(|&key| tt.probe(key).is_some())
        .unwrap();
    assert_eq!(
        tt.store(survivor, 0, result(1, 2, Bound::UPPER)),
        StoreOutcome::Updated
    );
    assert_eq!(depth_of(&tt, survivor), Some(2));
}

#[test]
fn stale_entries_are_evicted_before_fresh_ones() {
    let tt = one_bucket();
    tt.store(A, 0, result(1, 12, Bound::EXACT)); // two searches old: worth 12 - 16 = -4
    tt.new_search();
    tt.store(B, 0, result(1, 5, Bound::EXACT)); // one search old: worth 5 - 8 = -3
    tt.new_search();
    tt.store(C, 0, result(1, 2, Bound::EXACT)); // this search: worth 2
    assert_eq!(tt.store(D, 0, result(1, 1, Bound::EXACT)), StoreOutcome::Inserted);
    assert!(tt.probe(A).is_none(), "the least valuable (oldest) entry went");
    assert!(tt.probe(B).is_some() && tt.probe(C).is_some());
}

#[test]
fn empty_slots_are_filled_before_anything_is_evicted() {
    let tt = one_bucket();
    tt.store(A, 0, result(1, 1, Bound::EXACT));
    tt.store(B, 0, result(1, 20, Bound::EXACT));
    tt.store(C, 0, result(1, 0, Bound::EXACT));
    for key in [A, B, C] {
        assert!(tt.probe(key).is_some());
    }
}

#[test]
fn same_key_exact_result_replaces_a_deeper_bound() {
    let tt = one_bucket();
    tt.store(A, 0, result(1, 10, Bound::LOWER));
    assert_eq!(tt.store(A, 0, result(2, 4, Bound::EXACT)), StoreOutcome::Updated);
    assert_eq!(tt.probe(A).unwrap().bound(), Bound::EXACT);
}

#[test]
fn entry_reserved_by_a_searching_thread_is_not_evicted() {
    let tt = one_bucket();
    tt.store(A, 0, result(9, 1, Bound::LOWER));
    let _searching_a = tt.enter_guard(A, 1);
    tt.store(B, 0, result(1, 5, Bound::EXACT));
    tt.store(C, 0, result(1, 5, Bound::EXACT));
    tt.new_search(); // A becomes stale and shallow: the most evictable entry, were it not protected
    assert_eq!(
        tt.store(D, 0, result(1, 50, Bound::EXACT)),
        StoreOutcome::Inserted
    );
    assert_eq!(tt.probe(A).unwrap().best_move(), Some(9));
}

#[test]
fn store_into_a_bucket_whose_entries_are_all_protected_is_dropped() {
    let tt = one_bucket();
    tt.pin_draw(A).unwrap();
    let _searching_b = tt.enter_guard(B, 3);
    let _searching_c = tt.enter_guard(C, 3);
    tt.store(C, 0, result(1, 3, Bound::EXACT)); // C's own result goes into its reserved slot
    assert_eq!(
        tt.store(D, 0, result(1, MAX_DEPTH, Bound::EXACT)),
        StoreOutcome::Protected
    );
    assert!(tt.probe(D).is_none());
    assert_eq!(tt.pin_draw(D).unwrap_err().key, D);
    // The pinned draw itself is not overwritten by a store of its own position either.
    assert_eq!(
        tt.store(A, 0, result(1, MAX_DEPTH, Bound::EXACT)),
        StoreOutcome::Protected
    );
    assert!(tt.probe(A).unwrap().is_pinned());
}

/// SplitMix64: reproducible pseudo-random keys.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn protected_entries_survive_a_flood_of_a_million_stores() {
    const BUCKETS: u64 = 64;
    let stores: u64 = if cfg!(miri) { 500 } else { 1_000_000 };
    let tt = TranspositionTable::with_buckets(64).unwrap();
    // In every bucket: a pinned draw, and a node being searched whose entry was stored before it was entered.
    let pinned: Vec<u64> = (0..BUCKETS)
        .map(|bucket| 0x1111_0000_0000_0000 | bucket)
        .collect();
    let searched: Vec<u64> = (0..BUCKETS)
        .map(|bucket| 0x2222_0000_0000_0000 | bucket)
        .collect();
    for (&pin, &node) in pinned.iter().zip(&searched) {
        tt.pin_draw(pin).unwrap();
        tt.store(node, 0, result(0x0abc, 2, Bound::LOWER));
    }
    let guards: Vec<_> = searched.iter().map(|&node| tt.enter_guard(node, 2)).collect();
    assert!(guards.iter().all(|guard| guard.is_counted()));

    let mut state = 1;
    let mut written = 0u64;
    for index in 0..stores {
        if index % 10_000 == 0 {
            tt.new_search(); // age the protected entries: aging must not expose them
        }
        let key = splitmix(&mut state);
        written += u64::from(tt.store(key, 0, result(1, MAX_DEPTH, Bound::EXACT)).is_written());
    }
    assert!(
        written > stores / 2,
        "the flood did fill the free slots ({written} of {stores})"
    );

    for &pin in &pinned {
        let entry = tt.probe(pin).expect("pinned draw survives");
        assert!(entry.is_pinned());
        assert_eq!(entry.depth(), PINNED_DEPTH);
    }
    for &node in &searched {
        assert_eq!(
            tt.probe(node).expect("searched node survives").best_move(),
            Some(0x0abc)
        );
        assert_eq!(tt.nproc(node), 1);
    }
    drop(guards);
    assert_eq!(tt.nproc_total(), 0);
    assert_eq!(tt.unpin_all(), pinned.len());
    assert!(tt.probe(pinned[0]).is_none());
}

#[test]
fn pinned_draw_gives_an_immediate_draw_cutoff_at_any_depth_and_window() {
    let tt = TranspositionTable::with_buckets(16).unwrap();
    let key = 0x5eed_0000_0000_0007;
    tt.pin_draw(key).unwrap();
    let windows = [
        (-MATE, MATE),
        (MATE - 10, MATE),
        (-MATE, -MATE + 10),
        (5, 6),
        (-1, 0),
        (0, 1),
        (300, 900),
    ];
    // Miri checks a sample of the depths (each probe is plain arithmetic; all of them take it seconds).
    let stride = if cfg!(miri) { 16 } else { 1 };
    for depth in (MIN_DEPTH..=MAX_DEPTH).step_by(stride).chain([MAX_DEPTH]) {
        for &(alpha, beta) in &windows {
            for ply in [0, 1, 17, 200] {
                assert_eq!(
                    probe_cutoff(tt.probe(key), depth, alpha, beta, ply),
                    ProbeOutcome::Cutoff(0)
                );
            }
        }
    }
    // Even far beyond any real depth, and even while another thread is inside the node.
    assert_eq!(
        tt.probe_node(key, i32::MAX, -MATE, MATE, 0),
        ProbeOutcome::Cutoff(0)
    );
    let _other = tt.enter_guard(key, 10);
    assert_eq!(
        tt.probe_exclusive(key, 10, 0, 1, 3, true),
        ExclusiveProbe::Outcome(ProbeOutcome::Cutoff(0))
    );
    // Generations pass; the pin does not age out.
    for _ in 0..40 {
        tt.new_search();
    }
    assert_eq!(tt.probe_node(key, 99, -5, 5, 0), ProbeOutcome::Cutoff(0));
}

#[test]
fn unpin_removes_only_the_named_draw() {
    let tt = one_bucket();
    tt.pin_draw(A).unwrap();
    tt.pin_draw(B).unwrap();
    assert!(tt.unpin(A));
    assert!(!tt.unpin(A));
    assert!(tt.probe(A).is_none());
    assert!(tt.probe(B).unwrap().is_pinned());
}
