//! The inspector's numbers: for a body and one other shape, geom's query
//! results computed in every scalar type from the same `f64` state, so the
//! precisions can be compared side by side.

use geom_core::world::Shape as W;
use geom_core::{
    Capsule, Circle, Segment, Sweep, Vec2, closest_point_point_segment, closest_points_segment_segment,
    contact_capsule_capsule, contact_circle_capsule, contact_circle_circle, contact_circle_segment,
    distance_point_segment, intersects_capsule_capsule, intersects_circle_capsule, intersects_circle_circle,
    intersects_circle_segment, sweep_capsule_capsule, sweep_circle_capsule, sweep_circle_circle, sweep_circle_segment,
};

use geom_core::world::BodyId;

use crate::editor::{body_name, outline_distance};
use crate::num::{SandboxScalar, ScalarKind, with_scalar};
use crate::scene::{BodySpec, Shape, of_vec, to_vec};
use crate::sim::{Selected, Sim};

/// What the body is inspected against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Target {
    /// A static collider.
    Collider(Shape),
    /// Another body (moving too).
    Body(BodySpec),
}

impl Target {
    /// The target's shape where it is.
    fn shape(&self) -> Shape {
        match self {
            Self::Collider(shape) => *shape,
            Self::Body(b) => b.shape(),
        }
    }
}

/// How the body's sweep over the coming tick ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SweepReading {
    /// No contact during the tick.
    Miss,
    /// Already touching at the start; `blocked` when moving further in.
    InContact { blocked: bool },
    /// First touch at time `t` of the tick.
    Hit { t: f64 },
}

/// One scalar type's answers for a body and a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Readings {
    /// The point of the target's outline nearest the body.
    pub closest: Vec2<f64>,
    /// The gap between the body's outline and the target's: surface to
    /// surface, negative when they overlap.
    pub gap: f64,
    /// Whether the body and the target touch or overlap.
    pub intersects: bool,
    /// The contact's depth and normal (towards the body).
    pub contact: Option<(f64, Vec2<f64>)>,
    /// The body's motion over the coming tick: its velocity, plus gravity
    /// for a body with mass, as the world's step will move it.
    pub motion: Vec2<f64>,
    /// The body's sweep over that motion.
    pub sweep: SweepReading,
}

/// The readings in each kind, or why that kind cannot hold the shapes.
pub(crate) type Table = Vec<(ScalarKind, Result<Readings, String>)>;

/// The readings for `body` against `target` in every scalar type. `gravity`
/// is added to the motion of a body with mass, as the world's step will.
pub(crate) fn inspect_all(body: &BodySpec, target: &Target, gravity: Vec2<f64>) -> Table {
    ScalarKind::ALL
        .into_iter()
        .map(|kind| (kind, with_scalar!(kind, S => inspect::<S>(body, target, gravity))))
        .collect()
}

/// The motion over the coming tick: the velocity, plus gravity for a body
/// with mass.
fn motion<S: SandboxScalar>(body: &BodySpec, gravity: Vec2<S>) -> Vec2<S> {
    let velocity = to_vec::<S>(body.velocity);
    if body.inverse_mass > 0.0 { velocity + gravity } else { velocity }
}

/// A shape in scalar type `S`, with the world's validation.
fn shape_in<S: SandboxScalar>(shape: Shape) -> Result<W<S>, geom_core::ShapeError> {
    let p = to_vec::<S>;
    Ok(match shape {
        Shape::Segment { start, end } => W::Segment(Segment::new(p(start), p(end))?),
        Shape::Capsule { start, end, radius } => W::Capsule(Capsule::new(p(start), p(end), S::from_f64(radius))?),
        Shape::Circle { center, radius } => W::Circle(Circle::new(p(center), S::from_f64(radius))?),
    })
}

/// A shape as a capsule: a segment of radius zero, a circle with a point
/// for a core.
fn as_capsule<S: SandboxScalar>(shape: &W<S>) -> Result<Capsule<S>, geom_core::ShapeError> {
    match *shape {
        W::Segment(s) => Capsule::new(s.start(), s.end(), S::ZERO),
        W::Capsule(k) => Ok(k),
        W::Circle(c) => Capsule::new(c.center(), c.center(), c.radius()),
    }
}

fn inspect<S: SandboxScalar>(body: &BodySpec, target: &Target, gravity: Vec2<f64>) -> Result<Readings, String> {
    // The error names the value and the type's range itself.
    let describe = |e: geom_core::ShapeError| e.to_string();
    let mine = shape_in::<S>(body.shape()).map_err(describe)?;
    let theirs = shape_in::<S>(target.shape()).map_err(describe)?;
    let gravity = to_vec::<S>(gravity);
    let (a, b) = target.shape().core();
    let core = Segment::new(to_vec::<S>(a), to_vec::<S>(b)).map_err(describe)?;
    let motion = motion(body, gravity);
    // The nearest points of the two cores (a circle's is its centre).
    let (near, closest, distance) = if let W::Capsule(capsule) = mine {
        let points = closest_points_segment_segment(&capsule.segment(), &core);
        (points.a, points.b, points.distance)
    } else {
        let center = to_vec::<S>(body.position);
        (center, closest_point_point_segment(center, &core).point, distance_point_segment(center, &core))
    };
    let their_radius = S::from_f64(target.shape().radius());
    let gap = distance - S::from_f64(body.radius) - their_radius;
    // From the target's core out by its radius, towards the body's core.
    let (near, closest) = (of_vec(near), of_vec(closest));
    let towards = near - closest;
    let length = towards.length();
    let on_outline = if length > 0.0 { closest + towards * (their_radius.to_f64() / length) } else { closest };
    // The queries the world's step uses: a circle's own against each
    // shape, capsule queries when a capsule body is involved.
    let (intersects, contact, sweep) = match (mine, theirs, target) {
        (W::Circle(circle), W::Circle(other_circle), Target::Body(other)) => (
            intersects_circle_circle(&circle, &other_circle),
            contact_circle_circle(&circle, &other_circle),
            sweep_circle_circle(&circle, motion, &other_circle, self::motion(other, gravity)),
        ),
        (_, _, Target::Body(other)) => {
            let (a, b) = (as_capsule(&mine).map_err(describe)?, as_capsule(&theirs).map_err(describe)?);
            (
                intersects_capsule_capsule(&a, &b),
                contact_capsule_capsule(&a, &b),
                sweep_capsule_capsule(&a, motion, &b, self::motion(other, gravity)),
            )
        }
        (W::Circle(circle), W::Segment(segment), _) => (
            intersects_circle_segment(&circle, &segment),
            contact_circle_segment(&circle, &segment),
            sweep_circle_segment(&circle, motion, &segment),
        ),
        (W::Circle(circle), W::Capsule(capsule), _) => (
            intersects_circle_capsule(&circle, &capsule),
            contact_circle_capsule(&circle, &capsule),
            sweep_circle_capsule(&circle, motion, &capsule),
        ),
        (W::Circle(circle), W::Circle(other), _) => (
            intersects_circle_circle(&circle, &other),
            contact_circle_circle(&circle, &other),
            sweep_circle_circle(&circle, motion, &other, Vec2::ZERO),
        ),
        (_, _, Target::Collider(_)) => {
            let (a, b) = (as_capsule(&mine).map_err(describe)?, as_capsule(&theirs).map_err(describe)?);
            (
                intersects_capsule_capsule(&a, &b),
                contact_capsule_capsule(&a, &b),
                sweep_capsule_capsule(&a, motion, &b, Vec2::ZERO),
            )
        }
    };
    Ok(Readings {
        closest: on_outline,
        gap: gap.to_f64(),
        intersects,
        contact: contact.map(|c| (c.depth.to_f64(), of_vec(c.normal))),
        motion: of_vec(motion),
        sweep: match sweep {
            Sweep::Miss => SweepReading::Miss,
            Sweep::InContact { blocked, .. } => SweepReading::InContact { blocked },
            Sweep::Hit(impact) => SweepReading::Hit { t: impact.t.to_f64() },
        },
    })
}

/// The inspector's subject: a body, what it is measured against, and the
/// readings in every scalar type.
pub(crate) struct Inspection {
    /// The body.
    pub body: (BodyId, BodySpec),
    /// What it is measured against.
    pub target: Target,
    /// The target's name ("collider 3 (segment)", "body 7").
    pub target_name: String,
    /// Which of the nearest shapes this is (0 = the nearest).
    pub rank: usize,
    /// The readings.
    pub table: Table,
}

/// What the inspector shows: the selected body against its `rank`-th
/// nearest shape, or the selected collider against its `rank`-th nearest
/// body (counting round).
pub(crate) fn inspection(sim: &dyn Sim, selected: Selected, rank: usize) -> Option<Inspection> {
    let bodies = sim.bodies();
    let colliders = sim.colliders();
    let gravity = sim.gravity();
    match selected {
        Selected::Body(id) => {
            let body = *bodies.iter().find(|(b, _)| *b == id)?;
            let mut targets: Vec<(f64, String, Target)> = colliders
                .iter()
                .map(|(c, collider)| {
                    let shape = &collider.shape;
                    let name = format!("collider {} ({})", c.index(), shape.kind());
                    (reach(&body.1, shape), name, Target::Collider(*shape))
                })
                .chain(
                    bodies
                        .iter()
                        .filter(|(b, _)| *b != id)
                        .map(|(b, other)| (reach(&body.1, &other.shape()), body_name(*b, other), Target::Body(*other))),
                )
                .collect();
            // Stable, so equally near shapes stay in id order.
            targets.sort_by(|a, b| a.0.total_cmp(&b.0));
            if targets.is_empty() {
                return None;
            }
            let rank = rank % targets.len();
            let (_, target_name, target) = targets.swap_remove(rank);
            let table = inspect_all(&body.1, &target, gravity);
            Some(Inspection { body, target, target_name, rank, table })
        }
        Selected::Collider(id) => {
            let shape = colliders.iter().find(|(c, _)| *c == id).map(|(_, c)| c.shape)?;
            let mut nearest: Vec<(f64, (BodyId, BodySpec))> =
                bodies.iter().map(|b| (reach(&b.1, &shape) - b.1.radius, *b)).collect();
            // Stable, so equally near bodies stay in id order.
            nearest.sort_by(|a, b| a.0.total_cmp(&b.0));
            if nearest.is_empty() {
                return None;
            }
            let rank = rank % nearest.len();
            let body = nearest.swap_remove(rank).1;
            let target = Target::Collider(shape);
            let table = inspect_all(&body.1, &target, gravity);
            let target_name = format!("collider {} ({})", id.index(), shape.kind());
            Some(Inspection { body, target, target_name, rank, table })
        }
    }
}

/// The distance from a body's core (its centre, for a circle) to the
/// outline of `shape` (negative inside it): what the inspector orders
/// shapes by, nearest first.
fn reach(body: &BodySpec, shape: &Shape) -> f64 {
    if !body.is_capsule() {
        return outline_distance(shape, body.position);
    }
    let (a, b) = body.shape().core();
    let (c, d) = shape.core();
    // The end points come from a valid world, so they make valid segments.
    let core = match (Segment::new(a, b), Segment::new(c, d)) {
        (Ok(mine), Ok(theirs)) => closest_points_segment_segment(&mine, &theirs).distance,
        _ => (c - a).length(),
    };
    core - shape.radius()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(table: &Table, kind: ScalarKind) -> Readings {
        table.iter().find(|(k, _)| *k == kind).unwrap().1.clone().unwrap()
    }

    #[test]
    fn a_ball_falling_onto_a_floor_reads_the_same_in_every_type() {
        let floor = Target::Collider(Shape::Segment { start: Vec2::new(-4.0, 0.0), end: Vec2::new(4.0, 0.0) });
        let mut ball = BodySpec::new(Vec2::new(1.0, 2.0), 0.5);
        ball.velocity = Vec2::new(0.0, -3.0);
        let table = inspect_all(&ball, &floor, Vec2::new(0.0, 0.0));
        assert_eq!(table.len(), 5);
        for (kind, row) in &table {
            let r = row.as_ref().unwrap();
            assert_eq!((r.closest, r.gap, r.intersects, r.contact), (Vec2::new(1.0, 0.0), 1.5, false, None));
            // Touches after 1.5 of the 3 units: t = 0.5, never late in fixed point.
            let SweepReading::Hit { t } = r.sweep else { panic!("{kind}: {:?}", r.sweep) };
            assert!((0.5 - 1e-4..=0.5).contains(&t), "{kind}: t = {t}");
            assert_eq!(r.motion, Vec2::new(0.0, -3.0));
        }
    }

    #[test]
    fn a_capsule_body_is_measured_from_its_whole_core_in_every_type() {
        let floor = Target::Collider(Shape::Segment { start: Vec2::new(-4.0, 0.0), end: Vec2::new(4.0, 0.0) });
        // Its core from 1 below its position to 1 above: its lower end is 2
        // above the floor, 1 nearer than its position.
        let mut player = BodySpec::capsule(Vec2::new(1.0, 3.0), Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.5);
        player.velocity = Vec2::new(0.0, -3.0);
        for (kind, row) in inspect_all(&player, &floor, Vec2::new(0.0, 0.0)) {
            let r = row.unwrap();
            assert_eq!((r.closest, r.gap, r.intersects, r.contact), (Vec2::new(1.0, 0.0), 1.5, false, None));
            // Touches after 1.5 of the 3 units: t = 0.5, never late in fixed point.
            let SweepReading::Hit { t } = r.sweep else { panic!("{kind}: {:?}", r.sweep) };
            assert!((0.5 - 1e-4..=0.5).contains(&t), "{kind}: t = {t}");
        }
        // A ball resting on its head, sinking in by a quarter.
        let ball = BodySpec::new(Vec2::new(1.0, 5.25), 1.0);
        for (kind, row) in inspect_all(&player, &Target::Body(ball), Vec2::new(0.0, 0.0)) {
            let r = row.unwrap();
            assert!(r.intersects, "{kind}");
            assert_eq!(r.contact, Some((0.25, Vec2::new(0.0, -1.0))), "{kind}");
            assert_eq!(r.sweep, SweepReading::InContact { blocked: false }, "{kind}: moving away");
        }
    }

    /// Against a circle the inspector once showed its centre as the
    /// closest point and the distance centre to centre, beside "touching
    /// yes, depth 0": every reading is surface to surface.
    #[test]
    fn against_a_circle_the_closest_point_and_the_gap_are_on_its_outline() {
        let ball = BodySpec::new(Vec2::new(0.0, 0.0), 1.0);
        let post = Target::Collider(Shape::Circle { center: Vec2::new(2.0, 0.0), radius: 1.0 });
        let other = Target::Body(BodySpec::new(Vec2::new(0.0, 5.0), 2.0));
        for kind in ScalarKind::ALL {
            let r = reading(&inspect_all(&ball, &post, Vec2::new(0.0, 0.0)), kind);
            assert_eq!((r.closest, r.gap, r.intersects), (Vec2::new(1.0, 0.0), 0.0, true), "{kind}");
            assert_eq!(r.contact.map(|(depth, _)| depth), Some(0.0), "{kind}");
            let r = reading(&inspect_all(&ball, &other, Vec2::new(0.0, 0.0)), kind);
            assert_eq!((r.closest, r.gap, r.intersects), (Vec2::new(0.0, 3.0), 2.0, false), "{kind}");
        }
    }

    #[test]
    fn gravity_moves_only_bodies_with_mass() {
        let floor = Target::Collider(Shape::Segment { start: Vec2::new(-4.0, 0.0), end: Vec2::new(4.0, 0.0) });
        let mut ball = BodySpec::new(Vec2::new(0.0, 1.25), 1.0);
        let gravity = Vec2::new(0.0, -0.5);
        assert!(matches!(
            reading(&inspect_all(&ball, &floor, gravity), ScalarKind::F64).sweep,
            SweepReading::Hit { .. }
        ));
        ball.inverse_mass = 0.0;
        assert_eq!(reading(&inspect_all(&ball, &floor, gravity), ScalarKind::F64).sweep, SweepReading::Miss);
    }

    #[test]
    fn overlapping_bodies_report_a_contact_and_in_contact_sweep() {
        let a = BodySpec::new(Vec2::new(0.0, 0.0), 1.0);
        let mut b = BodySpec::new(Vec2::new(1.5, 0.0), 1.0);
        b.velocity = Vec2::new(-1.0, 0.0);
        let table = inspect_all(&a, &Target::Body(b), Vec2::new(0.0, 0.0));
        for kind in ScalarKind::ALL {
            let r = reading(&table, kind);
            assert!(r.intersects, "{kind}");
            assert_eq!(r.contact, Some((0.5, Vec2::new(-1.0, 0.0))), "{kind}");
            assert_eq!(r.sweep, SweepReading::InContact { blocked: true }, "{kind}");
        }
    }

    #[test]
    fn a_shape_outside_a_types_range_is_reported_for_that_type_only() {
        let far = Target::Collider(Shape::Circle { center: Vec2::new(5000.0, 0.0), radius: 1.0 });
        let ball = BodySpec::new(Vec2::new(4990.0, 0.0), 1.0);
        let table = inspect_all(&ball, &far, Vec2::new(0.0, 0.0));
        for (kind, row) in table {
            assert_eq!(row.is_err(), kind == ScalarKind::I16F16, "{kind}: {row:?}");
        }
    }
}
