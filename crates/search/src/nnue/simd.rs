//! The network's arithmetic, chosen once per CPU: AVX2 where the processor has it, the portable code otherwise.
//!
//! Both paths run the same Rust: the AVX2 one is that code compiled with AVX2 enabled (`target_feature`), so
//! the compiler vectorises it 16 `i16` lanes wide. Integer arithmetic gives the same result in either path,
//! which the tests check on random data.
#![allow(unsafe_code)]

/// Which instructions the network's loops may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kernels {
    /// Whatever the build's target allows (SSE2 on x86-64).
    Portable,
    /// AVX2, detected at run time.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernels {
    /// The best kernels this CPU runs.
    pub(crate) fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernels::Avx2;
        }
        Kernels::Portable
    }

    /// `accumulator += row`.
    #[inline]
    pub(crate) fn add_assign(self, accumulator: &mut [i16], row: &[i16]) {
        match self {
            Kernels::Portable => add_assign(accumulator, row),
            // SAFETY: `Kernels::Avx2` is only made by `detect`, after the CPU reported AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::add_assign(accumulator, row) },
        }
    }

    /// `target = source + Σ added − Σ removed`: one move's update of one side's accumulator.
    #[inline]
    pub(crate) fn update(self, target: &mut [i16], source: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
        match self {
            Kernels::Portable => update(target, source, added, removed),
            // SAFETY: `Kernels::Avx2` is only made by `detect`, after the CPU reported AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::update(target, source, added, removed) },
        }
    }

    /// `Σ clamp(a, 0, qa)² × w`: the output layer's half for one side (`qa × |w| ≤ i16::MAX`, which the net's
    /// loader checks).
    #[inline]
    pub(crate) fn screlu_dot(self, accumulator: &[i16], weights: &[i16], qa: i16) -> i64 {
        match self {
            Kernels::Portable => screlu_dot(accumulator, weights, qa),
            // SAFETY: `Kernels::Avx2` is only made by `detect`, after the CPU reported AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::screlu_dot(accumulator, weights, qa) },
        }
    }
}

// The loops below wrap instead of panicking on overflow: the loader's range checks rule overflow out, and the
// vector instructions wrap too, so both paths agree even on a net that slipped past them.

#[inline(always)]
fn add_assign(accumulator: &mut [i16], row: &[i16]) {
    for (a, &w) in accumulator.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

#[inline(always)]
fn update(target: &mut [i16], source: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
    // One pass over memory for the usual moves (a quiet move: one piece appears, one leaves; a capture: one
    // appears, two leave), so the compiler keeps each lane in a register across the rows.
    match (added, removed) {
        ([add], [remove]) => {
            let n = target.len();
            let (source, add, remove) = (&source[..n], &add[..n], &remove[..n]);
            for i in 0..n {
                target[i] = source[i].wrapping_add(add[i]).wrapping_sub(remove[i]);
            }
        }
        ([add], [first, second]) => {
            let n = target.len();
            let (source, add, first, second) = (&source[..n], &add[..n], &first[..n], &second[..n]);
            for i in 0..n {
                target[i] = source[i]
                    .wrapping_add(add[i])
                    .wrapping_sub(first[i])
                    .wrapping_sub(second[i]);
            }
        }
        _ => {
            target.copy_from_slice(source);
            for row in added {
                add_assign(target, row);
            }
            for row in removed {
                for (a, &w) in target.iter_mut().zip(row.iter()) {
                    *a = a.wrapping_sub(w);
                }
            }
        }
    }
}

/// Lanes of the partial sums: each one adds at most `hidden / 16` pairs of products below 2²³, far inside `i32`
/// for the largest hidden layer the loader accepts.
const LANES: usize = 16;

#[inline(always)]
fn screlu_dot(accumulator: &[i16], weights: &[i16], qa: i16) -> i64 {
    let mut lanes = [0i32; LANES];
    let whole = accumulator.len() / LANES * LANES;
    for (chunk, weight_chunk) in accumulator[..whole]
        .chunks_exact(LANES)
        .zip(weights[..whole].chunks_exact(LANES))
    {
        for lane in 0..LANES {
            let clamped = chunk[lane].clamp(0, qa);
            let product = clamped.wrapping_mul(weight_chunk[lane]);
            lanes[lane] = lanes[lane].wrapping_add(i32::from(product) * i32::from(clamped));
        }
    }
    let mut sum: i64 = lanes.iter().map(|&lane| i64::from(lane)).sum();
    for (&a, &w) in accumulator[whole..].iter().zip(&weights[whole..]) {
        let clamped = a.clamp(0, qa);
        sum += i64::from(clamped.wrapping_mul(w)) * i64::from(clamped);
    }
    sum
}

/// The same loops compiled for AVX2.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub(super) fn add_assign(accumulator: &mut [i16], row: &[i16]) {
        super::add_assign(accumulator, row);
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn update(target: &mut [i16], source: &[i16], added: &[&[i16]], removed: &[&[i16]]) {
        super::update(target, source, added, removed);
    }

    /// The output layer with AVX2's multiply-add of `i16` pairs into `i32` lanes, which the compiler does not
    /// find in the portable loop.
    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_dot(accumulator: &[i16], weights: &[i16], qa: i16) -> i64 {
        use std::arch::x86_64::{
            __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16,
            _mm256_min_epi16, _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setzero_si256,
            _mm256_storeu_si256,
        };
        const WIDTH: usize = 16;
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(qa);
        let mut sums = _mm256_setzero_si256();
        let whole = accumulator.len().min(weights.len()) / WIDTH * WIDTH;
        for (values, weights) in accumulator[..whole]
            .chunks_exact(WIDTH)
            .zip(weights[..whole].chunks_exact(WIDTH))
        {
            // SAFETY: each chunk is 16 `i16`s, the 32 bytes an unaligned 256-bit load reads.
            let (values, weights) = unsafe {
                (
                    _mm256_loadu_si256(values.as_ptr().cast::<__m256i>()),
                    _mm256_loadu_si256(weights.as_ptr().cast::<__m256i>()),
                )
            };
            let clamped = _mm256_min_epi16(_mm256_max_epi16(values, zero), ceiling);
            // clamped × weight fits i16 (the loader checks QA × |w2|); × clamped again, in pairs, into i32.
            let products = _mm256_mullo_epi16(clamped, weights);
            sums = _mm256_add_epi32(sums, _mm256_madd_epi16(products, clamped));
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 8 `i32`s, the 32 bytes an unaligned 256-bit store writes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sums) };
        let head: i64 = lanes.iter().map(|&lane| i64::from(lane)).sum();
        head + super::screlu_dot(&accumulator[whole..], &weights[whole..], qa)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_hashing::SplitMix64;

    fn random_i16s(stream: &mut SplitMix64, count: usize, bound: i16) -> Vec<i16> {
        (0..count)
            .map(|_| (stream.next_u64() % (2 * bound as u64 + 1)) as i16 - bound)
            .collect()
    }

    /// Every kernel this CPU has gives the portable result, on lengths with and without a tail.
    #[test]
    fn the_detected_kernels_agree_with_the_portable_ones() {
        let detected = Kernels::detect();
        // Built for AVX2 (as tools/miri.sh builds this test), the AVX2 kernels are the ones checked.
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        assert_eq!(detected, Kernels::Avx2);
        let mut stream = SplitMix64::new(7);
        for length in [1, 15, 16, 17, 64, 250, 256, 1024] {
            let accumulator = random_i16s(&mut stream, length, 600);
            let weights = random_i16s(&mut stream, length, 128);
            assert_eq!(
                detected.screlu_dot(&accumulator, &weights, 255),
                Kernels::Portable.screlu_dot(&accumulator, &weights, 255),
                "screlu_dot, {length} neurons, {detected:?}"
            );
            let rows: Vec<Vec<i16>> = (0..4).map(|_| random_i16s(&mut stream, length, 500)).collect();
            let mut fast = vec![0; length];
            let mut portable = vec![0; length];
            detected.update(
                &mut fast,
                &accumulator,
                &[&rows[0], &rows[1]],
                &[&rows[2], &rows[3]],
            );
            Kernels::Portable.update(
                &mut portable,
                &accumulator,
                &[&rows[0], &rows[1]],
                &[&rows[2], &rows[3]],
            );
            assert_eq!(fast, portable, "update, {length} neurons");
            detected.add_assign(&mut fast, &rows[0]);
            Kernels::Portable.add_assign(&mut portable, &rows[0]);
            assert_eq!(fast, portable, "add_assign, {length} neurons");
        }
    }

    #[test]
    fn screlu_dot_clamps_and_squares() {
        // 300 clamps to 255, −5 to 0, 10 stays: 255² × 2 + 0 + 10² × 3.
        let dot = Kernels::Portable.screlu_dot(&[300, -5, 10], &[2, 7, 3], 255);
        assert_eq!(dot, 255 * 255 * 2 + 100 * 3);
    }

    #[test]
    fn update_adds_and_removes_rows() {
        let mut target = [0i16; 3];
        Kernels::detect().update(
            &mut target,
            &[1, 2, 3],
            &[&[10, 10, 10]],
            &[&[1, 1, 1], &[2, 2, 2]],
        );
        assert_eq!(target, [8, 9, 10]);
    }
}
