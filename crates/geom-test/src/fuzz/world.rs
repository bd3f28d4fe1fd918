//! The `world` checks: a byte stream decoded into operations on a
//! [`World`], with its invariants after every operation, its checksums
//! under snapshot and restore, and a clone stepped in parallel.

use geom_core::world::{
    Body, BodyDef, BodyId, Collider, ColliderId, Snapshot, World, WorldConfig, WorldError, sync_test,
};
use geom_core::{Capsule, Circle, Segment};

use super::{FuzzScalar, Input};

/// At most this many operations are decoded: the work is bounded by the
/// input's length and these constants, never by a number read from it.
const MAX_OPS: usize = 64;
/// Bodies beyond this many are not added.
const MAX_BODIES: usize = 16;
/// Colliders beyond this many are not added.
const MAX_COLLIDERS: usize = 12;
/// The most ticks one `Step` operation advances.
const MAX_STEPS: u8 = 4;

/// One operation on a world, as decoded.
#[derive(Clone, Debug)]
enum Op<S> {
    AddBody(BodyDef<S>),
    SetBody(BodyId, BodyDef<S>),
    RemoveBody(BodyId),
    AddCollider(Collider<S>),
    SetCollider(ColliderId, Collider<S>),
    RemoveCollider(ColliderId),
    Step(u8),
}

/// What an operation answered: compared between the world and its clone,
/// and against the documented answer.
#[derive(Clone, Debug, PartialEq)]
enum Answer<S> {
    Body(Result<BodyId, WorldError>),
    Unit(Result<(), WorldError>),
    Removed(Result<BodyDef<S>, WorldError>),
    Collider(ColliderId),
    RemovedCollider(Result<Collider<S>, WorldError>),
    Stepped,
}

fn apply<S: FuzzScalar>(world: &mut World<S>, op: &Op<S>) -> Answer<S> {
    match op {
        Op::AddBody(def) => Answer::Body(world.add_body(*def)),
        Op::SetBody(id, def) => Answer::Unit(world.set_body(*id, *def)),
        Op::RemoveBody(id) => Answer::Removed(world.remove_body(*id)),
        Op::AddCollider(c) => Answer::Collider(world.add_collider(*c)),
        Op::SetCollider(id, c) => Answer::Unit(world.set_collider(*id, *c)),
        Op::RemoveCollider(id) => Answer::RemovedCollider(world.remove_collider(*id)),
        Op::Step(n) => {
            for _ in 0..*n {
                world.step();
            }
            Answer::Stepped
        }
    }
}

/// The error `World::add_body` and `set_body` must give for `def`, in the
/// documented order: the circle, the velocity, the inverse mass, the
/// restitution.
fn expected_def_error<S: FuzzScalar>(def: &BodyDef<S>) -> Option<WorldError> {
    let in_range = |v: S| FuzzScalar::is_finite(v) && v <= S::MAX_COORD && v >= -S::MAX_COORD;
    if let Err(e) = Circle::new(def.position, def.radius) {
        return Some(WorldError::Shape(e));
    }
    if !(in_range(def.velocity.x) && in_range(def.velocity.y)) {
        return Some(WorldError::Velocity);
    }
    if !(in_range(def.inverse_mass) && def.inverse_mass >= S::ZERO) {
        return Some(WorldError::InverseMass);
    }
    if !(FuzzScalar::is_finite(def.restitution) && def.restitution >= S::ZERO && def.restitution <= S::ONE) {
        return Some(WorldError::Restitution);
    }
    None
}

fn body_def<S: FuzzScalar>(input: &mut Input<'_, S>) -> BodyDef<S> {
    let position = input.point();
    let radius = input.radius();
    let mut def = BodyDef::new(position, radius);
    let tag = input.byte();
    if tag & 1 != 0 {
        def.velocity = input.point();
    }
    if tag & 2 != 0 {
        def.inverse_mass = input.radius();
    }
    if tag & 4 != 0 {
        def.restitution = input.radius();
    }
    def
}

fn collider<S: FuzzScalar>(input: &mut Input<'_, S>) -> Option<Collider<S>> {
    match input.byte() % 3 {
        0 => input.segment().map(Collider::Segment),
        1 => input.capsule().map(Collider::Capsule),
        _ => input.circle().map(Collider::Circle),
    }
}

/// What the checks remember about the world, to hold it to its
/// documentation.
struct Model {
    next_body: u32,
    next_collider: u32,
    tick: u64,
    /// Every body id handed out (at most one per operation).
    bodies: Vec<BodyId>,
    /// Every collider id handed out.
    colliders: Vec<ColliderId>,
}

/// Snapshot-and-restore bookkeeping: the snapshot, its checksum, and every
/// operation since with the checksum after it.
struct Rollback<S> {
    snapshot: Snapshot<S>,
    checksum: u64,
    tick: u64,
    next_body: u32,
    next_collider: u32,
    log: Vec<(Op<S>, u64)>,
}

pub(super) fn check<S: FuzzScalar>(input: &mut Input<'_, S>) {
    let gravity = input.point();
    let mut config = WorldConfig::new(gravity);
    let tag = input.byte();
    if tag & 1 != 0 {
        config.bounce_threshold = input.radius();
    }
    config.max_substeps = if tag & 2 != 0 { input.byte() % 6 } else { config.max_substeps };
    let world = World::new(config);
    // Property: a configuration is refused exactly when the documentation
    // says, with the documented error.
    let in_range = |v: S| FuzzScalar::is_finite(v) && v <= S::MAX_COORD && v >= -S::MAX_COORD;
    let expected = if !(in_range(gravity.x) && in_range(gravity.y)) {
        Some(WorldError::Velocity)
    } else if !(in_range(config.bounce_threshold) && config.bounce_threshold >= S::ZERO) || config.max_substeps == 0 {
        Some(WorldError::Config)
    } else {
        None
    };
    assert_eq!(world.as_ref().err(), expected.as_ref(), "{}: World::new({config:?})", S::NAME);
    let Ok(mut world) = world else { return };
    let mut twin = world.clone();
    let mut model = Model { next_body: 0, next_collider: 0, tick: 0, bodies: Vec::new(), colliders: Vec::new() };
    let mut rollback: Option<Rollback<S>> = None;
    invariants(&world, &model);

    for _ in 0..MAX_OPS {
        if input.is_empty() {
            break;
        }
        let op = match input.byte() % 10 {
            0 | 1 if world.bodies().len() < MAX_BODIES => Op::AddBody(body_def(input)),
            2 => match pick(input, &model.bodies) {
                Some(id) => Op::SetBody(id, body_def(input)),
                None => continue,
            },
            3 => match pick(input, &model.bodies) {
                Some(id) => Op::RemoveBody(id),
                None => continue,
            },
            4 if world.colliders().len() < MAX_COLLIDERS => match collider(input) {
                Some(c) => Op::AddCollider(c),
                None => continue,
            },
            5 => match (pick(input, &model.colliders), collider(input)) {
                (Some(id), Some(c)) => Op::SetCollider(id, c),
                _ => continue,
            },
            6 => match pick(input, &model.colliders) {
                Some(id) => Op::RemoveCollider(id),
                None => continue,
            },
            7 => {
                rollback = Some(Rollback {
                    snapshot: world.snapshot(),
                    checksum: world.checksum(),
                    tick: model.tick,
                    next_body: model.next_body,
                    next_collider: model.next_collider,
                    log: Vec::new(),
                });
                continue;
            }
            8 => {
                if let Some(r) = &rollback {
                    restore_and_replay(&mut world, &mut model, r);
                    // The world and its clone still agree.
                    assert_eq!(world.checksum(), twin.checksum(), "{}: restore and replay changed the world", S::NAME);
                }
                continue;
            }
            _ => Op::Step(1 + input.byte() % MAX_STEPS),
        };
        let answer = step_checked(&mut world, &op, &mut model);
        // Property: a clone given the same operations answers the same and
        // has the same checksum (stepping is deterministic).
        assert_eq!(apply(&mut twin, &op), answer, "{}: the clone answered {op:?} differently", S::NAME);
        assert_eq!(world.checksum(), twin.checksum(), "{}: the clone's checksum differs after {op:?}", S::NAME);
        if let Some(r) = &mut rollback {
            r.log.push((op, world.checksum()));
        }
    }
    // Property: the rollback sync test of the final world finds no
    // mismatch, whatever the rollback depth (an enormous one included: the
    // history it keeps is bounded by the ticks run, not by the depth).
    let depth = match input.byte() % 4 {
        0 => u64::MAX,
        d => u64::from(d),
    };
    let report = sync_test(&world, 6, depth, |_, _| {});
    assert_eq!(report.first_mismatch, None, "{}: the sync test found a desync: {report:?}", S::NAME);
}

/// One of the ids the world has handed out (removed ones included, which
/// must be answered with a typed error), picked by the input.
fn pick<T: Copy>(input: &mut Input<'_, impl FuzzScalar>, ids: &[T]) -> Option<T> {
    let i = usize::from(input.byte());
    if ids.is_empty() { None } else { Some(ids[i % ids.len()]) }
}

/// Applies `op` and checks its answer and the world's invariants.
///
/// Property: every operation gives its documented answer: ids are handed
/// out in order, a refused body is refused with the documented error, an
/// id that is gone is a typed error, a removed body returns its definition,
/// a step advances the tick by one.
fn step_checked<S: FuzzScalar>(world: &mut World<S>, op: &Op<S>, model: &mut Model) -> Answer<S> {
    let before = world
        .bodies()
        .iter()
        .find(|b| matches!(op, Op::SetBody(id, _) | Op::RemoveBody(id) if *id == b.id()))
        .map(Body::def);
    let collider_exists = |world: &World<S>, id: ColliderId| world.colliders().iter().any(|(c, _)| *c == id);
    let collider_before = match op {
        Op::SetCollider(id, _) | Op::RemoveCollider(id) => collider_exists(world, *id),
        _ => false,
    };
    let answer = apply(world, op);
    match (op, &answer) {
        (Op::AddBody(def), Answer::Body(result)) => {
            assert_eq!(result.err(), expected_def_error(def), "{}: add_body({def:?})", S::NAME);
            if let Ok(id) = result {
                assert_eq!(id.index(), model.next_body, "{}: body ids are handed out in order", S::NAME);
                model.next_body += 1;
                if !model.bodies.contains(id) {
                    model.bodies.push(*id);
                }
            }
        }
        (Op::SetBody(id, def), Answer::Unit(result)) => {
            let expected = if before.is_some() { expected_def_error(def) } else { Some(WorldError::UnknownBody(*id)) };
            assert_eq!(result.err(), expected, "{}: set_body({id:?}, {def:?})", S::NAME);
        }
        (Op::RemoveBody(id), Answer::Removed(result)) => {
            let expected = before.ok_or(WorldError::UnknownBody(*id));
            assert_eq!(*result, expected, "{}: remove_body({id:?})", S::NAME);
        }
        (Op::AddCollider(_), Answer::Collider(id)) => {
            assert_eq!(id.index(), model.next_collider, "{}: collider ids are handed out in order", S::NAME);
            model.next_collider += 1;
            if !model.colliders.contains(id) {
                model.colliders.push(*id);
            }
        }
        (Op::SetCollider(id, _), Answer::Unit(result)) => {
            let expected = if collider_before { Ok(()) } else { Err(WorldError::UnknownCollider(*id)) };
            assert_eq!(*result, expected, "{}: set_collider({id:?})", S::NAME);
        }
        (Op::RemoveCollider(id), Answer::RemovedCollider(result)) => {
            assert_eq!(result.is_ok(), collider_before, "{}: remove_collider({id:?}): {result:?}", S::NAME);
            assert!(collider_before || *result == Err(WorldError::UnknownCollider(*id)), "{}: {result:?}", S::NAME);
        }
        (Op::Step(n), Answer::Stepped) => model.tick += u64::from(*n),
        other => panic!("{}: an operation answered out of kind: {other:?}", S::NAME),
    }
    invariants(world, model);
    answer
}

/// Restores the snapshot and replays every operation since it.
///
/// Property: right after the restore the checksum is the snapshot's; each
/// replayed operation gives the checksum it gave the first time; at the
/// end the world is the one before the restore.
fn restore_and_replay<S: FuzzScalar>(world: &mut World<S>, model: &mut Model, r: &Rollback<S>) {
    let now = world.checksum();
    let (next_body, next_collider) = (model.next_body, model.next_collider);
    world.restore(&r.snapshot);
    assert_eq!(world.checksum(), r.checksum, "{}: restore did not bring the snapshot's checksum back", S::NAME);
    model.tick = r.tick;
    // The ids handed out since the snapshot are handed out again, in the
    // same order.
    model.next_body = r.next_body;
    model.next_collider = r.next_collider;
    for (i, (op, checksum)) in r.log.iter().enumerate() {
        step_checked(world, op, model);
        assert_eq!(world.checksum(), *checksum, "{}: replayed operation {i} ({op:?}) changed its checksum", S::NAME);
    }
    assert_eq!(
        (model.next_body, model.next_collider),
        (next_body, next_collider),
        "{}: replay handed out other ids",
        S::NAME
    );
    assert_eq!(world.checksum(), now, "{}: replaying did not come back to the same world", S::NAME);
}

/// Property: the world's invariants hold: bodies in strictly increasing
/// id order, every id below the next to be handed out and found by
/// `body()`; every body inside the safe range with a finite position and
/// velocity, a valid radius, inverse mass and restitution; colliders in
/// id order; the tick is the number of steps taken.
fn invariants<S: FuzzScalar>(world: &World<S>, model: &Model) {
    let in_range = |v: S| FuzzScalar::is_finite(v) && v <= S::MAX_COORD && v >= -S::MAX_COORD;
    assert_eq!(world.tick(), model.tick, "{}: the tick is not the number of steps", S::NAME);
    let mut previous = None;
    for body in world.bodies() {
        let id = body.id();
        assert!(previous.is_none_or(|p| p < id), "{}: bodies out of id order at {id:?}", S::NAME);
        assert!(id.index() < model.next_body, "{}: body {id:?} was never handed out", S::NAME);
        assert_eq!(world.body(id).map(Body::id), Some(id), "{}: body({id:?}) does not find it", S::NAME);
        previous = Some(id);
        let (p, v) = (body.position(), body.velocity());
        assert!(
            in_range(p.x) && in_range(p.y) && in_range(v.x) && in_range(v.y),
            "{}: body {id:?} left the safe range: {body:?}",
            S::NAME
        );
        assert!(
            Circle::new(p, body.radius()).is_ok()
                && in_range(body.inverse_mass())
                && body.inverse_mass() >= S::ZERO
                && body.restitution() >= S::ZERO
                && body.restitution() <= S::ONE,
            "{}: body {id:?} is no longer valid: {body:?}",
            S::NAME
        );
    }
    let mut previous = None;
    for (id, c) in world.colliders() {
        assert!(previous.is_none_or(|p| p < *id), "{}: colliders out of id order at {id:?}", S::NAME);
        assert!(id.index() < model.next_collider, "{}: collider {id:?} was never handed out", S::NAME);
        previous = Some(*id);
        let valid = match c {
            Collider::Segment(s) => Segment::new(s.start(), s.end()).is_ok(),
            Collider::Capsule(k) => Capsule::new(k.segment().start(), k.segment().end(), k.radius()).is_ok(),
            Collider::Circle(c) => Circle::new(c.center(), c.radius()).is_ok(),
        };
        assert!(valid, "{}: collider {id:?} is not a valid shape: {c:?}", S::NAME);
    }
    // Property: the checksum is a function of the state.
    assert_eq!(world.checksum(), world.clone().checksum(), "{}: a clone has another checksum", S::NAME);
}
