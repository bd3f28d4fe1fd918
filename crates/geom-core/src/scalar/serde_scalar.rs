//! How a scalar is written and read with the `serde` feature, used through
//! `#[serde(with = "crate::scalar::serde_scalar")]` on every scalar field:
//! the crate documentation's "Features" section describes the format.
//!
//! Why a number only below 2^(50 − F): `f64` then holds the value exactly,
//! with a step at most an eighth of the type's, so that a reader whose
//! decimal parsing is a few `f64` steps off (`serde_json`'s default is not
//! correctly rounded) still reads back the same value. Beyond, a string
//! carries the exact decimal expansion, which no `f64` can.

use alloc::format;
use alloc::string::ToString;
use core::fmt;
use core::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, Deserializer, Error, MapAccess, Unexpected, Visitor};
use serde::ser::{Serialize, Serializer};

use super::Scalar;

/// Whether a fixed-point value is written as a number: its magnitude is
/// below 2^(50 − F), i.e. its raw magnitude below 2^50.
fn as_number<S: Scalar>(value: S) -> bool {
    (value.hash_bits() as i64).unsigned_abs() < 1 << 50
}

/// Writes `value` (see the module).
pub(crate) fn serialize<S: Scalar + Serialize, Z: Serializer>(value: &S, serializer: Z) -> Result<Z::Ok, Z::Error> {
    if S::FORMAT.float || !serializer.is_human_readable() {
        value.serialize(serializer)
    } else if as_number(*value) {
        // Exact: at most 50 significant bits.
        serializer.serialize_f64(value.to_f64())
    } else {
        // With `F` decimals `fixed` writes the exact value (`k / 2^F` has
        // at most `F`), then the zeros it ends with go.
        let digits = format!("{value:.0$}", usize::from(S::FORMAT.frac));
        let exact = digits.trim_end_matches('0').trim_end_matches('.');
        serializer.serialize_str(exact)
    }
}

/// Reads a value written by [`serialize`] (see the module).
pub(crate) fn deserialize<'de, S: Scalar + Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<S, D::Error> {
    if S::FORMAT.float || !deserializer.is_human_readable() {
        S::deserialize(deserializer)
    } else {
        deserializer.deserialize_any(Decimal(PhantomData))
    }
}

/// Reads a fixed-point value from a number, a decimal string or `fixed`'s
/// own `{"bits": …}`.
struct Decimal<S>(PhantomData<S>);

impl<'de, S: Scalar + Deserialize<'de>> Visitor<'de> for Decimal<S> {
    type Value = S;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let format = S::FORMAT;
        write!(f, "a finite number or a decimal string within I{}F{}'s range", format.bits - format.frac, format.frac)
    }

    fn visit_f64<E: Error>(self, v: f64) -> Result<S, E> {
        S::try_from_f64(v).ok_or_else(|| E::invalid_value(Unexpected::Float(v), &self))
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<S, E> {
        // Through the decimal string: exact, even beyond 2^53.
        v.to_string().parse().map_err(|_| E::invalid_value(Unexpected::Signed(v), &self))
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<S, E> {
        v.to_string().parse().map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<S, E> {
        v.parse().map_err(|_| E::invalid_value(Unexpected::Str(v), &self))
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<S, M::Error> {
        S::deserialize(MapAccessDeserializer::new(map))
    }
}
