//! One small scene, queried in `f32` and in `I16F16` side by side.
//!
//! ```text
//! cargo run --example scene
//! ```
//!
//! The scene is written once, generically: every query in geom-core takes
//! any `Scalar`. The two columns agree to within `I16F16`'s resolution
//! (2^-16 ≈ 0.000015), and the yes/no answers agree exactly.

use std::fmt::Display;

use fixed::types::I16F16;
use geom_core::{
    Capsule, Circle, Contact, Scalar, Segment, ShapeError, Sweep, Vec2, closest_point_point_segment,
    contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
    distance_point_segment, intersects_circle_segment, sweep_circle_segment,
};

/// A quarter-unit literal, exact in every scalar type.
fn q<S: Scalar>(quarters: i8) -> S {
    S::from_dyadic::<2>(quarters)
}

fn p<S: Scalar>(x: i8, y: i8) -> Vec2<S> {
    Vec2::new(q(x), q(y))
}

/// The scene, in any scalar type (coordinates in quarter units).
struct Scene<S> {
    floor: Segment<S>,
    ball: Circle<S>,
    resting: Circle<S>,
    on_floor: Circle<S>,
    paddle: Capsule<S>,
    post: Capsule<S>,
    wall: Segment<S>,
    bullet: Circle<S>,
}

impl<S: Scalar> Scene<S> {
    fn new() -> Result<Self, ShapeError> {
        Ok(Self {
            // The floor from (-8, 0) to (8, 0).
            floor: Segment::new(p(-32, 0), p(32, 0))?,
            // A ball of radius 1 sunk a quarter into the floor.
            ball: Circle::new(p(5, 3), q(4))?,
            // A ball of radius 1 resting exactly on the floor, beside the first.
            resting: Circle::new(p(-2, 4), q(4))?,
            // A ball whose centre is exactly on the floor.
            on_floor: Circle::new(p(20, 0), q(2))?,
            // A slanted paddle of radius 0.5.
            paddle: Capsule::new(p(8, 6), p(20, 14), q(2))?,
            // A post crossing the floor, its foot a quarter below it.
            post: Capsule::new(p(-24, -1), p(-24, 12), q(1))?,
            // A thin wall at x = 7, and a small fast bullet 10 left of it.
            wall: Segment::new(p(28, -8), p(28, 8))?,
            bullet: Circle::new(p(-12, 0), q(1))?,
        })
    }

    fn rows(&self) -> Vec<(&'static str, String)> {
        let contact = |c: Option<Contact<S>>| match c {
            Some(c) => format!("normal {} depth {} push-out {}", vec(&c.normal), c.depth, vec(&c.push_out())),
            None => "none".to_owned(),
        };
        let closest = closest_point_point_segment(self.ball.center(), &self.floor);
        vec![
            (
                "closest point on floor to ball",
                format!("{} t={} {:?}", vec(&closest.point), closest.t, closest.feature),
            ),
            ("distance ball centre to floor", distance_point_segment(self.ball.center(), &self.floor).to_string()),
            ("ball intersects floor", intersects_circle_segment(&self.ball, &self.floor).to_string()),
            ("ball vs floor", contact(contact_circle_segment(&self.ball, &self.floor))),
            ("resting ball vs floor", contact(contact_circle_segment(&self.resting, &self.floor))),
            ("centre on the floor", contact(contact_circle_segment(&self.on_floor, &self.floor))),
            ("ball vs paddle", contact(contact_circle_capsule(&self.ball, &self.paddle))),
            ("ball vs resting ball", contact(contact_circle_circle(&self.ball, &self.resting))),
            ("post vs paddle", contact(contact_capsule_capsule(&self.post, &self.paddle))),
            (
                "post vs floor (as capsule)",
                contact(
                    Capsule::new(self.floor.start(), self.floor.end(), S::ZERO)
                        .ok()
                        .and_then(|floor| contact_capsule_capsule(&self.post, &floor)),
                ),
            ),
            ("bullet moving 24 right vs thin wall", {
                // Its end position is 14 past the wall: only the sweep sees it.
                let motion = Vec2::new(q::<S>(96), S::ZERO);
                match sweep_circle_segment(&self.bullet, motion, &self.wall) {
                    Sweep::Hit(hit) => format!(
                        "hit at t={} normal {} stops at {}",
                        hit.t,
                        vec(&hit.normal),
                        vec(&(self.bullet.center() + hit.travel_a))
                    ),
                    other => format!("{other:?}"),
                }
            }),
        ]
    }
}

fn vec<S: Display>(v: &Vec2<S>) -> String {
    format!("({}, {})", v.x, v.y)
}

fn main() -> Result<(), ShapeError> {
    let float = Scene::<f32>::new()?.rows();
    let fixed = Scene::<I16F16>::new()?.rows();
    println!("geom-core: one scene, two scalar types\n");
    for ((query, f), (_, x)) in float.iter().zip(&fixed) {
        println!("{query}\n  f32     {f}\n  I16F16  {x}");
    }
    Ok(())
}
