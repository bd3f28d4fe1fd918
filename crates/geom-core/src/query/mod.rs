//! The queries: one question per file, each answered for every shape pair
//! it covers.
//!
//! # Naming
//!
//! Every query is a free function named `<question>_<a>_<b>(a, b)`:
//!
//! - `<question>` is one of `closest_point`, `closest_points`,
//!   `distance_squared`, `distance`, `intersects`, `contact` and `sweep`;
//! - `<a>` and `<b>` name the argument shapes in order (`point`, `segment`,
//!   `circle`, `capsule`);
//! - anything with a direction (a normal, a push-out offset) points **from
//!   `b` towards `a`**: the first argument is the one that gets pushed out,
//!   and a contact's point lies on the surface of `b`;
//! - a `sweep` takes each moving shape's motion over the tick right after
//!   it: `sweep_a_b(a, motion_a, b)`, or `sweep_a_b(a, motion_a, b,
//!   motion_b)` when both move.
//!
//! # Guarantees
//!
//! - **Touching counts**: a distance equal to the radius intersects, in every
//!   query and every scalar type.
//! - **Queries agree**: `intersects_x_y(a, b)` is true exactly when
//!   `contact_x_y(a, b)` is `Some`, for every input; for fixed-point inputs
//!   both are the mathematically exact answer.
//! - **No NaN, no panic, no wrapping** for shapes built by their validating
//!   constructors. A bare point outside the safe range is first clamped
//!   into it (the documented saturation).
//! - **Batches answer the same**: the functions in [`batch`] test one shape
//!   against a slice of others, each answer bit for bit the single query's.
//! - **Degenerate input has a defined answer**: a zero-length segment is its
//!   point; when the direction from one shape to the other is undefined (a
//!   centre exactly on a segment, coincident centres, cores that touch), the
//!   normal is the perpendicular of the segment that points up (+y), or right
//!   (+x) for a vertical segment, and +y when there is no segment direction
//!   either. These rules do not depend on which way a segment is given.
//!   A sweep knows more: a touch at zero distance (a point reaching a
//!   segment) gets the normal that faces the side the motion came from, so
//!   that a radius-0 body never passes through a wall (see
//!   [`Impact::normal`] and [`Sweep::InContact`]).

pub mod batch;
mod closest_point;
mod contact;
mod distance;
mod intersects;
pub(crate) mod kernel;
mod sweep;

pub use closest_point::{ClosestPoint, ClosestPoints, closest_point_point_segment, closest_points_segment_segment};
pub use contact::{
    Contact, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
};
pub use distance::{distance_point_segment, distance_squared_point_segment};
pub use intersects::{
    intersects_capsule_capsule, intersects_circle_capsule, intersects_circle_circle, intersects_circle_segment,
};
pub use kernel::SegmentFeature;
pub use sweep::{
    Impact, Sweep, sweep_capsule_capsule, sweep_capsule_circle, sweep_capsule_segment, sweep_circle_capsule,
    sweep_circle_circle, sweep_circle_segment, sweep_segment_segment,
};
