//! The `world` checks: a byte stream decoded into operations on a
//! [`World`] (bodies and colliders added, changed and removed, inputs
//! between ticks, platforms, sensors, layers, steps, world queries, binary
//! state), with its invariants after every operation, its checksums and
//! events under snapshot and restore, and a clone stepped in parallel.

use geom_core::world::{
    Body, BodyDef, BodyId, CharacterConfig, CharacterMove, ColliderDef, ColliderId, Event, EventKind, Filter, Id,
    Nearest, RayHit, Shape, Snapshot, World, WorldConfig, WorldError, sync_test,
};
use geom_core::{Capsule, Circle, Segment, ShapeError, Vec2};

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
    SetVelocity(BodyId, Vec2<S>),
    ApplyImpulse(BodyId, Vec2<S>),
    SetPosition(BodyId, Vec2<S>),
    AddCollider(ColliderDef<S>),
    SetCollider(ColliderId, ColliderDef<S>),
    SetColliderVelocity(ColliderId, Vec2<S>),
    RemoveCollider(ColliderId),
    Step(u8),
    RayCast(Vec2<S>, Vec2<S>, Filter),
    OverlapCircle(Circle<S>, Filter),
    OverlapCapsule(Capsule<S>, Filter),
    Nearest(Vec2<S>, Filter),
    MoveCharacter(BodyId, Vec2<S>),
}

impl<S> Op<S> {
    /// The body the operation names, if it names one.
    fn body(&self) -> Option<BodyId> {
        match self {
            Self::SetBody(id, _)
            | Self::RemoveBody(id)
            | Self::SetVelocity(id, _)
            | Self::ApplyImpulse(id, _)
            | Self::SetPosition(id, _)
            | Self::MoveCharacter(id, _) => Some(*id),
            _ => None,
        }
    }
}

/// What an operation answered: compared between the world and its clone,
/// and against the documented answer.
#[derive(Clone, Debug, PartialEq)]
enum Answer<S> {
    Body(Result<BodyId, WorldError>),
    Unit(Result<(), WorldError>),
    Removed(Result<BodyDef<S>, WorldError>),
    Collider(Result<ColliderId, WorldError>),
    RemovedCollider(Result<ColliderDef<S>, WorldError>),
    Stepped(Vec<Event<S>>),
    Ray(Option<RayHit<S>>),
    Found(Vec<Id>),
    Nearest(Option<Nearest<S>>),
    Moved(Result<CharacterMove<S>, WorldError>),
}

fn apply<S: FuzzScalar>(world: &mut World<S>, op: &Op<S>) -> Answer<S> {
    let mut found = Vec::new();
    match op {
        Op::AddBody(def) => Answer::Body(world.add_body(*def)),
        Op::SetBody(id, def) => Answer::Unit(world.set_body(*id, *def)),
        Op::RemoveBody(id) => Answer::Removed(world.remove_body(*id)),
        Op::SetVelocity(id, v) => Answer::Unit(world.set_velocity(*id, *v)),
        Op::ApplyImpulse(id, v) => Answer::Unit(world.apply_impulse(*id, *v)),
        Op::SetPosition(id, p) => Answer::Unit(world.set_position(*id, *p)),
        Op::AddCollider(def) => Answer::Collider(world.add_collider(*def)),
        Op::SetCollider(id, def) => Answer::Unit(world.set_collider(*id, *def)),
        Op::SetColliderVelocity(id, v) => Answer::Unit(world.set_collider_velocity(*id, *v)),
        Op::RemoveCollider(id) => Answer::RemovedCollider(world.remove_collider(*id)),
        Op::Step(n) => {
            let mut events = Vec::new();
            for _ in 0..*n {
                world.step();
                events.extend_from_slice(world.events());
            }
            Answer::Stepped(events)
        }
        Op::RayCast(p, d, filter) => Answer::Ray(world.ray_cast(*p, *d, *filter)),
        Op::OverlapCircle(c, filter) => {
            world.overlap_circle(c, *filter, &mut found);
            Answer::Found(found)
        }
        Op::OverlapCapsule(c, filter) => {
            world.overlap_capsule(c, *filter, &mut found);
            Answer::Found(found)
        }
        Op::Nearest(p, filter) => Answer::Nearest(world.nearest(*p, *filter)),
        Op::MoveCharacter(id, motion) => Answer::Moved(world.move_character(*id, *motion, &CharacterConfig::new())),
    }
}

fn in_range<S: FuzzScalar>(v: S) -> bool {
    FuzzScalar::is_finite(v) && v <= S::MAX_COORD && v >= -S::MAX_COORD
}

fn vec_in_range<S: FuzzScalar>(v: Vec2<S>) -> bool {
    in_range(v.x) && in_range(v.y)
}

fn in_unit<S: FuzzScalar>(v: S, max: S) -> bool {
    FuzzScalar::is_finite(v) && v >= S::ZERO && v <= max
}

/// The error `World::add_body` and `set_body` must give for `def`, in the
/// documented order: the circle, a capsule's core (each end relative to the
/// position, then the capsule it makes there), the velocity, the inverse
/// mass, the restitution, the friction, the gravity scale.
fn expected_def_error<S: FuzzScalar>(def: &BodyDef<S>) -> Option<WorldError> {
    if let Err(e) = Circle::new(def.position, def.radius) {
        return Some(WorldError::Shape(e));
    }
    if def.core != [Vec2::ZERO; 2] {
        // Each end's coordinates, as a shape's: not finite, then out of range.
        for v in def.core.iter().flat_map(|p| [p.x, p.y]) {
            if !FuzzScalar::is_finite(v) {
                return Some(WorldError::Shape(ShapeError::NotFinite));
            }
            if !in_range(v) {
                return Some(WorldError::Shape(ShapeError::out_of_range(v)));
            }
        }
        let [start, end] = def.core.map(|p| def.position + p);
        if let Err(e) = Capsule::new(start, end, def.radius) {
            return Some(WorldError::Shape(e));
        }
    }
    if !vec_in_range(def.velocity) {
        return Some(WorldError::Velocity);
    }
    if !in_unit(def.inverse_mass, S::MAX_COORD) {
        return Some(WorldError::InverseMass);
    }
    if !in_unit(def.restitution, S::ONE) {
        return Some(WorldError::Restitution);
    }
    if !in_unit(def.friction, S::MAX_COORD) {
        return Some(WorldError::Friction);
    }
    if !in_range(def.gravity_scale) {
        return Some(WorldError::GravityScale);
    }
    None
}

/// The error `World::add_collider` and `set_collider` must give for `def`:
/// the velocity, the friction, the restitution, the one-way direction.
fn expected_collider_error<S: FuzzScalar>(def: &ColliderDef<S>) -> Option<WorldError> {
    if !vec_in_range(def.velocity) {
        return Some(WorldError::Velocity);
    }
    if !in_unit(def.friction, S::MAX_COORD) {
        return Some(WorldError::Friction);
    }
    if !in_unit(def.restitution, S::ONE) {
        return Some(WorldError::Restitution);
    }
    if def.one_way.is_some_and(|up| up == Vec2::ZERO || !vec_in_range(up)) {
        return Some(WorldError::OneWay);
    }
    None
}

/// A filter: the default, everything, or layers from the input (often
/// ones that match nothing).
fn filter<S: FuzzScalar>(input: &mut Input<'_, S>) -> Filter {
    match input.byte() % 4 {
        0 => Filter::default(),
        1 => Filter::ALL,
        _ => Filter { layer: u32::from(input.byte() % 4), mask: u32::from(input.byte() % 4) },
    }
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
    if tag & 8 != 0 {
        def.friction = input.radius();
    }
    if tag & 16 != 0 {
        def.gravity_scale = input.scalar();
    }
    def.sensor = tag & 32 != 0;
    if tag & 64 != 0 {
        def.filter = filter(input);
    }
    if tag & 128 != 0 {
        def.tag = input.u64();
    }
    // One body in three a capsule, its core relative to the position.
    if input.byte().is_multiple_of(3) {
        def.core = [input.point(), input.point()];
    }
    def
}

fn shape<S: FuzzScalar>(input: &mut Input<'_, S>) -> Option<Shape<S>> {
    match input.byte() % 3 {
        0 => input.segment().map(Shape::Segment),
        1 => input.capsule().map(Shape::Capsule),
        _ => input.circle().map(Shape::Circle),
    }
}

fn collider_def<S: FuzzScalar>(input: &mut Input<'_, S>) -> Option<ColliderDef<S>> {
    let mut def = ColliderDef::new(shape(input)?);
    let tag = input.byte();
    if tag & 1 != 0 {
        def.velocity = input.point();
    }
    if tag & 2 != 0 {
        def.friction = input.radius();
    }
    if tag & 4 != 0 {
        def.restitution = input.radius();
    }
    def.sensor = tag & 8 != 0;
    if tag & 16 != 0 {
        def.filter = filter(input);
    }
    if tag & 32 != 0 {
        def.tag = input.u64();
    }
    if tag & 64 != 0 {
        def.one_way = Some(input.point());
    }
    Some(def)
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
/// operation since with the checksum after it and its answer.
struct Rollback<S> {
    snapshot: Snapshot<S>,
    checksum: u64,
    tick: u64,
    next_body: u32,
    next_collider: u32,
    log: Vec<(Op<S>, u64, Answer<S>)>,
}

pub(super) fn check<S: FuzzScalar>(input: &mut Input<'_, S>) {
    let gravity = input.point();
    let mut config = WorldConfig::new(gravity);
    let tag = input.byte();
    if tag & 1 != 0 {
        config.bounce_threshold = input.radius();
    }
    if tag & 2 != 0 {
        // Few substeps, so that a fuzzing run stays fast; 0 is refused.
        config.substeps = input.byte() % 6;
    }
    if tag & 4 != 0 {
        config.contact_hertz = input.radius();
    }
    if tag & 8 != 0 {
        config.contact_damping = input.radius();
    }
    if tag & 16 != 0 {
        config.push_speed = input.radius();
    }
    if tag & 32 != 0 {
        config.sleep_threshold = input.radius();
    }
    if tag & 64 != 0 {
        config.sleep_ticks = u16::from(input.byte() % 8);
    }
    let world = World::new(config);
    // Property: a configuration is refused exactly when the documentation
    // says, with the documented error.
    let positive = |v: S| in_unit(v, S::MAX_COORD) && v > S::ZERO;
    let expected = if !vec_in_range(gravity) {
        Some(WorldError::Velocity)
    } else if !in_unit(config.bounce_threshold, S::MAX_COORD)
        || config.substeps == 0
        || !positive(config.contact_hertz)
        || !in_unit(config.contact_damping, S::MAX_COORD)
        || !positive(config.push_speed)
        || !in_unit(config.sleep_threshold, S::MAX_COORD)
    {
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
        let op = match decode(input, &world, &model) {
            Decoded::Op(op) => op,
            Decoded::Skip => continue,
            Decoded::Snapshot => {
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
            Decoded::Rollback => {
                if let Some(r) = &rollback {
                    restore_and_replay(&mut world, &mut model, r);
                    // The world and its clone still agree.
                    assert_eq!(world.checksum(), twin.checksum(), "{}: restore and replay changed the world", S::NAME);
                }
                continue;
            }
        };
        let answer = step_checked(&mut world, &op, &mut model);
        // Property: a clone given the same operations answers the same and
        // has the same checksum (stepping is deterministic).
        assert_eq!(apply(&mut twin, &op), answer, "{}: the clone answered {op:?} differently", S::NAME);
        assert_eq!(world.checksum(), twin.checksum(), "{}: the clone's checksum differs after {op:?}", S::NAME);
        // Property: a world query answers the same whether the broad phase
        // of the last step serves it or not (a fresh copy has none).
        if matches!(op, Op::RayCast(..) | Op::OverlapCircle(..) | Op::OverlapCapsule(..) | Op::Nearest(..)) {
            assert_eq!(apply(&mut world.clone(), &op), answer, "{}: a copy answered {op:?} differently", S::NAME);
        }
        if let Some(r) = &mut rollback {
            r.log.push((op, world.checksum(), answer));
        }
    }
    // Property: the binary state brings back the same world, checksum and
    // all, which steps on as the original does.
    let bytes = world.to_bytes();
    let mut back =
        World::<S>::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: the saved world is refused: {e}", S::NAME));
    assert_eq!(back.checksum(), world.checksum(), "{}: the saved world has another checksum", S::NAME);
    let mut stepped = world.clone();
    stepped.step();
    back.step();
    assert_eq!(back.checksum(), stepped.checksum(), "{}: the loaded world steps otherwise", S::NAME);
    assert_eq!(back.events(), stepped.events(), "{}: the loaded world's events differ", S::NAME);
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

/// What the next bytes of the input ask for.
enum Decoded<S> {
    Op(Op<S>),
    Snapshot,
    Rollback,
    /// An operation on an id when none was handed out, or a shape the
    /// grammar gave up on.
    Skip,
}

/// Decodes the next operation.
fn decode<S: FuzzScalar>(input: &mut Input<'_, S>, world: &World<S>, model: &Model) -> Decoded<S> {
    let body = |input: &mut Input<'_, S>, op: fn(BodyId, Vec2<S>) -> Op<S>| match pick(input, &model.bodies) {
        Some(id) => Decoded::Op(op(id, input.point())),
        None => Decoded::Skip,
    };
    let op = match input.byte() % 19 {
        0 | 1 if world.bodies().len() < MAX_BODIES => Op::AddBody(body_def(input)),
        2 => match pick(input, &model.bodies) {
            Some(id) => Op::SetBody(id, body_def(input)),
            None => return Decoded::Skip,
        },
        3 => match pick(input, &model.bodies) {
            Some(id) => Op::RemoveBody(id),
            None => return Decoded::Skip,
        },
        4 if world.colliders().len() < MAX_COLLIDERS => match collider_def(input) {
            Some(c) => Op::AddCollider(c),
            None => return Decoded::Skip,
        },
        5 => match (pick(input, &model.colliders), collider_def(input)) {
            (Some(id), Some(c)) => Op::SetCollider(id, c),
            _ => return Decoded::Skip,
        },
        6 => match pick(input, &model.colliders) {
            Some(id) => Op::RemoveCollider(id),
            None => return Decoded::Skip,
        },
        7 => return Decoded::Snapshot,
        8 => return Decoded::Rollback,
        9 => return body(input, Op::SetVelocity),
        10 => return body(input, Op::ApplyImpulse),
        11 => return body(input, Op::SetPosition),
        12 => match pick(input, &model.colliders) {
            Some(id) => Op::SetColliderVelocity(id, input.point()),
            None => return Decoded::Skip,
        },
        13 => Op::RayCast(input.point(), input.point(), filter(input)),
        14 => match input.circle() {
            Some(c) => Op::OverlapCircle(c, filter(input)),
            None => return Decoded::Skip,
        },
        15 => match input.capsule() {
            Some(c) => Op::OverlapCapsule(c, filter(input)),
            None => return Decoded::Skip,
        },
        16 => Op::Nearest(input.point(), filter(input)),
        17 => return body(input, Op::MoveCharacter),
        _ => Op::Step(1 + input.byte() % MAX_STEPS),
    };
    Decoded::Op(op)
}

/// One of the ids the world has handed out (removed ones included, which
/// must be answered with a typed error), picked by the input.
fn pick<T: Copy>(input: &mut Input<'_, impl FuzzScalar>, ids: &[T]) -> Option<T> {
    let i = usize::from(input.byte());
    if ids.is_empty() { None } else { Some(ids[i % ids.len()]) }
}

/// The body's error for an input on an unknown id, else `check`'s.
fn body_input_error<S: FuzzScalar>(
    before: Option<&BodyDef<S>>,
    id: BodyId,
    check: impl FnOnce(&BodyDef<S>) -> Option<WorldError>,
) -> Option<WorldError> {
    match before {
        None => Some(WorldError::UnknownBody(id)),
        Some(def) => check(def),
    }
}

/// Applies `op` and checks its answer and the world's invariants.
///
/// Property: every operation gives its documented answer: ids are handed
/// out in order, a refused body or collider is refused with the documented
/// error, an id that is gone is a typed error, a removed body or collider
/// returns its definition, an input changes exactly what it says, a step
/// advances the tick by one, a query finds only what its filter matches.
fn step_checked<S: FuzzScalar>(world: &mut World<S>, op: &Op<S>, model: &mut Model) -> Answer<S> {
    let body_id = op.body();
    let before = body_id.and_then(|id| world.body(id)).map(Body::def);
    let collider_id = match op {
        Op::SetCollider(id, _) | Op::RemoveCollider(id) | Op::SetColliderVelocity(id, _) => Some(*id),
        _ => None,
    };
    let collider_before = collider_id.and_then(|id| world.collider(id)).map(geom_core::world::Collider::def);
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
            let expected = body_input_error(before.as_ref(), *id, |_| expected_def_error(def));
            assert_eq!(result.err(), expected, "{}: set_body({id:?}, {def:?})", S::NAME);
        }
        (Op::RemoveBody(id), Answer::Removed(result)) => {
            let expected = before.ok_or(WorldError::UnknownBody(*id));
            assert_eq!(*result, expected, "{}: remove_body({id:?})", S::NAME);
        }
        (Op::MoveCharacter(id, motion), Answer::Moved(result)) => {
            let after = world.body(*id).map(Body::def);
            check_character_move(*id, *motion, result, before.as_ref(), after.as_ref());
        }
        (Op::SetVelocity(..) | Op::ApplyImpulse(..) | Op::SetPosition(..), Answer::Unit(result)) => {
            let after = body_id.and_then(|id| world.body(id)).map(Body::def);
            check_body_input(op, *result, before.as_ref(), after.as_ref());
        }
        (Op::AddCollider(def), Answer::Collider(result)) => {
            assert_eq!(result.err(), expected_collider_error(def), "{}: add_collider({def:?})", S::NAME);
            if let Ok(id) = result {
                assert_eq!(id.index(), model.next_collider, "{}: collider ids are handed out in order", S::NAME);
                model.next_collider += 1;
                if !model.colliders.contains(id) {
                    model.colliders.push(*id);
                }
            }
        }
        (Op::SetCollider(id, def), Answer::Unit(result)) => {
            let expected = if collider_before.is_some() {
                expected_collider_error(def)
            } else {
                Some(WorldError::UnknownCollider(*id))
            };
            assert_eq!(result.err(), expected, "{}: set_collider({id:?}, {def:?})", S::NAME);
        }
        (Op::SetColliderVelocity(id, v), Answer::Unit(result)) => {
            let expected = if collider_before.is_none() {
                Some(WorldError::UnknownCollider(*id))
            } else {
                (!vec_in_range(*v)).then_some(WorldError::Velocity)
            };
            assert_eq!(result.err(), expected, "{}: set_collider_velocity({id:?}, {v:?})", S::NAME);
        }
        (Op::RemoveCollider(id), Answer::RemovedCollider(result)) => {
            let expected = collider_before.ok_or(WorldError::UnknownCollider(*id));
            assert_eq!(*result, expected, "{}: remove_collider({id:?})", S::NAME);
        }
        (Op::Step(n), Answer::Stepped(_)) => {
            model.tick += u64::from(*n);
            events_are_sound(world);
        }
        (Op::RayCast(p, _, f), Answer::Ray(hit)) => {
            if let Some(hit) = hit {
                assert!(hit.t >= S::ZERO && hit.t <= S::ONE, "{}: ray cast t outside [0, 1]: {hit:?}", S::NAME);
                assert!(
                    vec_in_range(hit.point) && vec_in_range(hit.normal),
                    "{}: ray cast from {p:?}: {hit:?}",
                    S::NAME
                );
                assert!(matched(world, hit.id, *f), "{}: the ray hit what its filter does not match", S::NAME);
            }
        }
        (Op::OverlapCircle(_, f) | Op::OverlapCapsule(_, f), Answer::Found(ids)) => {
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{}: overlap ids out of order: {ids:?}", S::NAME);
            assert!(ids.iter().all(|&id| matched(world, id, *f)), "{}: found what the filter does not match", S::NAME);
        }
        (Op::Nearest(_, f), Answer::Nearest(nearest)) => {
            if let Some(n) = nearest {
                assert!(FuzzScalar::is_finite(n.distance) && n.distance >= S::ZERO, "{}: {n:?}", S::NAME);
                assert!(matched(world, n.id, *f), "{}: the nearest is what the filter does not match", S::NAME);
            }
        }
        other => panic!("{}: an operation answered out of kind: {other:?}", S::NAME),
    }
    invariants(world, model);
    answer
}

/// Whether `id` exists, is not a sensor, and its filter matches `filter`.
fn matched<S: FuzzScalar>(world: &World<S>, id: Id, filter: Filter) -> bool {
    match id {
        Id::Body(b) => world.body(b).is_some_and(|b| !b.is_sensor() && filter.matches(b.filter())),
        Id::Collider(c) => world.collider(c).is_some_and(|c| !c.is_sensor() && filter.matches(c.filter())),
    }
}

/// Property: the events of the last tick name things that exist and whose
/// filters match, come in their documented order, carry finite numbers,
/// and a contact or sensor overlap that began is in the lists.
fn events_are_sound<S: FuzzScalar>(world: &World<S>) {
    let exists = |id: Id| match id {
        Id::Body(b) => world.body(b).is_some(),
        Id::Collider(c) => world.collider(c).is_some(),
    };
    let key = |e: &Event<S>| (e.body, e.other);
    assert!(world.events().windows(2).all(|w| key(&w[0]) <= key(&w[1])), "{}: events out of order", S::NAME);
    for event in world.events() {
        assert!(world.body(event.body).is_some() && exists(event.other), "{}: {event:?} names a ghost", S::NAME);
        assert!(Id::Body(event.body) < event.other || event.other.collider().is_some(), "{}: {event:?}", S::NAME);
        match event.kind {
            EventKind::Impact { t, point, normal, speed } => {
                assert!(t >= S::ZERO && t <= S::ONE, "{}: impact outside the tick: {event:?}", S::NAME);
                assert!(
                    vec_in_range(point) && vec_in_range(normal) && in_range(speed) && speed > S::ZERO,
                    "{}: {event:?}",
                    S::NAME
                );
            }
            EventKind::ContactBegan => {
                assert!(world.contacts().contains(&key(event)), "{}: {event:?} not among the contacts", S::NAME);
            }
            EventKind::SensorBegan => {
                assert!(world.sensor_overlaps().contains(&key(event)), "{}: {event:?} not an overlap", S::NAME);
            }
            EventKind::ContactEnded | EventKind::SensorEnded => {}
        }
    }
}

/// Property: a character's move is refused with the documented error (an
/// unknown id, a motion out of range, a body that is not kinematic) and
/// changes nothing then; a move it makes leaves the body still, its motion
/// in range.
fn check_character_move<S: FuzzScalar>(
    id: BodyId,
    motion: Vec2<S>,
    result: &Result<CharacterMove<S>, WorldError>,
    before: Option<&BodyDef<S>>,
    after: Option<&BodyDef<S>>,
) {
    let expected = body_input_error(before, id, |def| {
        if !vec_in_range(motion) {
            Some(WorldError::Velocity)
        } else if def.inverse_mass != S::ZERO {
            Some(WorldError::Character)
        } else {
            None
        }
    });
    assert_eq!(result.as_ref().err().copied(), expected, "{}: move_character({id:?}, {motion:?})", S::NAME);
    match (result, after) {
        (Ok(moved), Some(after)) => {
            assert_eq!(after.velocity, Vec2::ZERO, "{}: a moved character is still", S::NAME);
            assert!(vec_in_range(moved.motion), "{}: {moved:?}", S::NAME);
        }
        (Err(_), after) => assert_eq!(before, after, "{}: a refused move changed the body", S::NAME),
        (Ok(_), None) => panic!("{}: a move of a body that is not there", S::NAME),
    }
}

/// The documented answer of an input to a body: an unknown id, then the
/// value's own error; and what it changes.
fn check_body_input<S: FuzzScalar>(
    op: &Op<S>,
    result: Result<(), WorldError>,
    before: Option<&BodyDef<S>>,
    after: Option<&BodyDef<S>>,
) {
    match op {
        Op::SetVelocity(id, v) => {
            let expected = body_input_error(before, *id, |_| (!vec_in_range(*v)).then_some(WorldError::Velocity));
            assert_eq!(result.err(), expected, "{}: set_velocity({id:?}, {v:?})", S::NAME);
            if result.is_ok() {
                assert_eq!(after.map(|d| d.velocity), Some(*v), "{}: set_velocity", S::NAME);
            }
        }
        Op::ApplyImpulse(id, impulse) => {
            if before.is_none() {
                assert_eq!(result.err(), Some(WorldError::UnknownBody(*id)), "{}: apply_impulse", S::NAME);
            } else if !vec_in_range(*impulse) {
                assert_eq!(result.err(), Some(WorldError::Velocity), "{}: apply_impulse({impulse:?})", S::NAME);
            } else {
                assert!(matches!(result, Ok(()) | Err(WorldError::Velocity)), "{}: apply_impulse: {result:?}", S::NAME);
            }
            let immovable = after.is_some_and(|d| d.inverse_mass == S::ZERO);
            if result.is_err() || immovable {
                let (before, after) = (before.map(|d| d.velocity), after.map(|d| d.velocity));
                assert_eq!(before, after, "{}: the impulse should have changed nothing: {result:?}", S::NAME);
            }
        }
        Op::SetPosition(id, p) => {
            // The centre in range, and a capsule's core too once moved there.
            let placed = |d: &BodyDef<S>| {
                Circle::new(*p, d.radius).err().or_else(|| {
                    let [start, end] = d.core.map(|c| *p + c);
                    (d.core != [Vec2::ZERO; 2]).then(|| Capsule::new(start, end, d.radius).err()).flatten()
                })
            };
            let expected = body_input_error(before, *id, |d| placed(d).map(WorldError::Shape));
            assert_eq!(result.err(), expected, "{}: set_position({id:?}, {p:?})", S::NAME);
            if result.is_ok() {
                assert_eq!(after.map(|d| d.position), Some(*p), "{}: set_position", S::NAME);
            }
        }
        other => panic!("{}: not an input to a body: {other:?}", S::NAME),
    }
}

/// Restores the snapshot and replays every operation since it.
///
/// Property: right after the restore the checksum is the snapshot's; each
/// replayed operation gives the checksum and the answer (events included)
/// it gave the first time; at the end the world is the one before the
/// restore.
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
    for (i, (op, checksum, answer)) in r.log.iter().enumerate() {
        let again = step_checked(world, op, model);
        assert_eq!(world.checksum(), *checksum, "{}: replayed operation {i} ({op:?}) changed its checksum", S::NAME);
        assert_eq!(again, *answer, "{}: replayed operation {i} ({op:?}) answered otherwise", S::NAME);
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
/// velocity, a valid radius, inverse mass, restitution, friction and
/// gravity scale; colliders in id order, valid shapes with valid
/// properties; contacts and sensor overlaps ascending and naming what
/// exists; the tick is the number of steps taken.
fn invariants<S: FuzzScalar>(world: &World<S>, model: &Model) {
    assert_eq!(world.tick(), model.tick, "{}: the tick is not the number of steps", S::NAME);
    let mut previous = None;
    for body in world.bodies() {
        let id = body.id();
        assert!(previous.is_none_or(|p| p < id), "{}: bodies out of id order at {id:?}", S::NAME);
        assert!(id.index() < model.next_body, "{}: body {id:?} was never handed out", S::NAME);
        assert_eq!(world.body(id).map(Body::id), Some(id), "{}: body({id:?}) does not find it", S::NAME);
        previous = Some(id);
        assert!(
            vec_in_range(body.position()) && vec_in_range(body.velocity()),
            "{}: body {id:?} left the safe range: {body:?}",
            S::NAME
        );
        assert_eq!(expected_def_error(&body.def()), None, "{}: body {id:?} is no longer valid: {body:?}", S::NAME);
    }
    let mut previous = None;
    for c in world.colliders() {
        let id = c.id();
        assert!(previous.is_none_or(|p| p < id), "{}: colliders out of id order at {id:?}", S::NAME);
        assert!(id.index() < model.next_collider, "{}: collider {id:?} was never handed out", S::NAME);
        previous = Some(id);
        let valid = match c.shape() {
            Shape::Segment(s) => Segment::new(s.start(), s.end()).is_ok(),
            Shape::Capsule(k) => Capsule::new(k.segment().start(), k.segment().end(), k.radius()).is_ok(),
            Shape::Circle(c) => Circle::new(c.center(), c.radius()).is_ok(),
        };
        assert!(
            valid && expected_collider_error(&c.def()).is_none(),
            "{}: collider {id:?} is not valid: {c:?}",
            S::NAME
        );
    }
    for pairs in [world.contacts(), world.sensor_overlaps()] {
        assert!(pairs.windows(2).all(|w| w[0] < w[1]), "{}: contacts out of order: {pairs:?}", S::NAME);
        for &(body, other) in pairs {
            let known = world.body(body).is_some()
                && match other {
                    Id::Body(b) => b > body && world.body(b).is_some(),
                    Id::Collider(c) => world.collider(c).is_some(),
                };
            assert!(known, "{}: a contact with a ghost: {body:?}, {other:?}", S::NAME);
        }
    }
    // Property: the contact data lists the contacts' pairs, in their
    // order, with values a step can leave (a unit-range normal, no
    // negative depth or impulse); each body's contacts are that list's,
    // seen from the body and ordered by what it touches.
    let details: Vec<_> = world.contact_details().collect();
    let keys: Vec<_> = details.iter().map(|c| (c.body, c.other)).collect();
    assert_eq!(keys, world.contacts(), "{}: the contact data lists other pairs", S::NAME);
    for c in &details {
        let sane = vec_in_range(c.point) && c.depth >= S::ZERO && c.impulse >= S::ZERO && c.normal != Vec2::ZERO;
        assert!(sane, "{}: contact data no step leaves: {c:?}", S::NAME);
    }
    for body in world.bodies() {
        let id = body.id();
        let mut scan: Vec<_> = details
            .iter()
            .filter_map(|c| match c.other {
                _ if c.body == id => Some((c.other, c.normal, c.impulse)),
                Id::Body(b) if b == id => Some((Id::Body(c.body), -c.normal, c.impulse)),
                _ => None,
            })
            .collect();
        scan.sort_by_key(|&(other, ..)| other);
        let seen: Vec<_> = world.contacts_of(id).map(|c| (c.other, c.normal, c.impulse)).collect();
        assert_eq!(seen, scan, "{}: contacts_of({id:?}) is not the list seen from it", S::NAME);
    }
    // Property: the checksum is a function of the state.
    assert_eq!(world.checksum(), world.clone().checksum(), "{}: a clone has another checksum", S::NAME);
}
