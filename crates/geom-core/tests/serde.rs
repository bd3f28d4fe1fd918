//! Serialising shapes and worlds (the `serde` feature): a world survives a
//! round trip bit for bit, and a malformed file is refused with an error.
#![cfg(feature = "serde")]

use fixed::types::I32F32;
use geom_core::world::{BodyDef, Collider, World, WorldConfig};
use geom_core::{Capsule, Circle, Segment, Vec2};

fn scene() -> World<I32F32> {
    let v = |x: f64, y: f64| Vec2::new(I32F32::from_num(x), I32F32::from_num(y));
    let mut world = World::new(WorldConfig::new(v(0.0, -0.05))).unwrap();
    world.add_collider(Collider::Segment(Segment::new(v(-10.0, 0.0), v(10.0, 0.0)).unwrap()));
    world.add_collider(Collider::Capsule(Capsule::new(v(-3.0, 4.0), v(3.0, 5.0), I32F32::from_num(0.5)).unwrap()));
    world.add_collider(Collider::Circle(Circle::new(v(6.0, 3.0), I32F32::ONE).unwrap()));
    for i in 0..6 {
        let mut def = BodyDef::new(v(f64::from(i) * 2.0 - 5.0, 8.0), I32F32::from_num(0.5));
        def.velocity = v(0.1 * f64::from(i), 0.0);
        def.restitution = I32F32::from_num(0.5);
        world.add_body(def).unwrap();
    }
    world
}

#[test]
fn a_world_survives_a_round_trip_bit_for_bit() {
    let mut world = scene();
    for _ in 0..50 {
        world.step();
    }
    let json = serde_json::to_string(&world).unwrap();
    let mut back: World<I32F32> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.checksum(), world.checksum());
    for _ in 0..50 {
        world.step();
        back.step();
        assert_eq!(back.checksum(), world.checksum());
    }
}

#[test]
fn a_malformed_world_is_refused_with_an_error() {
    let json = serde_json::to_string(&scene()).unwrap();
    // A negative radius (fixed-point values are stored as their raw bits),
    // smuggled in by editing the file.
    let bad = json.replacen("\"radius\":{\"bits\":2147483648}", "\"radius\":{\"bits\":-2147483648}", 1);
    assert_ne!(bad, json, "the edit found a radius to change");
    let err = serde_json::from_str::<World<I32F32>>(&bad).unwrap_err();
    assert!(err.to_string().contains("negative"), "{err}");
    // Ids out of order.
    let swapped = json.replacen("\"id\":0", "\"id\":9", 1);
    assert!(serde_json::from_str::<World<I32F32>>(&swapped).is_err());
}

#[test]
fn shapes_are_validated_when_read() {
    let ok: Circle<f64> = serde_json::from_str(r#"{"center":{"x":1.0,"y":2.0},"radius":3.0}"#).unwrap();
    assert_eq!(ok.radius(), 3.0);
    let err = serde_json::from_str::<Circle<f64>>(r#"{"center":{"x":1.0,"y":2.0},"radius":-3.0}"#).unwrap_err();
    assert!(err.to_string().contains("the radius is negative"), "{err}");
    let far = serde_json::from_str::<Segment<f32>>(r#"{"start":{"x":1e30,"y":0},"end":{"x":0,"y":0}}"#);
    assert!(far.is_err());
}
