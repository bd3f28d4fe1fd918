//! Deterministic 2D collision queries for circles, line segments and
//! capsules, generic over `f32`, `f64` and the fixed-point types of the
//! [`fixed`] crate, for lockstep and rollback netcode games.
//!
//! One API serves every [`Scalar`] type. Fixed-point types get exact yes/no
//! answers and bit-identical results on every platform; floats get the same
//! formulas evaluated in `f64`, bit-identical on every IEEE-754 target.
//!
//! # Layers
//!
//! 1. [`Scalar`]: the number types and their safe coordinate ranges.
//! 2. [`Vec2`]: vectors, with exact products in [`Scalar::Wide`].
//! 3. [`Segment`], [`Circle`], [`Capsule`]: validated shapes.
//!
#![no_std]
#![forbid(unsafe_code)]

mod scalar;
mod shape;
mod vec2;

pub use scalar::{Frac32, Frac64, Scalar};
pub use shape::{Capsule, Circle, Segment, ShapeError};
pub use vec2::Vec2;

