//! The world steps without allocating once its buffers have grown: the
//! broad phase, the step's scratch and the events are reused from tick to
//! tick (a game steps 60 times a second, and re-simulates many more after
//! a rollback). Counted by `allocation-counter`'s global allocator.

use fixed::types::I32F32;
use geom_core::world::{BodyDef, ColliderDef, World, WorldConfig};
use geom_core::{Capsule, Circle, Segment, Vec2};

fn v(x: f64, y: f64) -> Vec2<I32F32> {
    Vec2::new(I32F32::from_num(x), I32F32::from_num(y))
}

/// A box of walls, a bumper, a sensor and a platform going up and down,
/// with 200 bouncing, sliding bodies on two layers.
fn scene() -> World<I32F32> {
    let mut w = World::new(WorldConfig::new(v(0.0, -0.03))).unwrap();
    for (a, b) in [((-40.0, -20.0), (40.0, -20.0)), ((-40.0, -20.0), (-40.0, 40.0)), ((40.0, -20.0), (40.0, 40.0))] {
        let mut wall = ColliderDef::new(Segment::new(v(a.0, a.1), v(b.0, b.1)).unwrap());
        wall.friction = I32F32::from_num(0.5);
        w.add_collider(wall).unwrap();
    }
    w.add_collider(Capsule::new(v(-10.0, 0.0), v(10.0, 4.0), I32F32::ONE).unwrap()).unwrap();
    let mut zone = ColliderDef::new(Circle::new(v(20.0, -10.0), I32F32::from_num(5)).unwrap());
    zone.sensor = true;
    w.add_collider(zone).unwrap();
    let mut lift = ColliderDef::new(Segment::new(v(-30.0, -15.0), v(-20.0, -15.0)).unwrap());
    lift.velocity = v(0.0, 0.0625);
    w.add_collider(lift).unwrap();
    for i in 0..200 {
        let i = f64::from(i);
        let mut def = BodyDef::new(v(-36.0 + (i * 3.7) % 72.0, -10.0 + (i * 1.3) % 45.0), I32F32::from_num(0.5));
        def.velocity = v((i % 5.0) * 0.2 - 0.4, 0.0);
        def.restitution = I32F32::from_num(0.5);
        def.friction = I32F32::from_num(0.25);
        def.filter.layer = 1 << (i as u32 % 2);
        w.add_body(def).unwrap();
    }
    w
}

#[test]
fn stepping_a_warmed_up_world_allocates_nothing() {
    let mut world = scene();
    let lift = world.colliders()[5].id();
    let turn = |world: &mut World<I32F32>, tick: u32| {
        if tick.is_multiple_of(100) {
            let up = world.collider(lift).unwrap().velocity();
            world.set_collider_velocity(lift, -up).unwrap();
        }
    };
    // Warm up: the buffers grow to what the scene needs.
    for tick in 0..400 {
        turn(&mut world, tick);
        world.step();
    }
    let mut events = 0;
    let counted = allocation_counter::measure(|| {
        for tick in 400..600 {
            turn(&mut world, tick);
            world.step();
            events += world.events().len();
        }
    });
    assert!(events > 0, "the scene has events");
    assert_eq!(counted.count_total, 0, "allocations in 200 warm ticks: {counted:?}");
}
