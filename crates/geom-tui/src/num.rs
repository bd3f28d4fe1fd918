//! The scalar types the sandbox runs, and the conversions between them and
//! the `f64` values it shows and edits.

use core::fmt;

use fixed::types::{I16F16, I32F32, I48F16};
use geom_core::Scalar;

/// One of the five scalar types the sandbox can simulate in.
///
/// Its name is read in any case, on the command line and in a scene file
/// alike (`i32f32`, `I32F32`, `F64`), and written as Rust spells the type
/// (`I32F32`, `f64`).
///
/// # Examples
///
/// ```
/// use geom_tui::ScalarKind;
///
/// let kind: ScalarKind = "i32f32".parse()?;
/// assert_eq!(kind, ScalarKind::I32F32);
/// assert_eq!(kind.to_string(), "I32F32");
/// assert_eq!(kind.max_coord(), (1_u64 << 28) as f64);
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum ScalarKind {
    /// IEEE-754 single precision.
    #[serde(rename = "f32")]
    F32,
    /// IEEE-754 double precision.
    #[serde(rename = "f64")]
    F64,
    /// 32-bit fixed point, 16 fractional bits.
    I16F16,
    /// 64-bit fixed point, 32 fractional bits.
    I32F32,
    /// 64-bit fixed point, 16 fractional bits.
    I48F16,
}

impl ScalarKind {
    /// Every kind, in the order the sandbox shows them.
    pub const ALL: [Self; 5] = [Self::F32, Self::F64, Self::I16F16, Self::I32F32, Self::I48F16];

    /// The type's name as Rust spells it.
    ///
    /// See [`ScalarKind`] for an example.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::F64 => "f64",
            Self::I16F16 => "I16F16",
            Self::I32F32 => "I32F32",
            Self::I48F16 => "I48F16",
        }
    }

    /// The type's safe coordinate range, [`Scalar::MAX_COORD`], as `f64`.
    ///
    /// See [`ScalarKind`] for an example.
    #[must_use]
    pub fn max_coord(self) -> f64 {
        match self {
            Self::F32 => f32::MAX_COORD.to_f64(),
            Self::F64 => f64::MAX_COORD,
            Self::I16F16 => I16F16::MAX_COORD.to_f64(),
            Self::I32F32 => I32F32::MAX_COORD.to_f64(),
            Self::I48F16 => I48F16::MAX_COORD.to_f64(),
        }
    }

    /// The next kind in [`ALL`](Self::ALL), wrapping around.
    ///
    /// # Examples
    ///
    /// ```
    /// use geom_tui::ScalarKind;
    ///
    /// assert_eq!(ScalarKind::F32.next(), ScalarKind::F64);
    /// assert_eq!(ScalarKind::I48F16.next(), ScalarKind::F32);
    /// ```
    #[must_use]
    pub fn next(self) -> Self {
        let i = Self::ALL.iter().position(|&k| k == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }
}

impl fmt::Display for ScalarKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for ScalarKind {
    type Err = String;

    /// Parses a type name, ignoring case.
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(s)).ok_or_else(|| {
            let names: Vec<_> = Self::ALL.iter().map(|k| k.name()).collect();
            format!("unknown scalar type `{s}` (expected one of {})", names.join(", "))
        })
    }
}

impl<'de> serde::Deserialize<'de> for ScalarKind {
    /// From a type name in any case, as [`str::parse`] reads one.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A [`Scalar`] the sandbox can run, with its kind.
///
/// The sandbox converts its `f64` values with [`Scalar::from_f64`] (to the
/// nearest, saturating: a value beyond the type's range becomes one the
/// world's validation refuses) and [`Scalar::to_f64`] (exact for `f32`,
/// `f64` and `I16F16`, and for `I32F32` and `I48F16` values below 2^21 and
/// 2^37 in magnitude). A NaN, which `from_f64` would make a quiet zero in
/// fixed point, never gets there: the scene, inputs and editor parsers
/// refuse every value that is not finite.
pub(crate) trait SandboxScalar: Scalar + Send + Sync + 'static {
    /// Which kind this is.
    const KIND: ScalarKind;

    /// The next value up: one rounding step more (saturating at the
    /// type's largest).
    fn next_up(self) -> Self;
}

impl SandboxScalar for f32 {
    const KIND: ScalarKind = ScalarKind::F32;

    fn next_up(self) -> Self {
        f32::next_up(self)
    }
}

impl SandboxScalar for f64 {
    const KIND: ScalarKind = ScalarKind::F64;

    fn next_up(self) -> Self {
        f64::next_up(self)
    }
}

macro_rules! sandbox_fixed {
    ($($t:ident),*) => {$(
        impl SandboxScalar for $t {
            const KIND: ScalarKind = ScalarKind::$t;

            fn next_up(self) -> Self {
                self.saturating_add(Self::DELTA)
            }
        }
    )*};
}

sandbox_fixed!(I16F16, I32F32, I48F16);

/// Runs `$body` with `$s` bound to the scalar type of `$kind`.
macro_rules! with_scalar {
    ($kind:expr, $s:ident => $body:expr) => {
        match $kind {
            $crate::num::ScalarKind::F32 => {
                type $s = f32;
                $body
            }
            $crate::num::ScalarKind::F64 => {
                type $s = f64;
                $body
            }
            $crate::num::ScalarKind::I16F16 => {
                type $s = fixed::types::I16F16;
                $body
            }
            $crate::num::ScalarKind::I32F32 => {
                type $s = fixed::types::I32F32;
                $body
            }
            $crate::num::ScalarKind::I48F16 => {
                type $s = fixed::types::I48F16;
                $body
            }
        }
    };
}
pub(crate) use with_scalar;

/// A number in at most 11 characters: as many decimals as fit (up to
/// 10, enough to show most differences between precisions), trailing
/// zeros dropped.
pub(crate) fn short(v: f64) -> String {
    for decimals in (1..=10).rev() {
        let text = format!("{v:.decimals$}");
        let trimmed = text.trim_end_matches('0');
        let text = if trimmed.ends_with('.') { format!("{trimmed}0") } else { trimmed.to_owned() };
        if text.len() <= 11 {
            return text;
        }
    }
    format!("{v:.3e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_parses_from_its_name_in_any_case() {
        for kind in ScalarKind::ALL {
            assert_eq!(kind.name().parse(), Ok(kind));
            assert_eq!(kind.name().to_uppercase().parse(), Ok(kind));
            assert_eq!(kind.name().to_lowercase().parse(), Ok(kind));
        }
        assert!("f16".parse::<ScalarKind>().unwrap_err().contains("I48F16"));
    }

    #[test]
    fn conversions_round_to_nearest_and_saturate() {
        assert_eq!(I16F16::from_f64(0.1).to_bits(), 6554); // 0.1 × 65536 = 6553.6
        assert_eq!(I16F16::from_f64(1e12), I16F16::MAX);
        assert_eq!(I16F16::from_f64(-1e12), I16F16::MIN);
        assert_eq!(I32F32::from_f64(-2.5).to_f64(), -2.5);
    }

    #[test]
    fn short_numbers_fit_eleven_characters_and_show_small_differences() {
        assert_eq!(short(2.0), "2.0");
        assert_eq!(short(2.000_000_003_725_290_3), "2.000000004");
        assert_eq!(short(-0.125), "-0.125");
        assert_eq!(short(268_435_456.5), "268435456.5");
        assert_eq!(short(1.5e20), "1.500e20");
        for v in [1.0 / 3.0, -4_096.123_456_789, 1e-12, 123_456_789_012.0] {
            assert!(short(v).len() <= 11, "{v}: {}", short(v));
        }
    }
}
