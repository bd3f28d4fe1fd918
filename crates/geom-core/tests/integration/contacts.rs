//! What a game asks of the world every tick: the contacts of a body with
//! their data, what it stands on, and queries that pass over the player. The scenes are the platformer's a
//! game programmer reported (a capsule player, crates, slopes, a moving
//! platform), run in every scalar type.

use crate::common;

use common::{TestScalar, seg, v};
use geom_core::world::{BodyDef, BodyId, ColliderDef, Filter, Id, Shape, World, WorldConfig, WorldContact};
use geom_core::{Capsule, Circle, Segment, Vec2, contact_capsule_capsule, contact_circle_capsule};

/// The cosine of 45°: slopes up to it count as ground.
const MIN_UP: f64 = core::f64::consts::FRAC_1_SQRT_2;

/// A body's contacts found the slow way, from the whole list: those it is
/// the first body of as listed, and those it is the second of turned round
/// (the normal reversed), ordered by what it touches.
fn contacts_by_scan<S: TestScalar>(world: &World<S>, body: BodyId) -> Vec<(Id, Vec2<S>, S, S)> {
    let mut found: Vec<_> = world
        .contact_details()
        .filter_map(|c| {
            if c.body == body {
                Some((c.other, c.normal, c.separation, c.impulse))
            } else if c.other == Id::Body(body) {
                Some((Id::Body(c.body), -c.normal, c.separation, c.impulse))
            } else {
                None
            }
        })
        .collect();
    found.sort_by_key(|&(other, ..)| other);
    found
}

/// A floor, a capsule player standing on it, and a crate on a crate.
fn yard<S: TestScalar>() -> (World<S>, [BodyId; 3]) {
    let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).unwrap();
    world.add_collider(seg::<S>(-50.0, 0.0, 50.0, 0.0)).unwrap();
    let player = BodyDef::capsule(v(10.0, 1.0), v(0.0, -0.5), v(0.0, 0.5), S::from_f64(0.5));
    let player = world.add_body(player).unwrap();
    let low = world.add_body(BodyDef::new(v(-7.3, 0.4), S::from_f64(0.4))).unwrap();
    let high = world.add_body(BodyDef::new(v(-7.3, 1.2), S::from_f64(0.4))).unwrap();
    (world, [player, low, high])
}

/// Item 1: a game found no contact between its resting player and the
/// floor in 1,511 of 5,000 ticks with its own query. Every tick, every
/// resting body has its contacts, touching within the world's rounding
/// margin, and the game's own query with the shape grown by that margin
/// agrees.
fn a_resting_body_has_its_contacts_every_tick<S: TestScalar>() {
    let (mut world, [player, low, high]) = yard::<S>();
    let floor = Capsule::new(v(-50.0, 0.0), v(50.0, 0.0), S::ZERO).unwrap();
    for tick in 1..=2000 {
        world.step();
        if tick < 60 {
            continue; // falling into place
        }
        let seen = |b: BodyId| world.contacts_of(b).map(|c| c.other).collect::<Vec<_>>();
        let f = Id::Collider(world.colliders()[0].id());
        assert_eq!(seen(player), [f], "tick {tick}: the player's contacts");
        assert_eq!(seen(low), [f, Id::Body(high)], "tick {tick}: the lower crate's contacts");
        assert_eq!(seen(high), [Id::Body(low)], "tick {tick}: the upper crate's contacts");
        let c = world.contacts_of(player).next().unwrap();
        assert_eq!(c.normal, v(0.0, 1.0), "tick {tick}: the floor's normal");
        assert_eq!(c.depth, S::ZERO, "tick {tick}: a player standing on a floor does not sink into it");
        // The margin as documented: four steps per body in fixed point,
        // 2^-16 of the coordinates' size in the floats.
        let body = world.body(player).unwrap();
        let margin = if S::EXACT {
            S::from_f64(4.0) * S::TIME_STEP
        } else {
            let p = body.position();
            S::from_f64((1.0 + p.x.to_f64().abs() + p.y.to_f64().abs() + 1.5) * 2f64.powi(-16))
        };
        assert!(c.separation <= margin, "tick {tick}: {:?} apart, beyond the margin {margin:?}", c.separation);
        let grown =
            Capsule::new(body.capsule().segment().start(), body.capsule().segment().end(), S::from_f64(0.5) + margin);
        assert!(
            contact_capsule_capsule(&grown.unwrap(), &floor).is_some(),
            "tick {tick}: the game's own query, the player grown by the margin, finds no contact"
        );
    }
}

/// The impulse of a resting contact carries the weight on it: a body of
/// mass `m` under gravity `g` gets `m·|g|` from what it rests on, and the
/// floor under a stack of two carries both.
fn resting_contacts_carry_the_weight_on_them<S: TestScalar>() {
    let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).unwrap();
    let floor = Id::Collider(world.add_collider(seg::<S>(-50.0, 0.0, 50.0, 0.0)).unwrap());
    let mut heavy = BodyDef::new(v(0.0, 0.5), S::from_f64(0.5));
    heavy.inverse_mass = S::from_f64(0.5); // mass 2
    let heavy = world.add_body(heavy).unwrap();
    let light = world.add_body(BodyDef::new(v(0.0, 1.5), S::from_f64(0.5))).unwrap();
    for _ in 0..600 {
        world.step();
    }
    let impulse = |b: BodyId, other: Id| world.contacts_of(b).find(|c| c.other == other).unwrap().impulse.to_f64();
    let near = |got: f64, want: f64, what: &str| {
        assert!((got - want).abs() <= want * 0.01, "{what}: impulse {got}, the weight on it {want}");
    };
    near(impulse(heavy, floor), 0.06, "the floor under both");
    near(impulse(light, Id::Body(heavy)), 0.02, "the light ball on the heavy one");
    // The same contact seen from either body.
    assert_eq!(impulse(heavy, Id::Body(light)), impulse(light, Id::Body(heavy)));
}

/// `contacts_of` gives what a scan of the whole list gives, seen from the
/// body, in every tick of a pile that falls, collides and settles (bodies
/// touching both lower and higher ids, and colliders).
fn contacts_of_a_body_are_the_lists_seen_from_it<S: TestScalar>() {
    let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).unwrap();
    world.add_collider(seg::<S>(-4.0, 0.0, 4.0, 0.0)).unwrap();
    world.add_collider(seg::<S>(-4.0, 0.0, -4.0, 8.0)).unwrap();
    world.add_collider(seg::<S>(4.0, 0.0, 4.0, 8.0)).unwrap();
    let mut bodies = Vec::new();
    for i in 0..24 {
        let (x, y) = (-3.0 + f64::from(i % 6) * 1.1 + f64::from(i / 6 % 2) * 0.4, 1.0 + f64::from(i / 6) * 1.2);
        bodies.push(world.add_body(BodyDef::new(v(x, y), S::from_f64(0.5))).unwrap());
    }
    let mut pairs_seen = 0;
    for tick in 1..=300 {
        world.step();
        for &b in &bodies {
            let fast: Vec<WorldContact<S>> = world.contacts_of(b).collect();
            let fast_keys: Vec<_> = fast.iter().map(|c| (c.other, c.normal, c.separation, c.impulse)).collect();
            assert_eq!(fast_keys, contacts_by_scan(&world, b), "tick {tick}, body {b:?}");
            assert!(
                fast.iter()
                    .all(|c| c.body == b && c.depth == if c.separation < S::ZERO { -c.separation } else { S::ZERO })
            );
            pairs_seen += fast.iter().filter(|c| c.other.body().is_some_and(|o| o < b)).count();
        }
    }
    assert!(pairs_seen > 1000, "the pile made only {pairs_seen} contacts seen from their higher body");
    // An id the world does not have has none.
    let gone = world.remove_body(bodies[5]).unwrap();
    assert_eq!(world.contacts_of(bodies[5]).count(), 0, "{gone:?}");
    assert!(world.contact_details().all(|c| c.body != bodies[5] && c.other != Id::Body(bodies[5])));
}

/// A point on a body's contact, seen from the other body, lies on the
/// first body's surface: the listed point moved along the normal by the
/// separation.
fn a_contact_seen_from_its_second_body_has_its_point_on_the_first<S: TestScalar>() {
    let mut world = World::new(WorldConfig::new(v(0.0, 0.0))).unwrap();
    let a = world.add_body(BodyDef::new(v(0.0, 0.0), S::from_f64(1.0))).unwrap();
    let b = world.add_body(BodyDef::new(v(1.5, 0.0), S::from_f64(1.0))).unwrap();
    world.step();
    let from_a = world.contacts_of(a).next().unwrap();
    let from_b = world.contacts_of(b).next().unwrap();
    assert_eq!((from_a.other, from_b.other), (Id::Body(b), Id::Body(a)));
    assert_eq!(from_a.normal, -from_b.normal);
    // Each point on the other's surface where the tick ends.
    let (pa, pb) = (world.body(a).unwrap().position(), world.body(b).unwrap().position());
    let on = |p: Vec2<S>, centre: Vec2<S>| ((p.x - centre.x).to_f64().hypot((p.y - centre.y).to_f64()) - 1.0).abs();
    assert!(on(from_a.point, pb) < 1e-3, "a sees the point on b's surface: {:?} (b at {pb:?})", from_a.point);
    assert!(on(from_b.point, pa) < 1e-3, "b sees the point on a's surface: {:?} (a at {pa:?})", from_b.point);
}

/// Item 2: a game's ray cast down and the contacts disagreed on 499 ticks
/// about whether the player stood on something. In a scripted run (walking
/// across a floor, up a 30° slope, against a 60° one, jumping, pushing a
/// crate) `ground` answers "some" exactly on the ticks the player has a
/// contact whose normal points up by at least the limit, and then the most
/// upright of them.
fn ground_agrees_with_the_contacts_normals_every_tick<S: TestScalar>() {
    let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).unwrap();
    world.add_collider(seg::<S>(-20.0, 0.0, 10.0, 0.0)).unwrap();
    // 30°: rises 0.577 per unit.
    world.add_collider(seg::<S>(10.0, 0.0, 16.0, 3.4641)).unwrap();
    world.add_collider(seg::<S>(16.0, 3.4641, 24.0, 3.4641)).unwrap();
    // 60°: rises 1.732 per unit.
    world.add_collider(seg::<S>(24.0, 3.4641, 26.0, 6.9282)).unwrap();
    let player = BodyDef::capsule(v(0.0, 1.0), v(0.0, -0.5), v(0.0, 0.5), S::from_f64(0.5));
    let player = world.add_body(player).unwrap();
    world.add_body(BodyDef::new(v(5.0, 0.5), S::from_f64(0.5))).unwrap();
    let min_up = S::from_f64(MIN_UP);
    let (mut grounded, mut airborne, mut steep_only) = (0, 0, 0);
    for tick in 0..3000_u32 {
        let body = world.body(player).unwrap();
        let mut velocity = body.velocity();
        velocity.x = S::from_f64(if tick % 1000 < 500 { 0.05 } else { -0.05 });
        if tick % 250 == 0 && world.ground(player, min_up).is_some() {
            velocity.y = S::from_f64(0.3); // a jump
        }
        world.set_velocity(player, velocity).unwrap();
        world.step();
        let ups: Vec<WorldContact<S>> = world.contacts_of(player).filter(|c| c.normal.y >= min_up).collect();
        let ground = world.ground(player, min_up);
        match ground {
            None => {
                assert!(ups.is_empty(), "tick {tick}: contacts {ups:?} point up, yet no ground");
                airborne += 1;
                steep_only += usize::from(world.contacts_of(player).next().is_some());
            }
            Some(g) => {
                let best = ups.iter().fold(None::<&WorldContact<S>>, |b, c| match b {
                    Some(b) if b.normal.y >= c.normal.y => Some(b),
                    _ => Some(c),
                });
                let best = best.unwrap_or_else(|| panic!("tick {tick}: ground {g:?} with no contact pointing up"));
                assert_eq!((g.other, g.normal, g.point), (best.other, best.normal, best.point), "tick {tick}");
                grounded += 1;
            }
        }
    }
    assert!(grounded > 1000 && airborne > 50, "{grounded} ticks grounded, {airborne} not: the run missed a case");
    assert!(steep_only > 0, "the player never stood against the 60° slope alone");
}

/// `ground` names what a body stands on and how fast it moves: a moving
/// platform's velocity, a body's; nothing without gravity, nothing on a
/// wall, and a flat floor qualifies at the strictest limit (1).
fn ground_names_what_a_body_stands_on_and_its_velocity<S: TestScalar>() {
    let mut world = World::new(WorldConfig::new(v(0.0, -0.02))).unwrap();
    let mut lift = ColliderDef::new(seg::<S>(-2.0, 0.0, 2.0, 0.0));
    lift.velocity = v(0.0, 0.015_625);
    let lift = world.add_collider(lift).unwrap();
    let wall = world.add_collider(seg::<S>(10.0, 0.0, 10.0, 5.0)).unwrap();
    let rider = world.add_body(BodyDef::new(v(0.0, 0.5), S::from_f64(0.5))).unwrap();
    let on_rider = world.add_body(BodyDef::new(v(0.0, 1.5), S::from_f64(0.5))).unwrap();
    let mut leaner = BodyDef::new(v(9.5, 2.0), S::from_f64(0.5));
    leaner.gravity_scale = S::ZERO;
    leaner.velocity = v(0.01, 0.0);
    let leaner = world.add_body(leaner).unwrap();
    for _ in 0..120 {
        world.step();
    }
    let g = world.ground(rider, S::ONE).expect("the rider stands on the lift");
    assert_eq!((g.other, g.normal, g.velocity), (Id::Collider(lift), v(0.0, 1.0), v(0.0, 0.015_625)));
    let g = world.ground(on_rider, S::from_f64(MIN_UP)).expect("the top ball stands on the rider");
    assert_eq!((g.other, g.velocity), (Id::Body(rider), world.body(rider).unwrap().velocity()));
    // Against the wall, with no gravity of its own: no ground, no "up".
    assert_eq!(world.contacts_of(leaner).map(|c| c.other).collect::<Vec<_>>(), [Id::Collider(wall)]);
    assert_eq!(world.ground(leaner, S::from_f64(-1.0)), None);
    // A limit no normal reaches, and any limit at all below −1.
    assert_eq!(world.ground(rider, S::from_f64(1.5)), None);
    assert!(world.ground(rider, S::from_f64(-1000.0)).is_some());
    // A world without gravity has no up.
    let mut flat = World::new(WorldConfig::new(v::<S>(0.0, 0.0))).unwrap();
    flat.add_collider(seg::<S>(-2.0, 0.0, 2.0, 0.0)).unwrap();
    let ball = flat.add_body(BodyDef::new(v(0.0, 0.5), S::from_f64(0.5))).unwrap();
    flat.step();
    assert_eq!(flat.contacts_of(ball).count(), 1);
    assert_eq!(flat.ground(ball, S::ZERO), None);
}

/// Item 2's workaround and item 5: a query that passes over one body. A
/// ray cast down from inside the player finds the player at t = 0 with a
/// plain filter, and the floor when it excludes the player; the overlap
/// and nearest queries pass over it the same way.
fn a_query_can_pass_over_the_player<S: TestScalar>() {
    let (mut world, [player, ..]) = yard::<S>();
    for _ in 0..60 {
        world.step();
    }
    let floor = Id::Collider(world.colliders()[0].id());
    let feet = world.body(player).unwrap().position();
    let down = v::<S>(0.0, -3.0);
    assert_eq!(world.ray_cast(feet, down, Filter::ALL).map(|h| (h.id, h.t)), Some((Id::Body(player), S::ZERO)));
    let hit = world.ray_cast(feet, down, Filter::ALL.excluding(player)).expect("the floor below");
    assert_eq!(hit.id, floor);
    assert_eq!(hit.normal, v(0.0, 1.0));
    let mut found = Vec::new();
    let around = Circle::new(feet, S::from_f64(1.6)).unwrap();
    world.overlap_circle(&around, Filter::ALL, &mut found);
    assert_eq!(found, [floor, Id::Body(player)]);
    world.overlap_circle(&around, Filter::ALL.excluding(player), &mut found);
    assert_eq!(found, [floor]);
    world.overlap_capsule(&world.body(player).unwrap().capsule(), Filter::ALL.excluding(player), &mut found);
    assert_eq!(found, [floor]);
    assert_eq!(world.nearest(feet, Filter::ALL.excluding(player)).map(|n| n.id), Some(floor));
    // Excluding a body leaves the layers as they were.
    let none = Filter { layer: 0, mask: 0 };
    assert_eq!(world.nearest(feet, none.excluding(player)), None);
}

/// Item 5: a game converted the world's shapes to capsules by hand. Every
/// shape is a capsule of the same points, so a capsule query on the
/// conversion answers as the shape's own query does.
fn every_shape_converts_to_a_capsule_of_the_same_points<S: TestScalar>() {
    let ledge = seg::<S>(0.0, 1.0, 4.0, 1.0);
    let ball = Circle::new(v::<S>(2.0, 3.0), S::from_f64(0.5)).unwrap();
    let probe = Capsule::new(v::<S>(1.0, 1.25), v(1.0, 3.0), S::from_f64(0.5)).unwrap();
    assert_eq!(Shape::from(ledge).as_capsule(), Capsule::from(ledge));
    assert_eq!(Shape::from(ball).as_capsule(), Capsule::from(ball));
    assert_eq!(Capsule::from(ledge).radius(), S::ZERO);
    assert_eq!(Capsule::from(ball).segment(), Segment::new(ball.center(), ball.center()).unwrap());
    let converted = contact_capsule_capsule(&Capsule::from(ball), &probe).expect("the ball overlaps the probe");
    let own = contact_circle_capsule(&ball, &probe).expect("the ball overlaps the probe");
    let near = |a: S, b: S| (a.to_f64() - b.to_f64()).abs() <= S::TOL;
    assert!(
        near(converted.depth, own.depth)
            && near(converted.normal.x, own.normal.x)
            && near(converted.normal.y, own.normal.y),
        "converted {converted:?}, own {own:?}"
    );
    let on_ledge = contact_capsule_capsule(&probe, &Capsule::from(ledge)).expect("the probe overlaps the ledge");
    assert_eq!(on_ledge.normal, v(0.0, 1.0));
}

macro_rules! contacts_suite {
    ($module:ident, $t:ty) => {
        mod $module {
            type T = $t;
            contacts_suite!(@tests T;
                a_resting_body_has_its_contacts_every_tick,
                resting_contacts_carry_the_weight_on_them,
                contacts_of_a_body_are_the_lists_seen_from_it,
                a_contact_seen_from_its_second_body_has_its_point_on_the_first,
                ground_agrees_with_the_contacts_normals_every_tick,
                ground_names_what_a_body_stands_on_and_its_velocity,
                a_query_can_pass_over_the_player,
                every_shape_converts_to_a_capsule_of_the_same_points,
            );
        }
    };
    (@tests $t:ty; $($name:ident),* $(,)?) => {
        $(#[test] fn $name() { super::$name::<$t>(); })*
    };
}

contacts_suite!(f32_contacts, f32);
contacts_suite!(f64_contacts, f64);
contacts_suite!(i16f16_contacts, fixed::types::I16F16);
contacts_suite!(i32f32_contacts, fixed::types::I32F32);
contacts_suite!(i48f16_contacts, fixed::types::I48F16);
