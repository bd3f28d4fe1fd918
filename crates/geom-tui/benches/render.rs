//! Drawing one frame of the sandbox: a 500-body scene at two terminal
//! sizes, with a body selected so the inspector computes its five columns;
//! and what switching precision costs there, now that it re-runs the
//! set-up to the current tick; and a rollback frame of the built-in scene
//! as a two-player game. Run with `cargo xtask bench`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use geom_core::Vec2;
use geom_tui::net::RollbackFrame;
use geom_tui::scene::{BodySpec, ColliderSpec, DEFAULT_SCENE, Scene, Settings, Shape};
use geom_tui::{Action, App, ScalarKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

/// A box 200 × 100 with ramps and posts, and 500 balls on a grid, stepped
/// 200 ticks so many are in contact.
fn busy_app(width: u16, height: u16) -> App {
    let mut scene = Scene::new(Settings::new(Vec2::new(0.0, -1.0 / 64.0)));
    let segment = |ax, ay, bx, by| Shape::Segment { start: Vec2::new(ax, ay), end: Vec2::new(bx, by) };
    scene.colliders.extend(
        [
            segment(-100.0, -50.0, 100.0, -50.0),
            segment(-100.0, -50.0, -100.0, 50.0),
            segment(100.0, -50.0, 100.0, 50.0),
            segment(-90.0, 0.0, -20.0, -20.0),
            segment(20.0, -20.0, 90.0, 0.0),
        ]
        .map(ColliderSpec::from),
    );
    for i in 0..8 {
        let x = -70.0 + 20.0 * f64::from(i);
        scene.colliders.push(Shape::Circle { center: Vec2::new(x, -35.0), radius: 2.0 }.into());
        scene.colliders.push(
            Shape::Capsule { start: Vec2::new(x - 4.0, 20.0), end: Vec2::new(x + 4.0, 18.0), radius: 1.0 }.into(),
        );
    }
    for i in 0..500_u32 {
        let (column, row) = (f64::from(i % 50), f64::from(i / 50));
        let mut body = BodySpec::new(Vec2::new(-98.0 + column * 4.0, 24.0 + row * 2.5), 0.75);
        body.velocity = Vec2::new(f64::from(i % 7) / 8.0 - 0.375, 0.0);
        body.restitution = 0.5;
        scene.bodies.push(body);
    }
    let mut app = App::new(scene, None, ScalarKind::I32F32).expect("the scene fits I32F32");
    app.handle(&Event::Resize(width, height));
    for code in [KeyCode::Char('f'), KeyCode::Tab] {
        app.handle(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }
    for _ in 0..200 {
        app.apply(Action::StepForward);
    }
    app
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("render");
    for (width, height) in [(80, 24), (160, 48)] {
        let app = busy_app(width, height);
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
        group.bench_function(format!("500 bodies {width}x{height}"), |b| {
            b.iter(|| {
                terminal.draw(|frame| geom_tui::ui::draw(frame, black_box(&app))).expect("draws");
            });
        });
    }
    group.finish();
}

/// Switching precision at tick 200 of the busy scene: the set-up built in
/// the other type and stepped 200 ticks, keeping each for rewinding.
fn precision_switch(c: &mut Criterion) {
    let mut group = c.benchmark_group("rerun");
    group.sample_size(10);
    let mut app = busy_app(80, 24);
    let mut kinds = [ScalarKind::F32, ScalarKind::I32F32].into_iter().cycle();
    group.bench_function("500 bodies to tick 200", |b| {
        b.iter(|| app.apply(Action::Precision(kinds.next().unwrap_or(ScalarKind::F64))));
    });
    group.finish();
}

/// The ticks a rollback client re-simulates per measured frame, as in
/// geom-core's `world_rollback`.
const ROLLBACK_TICKS: usize = 8;

/// `scene_rollback/<type>`: a rollback frame of the built-in scene as a
/// two-player game (`geom-tui run --net`) pays it: restore the frame saved
/// at tick 300, then 8 times a step and a snapshot.
fn scene_rollback(c: &mut Criterion) {
    let mut group = c.benchmark_group("scene_rollback");
    let scene = Scene::parse(DEFAULT_SCENE).expect("the built-in scene");
    for kind in ScalarKind::ALL {
        let mut frame = RollbackFrame::new(&scene, kind, 300).expect("the built-in scene fits every type");
        group.bench_function(kind.to_string(), |b| b.iter(|| black_box(frame.run(ROLLBACK_TICKS))));
    }
    group.finish();
}

criterion_group!(benches, frames, precision_switch, scene_rollback);
criterion_main!(benches);
