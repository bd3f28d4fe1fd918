use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use geom_core::Vec2;

use super::*;
use crate::App;
use crate::app::Message;
use crate::keymap::Action;
use crate::num::ScalarKind;
use crate::scene::Shape;
use crate::scene::{DEFAULT_SCENE, Scene};

fn app(kind: ScalarKind) -> App {
    let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), None, kind).unwrap();
    app.set_colors(false);
    app
}

fn keys(app: &mut App, codes: &[KeyCode]) {
    for code in codes {
        app.handle(&Event::Key(KeyEvent::new(*code, KeyModifiers::NONE)));
    }
}

/// The screen as text, one line per row.
pub(crate) fn render(app: &mut App, width: u16, height: u16) -> String {
    app.apply(Action::Resize(width, height));
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

fn draw_buffer(app: &mut App, width: u16, height: u16) -> ratatui::buffer::Buffer {
    app.apply(Action::Resize(width, height));
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn is_braille(c: char) -> bool {
    ('\u{2801}'..='\u{28ff}').contains(&c)
}

/// A scene of one floor and one ball, to read exact numbers from.
fn ball_over_floor(kind: ScalarKind, y: f64, radius: f64) -> App {
    let mut scene = Scene::new(crate::scene::Settings::new(Vec2::new(0.0, 0.0)));
    scene.colliders.push(Shape::Segment { start: Vec2::new(-8.0, 0.0), end: Vec2::new(8.0, 0.0) }.into());
    let mut ball = crate::scene::BodySpec::new(Vec2::new(1.0, y), radius);
    ball.velocity = Vec2::new(0.0, -1.0);
    scene.bodies.push(ball);
    let mut app = App::new(scene, None, kind).unwrap();
    app.set_colors(false);
    keys(&mut app, &[KeyCode::Tab]);
    app
}

/// Sensors are drawn dotted in light green, platforms in light blue with
/// their velocity arrow, and the last tick's impacts as light magenta
/// stars: each one is on the canvas exactly when the scene has it.
#[test]
fn the_canvas_draws_sensors_platforms_and_the_last_ticks_impacts() {
    use crate::scene::{BodySpec, ColliderSpec, Settings};
    let colours = |scene: &Scene, ticks: usize| {
        let mut app = App::new(scene.clone(), None, ScalarKind::I32F32).unwrap();
        app.set_colors(true);
        for _ in 0..ticks {
            keys(&mut app, &[KeyCode::Char('.')]);
        }
        let buffer = draw_buffer(&mut app, 80, 24);
        let mut seen = std::collections::BTreeSet::new();
        for cell in buffer.content() {
            if cell.symbol().chars().any(is_braille) {
                seen.insert(format!("{:?}", cell.fg));
            }
        }
        seen
    };
    let mut scene = Scene::new(Settings::new(Vec2::new(0.0, -0.125)));
    scene.colliders.push(Shape::Segment { start: Vec2::new(-10.0, 0.0), end: Vec2::new(10.0, 0.0) }.into());
    let plain = colours(&scene, 0);
    assert!(!plain.contains("LightGreen") && !plain.contains("LightBlue"), "{plain:?}");
    let mut zone = ColliderSpec::new(Shape::Circle { center: Vec2::new(-5.0, 5.0), radius: 2.0 });
    zone.sensor = true;
    scene.colliders.push(zone);
    let mut lift = ColliderSpec::new(Shape::Segment { start: Vec2::new(4.0, 2.0), end: Vec2::new(8.0, 2.0) });
    lift.velocity = Vec2::new(0.0, 0.25);
    scene.colliders.push(lift);
    let drawn = colours(&scene, 0);
    assert!(drawn.contains("LightGreen") && drawn.contains("LightBlue") && drawn.contains("Green"), "{drawn:?}");
    assert!(!drawn.contains("LightMagenta"), "no impact before the first tick: {drawn:?}");
    // A ball that lands on the floor on the second tick.
    let mut ball = BodySpec::new(Vec2::new(0.0, 1.0), 0.5);
    ball.velocity = Vec2::new(0.0, -0.5);
    scene.bodies.push(ball);
    assert!(colours(&scene, 1).contains("LightMagenta"), "the impact of the tick just stepped");
    assert!(!colours(&scene, 40).contains("LightMagenta"), "a ball at rest has no impact");
}

/// The inspector row called `name`, split into its cells.
fn inspector_row(screen: &str, name: &str) -> Vec<String> {
    let line = screen
        .lines()
        .find(|l| l.trim_start_matches('│').starts_with(name))
        .unwrap_or_else(|| panic!("no row {name}:\n{screen}"));
    line.trim_start_matches('│')[name.len()..].split_whitespace().map(str::to_owned).collect()
}

#[test]
fn the_main_screen_fits_80_by_24_with_status_canvas_inspector_and_hints() {
    let mut app = app(ScalarKind::I32F32);
    let screen = render(&mut app, 80, 24);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines.len(), 24);
    let status = format!(" ⏸ │ tick 0 │ I32F32 │ checksum {:016x} │ rewind 0 │ 1 cell = 2.31", app.checksum());
    assert_eq!(lines[0], status);
    let canvas_rows = lines[1..11].iter().filter(|l| l.chars().any(is_braille)).count();
    assert!(canvas_rows >= 9, "the scene fills the canvas:\n{screen}");
    assert!(lines[11].starts_with("┌ inspector"), "{screen}");
    assert!(lines[12].contains("Select a body"), "{screen}");
    assert_eq!(lines[23], "space play · . step · , back · Tab select · ? help · q quit");
}

#[test]
fn the_canvas_draws_a_floor_as_one_braille_line_and_the_ball_above_it() {
    let mut app = ball_over_floor(ScalarKind::I16F16, 4.0, 1.0);
    keys(&mut app, &[KeyCode::Char('i')]); // the canvas alone
    resize(&mut app, 60, 20);
    app.fit();
    let screen = render(&mut app, 60, 20);
    let rows: Vec<usize> = screen
        .lines()
        .enumerate()
        .filter(|(_, l)| l.chars().filter(|&c| is_braille(c)).count() > 40)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(rows.len(), 1, "one long horizontal line:\n{screen}");
    let ball_rows = screen.lines().take(rows[0]).filter(|l| l.chars().any(is_braille)).count();
    assert!(ball_rows >= 3, "the ball, its arrow and path are above the floor:\n{screen}");
}

#[test]
fn the_help_overlay_lists_every_key_at_80_by_24() {
    let mut app = app(ScalarKind::F32);
    keys(&mut app, &[KeyCode::Char('?')]);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("keys · ? or Esc closes"), "{screen}");
    for (key, what) in crate::keymap::KEYS {
        let line = screen.lines().find(|l| l.contains(what)).unwrap_or_else(|| panic!("{what} missing:\n{screen}"));
        assert!(line.contains(key), "{key} is not beside {what}");
    }
}

#[test]
fn the_inspector_shows_every_type_side_by_side_with_exact_values() {
    let mut app = ball_over_floor(ScalarKind::I16F16, 3.0, 1.0);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("body 0 vs collider 0 (segment) · nearest"), "{screen}");
    let header = screen.lines().find(|l| l.contains("f32") && l.contains("I48F16")).unwrap();
    assert_eq!(
        header.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>(),
        ["f32", "f64", "I16F16", "I32F32", "I48F16"]
    );
    assert_eq!(inspector_row(&screen, "closest x"), ["1.0"; 5]);
    assert_eq!(inspector_row(&screen, "gap"), ["2.0"; 5], "surface to surface");
    assert_eq!(inspector_row(&screen, "touching"), ["no"; 5]);
    assert_eq!(inspector_row(&screen, "depth"), ["—"; 5]);
    // Falling 1 a tick from 3 up with radius 1: touches after 2, t = 2/1 > 1: a miss this tick.
    assert_eq!(inspector_row(&screen, "impact t"), ["miss"; 5]);
    app.handle(&Event::Key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE)));
    keys(&mut app, &[KeyCode::Enter]);
    for c in "y=1.5".chars() {
        keys(&mut app, &[KeyCode::Char(c)]);
    }
    keys(&mut app, &[KeyCode::Enter]);
    let screen = render(&mut app, 80, 24);
    assert_eq!(inspector_row(&screen, "impact t"), ["0.5"; 5], "{screen}");
}

#[test]
fn the_inspector_marks_values_and_answers_that_differ_from_f64() {
    // In an f64 world, 0.30000001 is above the radius 0.3, but both
    // round to the same I16F16 value: a different answer there, and a
    // rounding in f32.
    let mut app = ball_over_floor(ScalarKind::F64, 0.300_000_01, 0.3);
    let screen = render(&mut app, 80, 24);
    let touching = inspector_row(&screen, "touching");
    assert_eq!(touching[1], "no", "{screen}");
    assert_eq!(touching[2], "yes!", "{screen}");
    let gap = inspector_row(&screen, "gap");
    assert!(gap[0].ends_with('*') && !gap[1].ends_with('*'), "{screen}");
}

#[test]
fn a_refused_edit_shows_its_message_in_red_or_bold_under_no_color() {
    for colors in [true, false] {
        let mut app = ball_over_floor(ScalarKind::I16F16, 3.0, 1.0);
        app.set_colors(colors);
        keys(&mut app, &[KeyCode::Char('['); 9]);
        let buffer = draw_buffer(&mut app, 80, 24);
        let footer: String = (0..80).map(|x| buffer[(x, 23)].symbol()).collect();
        assert!(footer.starts_with("radius refused: the radius is negative"), "{footer}");
        let cell = &buffer[(0, 23)];
        if colors {
            assert_eq!(cell.fg, Color::Red);
        } else {
            assert_eq!(cell.fg, Color::Reset);
            assert!(cell.modifier.contains(Modifier::BOLD));
        }
    }
}

#[test]
fn no_color_leaves_every_cell_uncoloured() {
    let mut app = app(ScalarKind::I16F16);
    keys(&mut app, &[KeyCode::Tab, KeyCode::Char('c'), KeyCode::Char('.')]);
    let buffer = draw_buffer(&mut app, 120, 40);
    assert!(buffer.content().iter().all(|c| c.fg == Color::Reset && c.bg == Color::Reset));
    app.set_colors(true);
    let buffer = draw_buffer(&mut app, 120, 40);
    assert!(buffer.content().iter().any(|c| c.fg == Color::Magenta), "the split view's second world is drawn");
}

#[test]
fn a_large_terminal_puts_the_inspector_beside_the_canvas_and_shows_the_split() {
    let mut app = app(ScalarKind::I16F16);
    keys(&mut app, &[KeyCode::Tab, KeyCode::Char('c')]);
    for _ in 0..5 {
        keys(&mut app, &[KeyCode::Char('.')]);
    }
    let screen = render(&mut app, 160, 48);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[0].contains("tick 5 │ I16F16"));
    assert!(lines[1].starts_with(" split: I16F16 solid, f64 dotted │ gap now"), "{}", lines[1]);
    let title = lines[2].find("┌ inspector").expect("the inspector is at the top right");
    assert_eq!(title, 160 - 76, "{screen}");
    let on_the_left = lines.iter().map(|l| l.chars().take(84).filter(|&c| is_braille(c)).count()).sum::<usize>();
    let on_the_right = lines.iter().map(|l| l.chars().skip(84).filter(|&c| is_braille(c)).count()).sum::<usize>();
    assert!(on_the_left > 100 && on_the_right == 0, "{screen}");
}

#[test]
fn a_capsule_body_is_drawn_along_its_core_highlighted_and_inspected_with_its_core_and_radius() {
    // A ball over a floor, and a capsule body lying high above them,
    // 12 long, its position at its left end.
    let mut app = ball_over_floor(ScalarKind::I16F16, 3.0, 1.0);
    let mut plank = crate::scene::BodySpec::capsule(Vec2::new(-6.0, 10.0), Vec2::ZERO, Vec2::new(12.0, 0.0), 0.5);
    plank.inverse_mass = 0.0;
    let mut scene = app.timeline.primary().to_scene();
    scene.bodies.push(plank);
    app = App::new(scene, None, ScalarKind::I16F16).unwrap();
    app.set_colors(true);
    // How wide the braille drawn in `color` is, in the view's units.
    let width_in = |app: &mut App, color: Color| {
        let buffer = draw_buffer(app, 80, 24);
        let canvas = app.areas(app.view.size).canvas;
        let columns = (canvas.left()..canvas.right())
            .filter(|&x| {
                (canvas.top()..canvas.bottom()).any(|y| {
                    let cell = &buffer[(x, y)];
                    cell.fg == color && cell.symbol().chars().any(is_braille)
                })
            })
            .count();
        f64::from(u16::try_from(columns).unwrap()) * app.view.camera.cell()
    };
    // Immovable, so blue: one long outline, as wide as the capsule is
    // long (12 and its two caps), not a small circle at its position.
    keys(&mut app, &[KeyCode::Tab]);
    let width = width_in(&mut app, Color::Blue);
    assert!((13.0..=14.5).contains(&width), "{width} units wide");
    // Selected, all of it is yellow.
    keys(&mut app, &[KeyCode::Tab]);
    assert_eq!(width_in(&mut app, Color::Blue), 0.0);
    let width = width_in(&mut app, Color::Yellow);
    assert!((13.0..=14.5).contains(&width), "{width} units wide");
    // The inspector names it a capsule and shows its core and radius.
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains(" body 1 (capsule) vs body 0 · nearest"), "{screen}");
    assert!(screen.contains("│now x=-6.0 y=10.0 vx=0.0 vy=0.0 r=0.5"), "{screen}");
    assert!(screen.contains("│capsule core x1=0.0 y1=0.0 x2=12.0 y2=0.0 (from its position)"), "{screen}");
    // From its outline to the ball's, right below it: 7 between the
    // core and the centre, less the two radii.
    assert_eq!(inspector_row(&screen, "gap"), ["5.5"; 5], "{screen}");
    assert_eq!(inspector_row(&screen, "closest x"), ["1.0"; 5], "{screen}");
    assert_eq!(inspector_row(&screen, "closest y"), ["4.0"; 5], "{screen}");
    keys(&mut app, &[KeyCode::Enter]);
    let screen = render(&mut app, 120, 40);
    let footer: Vec<&str> = screen.lines().rev().take(2).collect();
    assert_eq!(
        footer,
        [
            "edit> ▏",
            "body 1 (capsule): x=-6.0 y=10.0 x1=0.0 y1=0.0 x2=12.0 y2=0.0 vx=0.0 vy=0.0 r=0.5 e=0.0 im=0.0 mu=0.0"
        ]
    );
}

#[test]
fn the_edit_prompt_shows_the_fields_and_what_is_typed() {
    let mut app = ball_over_floor(ScalarKind::I16F16, 3.0, 1.0);
    keys(&mut app, &[KeyCode::Enter, KeyCode::Char('r'), KeyCode::Char('=')]);
    let screen = render(&mut app, 80, 24);
    let footer: Vec<&str> = screen.lines().rev().take(2).collect();
    assert_eq!(footer, ["edit> r=▏", "body 0: x=1.0 y=3.0 vx=0.0 vy=-1.0 r=1.0 e=0.0 im=1.0 mu=0.0"]);
}

/// The sandbox as the README shows it: the default scene in I32F32 at
/// tick 90, body 4 selected, in 80 × 24.
fn readme_capture() -> String {
    let mut app = app(ScalarKind::I32F32);
    for _ in 0..90 {
        keys(&mut app, &[KeyCode::Char('.')]);
    }
    for _ in 0..5 {
        keys(&mut app, &[KeyCode::Tab]);
    }
    render(&mut app, 80, 24)
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).expect("the README")
}

#[test]
fn the_readme_shows_the_sandbox_as_it_draws_today() {
    let readme = readme();
    let (_, after) = readme.split_once("<!-- sandbox capture: start -->\n```text\n").expect("the capture's start");
    let (capture, _) = after.split_once("```\n<!-- sandbox capture: end -->").expect("the capture's end");
    let now = readme_capture();
    assert!(capture.trim_end() == now.trim_end(), "the README's capture is out of date; replace it with:\n{now}");
}

#[test]
fn the_sandbox_page_lists_every_key() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/SANDBOX.md"))
        .expect("docs/SANDBOX.md");
    for (key, what) in crate::keymap::KEYS {
        let row = format!("| `{key}` | {what} |");
        assert!(page.contains(&row), "docs/SANDBOX.md lacks the row `{row}`");
    }
}

/// The app in each state that draws differently, named.
fn every_state() -> Vec<(&'static str, App)> {
    let mut states = Vec::new();
    let mut plain = app(ScalarKind::F64);
    keys(&mut plain, &[KeyCode::Char('.')]);
    states.push(("plain", plain));
    let mut selected = app(ScalarKind::I16F16);
    keys(&mut selected, &[KeyCode::Tab, KeyCode::Tab]);
    states.push(("selected", selected));
    let mut help = app(ScalarKind::F32);
    keys(&mut help, &[KeyCode::Tab, KeyCode::Char('?')]);
    states.push(("help", help));
    let mut split = app(ScalarKind::I16F16);
    keys(&mut split, &[KeyCode::Tab, KeyCode::Char('c'), KeyCode::Char('.')]);
    states.push(("split", split));
    let mut prompt = app(ScalarKind::I32F32);
    keys(&mut prompt, &[KeyCode::Tab, KeyCode::Enter, KeyCode::Char('x'), KeyCode::Char('=')]);
    states.push(("prompt", prompt));
    let mut message = app(ScalarKind::I48F16);
    refuse(&mut message, format!("kept the current scene: {}: too large", "/a/long/path".repeat(20)));
    states.push(("message", message));
    let mut bare = app(ScalarKind::F64);
    keys(&mut bare, &[KeyCode::Tab, KeyCode::Char('i')]);
    states.push(("no inspector", bare));
    states
}

#[test]
fn every_terminal_size_draws_and_too_small_ones_say_so() {
    let mut sizes: Vec<(u16, u16)> = (0..=30).flat_map(|w| (0..=30).map(move |h| (w, h))).collect();
    sizes.extend([(80, 24), (129, 40), (130, 14), (200, 5), (5, 200), (1000, 3), (3, 1000), (400, 300)]);
    sizes.extend([(u16::MAX, 1), (1, u16::MAX), (u16::MAX, 6)]);
    for (name, mut app) in every_state() {
        let rows = if app.timeline.secondary().is_some() { MIN_HEIGHT + 1 } else { MIN_HEIGHT };
        for &(width, height) in &sizes {
            let screen = render(&mut app, width, height);
            let first = screen.lines().next().unwrap_or_default();
            if width < MIN_WIDTH || height < rows {
                let note = format!("terminal too small {width}×{height}, need {MIN_WIDTH}×{rows} q quits");
                // As much of the note as fits, however it is wrapped.
                let compact = |text: &str| text.chars().filter(|c| !c.is_whitespace()).collect::<String>();
                assert!(compact(&note).starts_with(&compact(&screen)), "{name} at {width}×{height}:\n{screen}");
                assert_eq!(compact(&screen).is_empty(), width == 0 || height == 0, "{name} at {width}×{height}");
                if width >= 18 && height >= 2 {
                    assert_eq!(first, "terminal too small", "{name} at {width}×{height}");
                }
            } else if name == "help" {
                assert!(screen.contains("keys"), "{name} at {width}×{height}:\n{screen}");
            } else {
                assert!(first.contains("tick"), "{name} at {width}×{height}:\n{screen}");
            }
        }
    }
}

#[test]
fn shrinking_to_one_cell_and_back_restores_the_view() {
    for (name, mut app) in every_state() {
        let before = render(&mut app, 80, 24);
        let (camera, message) = (app.view.camera, app.view.message.clone());
        for (width, height) in [(1, 1), (0, 0), (2, 1), (1, 2), (19, 24), (80, 4)] {
            app.handle(&Event::Resize(width, height));
            let screen = render(&mut app, width, height);
            assert!(!screen.contains("tick"), "{name} at {width}×{height}:\n{screen}");
            // Clicks and keys that need a view change nothing while there is none.
            let click = ratatui::crossterm::event::MouseEvent {
                kind: ratatui::crossterm::event::MouseEventKind::Down(ratatui::crossterm::event::MouseButton::Left),
                column: 0,
                row: 0,
                modifiers: KeyModifiers::NONE,
            };
            let selected = app.selection();
            app.handle(&Event::Mouse(click));
            assert_eq!(app.selection(), selected, "{name} at {width}×{height}");
            if app.editor.prompt.is_none() && app.view.help.is_none() {
                keys(&mut app, &[KeyCode::Char('f')]);
            }
        }
        assert_eq!(app.view.camera, camera, "{name}: fitting into no room leaves the view");
        app.handle(&Event::Resize(80, 24));
        app.view.message = message; // `f` cleared it
        assert_eq!(render(&mut app, 80, 24), before, "{name}: the view is back as it was");
    }
}

#[test]
fn a_long_message_wraps_onto_at_most_three_lines_and_the_canvas_makes_room() {
    let mut app = app(ScalarKind::F64);
    keys(&mut app, &[KeyCode::Char('i')]);
    let text = "word ".repeat(30);
    refuse(&mut app, text.trim_end());
    let screen = render(&mut app, 80, 24);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(&lines[22..], ["word ".repeat(16).trim_end(), "word ".repeat(14).trim_end()], "{screen}");
    assert_eq!(app.areas(app.view.size).canvas.height, 21);
    refuse(&mut app, "word ".repeat(100).trim_end());
    assert_eq!(app.areas(app.view.size).footer.height, 3, "at most three lines");
    // In the smallest terminal the canvas keeps its three rows.
    resize(&mut app, MIN_WIDTH, MIN_HEIGHT);
    let areas = app.areas(app.view.size);
    assert_eq!((areas.canvas.height, areas.footer.height), (3, 1));
}

fn refuse(app: &mut App, text: impl Into<String>) {
    app.view.message = Some(Message { text: text.into(), error: true });
}

fn resize(app: &mut App, width: u16, height: u16) {
    app.apply(Action::Resize(width, height));
}
