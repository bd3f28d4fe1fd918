//! Editing in the sandbox, driven as a user drives it: the timeline of
//! edits, selecting, moving, typing values, adding and deleting, the mouse.

use crate::common;

use common::*;

// --- Editing and the timeline ---------------------------------------------

#[test]
fn an_edit_at_tick_zero_changes_the_set_up_and_reset_returns_to_it() {
    let mut app = app(ScalarKind::I32F32);
    select(&mut app, "body 1");
    edit(&mut app, "x=-33 vy=0.25");
    let said = assert_done(&app, "edited body 1");
    assert!(!said.contains("tick"), "an edit of the set-up: {said}");
    let mut expected = default_scene();
    expected.bodies[1].position.x = -33.0;
    expected.bodies[1].velocity.y = 0.25;
    assert_eq!(app.setup(), &expected);
    assert_eq!(app.unsaved().as_deref(), Some("the set-up has unsaved edits"));
    let fresh = App::new(expected, None, ScalarKind::I32F32).unwrap();
    assert_eq!(app.checksum(), fresh.checksum(), "tick 0 is the set-up as edited");
    let run = {
        let mut fresh = fresh;
        apply_n(&mut fresh, &Action::StepForward, 7);
        fresh.checksum()
    };
    apply_n(&mut app, &Action::StepForward, 7);
    assert_eq!(app.checksum(), run, "the edited set-up runs as a fresh app of it does");
    app.apply(Action::Reset);
    assert_done(&app, "tick 0");
    assert_eq!((app.tick(), app.state().bodies), (0, app.setup().bodies.clone()));
}

#[test]
fn a_later_edit_is_kept_and_replayed_whenever_its_tick_is_reached_again() {
    let mut app = app(ScalarKind::I32F32);
    let plain = fresh_checksums(ScalarKind::I32F32, 20);
    apply_n(&mut app, &Action::StepForward, 10);
    select(&mut app, "body 2");
    edit(&mut app, "vy=0.5");
    assert_done(&app, "at tick 10");
    assert_eq!(app.setup(), &default_scene(), "the set-up is as it was");
    assert_eq!(app.state().bodies[2].velocity.y, 0.5);
    assert!(app.unsaved().unwrap().contains("1 edit after tick 0"));
    let mut edited = vec![app.checksum()];
    for _ in 0..10 {
        app.apply(Action::StepForward);
        edited.push(app.checksum());
    }
    assert_ne!(edited[10], plain[20]);
    // Before its tick the world is as it was.
    apply_n(&mut app, &Action::StepBack, 11);
    assert_eq!((app.tick(), app.checksum()), (9, plain[9]));
    apply_n(&mut app, &Action::StepForward, 11);
    assert_eq!((app.tick(), app.checksum()), (20, edited[10]), "replayed on the way");
    // From tick 0 too.
    app.apply(Action::Reset);
    assert_eq!(app.checksum(), plain[0]);
    for (i, expected) in edited.iter().enumerate() {
        let tick = i + 10;
        while app.tick() < tick as u64 {
            app.apply(Action::StepForward);
        }
        assert_eq!(app.checksum(), *expected, "tick {tick}");
    }
    // In another precision, the same edit at the same tick.
    app.apply(Action::Precision(ScalarKind::F64));
    let mut f64_run = stepped(self::app(ScalarKind::F64), 10);
    select(&mut f64_run, "body 2");
    edit(&mut f64_run, "vy=0.5");
    apply_n(&mut f64_run, &Action::StepForward, 10);
    assert_eq!(app.checksum(), f64_run.checksum(), "the later edit is re-run in f64");
}

#[test]
fn a_later_edit_that_no_longer_applies_is_skipped_and_said_so() {
    let mut app = app(ScalarKind::F64);
    app.apply(Action::Add(Addition::Ball));
    assert_eq!(app.selected().as_deref(), Some("body 8"));
    apply_n(&mut app, &Action::StepForward, 10);
    edit(&mut app, "vy=0.5");
    assert_done(&app, "at tick 10");
    apply_n(&mut app, &Action::StepBack, 5);
    select(&mut app, "body 8");
    app.apply(Action::Delete);
    assert_done(&app, "deleted body 8 at tick 5");
    apply_n(&mut app, &Action::StepForward, 4);
    assert_eq!(app.message(), None);
    app.apply(Action::StepForward);
    assert_eq!(app.tick(), 10);
    assert_refused(&app, "no longer appl");
    assert_eq!(app.state().bodies.len(), 8);
    assert_eq!(app.check(), Ok(()));
}

#[test]
fn undo_and_redo_take_back_and_make_again_the_last_edit() {
    let mut app = app(ScalarKind::I32F32);
    app.apply(Action::Undo);
    assert_refused(&app, "nothing to undo");
    app.apply(Action::Add(Addition::Ball));
    let with_ball = app.setup().clone();
    apply_n(&mut app, &Action::StepForward, 5);
    let no_edit_at_5 = app.checksum();
    select(&mut app, "body 3");
    edit(&mut app, "vx=1");
    let edited_at_5 = app.checksum();
    assert_ne!(edited_at_5, no_edit_at_5);

    press_with(&mut app, KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_done(&app, "undid");
    assert_eq!((app.tick(), app.checksum()), (5, no_edit_at_5), "the later edit is taken back");
    app.apply(Action::Undo);
    assert_eq!(app.setup(), &default_scene(), "the ball is taken back");
    assert_eq!((app.tick(), app.checksum()), (5, fresh_checksums(ScalarKind::I32F32, 5)[5]));
    assert_eq!(app.unsaved(), None);
    app.apply(Action::Undo);
    assert_refused(&app, "nothing to undo");

    press_with(&mut app, KeyCode::Char('y'), KeyModifiers::CONTROL);
    assert_done(&app, "again");
    assert_eq!((app.setup(), app.checksum()), (&with_ball, no_edit_at_5));
    app.apply(Action::Redo);
    assert_eq!(app.checksum(), edited_at_5);
    app.apply(Action::Redo);
    assert_refused(&app, "nothing to redo");

    // A new edit forgets what was taken back.
    app.apply(Action::Undo);
    select(&mut app, "body 3");
    edit(&mut app, "vx=-1");
    app.apply(Action::Redo);
    assert_refused(&app, "nothing to redo");
    assert_eq!(app.check(), Ok(()));
}

#[test]
fn typed_world_settings_change_the_set_up_and_re_run_to_this_tick() {
    let mut app = app(ScalarKind::I32F32);
    apply_n(&mut app, &Action::StepForward, 4);
    assert_eq!(app.selected(), None);
    edit(&mut app, "gy=-0.03125 substeps=2");
    assert_done(&app, "tick 4");
    assert_eq!(app.setup().settings.gravity, Vec2::new(0.0, -0.03125));
    assert_eq!(app.setup().settings.substeps, Some(2));
    let mut scene = default_scene();
    scene.settings = app.setup().settings;
    let fresh = stepped(App::new(scene, None, ScalarKind::I32F32).unwrap(), 4);
    assert_eq!(app.checksum(), fresh.checksum());
    assert_eq!(rewindable(&app), 4);
    let before = app.checksum();
    edit(&mut app, "substeps=0.5");
    assert_refused(&app, "substeps");
    edit(&mut app, "mass=1");
    assert_refused(&app, "gx gy bounce substeps");
    assert_eq!(app.checksum(), before);
}

/// Tab goes round every body, every collider and nothing selected (where
/// Enter edits the world); shift-Tab the other way round.
#[test]
fn tab_selects_bodies_then_colliders_then_nothing_and_shift_tab_goes_back() {
    let mut app = app(ScalarKind::F32);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.selected().as_deref(), Some("body 0"));
    press(&mut app, KeyCode::BackTab);
    assert_eq!(app.selected(), None, "before the first, nothing");
    assert_eq!(app.message(), Some("nothing selected (Enter edits the world)"));
    press(&mut app, KeyCode::BackTab);
    let last = app.state().colliders.len() - 1;
    assert_eq!(app.selected(), Some(format!("collider {last} (capsule)")), "then round to the last");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.selected(), None, "after the last, nothing");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.selected().as_deref(), Some("body 0"), "and round again");
    for _ in 0..app.state().bodies.len() {
        press(&mut app, KeyCode::Tab);
    }
    assert_eq!(app.selected().as_deref(), Some("collider 0 (segment)"));
}

#[test]
fn arrows_move_the_selection_by_one_grid_step() {
    let mut app = app(ScalarKind::I16F16);
    press(&mut app, KeyCode::Tab);
    let before = app.state().bodies[0].position;
    let cell = Cells::new(&app, before).width();
    press(&mut app, KeyCode::Right);
    let grid = app.state().bodies[0].position.x - before.x;
    assert!(is_power_of_two(grid) && grid <= cell && cell < 2.0 * grid, "a step of {grid}, a cell of {cell}");
    assert_eq!(app.state().bodies[0].position.y, before.y);
    keys(&mut app, "kk");
    assert_eq!(app.state().bodies[0].position, before + Vec2::new(grid, 2.0 * grid));
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(app.state().bodies[0].position, before + Vec2::new(0.0, grid));
    assert_eq!(app.selected().as_deref(), Some("body 0"));
}

#[test]
fn with_nothing_selected_arrows_pan_the_view() {
    let mut app = app(ScalarKind::F32);
    let ball = app.state().bodies[2].position;
    let middle = |app: &App| Cells::new(app, ball).middle(40, 5);
    let before = middle(&app);
    press(&mut app, KeyCode::Right);
    assert!(middle(&app).x > before.x);
    let before = middle(&app);
    press_with(&mut app, KeyCode::Up, KeyModifiers::SHIFT);
    assert!(middle(&app).y > before.y);
    assert_eq!(app.state().bodies, default_scene().bodies, "nothing moved but the view");
}

#[test]
fn radius_keys_grow_and_shrink_and_never_go_negative() {
    let mut app = app(ScalarKind::I32F32);
    let point = app.state().bodies.iter().position(|b| b.radius == 0.0).unwrap();
    select(&mut app, &format!("body {point}"));
    press(&mut app, KeyCode::Char(']'));
    assert_done(&app, "radius 0.125");
    assert_eq!(app.state().bodies[point].radius, 0.125);
    keys(&mut app, "[[");
    assert_eq!(app.state().bodies[point].radius, 0.0, "the second shrink is refused");
    assert_refused(&app, "negative");
    select(&mut app, "collider 0 (segment)");
    press(&mut app, KeyCode::Char(']'));
    assert_refused(&app, "no radius");
    let mut nothing = self::app(ScalarKind::F64);
    press(&mut nothing, KeyCode::Char(']'));
    assert_refused(&nothing, "select");
}

#[test]
fn typed_edits_apply_and_bad_ones_are_refused_with_nothing_changed() {
    let mut app = app(ScalarKind::I16F16);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "x=1.5 vy=-2 r=0.75");
    press(&mut app, KeyCode::Enter);
    assert_done(&app, "edited body 0");
    let body = app.state().bodies[0];
    assert_eq!((body.position.x, body.velocity.y, body.radius), (1.5, -2.0, 0.75));
    let before = (app.checksum(), app.setup().clone());
    for (bad, why) in [
        ("r=-1", "negative"),
        ("x=5000", "±4096"),
        ("x=nan", "not a finite number"),
        ("mass=2", "no field `mass`"),
        ("x", "name=value"),
    ] {
        edit(&mut app, bad);
        assert_refused(&app, why);
        assert_eq!((app.checksum(), app.setup().clone()), before, "{bad} changed the world");
    }
}

#[test]
fn esc_cancels_a_prompt_without_quitting() {
    let mut app = app(ScalarKind::F64);
    press(&mut app, KeyCode::Tab);
    let before = app.checksum();
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "x=3");
    assert!(lines(&app, 80, 24)[23].starts_with("edit> x=3"), "{:?}", lines(&app, 80, 24)[23]);
    press(&mut app, KeyCode::Esc);
    assert!(!app.should_quit());
    assert!(!lines(&app, 80, 24)[23].contains("edit>"), "the prompt is closed");
    assert_eq!(app.checksum(), before);
    press(&mut app, KeyCode::Char('.'));
    assert_eq!(app.tick(), 1, "keys work again");
}

#[test]
fn adding_and_deleting_shapes_selects_and_forgets_them() {
    let mut app = app(ScalarKind::I32F32);
    let (bodies, colliders) = (app.state().bodies.len(), app.state().colliders.len());
    keys(&mut app, "bosu");
    assert_done(&app, "added");
    assert_eq!(app.state().bodies.len(), bodies + 1);
    assert_eq!(app.state().colliders.len(), colliders + 3);
    assert_eq!(app.selected(), Some(format!("collider {} (capsule)", colliders + 2)));
    assert!(matches!(app.state().colliders.last().map(|c| c.shape), Some(Shape::Capsule { .. })));
    press(&mut app, KeyCode::Char('x'));
    assert_done(&app, "deleted");
    assert_eq!(app.state().colliders.len(), colliders + 2);
    assert_eq!(app.selected(), None);
    press(&mut app, KeyCode::Delete);
    assert_refused(&app, "nothing selected");
}

#[test]
fn adding_out_of_range_for_the_type_is_refused() {
    let mut app = app(ScalarKind::I16F16);
    let far = Vec2::new(5000.0, 2.0);
    // Pan right until x = 5000, beyond I16F16's ±4096, is in the middle.
    let mut pans = 0;
    while app.cell_of(far).is_none_or(|(column, _)| column > 40) {
        app.apply(Action::Pan(4, 0));
        pans += 1;
        assert!(pans < 10_000, "never got there");
    }
    app.apply(Action::Add(Addition::Ball));
    assert_refused(&app, "±4096");
    assert_eq!(app.state().bodies.len(), 8);
    assert_eq!(app.setup(), &default_scene());
}

#[test]
fn selecting_a_collider_and_moving_it_keeps_its_number() {
    let mut app = app(ScalarKind::I32F32);
    select(&mut app, "collider 7 (segment)");
    let grid = {
        let cells = Cells::new(&app, app.state().bodies[2].position);
        2.0_f64.powi(cells.width().log2().floor() as i32)
    };
    let before = app.state().colliders;
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(app.selected().as_deref(), Some("collider 7 (segment)"));
    let after = app.state().colliders;
    assert_eq!(after.len(), before.len());
    assert_eq!(after[7].shape, before[7].shape.translated(Vec2::new(0.0, -grid)));
    assert_eq!(after[7].shape.anchor().y, -8.0 - grid);
    for i in (0..after.len()).filter(|&i| i != 7) {
        assert_eq!(after[i], before[i], "collider {i}");
    }
}

// --- The mouse ------------------------------------------------------------

#[test]
fn clicking_selects_and_dragging_moves_a_body_onto_the_grid() {
    let mut app = app(ScalarKind::F64);
    let ball = app.state().bodies[2].position;
    let cell = Cells::new(&app, ball).width();
    let grid = 2.0_f64.powi(cell.log2().floor() as i32);
    let (column, row) = app.cell_of(ball).unwrap();
    mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
    assert_eq!(app.selected().as_deref(), Some("body 2"));
    mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 4, row);
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column + 4, row);
    let moved = app.state().bodies[2].position;
    let expected = ball.x + 4.0 * cell;
    assert!((moved.x - expected).abs() <= cell, "{moved:?} vs x ≈ {expected}");
    // Dragged positions snap to the grid, so they are exact in every type.
    assert_eq!((moved.x / grid).fract(), 0.0);
    assert_eq!(moved.y, (ball.y / grid).round() * grid);
    // The button is up: dragging further moves nothing.
    mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 8, row);
    assert_eq!(app.state().bodies[2].position, moved);
}

/// A floor, a ball, and a capsule body 8 tall standing on its feet (its
/// position), in f64.
fn app_with_a_standing_capsule() -> App {
    let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
    scene.colliders.push(Shape::Segment { start: Vec2::new(-10.0, 0.0), end: Vec2::new(10.0, 0.0) }.into());
    scene.bodies.push(BodySpec::new(Vec2::new(-6.0, 1.0), 1.0));
    scene.bodies.push(BodySpec::capsule(Vec2::new(2.0, 0.5), Vec2::new(0.0, 0.0), Vec2::new(0.0, 8.0), 0.5));
    App::new(scene, None, ScalarKind::F64).unwrap()
}

#[test]
fn clicking_anywhere_on_a_capsule_body_selects_it_and_beside_it_does_not() {
    let mut app = app_with_a_standing_capsule();
    let reach = 1.5 * Cells::new(&app, Vec2::new(2.0, 4.0)).width();
    assert!(reach < 2.0, "the view shows the whole capsule closely enough: reach {reach}");
    // Its head: 7.5 above its position, far outside a circle there.
    let (column, row) = app.cell_of(Vec2::new(2.0, 8.0)).unwrap();
    mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column, row);
    assert_eq!(app.selected().as_deref(), Some("body 1 (capsule)"));
    // Level with its middle, 3 units to the side: 2.5 from its outline.
    let (column, row) = app.cell_of(Vec2::new(5.0, 4.5)).unwrap();
    mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column, row);
    assert_eq!(app.selected(), None);
}

#[test]
fn dragging_a_capsule_body_moves_its_position_and_its_core_with_it() {
    let mut app = app_with_a_standing_capsule();
    let before = app.state().bodies[1];
    let cell = Cells::new(&app, Vec2::new(2.0, 4.0)).width();
    let (column, row) = app.cell_of(Vec2::new(2.0, 7.0)).unwrap();
    mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
    mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 4, row + 2);
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column + 4, row + 2);
    let after = app.state().bodies[1];
    let moved = after.position - before.position;
    let expected = Vec2::new(4.0 * cell, -4.0 * cell);
    assert!((moved - expected).length() <= cell, "moved by {moved:?}, not about {expected:?}");
    assert_eq!(after.core, before.core, "the core is relative to the position");
    assert_eq!(after.shape(), before.shape().translated(moved), "the whole capsule moved as one");
    // The keys move it the same way.
    let grid = 2.0_f64.powi(cell.log2().floor() as i32);
    press(&mut app, KeyCode::Char('l'));
    let nudged = app.state().bodies[1];
    assert_eq!((nudged.position.x, nudged.core), (after.position.x + grid, before.core));
}

#[test]
fn typed_edits_change_a_capsule_bodys_core_and_radius_and_a_circle_has_no_core() {
    let mut app = app_with_a_standing_capsule();
    select(&mut app, "body 1 (capsule)");
    edit(&mut app, "x2=1 y2=4 r=0.25");
    assert_done(&app, "edited");
    let body = app.state().bodies[1];
    assert_eq!(
        (body.position, body.core, body.radius),
        (Vec2::new(2.0, 0.5), [Vec2::new(0.0, 0.0), Vec2::new(1.0, 4.0)], 0.25)
    );
    press(&mut app, KeyCode::Char('['));
    assert_eq!(app.state().bodies[1].radius, 0.125, "the radius keys work on it too");
    press(&mut app, KeyCode::BackTab);
    assert_eq!(app.selected().as_deref(), Some("body 0"));
    let ball = app.state().bodies[0];
    edit(&mut app, "x1=1");
    assert_refused(&app, "no field `x1`");
    assert_eq!(app.state().bodies[0], ball);
}

#[test]
fn clicking_empty_space_deselects_and_dragging_it_pans_keeping_the_point_grabbed_under_the_pointer() {
    let mut app = app(ScalarKind::F64);
    press(&mut app, KeyCode::Tab);
    let ball = app.state().bodies[2].position;
    // The canvas's top left corner, outside the box.
    let (column, row) = (1, 1);
    let grabbed = Cells::new(&app, ball).middle(column, row);
    let cell = Cells::new(&app, ball).width();
    mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
    assert_eq!(app.selected(), None);
    mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 2, row);
    let under = Cells::new(&app, ball).middle(column + 2, row);
    assert!((under - grabbed).length() < 1e-9, "{under:?} vs {grabbed:?}");
    // A row is twice a cell's width (four braille dots to two): dragging
    // down three rows shows what was three rows higher.
    mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 2, row + 3);
    let under = Cells::new(&app, ball).middle(column + 2, row + 3);
    assert!((under - grabbed).length() < 1e-9, "{under:?} vs {grabbed:?}");
    assert!((Cells::new(&app, ball).width() - cell).abs() < 1e-9, "panning does not zoom");
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column + 2, row + 3);
    assert_eq!(app.state().bodies, default_scene().bodies, "nothing moved but the view");
}

#[test]
fn the_wheel_zooms_about_the_pointer() {
    let mut app = app(ScalarKind::F64);
    let ball = app.state().bodies[2].position;
    let (column, row) = (3, 3);
    let before = Cells::new(&app, ball);
    let (under, cell) = (before.middle(column, row), before.width());
    mouse(&mut app, MouseEventKind::ScrollUp, column, row);
    let after = Cells::new(&app, ball);
    assert!((after.middle(column, row) - under).length() < 1e-9, "{under:?} moved");
    assert!((after.width() / cell - 0.8).abs() < 1e-9, "zoomed in: a cell of {} from {cell}", after.width());
    mouse(&mut app, MouseEventKind::ScrollDown, column, row);
    let back = Cells::new(&app, ball);
    assert!((back.width() - cell).abs() < 1e-9 && (back.middle(column, row) - under).length() < 1e-9);
}

/// At tick 0 an edit starts from the set-up's values as typed, not from
/// the running type's rounding of them: growing a radius of 0.3 in I16F16
/// gives 0.425 in the set-up, which each type rounds when it runs.
#[test]
fn an_edit_at_tick_zero_starts_from_the_typed_values_not_the_types_rounding() {
    let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
    scene.bodies.push(BodySpec::new(Vec2::new(0.1, 0.0), 0.3));
    scene.colliders.push(Shape::Circle { center: Vec2::new(5.1, 0.0), radius: 0.3 }.into());
    let mut app = App::new(scene, None, ScalarKind::I16F16).unwrap();
    press(&mut app, KeyCode::Tab);
    keys(&mut app, "]");
    assert_eq!(app.setup().bodies[0].radius, 0.3 + 0.125);
    press(&mut app, KeyCode::Tab);
    keys(&mut app, "]");
    let Shape::Circle { center, radius } = app.setup().colliders[0].shape else { panic!("a circle") };
    assert_eq!((center.x, radius), (5.1, 0.3 + 0.125), "the centre keeps its typed 5.1");
}
