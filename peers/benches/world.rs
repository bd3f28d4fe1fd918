//! geom's world against rapier2d: one tick of the same scene in both.
//!
//! The scenes are plain data shared with geom's own world benchmark
//! (`common/world_scene.rs`): the box of platforms with 1000, 4000 and
//! 16000 balls (`platforms_<n>`, the box growing with the count), dense
//! piles of 2000 and 5000 touching balls (`pile_<n>`), a jar 40 wide
//! filling with 1200 balls (`jar_1200`) and 5000 balls on a square grid in
//! a bin (`square_pile_5000`), the last two also once they have come to
//! rest (`jar_1200_settled`, `square_pile_5000_settled`: 1800 ticks in
//! instead of 120). Each engine steps a scene through its warm-up ticks
//! once, then every measured iteration steps a copy of that state once,
//! with the engine's buffers warm as a game's are after its first tick:
//! rapier's `PhysicsPipeline` is kept between iterations, and geom's copy
//! is made into one world kept between them and reaches the measured
//! state by one untimed step from the tick before, so that its narrow
//! phase's answers for unchanged bodies are those a game's world has
//! (`world_scene::time_ticks`).
//! The implementations (`<scene>/<impl>` in the group `peers-world`):
//!
//! - `geom_f32`, `geom_f64`, `geom_I32F32`: `World::step` in that type,
//!   with sleeping off (`sleep_ticks` 0);
//! - `geom_I32F32_sleeping`: the same in `I32F32` with sleeping on (geom's
//!   default: a group of touching bodies still for 30 ticks sleeps);
//! - `rapier_f32_awake`: rapier2d (`enhanced-determinism`, its
//!   cross-platform deterministic mode) with sleeping off;
//! - `rapier_f32_sleeping`: the same with sleeping on (rapier's default: a
//!   body still for half a second sleeps).
//!
//! The scene in rapier: the walls are segment colliders on one fixed body,
//! each ball a dynamic body with a ball collider of the same radius and
//! geom's mass (`1 / inverse_mass`), rotation locked (geom's bodies do not
//! rotate) and CCD on. geom counts in ticks, rapier in seconds: at rapier's
//! dt = 1/60 velocities are multiplied by 60 and gravity by 3600. Friction
//! is 0 everywhere (the scenes have none in geom); a contact bounces with
//! the larger restitution of the two (geom's rule, rapier's
//! `CoefficientCombineRule::Max`). Rapier's speed cap
//! (`normalized_max_linear_velocity`) is lifted, as geom has none; every
//! other parameter is rapier's default (4 solver iterations, 1 CCD
//! substep, `length_unit` 1: the balls are about 1 across).
//!
//! Run with `cargo xtask bench --peers`, which prints the medians per scene,
//! the ratios and geom's cost per body.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use fixed::types::I32F32;
use geom_core::Scalar;
use geom_core::world::World;
use rapier2d::prelude::{
    BroadPhaseBvh, CCDSolver, CoefficientCombineRule, ColliderBuilder, ColliderSet, ImpulseJointSet,
    IntegrationParameters, IslandManager, MultibodyJointSet, NarrowPhase, PhysicsPipeline, RigidBodyBuilder,
    RigidBodySet, SoftBodySet, Vector,
};

#[path = "../../crates/geom-core/benches/common/mod.rs"]
mod common;

use common::world_scene::{self, WorldScene};

/// rapier2d's step, in seconds: one geom tick.
const DT: f32 = 1.0 / 60.0;
/// Ticks per second, to convert velocities (units per tick) and gravity
/// (units per tick per tick).
const TICKS: f64 = 60.0;

/// rapier2d's whole simulation state (every set the pipeline steps), so
/// that a warmed-up state can be copied; the pipeline itself is only
/// workspace and is reused.
#[derive(Clone)]
struct Rapier {
    gravity: Vector,
    parameters: IntegrationParameters,
    islands: IslandManager,
    broad_phase: BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    soft_bodies: SoftBodySet,
    ccd: CCDSolver,
}

impl Rapier {
    /// The scene in rapier2d, units converted (see the module
    /// documentation), with sleeping on or off.
    fn new(scene: &WorldScene, sleeping: bool) -> Self {
        let v = |[x, y]: [f64; 2], scale: f64| Vector::new((x * scale) as f32, (y * scale) as f32);
        let parameters = IntegrationParameters {
            dt: DT,
            normalized_max_linear_velocity: f32::MAX,
            ..IntegrationParameters::default()
        };
        let mut world = Self {
            gravity: v(scene.gravity, TICKS * TICKS),
            parameters,
            islands: IslandManager::new(),
            broad_phase: BroadPhaseBvh::new(),
            narrow_phase: NarrowPhase::new(),
            bodies: RigidBodySet::new(),
            colliders: ColliderSet::new(),
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            ccd: CCDSolver::new(),
        };
        let ground = world.bodies.insert(RigidBodyBuilder::fixed());
        for &[x0, y0, x1, y1] in &scene.walls {
            let wall = ColliderBuilder::segment(v([x0, y0], 1.0), v([x1, y1], 1.0)).friction(0.0);
            world.colliders.insert_with_parent(wall, ground, &mut world.bodies);
        }
        for ball in &scene.balls {
            let body = RigidBodyBuilder::dynamic()
                .translation(v(ball.position, 1.0))
                .linvel(v(ball.velocity, TICKS))
                .lock_rotations()
                .ccd_enabled(true)
                .can_sleep(sleeping);
            let body = world.bodies.insert(body);
            let collider = ColliderBuilder::ball(ball.radius as f32)
                .mass((1.0 / ball.inverse_mass) as f32)
                .friction(0.0)
                .restitution(ball.restitution as f32)
                .restitution_combine_rule(CoefficientCombineRule::Max);
            world.colliders.insert_with_parent(collider, body, &mut world.bodies);
        }
        world
    }

    fn step(&mut self, pipeline: &mut PhysicsPipeline) {
        pipeline.step(
            self.gravity,
            &self.parameters,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
    }

    /// The ball centres (the fixed ground body, at the origin, excluded).
    fn positions(&self) -> impl Iterator<Item = [f64; 2]> + '_ {
        self.bodies.iter().filter(|(_, b)| b.is_dynamic()).map(|(_, b)| {
            let p = b.translation();
            [f64::from(p.x), f64::from(p.y)]
        })
    }
}

/// How far beyond its walls' ends [`check_inside`] lets a ball's centre
/// be: a ball's radius and then some.
const MARGIN: f64 = 2.0;

/// Fails the benchmark if a ball left the bounding box of the scene's
/// walls (widened by [`MARGIN`]) during the warm-up: a unit converted
/// wrongly, or a ball through a wall.
fn check_inside(scene: &WorldScene, engine: &str, positions: impl Iterator<Item = [f64; 2]>) {
    let ends = scene.walls.iter().flat_map(|&[x0, y0, x1, y1]| [[x0, y0], [x1, y1]]);
    let (lo, hi) = ends.fold(([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]), |(lo, hi), [x, y]| {
        ([lo[0].min(x), lo[1].min(y)], [hi[0].max(x), hi[1].max(y)])
    });
    let inside = |p: [f64; 2]| (0..2).all(|i| (lo[i] - MARGIN..=hi[i] + MARGIN).contains(&p[i]));
    let outside = positions.filter(|&p| !inside(p)).count();
    assert_eq!(outside, 0, "{engine}: {outside} balls of {} left the box after the warm-up", scene.name);
}

/// geom's `World::step` in `S`, as `geom_<name>` with sleeping off or
/// `geom_<name>_sleeping` with it on.
fn bench_geom<S: Scalar>(group: &mut BenchmarkGroup<'_, WallTime>, scene: &WorldScene, name: &str, sleeping: bool) {
    let id = if sleeping { format!("geom_{name}_sleeping") } else { format!("geom_{name}") };
    let mut warmed: Option<World<S>> = None;
    group.bench_function(BenchmarkId::new(&scene.name, &id), |b| {
        let world = warmed.get_or_insert_with(|| {
            let world = scene.before_measured::<S>(sleeping);
            let positions = world.bodies().iter().map(|b| [b.position().x.to_f64(), b.position().y.to_f64()]);
            check_inside(scene, &id, positions);
            world
        });
        world_scene::time_ticks(b, world, |w| {
            w.step();
            w.tick()
        });
    });
}

/// rapier2d's step, as `rapier_f32_awake` (sleeping off) or
/// `rapier_f32_sleeping` (on).
fn bench_rapier(group: &mut BenchmarkGroup<'_, WallTime>, scene: &WorldScene, sleeping: bool) {
    let name = if sleeping { "rapier_f32_sleeping" } else { "rapier_f32_awake" };
    let mut pipeline = PhysicsPipeline::new();
    let mut warmed: Option<Rapier> = None;
    group.bench_function(BenchmarkId::new(&scene.name, name), |b| {
        let world = warmed.get_or_insert_with(|| {
            let mut world = Rapier::new(scene, sleeping);
            for _ in 0..scene.warm_up {
                world.step(&mut pipeline);
            }
            check_inside(scene, name, world.positions());
            world
        });
        b.iter_batched_ref(
            || world.clone(),
            |w| {
                w.step(&mut pipeline);
                black_box(w.bodies.len())
            },
            BatchSize::LargeInput,
        );
    });
}

fn world(c: &mut Criterion) {
    let moving = [world_scene::jar(1200, 40.0), world_scene::square_pile(5000)];
    let scenes = [1000, 4000, 16000]
        .map(world_scene::platforms)
        .into_iter()
        .chain([2000, 5000].map(world_scene::pile))
        .chain(moving.into_iter().flat_map(|scene| [scene.clone(), scene.settled()]));
    let mut group = c.benchmark_group("peers-world");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for scene in scenes {
        bench_geom::<f32>(&mut group, &scene, "f32", false);
        bench_geom::<f64>(&mut group, &scene, "f64", false);
        bench_geom::<I32F32>(&mut group, &scene, "I32F32", false);
        bench_geom::<I32F32>(&mut group, &scene, "I32F32", true);
        bench_rapier(&mut group, &scene, false);
        bench_rapier(&mut group, &scene, true);
    }
    group.finish();
}

criterion_group!(benches, world);
criterion_main!(benches);
