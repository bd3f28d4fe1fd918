//! The one seeded generator of the workspace: geom-test's golden streams
//! and property walks, geom-core's unit tests, integration tests and
//! benchmark scenes, and geom-tui's tests all draw from [`SplitMix`], the
//! same numbers on every machine, every run.
//!
//! A crate of its own, with no dependencies, so that geom-core's tests and
//! benchmarks can use it without depending on geom-test (which depends on
//! geom-core), and so that no dependency's internals can move the golden
//! streams.
#![no_std]

/// Steele, Lea and Flood's `SplitMix64`: 64 bits of state, each output a
/// bijective mix of it, so every seed gives its own full-period stream.
///
/// The golden digests are hashed over scenes drawn from it, and the
/// benchmarks' scenes are drawn from it: changing any method here moves
/// them.
///
/// # Examples
///
/// ```
/// use geom_rng::SplitMix;
///
/// let mut rng = SplitMix(7);
/// let (a, b) = (rng.next_u64(), rng.next_u64());
/// assert_ne!(a, b);
/// assert_eq!(SplitMix(7).next_u64(), a, "the same seed, the same numbers");
/// assert!((0.0..1.0).contains(&rng.unit()));
/// assert!((-3..=3).contains(&rng.int(-3, 3)));
/// assert!(rng.below(10) < 10);
/// assert_eq!(rng.pick(&[0, 5, 0]), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    ///
    /// See [`SplitMix`] for an example.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, on a 2^-53 grid.
    ///
    /// See [`SplitMix`] for an example.
    pub fn unit(&mut self) -> f64 {
        // 53 random bits, exactly representable.
        #[allow(clippy::cast_precision_loss)]
        let bits = (self.next_u64() >> 11) as f64;
        bits / (1_u64 << 53) as f64
    }

    /// Below `n`, by remainder (`n > 0`; nearly uniform when `n` is small
    /// next to 2^64).
    ///
    /// See [`SplitMix`] for an example.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// In `lo..=hi`, by remainder.
    ///
    /// See [`SplitMix`] for an example.
    pub fn int(&mut self, lo: i32, hi: i32) -> i32 {
        // `offset <= hi - lo < 2^32`: the cast and the sum are exact.
        let offset = self.below(u64::from(hi.abs_diff(lo)) + 1);
        lo.wrapping_add_unsigned(offset as u32)
    }

    /// An index chosen with the given weights (their sum above 0).
    ///
    /// See [`SplitMix`] for an example.
    pub fn pick(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        // Below the total, a `u32`: the cast is exact.
        let mut roll = self.below(u64::from(total)) as u32;
        for (i, &w) in weights.iter().enumerate() {
            if roll < w {
                return i;
            }
            roll -= w;
        }
        weights.len() - 1
    }
}
