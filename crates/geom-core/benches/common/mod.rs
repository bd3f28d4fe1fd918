//! What both benchmarks share: a seeded generator and `f64` literals in
//! every scalar type.
#![allow(dead_code, unreachable_pub)]

use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::Scalar;

/// A small deterministic generator (`SplitMix64`): the same scenes every run.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`, on a 2^-12 grid so every type holds it exactly.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next() >> 11) as f64 / (1_u64 << 53) as f64;
        ((lo + (hi - lo) * unit) * 4096.0).round() / 4096.0
    }
}

pub trait FromF64: Scalar {
    fn from_f64(v: f64) -> Self;
}

impl FromF64 for f32 {
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

impl FromF64 for f64 {
    fn from_f64(v: f64) -> Self {
        v
    }
}

macro_rules! from_f64_fixed {
    ($($t:ty),*) => {$(
        impl FromF64 for $t {
            fn from_f64(v: f64) -> Self {
                <$t>::from_num(v)
            }
        }
    )*};
}

from_f64_fixed!(I16F16, I32F32, I48F16);
