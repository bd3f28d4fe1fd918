//! Key presses and mouse events, turned into the sandbox's actions. Only
//! presses count: key releases and repeats reported by some terminals are
//! ignored. Pasted text only ever goes into an open prompt.

use geom_core::Vec2;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Position;

use crate::app::{Addition, App, Drag, PROMPT_CHARS, Prompt, PromptKind, snap};
use crate::num::ScalarKind;

/// Every key, as the help overlay and the README list them.
pub(crate) const KEYS: &[(&str, &str)] = &[
    ("space", "play / pause"),
    (". ,", "step one tick forward / back"),
    ("+ -", "run faster / slower"),
    ("r", "reset to the scene's tick 0"),
    ("1-5 p", "precision: f32 f64 I16F16 I32F32 I48F16 / next"),
    ("c C", "split view on/off / compare with next type"),
    ("{ }", "divergence threshold ÷10 / ×10"),
    ("Tab S-Tab", "select next / previous (or click)"),
    ("←↓↑→ hjkl", "move selection (drag with the mouse)"),
    ("S-arrows HJKL", "pan (or drag empty space)"),
    ("z Z f", "zoom in / out (or wheel) / fit"),
    ("[ ]", "radius smaller / larger"),
    ("Enter", "type new values: x=1 vy=-0.5 … (fields shown)"),
    ("b o s u", "add ball / circle / segment / capsule"),
    ("x Del", "delete selection"),
    ("t", "inspect against the next nearest shape or body"),
    ("i", "inspector on / off"),
    ("w O", "save scene (geom-scene.toml if new) / open"),
    ("?", "this help"),
    ("q Esc", "quit (Esc first closes help or a prompt)"),
];

impl App {
    /// Handles one terminal event.
    ///
    /// See [`App::should_quit`] for an example.
    pub fn handle(&mut self, event: &Event) {
        match event {
            Event::Key(key) if key.kind == KeyEventKind::Press => self.on_key(*key),
            Event::Mouse(mouse) => self.on_mouse(*mouse),
            Event::Resize(width, height) => self.resize(*width, *height),
            Event::Paste(text) => self.on_paste(text),
            _ => {}
        }
    }

    /// Pasted text goes into the prompt, if one is open, without its line
    /// breaks and other control characters; it is never taken as keys.
    fn on_paste(&mut self, text: &str) {
        if let Some(prompt) = &mut self.prompt {
            for c in text.chars() {
                if !type_char(prompt, c) {
                    break;
                }
            }
        }
    }

    fn on_key(&mut self, key: KeyEvent) {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return self.request_quit();
        }
        if self.prompt.is_some() {
            return self.on_prompt_key(key);
        }
        if self.help {
            match key.code {
                KeyCode::Char('q') => self.request_quit(),
                KeyCode::Esc | KeyCode::Char('?') => self.help = false,
                _ => {}
            }
            return;
        }
        self.message = None;
        let shift = key.modifiers.contains(KeyModifiers::SHIFT);
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.request_quit(),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char(' ') => self.toggle_play(),
            KeyCode::Char('.') => {
                self.playing = false;
                self.step_forward();
            }
            KeyCode::Char(',') => {
                self.playing = false;
                self.step_back();
            }
            KeyCode::Char('+' | '=') => self.change_speed(true),
            KeyCode::Char('-') => self.change_speed(false),
            KeyCode::Char('r') => self.reset(),
            KeyCode::Char(c @ '1'..='5') => {
                let index = usize::from(c as u8 - b'1');
                self.set_precision(ScalarKind::ALL[index]);
            }
            KeyCode::Char('p') => self.set_precision(self.kind().next()),
            KeyCode::Char('c') => self.toggle_split(),
            KeyCode::Char('C') => self.next_compare(),
            KeyCode::Char('{') => self.scale_threshold(0.1),
            KeyCode::Char('}') => self.scale_threshold(10.0),
            KeyCode::Tab => self.cycle_selection(true),
            KeyCode::BackTab => self.cycle_selection(false),
            KeyCode::Left if shift => self.pan(-4.0, 0.0),
            KeyCode::Right if shift => self.pan(4.0, 0.0),
            KeyCode::Up if shift => self.pan(0.0, 2.0),
            KeyCode::Down if shift => self.pan(0.0, -2.0),
            KeyCode::Char('H') => self.pan(-4.0, 0.0),
            KeyCode::Char('L') => self.pan(4.0, 0.0),
            KeyCode::Char('K') => self.pan(0.0, 2.0),
            KeyCode::Char('J') => self.pan(0.0, -2.0),
            KeyCode::Left | KeyCode::Char('h') => self.nudge(-1.0, 0.0),
            KeyCode::Right | KeyCode::Char('l') => self.nudge(1.0, 0.0),
            KeyCode::Up | KeyCode::Char('k') => self.nudge(0.0, 1.0),
            KeyCode::Down | KeyCode::Char('j') => self.nudge(0.0, -1.0),
            KeyCode::Char('z') => self.zoom(0.8, self.camera.center),
            KeyCode::Char('Z') => self.zoom(1.25, self.camera.center),
            KeyCode::Char('f') => self.fit(),
            KeyCode::Char('[') => self.change_radius(-crate::app::RADIUS_STEP),
            KeyCode::Char(']') => self.change_radius(crate::app::RADIUS_STEP),
            KeyCode::Enter => match self.selection() {
                Some(selected) => self.prompt = Some(Prompt { kind: PromptKind::Edit(selected), text: String::new() }),
                None => self.refuse("select a body or a collider first (Tab or click)"),
            },
            KeyCode::Char('b') => self.add(Addition::Ball),
            KeyCode::Char('o') => self.add(Addition::Post),
            KeyCode::Char('s') => self.add(Addition::Segment),
            KeyCode::Char('u') => self.add(Addition::Capsule),
            KeyCode::Char('x') | KeyCode::Delete => self.delete(),
            KeyCode::Char('t') => self.target_rank += 1,
            KeyCode::Char('i') => self.inspector = !self.inspector,
            KeyCode::Char('w') => self.save(),
            KeyCode::Char('O') => {
                let text = self.path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
                self.prompt = Some(Prompt { kind: PromptKind::Open, text });
            }
            _ => {}
        }
    }

    fn on_prompt_key(&mut self, key: KeyEvent) {
        let Some(prompt) = &mut self.prompt else { return };
        match key.code {
            KeyCode::Esc => self.prompt = None,
            KeyCode::Backspace => {
                prompt.text.pop();
            }
            KeyCode::Char(c) => {
                type_char(prompt, c);
            }
            KeyCode::Enter => {
                let Some(Prompt { kind, text }) = self.prompt.take() else { return };
                match kind {
                    PromptKind::Edit(selected) => self.apply_edit(selected, &text),
                    PromptKind::Open if text.trim().is_empty() => self.refuse("no file name given"),
                    PromptKind::Open => self.open(text.trim().into()),
                }
            }
            _ => {}
        }
    }

    fn on_mouse(&mut self, mouse: MouseEvent) {
        let canvas = crate::ui::layout(self.size, self).canvas;
        let inside = canvas.contains(Position::new(mouse.column, mouse.row));
        let point = self.camera.world_at(canvas, mouse.column, mouse.row);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) if inside && self.prompt.is_none() && !self.help => {
                self.message = None;
                let picked = self.pick(point, self.camera.cell() * 1.5);
                self.select(picked);
                self.drag = match picked.and_then(|s| self.anchor(s)) {
                    Some(anchor) => Some(Drag::Move { grab: point - anchor }),
                    None => Some(Drag::Pan { column: mouse.column, row: mouse.row }),
                };
            }
            MouseEventKind::Drag(MouseButton::Left) => match self.drag {
                Some(Drag::Move { grab }) => {
                    let grid = self.camera.grid();
                    let to = point - grab;
                    self.move_selection_to(Vec2::new(snap(to.x, grid), snap(to.y, grid)));
                }
                Some(Drag::Pan { column, row }) => {
                    self.pan(f64::from(column) - f64::from(mouse.column), f64::from(mouse.row) - f64::from(row));
                    self.drag = Some(Drag::Pan { column: mouse.column, row: mouse.row });
                }
                None => {}
            },
            MouseEventKind::Up(MouseButton::Left) => self.drag = None,
            MouseEventKind::ScrollUp if inside => self.zoom(0.8, point),
            MouseEventKind::ScrollDown if inside => self.zoom(1.25, point),
            _ => {}
        }
    }
}

/// Adds `c` to the prompt unless it is a control character; `false` when
/// the prompt is full.
fn type_char(prompt: &mut Prompt, c: char) -> bool {
    if prompt.text.chars().count() >= PROMPT_CHARS {
        return false;
    }
    if !c.is_control() {
        prompt.text.push(c);
    }
    true
}

#[cfg(test)]
mod tests {
    use geom_core::world::{BodyId, ColliderId};
    use ratatui::crossterm::event::{KeyEventState, MouseEvent};

    use super::*;
    use crate::app::{Camera, Selected};
    use crate::scene::{DEFAULT_SCENE, Scene};

    fn app(kind: ScalarKind) -> App {
        App::new(Scene::parse(DEFAULT_SCENE).unwrap(), None, kind).unwrap()
    }

    fn press(app: &mut App, code: KeyCode) {
        app.handle(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    fn keys(app: &mut App, text: &str) {
        for c in text.chars() {
            press(app, KeyCode::Char(c));
        }
    }

    fn mouse(app: &mut App, kind: MouseEventKind, column: u16, row: u16) {
        app.handle(&Event::Mouse(MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE }));
    }

    /// The terminal cell showing world point `p`.
    fn cell_of(app: &App, p: Vec2<f64>) -> (u16, u16) {
        let canvas = crate::ui::layout(app.size, app).canvas;
        let ([left, _], [_, top]) = app.camera.bounds(canvas);
        let column = ((p.x - left) / app.camera.cell()).floor();
        let row = ((top - p.y) / (2.0 * app.camera.cell())).floor();
        // Test points are inside the canvas.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (canvas.x + column as u16, canvas.y + row as u16)
    }

    #[test]
    fn space_plays_and_pauses_and_dot_steps_one_tick() {
        let mut app = app(ScalarKind::I32F32);
        press(&mut app, KeyCode::Char(' '));
        assert!(app.playing);
        press(&mut app, KeyCode::Char(' '));
        assert!(!app.playing);
        keys(&mut app, "...");
        assert_eq!(app.tick(), 3);
        press(&mut app, KeyCode::Char(','));
        assert_eq!(app.tick(), 2);
    }

    #[test]
    fn stepping_back_then_forward_reproduces_every_checksum() {
        let mut app = app(ScalarKind::I16F16);
        let mut checksums = vec![app.checksum()];
        for _ in 0..40 {
            press(&mut app, KeyCode::Char('.'));
            checksums.push(app.checksum());
        }
        for expected in checksums.iter().rev().skip(1) {
            press(&mut app, KeyCode::Char(','));
            assert_eq!(app.checksum(), *expected, "tick {}", app.tick());
        }
        assert_eq!(app.tick(), 0);
        press(&mut app, KeyCode::Char(','));
        assert_eq!(app.message.as_ref().map(|m| m.error), Some(true), "nothing before tick 0");
        for expected in &checksums[1..] {
            press(&mut app, KeyCode::Char('.'));
            assert_eq!(app.checksum(), *expected, "tick {}", app.tick());
        }
    }

    #[test]
    fn only_key_presses_count() {
        let mut app = app(ScalarKind::F32);
        let mut release = KeyEvent::new(KeyCode::Char('.'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        app.handle(&Event::Key(release));
        let repeat = KeyEvent { kind: KeyEventKind::Repeat, state: KeyEventState::NONE, ..release };
        app.handle(&Event::Key(repeat));
        assert_eq!(app.tick(), 0);
    }

    #[test]
    fn q_quits_and_esc_first_closes_help() {
        let mut a = app(ScalarKind::F32);
        press(&mut a, KeyCode::Char('?'));
        assert!(a.help);
        press(&mut a, KeyCode::Esc);
        assert!(!a.help && !a.should_quit());
        press(&mut a, KeyCode::Esc);
        assert!(a.should_quit());
        let mut b = app(ScalarKind::F32);
        keys(&mut b, "?q");
        assert!(b.should_quit());
        let mut c = app(ScalarKind::F32);
        c.handle(&Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)));
        assert!(c.should_quit());
    }

    #[test]
    fn switching_precision_mid_run_keeps_the_tick_and_rewinds_across_the_switch() {
        let mut app = app(ScalarKind::I32F32);
        keys(&mut app, "..........");
        let before = app.checksum();
        press(&mut app, KeyCode::Char('2'));
        assert_eq!((app.kind(), app.tick()), (ScalarKind::F64, 10));
        keys(&mut app, "...");
        assert_eq!(app.kind(), ScalarKind::F64);
        keys(&mut app, ",,,");
        assert_eq!((app.tick(), app.kind()), (10, ScalarKind::F64));
        press(&mut app, KeyCode::Char(','));
        press(&mut app, KeyCode::Char('.'));
        assert_eq!((app.tick(), app.kind(), app.checksum()), (10, ScalarKind::I32F32, before));
        press(&mut app, KeyCode::Char('p'));
        assert_eq!(app.kind(), ScalarKind::I48F16);
    }

    /// The largest distance between a body's positions in two worlds,
    /// measured here independently of the app.
    fn gap(a: &dyn crate::sim::Sim, b: &dyn crate::sim::Sim) -> f64 {
        let pairs = a.bodies().into_iter().zip(b.bodies());
        pairs.map(|((_, p), (_, q))| (p.position - q.position).length()).fold(0.0, f64::max)
    }

    #[test]
    fn the_split_view_reports_the_first_tick_past_the_threshold() {
        let mut app = app(ScalarKind::I16F16);
        press(&mut app, KeyCode::Char('c'));
        assert_eq!(app.secondary().map(crate::sim::Sim::kind), Some(ScalarKind::F64));
        // The same scene stepped alone in both types (every value of the
        // default scene is exact in both).
        let scene = Scene::parse(DEFAULT_SCENE).unwrap();
        let mut a = crate::sim::build(&scene, ScalarKind::I16F16).unwrap();
        let mut b = crate::sim::build(&scene, ScalarKind::F64).unwrap();
        let mut gaps = vec![gap(&*a, &*b)];
        for _ in 0..300 {
            press(&mut app, KeyCode::Char('.'));
            a.step();
            b.step();
            gaps.push(gap(&*a, &*b));
            assert_eq!(app.deviation_now().map(|d| d.gap), gaps.last().copied(), "tick {}", app.tick());
        }
        for threshold in [1e-2, 1e-3, 1e-4] {
            app.threshold = threshold;
            let expected = gaps.iter().position(|&g| g > threshold).map(|t| t as u64);
            assert_eq!(app.first_divergence().map(|d| d.tick), expected, "threshold {threshold}");
        }
        let first = app.first_divergence().expect("I16F16 and f64 differ by more than 1e-4 within 300 ticks").tick;
        // Rewinding forgets what happens after; stepping again finds it again.
        while app.tick() >= first {
            press(&mut app, KeyCode::Char(','));
        }
        assert_eq!(app.first_divergence(), None);
        press(&mut app, KeyCode::Char('.'));
        assert_eq!(app.first_divergence().map(|d| d.tick), Some(first));
    }

    #[test]
    fn rewinding_across_split_view_changes_restores_each_ticks_split() {
        let mut app = app(ScalarKind::I16F16);
        keys(&mut app, "...c");
        for _ in 0..100 {
            press(&mut app, KeyCode::Char('.'));
        }
        app.threshold = 1e-4;
        let first = app.first_divergence().expect("a divergence within 100 ticks");
        press(&mut app, KeyCode::Char('c')); // off at tick 103
        assert!(app.secondary().is_none() && app.first_divergence().is_none());
        keys(&mut app, "..,,,");
        assert_eq!(app.tick(), 102);
        assert_eq!(app.secondary().map(crate::sim::Sim::kind), Some(ScalarKind::F64));
        assert_eq!(app.first_divergence(), Some(first), "the split's own history is back");
        press(&mut app, KeyCode::Char('C')); // restart against the type after f64
        assert_eq!(app.secondary().map(crate::sim::Sim::kind), Some(ScalarKind::I16F16));
        assert_eq!(app.first_divergence(), None, "the same type as the world never diverges");
        press(&mut app, KeyCode::Char(','));
        assert_eq!(app.secondary().map(crate::sim::Sim::kind), Some(ScalarKind::F64));
        assert_eq!(app.first_divergence(), Some(first));
        while app.tick() > 3 {
            press(&mut app, KeyCode::Char(','));
        }
        assert!(app.secondary().is_some(), "the split started at tick 3");
        press(&mut app, KeyCode::Char(','));
        assert!(app.secondary().is_none(), "before tick 3 there was no split view");
    }

    #[test]
    fn the_same_precision_in_both_halves_never_diverges() {
        let mut app = app(ScalarKind::F64);
        while app.compare != ScalarKind::F64 {
            press(&mut app, KeyCode::Char('C'));
        }
        press(&mut app, KeyCode::Char('c'));
        assert_eq!(app.secondary().map(crate::sim::Sim::kind), Some(ScalarKind::F64));
        app.threshold = 1e-300;
        for _ in 0..100 {
            press(&mut app, KeyCode::Char('.'));
            assert_eq!(app.deviation_now().map(|d| d.gap), Some(0.0));
        }
        assert_eq!(app.first_divergence(), None);
    }

    #[test]
    fn edits_in_the_split_view_change_only_the_named_values_in_each_world() {
        let mut app = app(ScalarKind::I16F16);
        press(&mut app, KeyCode::Char('c'));
        for _ in 0..200 {
            press(&mut app, KeyCode::Char('.'));
        }
        // A body whose two positions have drifted apart.
        let (id, _) = app
            .primary()
            .bodies()
            .into_iter()
            .find(|(id, b)| app.secondary().unwrap().body(*id).unwrap().position != b.position)
            .expect("some body differs between I16F16 and f64 after 200 ticks");
        let twin_before = app.secondary().unwrap().body(id).unwrap();
        app.select(Some(Selected::Body(id)));
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "vy=0.5");
        press(&mut app, KeyCode::Enter);
        let twin = app.secondary().unwrap().body(id).unwrap();
        assert_eq!(twin.velocity.y, 0.5);
        assert_eq!(
            (twin.position, twin.velocity.x, twin.radius),
            (twin_before.position, twin_before.velocity.x, twin_before.radius)
        );
        let before = (app.checksum(), app.secondary().unwrap().checksum());
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Enter);
        assert_eq!((app.checksum(), app.secondary().unwrap().checksum()), before, "an empty edit changes nothing");
    }

    #[test]
    fn tab_selects_bodies_then_colliders_and_shift_tab_goes_back() {
        let mut app = app(ScalarKind::F32);
        press(&mut app, KeyCode::Tab);
        assert_eq!(app.selection(), Some(Selected::Body(app.primary().bodies()[0].0)));
        press(&mut app, KeyCode::BackTab);
        let last = app.primary().colliders().last().unwrap().0;
        assert_eq!(app.selection(), Some(Selected::Collider(last)), "wraps around backwards");
        press(&mut app, KeyCode::Tab);
        for _ in 0..app.primary().body_count() {
            press(&mut app, KeyCode::Tab);
        }
        assert!(matches!(app.selection(), Some(Selected::Collider(_))));
    }

    #[test]
    fn arrows_move_the_selection_by_one_grid_step() {
        let mut app = app(ScalarKind::I16F16);
        press(&mut app, KeyCode::Tab);
        let Some(Selected::Body(id)) = app.selection() else { panic!() };
        let before = app.primary().body(id).unwrap().position;
        let grid = app.camera.grid();
        press(&mut app, KeyCode::Right);
        keys(&mut app, "kk");
        assert_eq!(app.primary().body(id).unwrap().position, before + Vec2::new(grid, 2.0 * grid));
    }

    #[test]
    fn radius_keys_grow_and_shrink_and_never_go_negative() {
        let mut app = app(ScalarKind::I32F32);
        let point = app.primary().bodies().iter().find(|(_, b)| b.radius == 0.0).unwrap().0;
        app.select(Some(Selected::Body(point)));
        press(&mut app, KeyCode::Char(']'));
        assert_eq!(app.primary().body(point).unwrap().radius, 0.125);
        keys(&mut app, "[[");
        assert_eq!(app.primary().body(point).unwrap().radius, 0.0, "the second shrink is refused");
        let message = app.message.clone().unwrap();
        assert!(message.error && message.text.contains("negative"), "{message:?}");
    }

    #[test]
    fn typed_edits_apply_and_bad_ones_are_refused_with_nothing_changed() {
        let mut app = app(ScalarKind::I16F16);
        press(&mut app, KeyCode::Tab);
        let Some(Selected::Body(id)) = app.selection() else { panic!() };
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "x=1.5 vy=-2 r=0.75");
        press(&mut app, KeyCode::Enter);
        let body = app.primary().body(id).unwrap();
        assert_eq!((body.position.x, body.velocity.y, body.radius), (1.5, -2.0, 0.75));
        let before = app.checksum();
        for bad in ["r=-1", "x=5000", "x=nan", "mass=2", "x"] {
            press(&mut app, KeyCode::Enter);
            keys(&mut app, bad);
            press(&mut app, KeyCode::Enter);
            assert!(app.message.as_ref().is_some_and(|m| m.error), "{bad} should be refused");
            assert_eq!(app.checksum(), before, "{bad} changed the world");
        }
        assert!(app.message.as_ref().unwrap().text.contains("name=value"));
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "x=5000");
        press(&mut app, KeyCode::Enter);
        assert!(app.message.as_ref().unwrap().text.contains("±4096"), "{:?}", app.message);
    }

    #[test]
    fn esc_cancels_a_prompt_without_quitting() {
        let mut app = app(ScalarKind::F64);
        press(&mut app, KeyCode::Tab);
        let before = app.checksum();
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "x=3");
        press(&mut app, KeyCode::Esc);
        assert!(app.prompt.is_none() && !app.should_quit());
        assert_eq!(app.checksum(), before);
    }

    #[test]
    fn adding_and_deleting_shapes_selects_and_forgets_them() {
        let mut app = app(ScalarKind::I32F32);
        let (bodies, colliders) = (app.primary().body_count(), app.primary().colliders().len());
        keys(&mut app, "bosu");
        assert_eq!(app.primary().body_count(), bodies + 1);
        assert_eq!(app.primary().colliders().len(), colliders + 3);
        let Some(Selected::Collider(capsule)) = app.selection() else { panic!() };
        assert!(matches!(app.primary().collider(capsule).map(|c| c.shape), Some(crate::scene::Shape::Capsule { .. })));
        press(&mut app, KeyCode::Char('x'));
        assert_eq!(app.primary().colliders().len(), colliders + 2);
        assert_eq!(app.selection(), None);
        press(&mut app, KeyCode::Delete);
        assert!(app.message.as_ref().is_some_and(|m| m.error));
    }

    #[test]
    fn edits_out_of_range_for_the_type_are_refused() {
        let mut app = app(ScalarKind::I16F16);
        app.camera.center = Vec2::new(5000.0, 0.0);
        press(&mut app, KeyCode::Char('b'));
        let message = app.message.clone().unwrap();
        assert!(message.error && message.text.contains("±4096"), "{message:?}");
        assert_eq!(app.primary().body_count(), 8);
    }

    #[test]
    fn edits_apply_to_both_halves_of_the_split_view() {
        let mut app = app(ScalarKind::I16F16);
        keys(&mut app, "c");
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "x=2.5");
        press(&mut app, KeyCode::Enter);
        let Some(Selected::Body(id)) = app.selection() else { panic!() };
        let twin = app.secondary().unwrap().bodies().into_iter().find(|(b, _)| *b == id).unwrap().1;
        assert_eq!(twin.position.x, 2.5);
    }

    #[test]
    fn clicking_selects_and_dragging_moves_a_body() {
        let mut app = app(ScalarKind::F64);
        let (id, ball) = app.primary().bodies()[2];
        let (column, row) = cell_of(&app, ball.position);
        mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
        assert_eq!(app.selection(), Some(Selected::Body(id)));
        mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 4, row);
        mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column + 4, row);
        let moved = app.primary().body(id).unwrap().position;
        let expected = ball.position.x + 4.0 * app.camera.cell();
        assert!((moved.x - expected).abs() <= app.camera.cell(), "{moved:?} vs x ≈ {expected}");
        // Dragged positions snap to the grid, so they are exact in every type.
        let grid = app.camera.grid();
        assert_eq!((moved.x / grid).fract(), 0.0);
        assert_eq!(moved.y, snap(ball.position.y, grid));
        assert!(app.drag.is_none());
    }

    /// A floor, a ball, and a capsule body 8 tall standing on its feet
    /// (its position), in f64: the app and the capsule's id.
    fn app_with_a_standing_capsule() -> (App, BodyId) {
        use crate::scene::{BodySpec, Settings, Shape};
        let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
        scene.colliders.push(Shape::Segment { start: Vec2::new(-10.0, 0.0), end: Vec2::new(10.0, 0.0) }.into());
        scene.bodies.push(BodySpec::new(Vec2::new(-6.0, 1.0), 1.0));
        scene.bodies.push(BodySpec::capsule(Vec2::new(2.0, 0.5), Vec2::new(0.0, 0.0), Vec2::new(0.0, 8.0), 0.5));
        let app = App::new(scene, None, ScalarKind::F64).unwrap();
        let id = app.primary().bodies()[1].0;
        (app, id)
    }

    #[test]
    fn clicking_anywhere_on_a_capsule_body_selects_it_and_beside_it_does_not() {
        let (mut app, id) = app_with_a_standing_capsule();
        let reach = 1.5 * app.camera.cell();
        assert!(reach < 2.0, "the view shows the whole capsule: {:?}", app.camera);
        // Its head: 7.5 above its position, far outside a circle there.
        let (column, row) = cell_of(&app, Vec2::new(2.0, 8.0));
        mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
        mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column, row);
        assert_eq!(app.selection(), Some(Selected::Body(id)));
        // Level with its middle, 3 units to the side: 2.5 from its outline.
        let (column, row) = cell_of(&app, Vec2::new(5.0, 4.5));
        mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
        mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column, row);
        assert_eq!(app.selection(), None);
    }

    #[test]
    fn dragging_a_capsule_body_moves_its_position_and_its_core_with_it() {
        let (mut app, id) = app_with_a_standing_capsule();
        let before = app.primary().body(id).unwrap();
        let (column, row) = cell_of(&app, Vec2::new(2.0, 7.0));
        mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
        mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 4, row + 2);
        mouse(&mut app, MouseEventKind::Up(MouseButton::Left), column + 4, row + 2);
        let after = app.primary().body(id).unwrap();
        let moved = after.position - before.position;
        let expected = Vec2::new(4.0 * app.camera.cell(), -4.0 * app.camera.cell());
        assert!((moved - expected).length() <= app.camera.cell(), "moved by {moved:?}, not about {expected:?}");
        assert_eq!(after.core, before.core, "the core is relative to the position");
        assert_eq!(after.shape(), before.shape().translated(moved), "the whole capsule moved as one");
        // The keys move it the same way.
        press(&mut app, KeyCode::Char('l'));
        let nudged = app.primary().body(id).unwrap();
        assert_eq!((nudged.position.x, nudged.core), (after.position.x + app.camera.grid(), before.core));
    }

    #[test]
    fn typed_edits_change_a_capsule_bodys_core_and_radius_and_a_circle_has_no_core() {
        let (mut app, id) = app_with_a_standing_capsule();
        app.select(Some(Selected::Body(id)));
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "x2=1 y2=4 r=0.25");
        press(&mut app, KeyCode::Enter);
        let body = app.primary().body(id).unwrap();
        assert_eq!(
            (body.position, body.core, body.radius),
            (Vec2::new(2.0, 0.5), [Vec2::new(0.0, 0.0), Vec2::new(1.0, 4.0)], 0.25)
        );
        press(&mut app, KeyCode::Char('['));
        assert_eq!(app.primary().body(id).unwrap().radius, 0.125, "the radius keys work on it too");
        press(&mut app, KeyCode::BackTab);
        let ball = app.primary().bodies()[0];
        assert_eq!(app.selection(), Some(Selected::Body(ball.0)));
        press(&mut app, KeyCode::Enter);
        keys(&mut app, "x1=1");
        press(&mut app, KeyCode::Enter);
        let message = app.message.clone().unwrap();
        assert!(message.error && message.text.contains("no field `x1`"), "{message:?}");
        assert_eq!(app.primary().bodies()[0], ball);
    }

    #[test]
    fn clicking_empty_space_deselects_and_dragging_it_pans() {
        let mut app = app(ScalarKind::F64);
        press(&mut app, KeyCode::Tab);
        let canvas = crate::ui::layout(app.size, &app).canvas;
        let (column, row) = (canvas.x + 1, canvas.y);
        let center = app.camera.center;
        mouse(&mut app, MouseEventKind::Down(MouseButton::Left), column, row);
        assert_eq!(app.selection(), None);
        mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 2, row);
        assert_eq!(app.camera.center, center - Vec2::new(2.0 * app.camera.cell(), 0.0));
        // A row is twice a cell's width (four braille dots to two): dragging
        // down three rows shows what was three rows higher.
        mouse(&mut app, MouseEventKind::Drag(MouseButton::Left), column + 2, row + 3);
        let moved = center - Vec2::new(2.0 * app.camera.cell(), -6.0 * app.camera.cell());
        assert!((app.camera.center - moved).length() < 1e-9, "{:?} vs {moved:?}", app.camera.center);
        let canvas = crate::ui::layout(app.size, &app).canvas;
        let under = app.camera.world_at(canvas, column + 2, row + 3);
        let grabbed = Camera { center, ..app.camera }.world_at(canvas, column, row);
        assert!((under - grabbed).length() < 1e-9, "the point grabbed stays under the pointer");
    }

    #[test]
    fn the_wheel_zooms_about_the_pointer() {
        let mut app = app(ScalarKind::F64);
        let canvas = crate::ui::layout(app.size, &app).canvas;
        let (column, row) = (canvas.x + 3, canvas.y + 2);
        let under = app.camera.world_at(canvas, column, row);
        mouse(&mut app, MouseEventKind::ScrollUp, column, row);
        let after = app.camera.world_at(canvas, column, row);
        assert!((after - under).length() < 1e-9, "{under:?} moved to {after:?}");
        assert!(app.camera.scale < 1.0 * app.camera.scale / 0.8);
    }

    #[test]
    fn selecting_a_collider_and_moving_it_keeps_its_id() {
        let mut app = app(ScalarKind::I32F32);
        let (id, _) = app.primary().colliders()[7];
        app.select(Some(Selected::Collider(id)));
        press(&mut app, KeyCode::Char('j'));
        let ids: Vec<ColliderId> = app.primary().colliders().iter().map(|(c, _)| *c).collect();
        assert_eq!(ids[7], id);
        assert_eq!(app.primary().collider(id).unwrap().shape.anchor().y, -8.0 - app.camera.grid());
    }

    #[test]
    fn with_nothing_selected_arrows_pan_the_view() {
        let mut app = app(ScalarKind::F32);
        let before = app.camera.center;
        press(&mut app, KeyCode::Right);
        assert!(app.camera.center.x > before.x);
        let before = app.camera.center;
        app.handle(&Event::Key(KeyEvent::new(KeyCode::Up, KeyModifiers::SHIFT)));
        assert!(app.camera.center.y > before.y);
    }

    #[test]
    fn reset_returns_to_tick_zero_and_the_scenes_checksum() {
        let mut app = app(ScalarKind::I48F16);
        let start = app.checksum();
        keys(&mut app, ".....r");
        assert_eq!((app.tick(), app.checksum()), (0, start));
        assert_eq!(app.rewindable(), 0);
    }

    #[test]
    fn speed_keys_stay_within_the_speeds_offered() {
        let mut app = app(ScalarKind::F32);
        keys(&mut app, &"+".repeat(20));
        assert_eq!(app.ticks_per_second(), *crate::app::SPEEDS.last().unwrap());
        keys(&mut app, &"-".repeat(20));
        assert_eq!(app.ticks_per_second(), crate::app::SPEEDS[0]);
    }

    #[test]
    fn playing_runs_ticks_at_the_chosen_pace() {
        let mut app = app(ScalarKind::F32);
        press(&mut app, KeyCode::Char(' '));
        app.advance(std::time::Duration::from_millis(50));
        assert_eq!(app.tick(), 3);
        press(&mut app, KeyCode::Char('-'));
        app.advance(std::time::Duration::from_millis(100));
        assert_eq!(app.tick(), 6);
        app.advance(std::time::Duration::from_secs(10));
        assert_eq!(app.tick(), 6 + 32, "a long stall runs at most one frame's worth");
    }

    #[test]
    fn saving_writes_the_current_state_and_opening_a_bad_file_keeps_the_scene() {
        let dir = std::env::temp_dir().join(format!("geom-tui-app-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("saved.toml");
        let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), Some(path.clone()), ScalarKind::I32F32).unwrap();
        keys(&mut app, ".....w");
        assert!(!app.message.as_ref().unwrap().error, "{:?}", app.message);
        let saved = Scene::load(&path).unwrap();
        assert_eq!(saved.bodies, app.primary().bodies().into_iter().map(|(_, b)| b).collect::<Vec<_>>());

        let bad = dir.join("bad.toml");
        std::fs::write(&bad, "gravity = [0.0, -0.1]\n[[body]]\nposition = [0.0, 1.0]\nradius = -3\n").unwrap();
        let before = app.checksum();
        press(&mut app, KeyCode::Char('O'));
        for _ in 0..path.display().to_string().len() {
            press(&mut app, KeyCode::Backspace);
        }
        keys(&mut app, &bad.display().to_string());
        press(&mut app, KeyCode::Enter);
        let message = app.message.clone().unwrap();
        assert!(message.error && message.text.contains(":4: the radius"), "{message:?}");
        assert_eq!(app.checksum(), before);

        keys(&mut app, "c.");
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Char('O'));
        press(&mut app, KeyCode::Enter);
        assert!(!app.message.as_ref().unwrap().error, "reopening the saved file: {:?}", app.message);
        assert_eq!((app.tick(), app.primary().bodies()), (0, saved_bodies(&saved)));
        assert_eq!((app.rewindable(), app.selection()), (0, None), "a fresh start");
        assert!(app.secondary().is_none());
        assert_eq!(app.kind(), ScalarKind::I32F32, "the precision the saved scene names");
        press(&mut app, KeyCode::Char('4'));
        press(&mut app, KeyCode::Char('1'));
        press(&mut app, KeyCode::Char('O'));
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.kind(), ScalarKind::I32F32, "opened in the precision the file asks for");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn saved_bodies(scene: &Scene) -> Vec<(BodyId, crate::scene::BodySpec)> {
        let sim = crate::sim::build(scene, ScalarKind::I32F32).unwrap();
        sim.bodies()
    }
}

/// Whatever arrives (any key crossterm knows, with any modifiers, pastes,
/// resizes, mouse events anywhere, any file typed at the prompt), the app
/// neither panics nor loses its footing, and says why when it refuses.
#[cfg(test)]
mod robustness_tests {
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyEventState, MediaKeyCode, ModifierKeyCode};

    use super::*;
    use crate::scene::{BodySpec, DEFAULT_SCENE, MAX_BODIES, MAX_COLLIDERS, MAX_FILE_BYTES, Scene, Settings, Shape};

    use crate::scratch::Scratch;

    fn app_saving_to(path: Option<PathBuf>) -> App {
        let mut app = App::new(Scene::parse(DEFAULT_SCENE).unwrap(), path, ScalarKind::I32F32).unwrap();
        app.set_colors(false);
        app
    }

    fn press(app: &mut App, code: KeyCode) {
        app.handle(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    fn keys(app: &mut App, text: &str) {
        for c in text.chars() {
            press(app, KeyCode::Char(c));
        }
    }

    /// Opens `path` through the `O` prompt, as a user would.
    fn open(app: &mut App, path: &std::path::Path) {
        press(app, KeyCode::Char('O'));
        while app.prompt.as_ref().is_some_and(|p| !p.text.is_empty()) {
            press(app, KeyCode::Backspace);
        }
        keys(app, &path.display().to_string());
        press(app, KeyCode::Enter);
    }

    /// The screen as text, one line per row.
    fn screen(app: &mut App, width: u16, height: u16) -> String {
        app.handle(&Event::Resize(width, height));
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| crate::ui::draw(frame, app)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..height)
            .map(|y| (0..width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_owned())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Words separated by single spaces, however they were wrapped.
    fn squash(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// What a refused action must leave as it was.
    fn state(app: &App) -> (u64, u64, ScalarKind, usize, Option<PathBuf>, usize) {
        (app.tick(), app.checksum(), app.kind(), app.rewindable(), app.path.clone(), app.primary().body_count())
    }

    /// Asserts that the last action was refused with a message containing
    /// `expected`, shown in full on an 80 × 24 screen.
    fn assert_refused_visibly(app: &mut App, expected: &str) -> String {
        let message = app.message.clone().expect("a message");
        assert!(message.error && message.text.contains(expected), "{message:?} should say {expected:?}");
        let shown = squash(&screen(app, 80, 24));
        assert!(shown.contains(&squash(&message.text)), "the whole message is on screen:\n{shown}");
        message.text
    }

    #[test]
    fn opening_a_bad_file_keeps_the_scene_and_shows_why() {
        let scratch = Scratch::new("input-open");
        let huge = scratch.0.join("huge.toml");
        std::fs::File::create(&huge).unwrap().set_len(MAX_FILE_BYTES + 1).unwrap();
        let many =
            format!("gravity = [0.0, -0.1]\n{}", "[[body]]\nposition = [0, 0]\nradius = 1\n".repeat(MAX_BODIES + 1));
        let mut cases = vec![
            (huge, "too large: 16777217 bytes, more than the 16777216 (16 MiB) a scene file may have"),
            (scratch.file("elf", b"\x7fELF\x02\x01\x01\x00\x00\x00"), "elf:1: not a text file: byte 7 is NUL"),
            (scratch.file("latin1.toml", b"# caf\xe9\n"), "latin1.toml:1: not UTF-8 text: byte 5 is 0xe9"),
            (scratch.file("cut.toml", &DEFAULT_SCENE.as_bytes()[..1000]), "cut.toml:"),
            (
                scratch.file("many.toml", many.as_bytes()),
                "many.toml:15002: too many bodies: a scene may have at most 5000",
            ),
            (scratch.0.clone(), ": a directory, not a scene file"),
            (scratch.0.join("missing.toml"), "missing.toml: "),
        ];
        #[cfg(unix)]
        cases.extend([
            ("/dev/zero".into(), "/dev/zero: too large: more than the 16777216 bytes"),
            (scratch.fifo("pipe"), "pipe: a pipe with nothing written to it"),
        ]);
        let mut app = app_saving_to(None);
        keys(&mut app, "...");
        for (path, expected) in cases {
            let before = state(&app);
            open(&mut app, &path);
            let text = assert_refused_visibly(&mut app, expected);
            assert!(text.starts_with(&format!("kept the current scene: {}", path.display())), "{text}");
            assert_eq!(state(&app), before, "{}", path.display());
        }
    }

    #[test]
    fn saving_where_it_cannot_shows_why_and_changes_nothing() {
        let scratch = Scratch::new("input-save");
        let read_only = scratch.read_only_file("read-only.toml", b"old contents");
        std::fs::create_dir(scratch.0.join("a-directory")).unwrap();
        let cases = [
            (read_only.clone(), "the file is read-only; left as it is"),
            (scratch.0.join("a-directory"), "a directory, not a file"),
            (scratch.0.join("no-such-dir").join("scene.toml"), "no directory"),
        ];
        for (path, expected) in cases {
            let mut app = app_saving_to(Some(path.clone()));
            keys(&mut app, ".....");
            let before = state(&app);
            press(&mut app, KeyCode::Char('w'));
            let text = assert_refused_visibly(&mut app, expected);
            assert!(text.starts_with(&format!("not saved: {}: ", path.display())), "{text}");
            assert_eq!(state(&app), before, "{}", path.display());
            assert_eq!(std::fs::read(&read_only).unwrap(), b"old contents");
            assert_eq!(scratch.names(), ["a-directory", "read-only.toml"], "no temporary file is left behind");
        }
    }

    #[test]
    fn adding_stops_at_the_most_bodies_and_colliders_a_scene_may_have() {
        let mut scene = Scene::new(Settings::new(Vec2::new(0.0, 0.0)));
        scene.bodies = (0..MAX_BODIES).map(|i| BodySpec::new(Vec2::new(f64::from(i as u32) * 3.0, 0.0), 1.0)).collect();
        let post = |i: usize| Shape::Circle { center: Vec2::new(f64::from(i as u32) * 3.0, 10.0), radius: 1.0 };
        scene.colliders = (0..MAX_COLLIDERS).map(|i| post(i).into()).collect();
        let mut app = App::new(scene, None, ScalarKind::F64).unwrap();
        let before = state(&app);
        press(&mut app, KeyCode::Char('b'));
        assert_refused_visibly(&mut app, "adding a ball refused: a scene may have at most 5000 bodies");
        for key in ['o', 's', 'u'] {
            press(&mut app, KeyCode::Char(key));
            assert_refused_visibly(&mut app, "adding refused: a scene may have at most 5000 colliders");
        }
        assert_eq!((state(&app), app.primary().collider_count()), (before, MAX_COLLIDERS));
        keys(&mut app, "\tx");
        press(&mut app, KeyCode::Char('b'));
        assert_eq!(app.primary().body_count(), MAX_BODIES, "room for one again");
    }

    #[test]
    fn pasted_text_goes_into_an_open_prompt_and_is_never_taken_as_keys() {
        let mut app = app_saving_to(None);
        let before = state(&app);
        app.handle(&Event::Paste("q\n.w b".to_owned()));
        assert!(!app.should_quit() && app.message.is_none() && app.prompt.is_none());
        assert_eq!(state(&app), before);

        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Enter);
        app.handle(&Event::Paste("x=1.5\n\ty=2\u{1b}[A".to_owned()));
        assert_eq!(app.prompt.as_ref().map(|p| p.text.as_str()), Some("x=1.5y=2[A"), "control characters dropped");
        for _ in 0.."y=2[A".len() {
            press(&mut app, KeyCode::Backspace);
        }
        keys(&mut app, " y=2");
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.selection().and_then(|s| app.anchor(s)), Some(Vec2::new(1.5, 2.0)));

        // A prompt holds PROMPT_CHARS characters, however much arrives.
        press(&mut app, KeyCode::Char('O'));
        app.handle(&Event::Paste("é".repeat(3 * PROMPT_CHARS)));
        keys(&mut app, "more");
        assert_eq!(app.prompt.as_ref().map(|p| p.text.chars().count()), Some(PROMPT_CHARS));
        let shown = screen(&mut app, 80, 24);
        let footer = shown.lines().last().unwrap();
        assert!(
            footer.starts_with("open scene file> …é") && footer.ends_with("é▏"),
            "the end of the text shows: {footer}"
        );
        press(&mut app, KeyCode::Esc);
        assert!(app.prompt.is_none() && !app.should_quit());
    }

    /// A seeded generator, so every run feeds the same events.
    struct Rng(geom_test::SplitMix);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.0.below(n as u64)).unwrap()
        }

        fn pick<T: Clone>(&mut self, from: &[T]) -> T {
            from[self.below(from.len())].clone()
        }

        fn u16(&mut self, most: u16) -> u16 {
            u16::try_from(self.below(usize::from(most) + 1)).unwrap()
        }

        fn char(&mut self) -> char {
            match self.below(10) {
                // The keys the sandbox knows, most of the time.
                // (`w` saves to disk, and is slower: it comes up as any other letter.)
                0..=5 => self.pick(&"q?. ,+=-r12345pcC{}HLKJhjklzZf[]bosuxtiO0123456789e".chars().collect::<Vec<_>>()),
                6..=7 => char::from(u8::try_from(self.below(95) + 32).unwrap()),
                // Anything: control characters, accents, emoji, surrogates skipped.
                _ => char::from_u32(u32::try_from(self.below(0x11_0000)).unwrap()).unwrap_or('\u{0}'),
            }
        }
    }

    const MEDIA: [MediaKeyCode; 13] = [
        MediaKeyCode::Play,
        MediaKeyCode::Pause,
        MediaKeyCode::PlayPause,
        MediaKeyCode::Reverse,
        MediaKeyCode::Stop,
        MediaKeyCode::FastForward,
        MediaKeyCode::Rewind,
        MediaKeyCode::TrackNext,
        MediaKeyCode::TrackPrevious,
        MediaKeyCode::Record,
        MediaKeyCode::LowerVolume,
        MediaKeyCode::RaiseVolume,
        MediaKeyCode::MuteVolume,
    ];

    const MODIFIER_KEYS: [ModifierKeyCode; 14] = [
        ModifierKeyCode::LeftShift,
        ModifierKeyCode::LeftControl,
        ModifierKeyCode::LeftAlt,
        ModifierKeyCode::LeftSuper,
        ModifierKeyCode::LeftHyper,
        ModifierKeyCode::LeftMeta,
        ModifierKeyCode::RightShift,
        ModifierKeyCode::RightControl,
        ModifierKeyCode::RightAlt,
        ModifierKeyCode::RightSuper,
        ModifierKeyCode::RightHyper,
        ModifierKeyCode::RightMeta,
        ModifierKeyCode::IsoLevel3Shift,
        ModifierKeyCode::IsoLevel5Shift,
    ];

    /// Every key code crossterm has, `Char` and `F` with random values.
    fn key_code(rng: &mut Rng) -> KeyCode {
        match rng.below(40) {
            0..=24 => KeyCode::Char(rng.char()),
            25 => KeyCode::F(u8::try_from(rng.below(256)).unwrap()),
            26 => KeyCode::Media(rng.pick(&MEDIA)),
            27 => KeyCode::Modifier(rng.pick(&MODIFIER_KEYS)),
            _ => rng.pick(&[
                KeyCode::Backspace,
                KeyCode::Enter,
                KeyCode::Left,
                KeyCode::Right,
                KeyCode::Up,
                KeyCode::Down,
                KeyCode::Home,
                KeyCode::End,
                KeyCode::PageUp,
                KeyCode::PageDown,
                KeyCode::Tab,
                KeyCode::BackTab,
                KeyCode::Delete,
                KeyCode::Insert,
                KeyCode::Null,
                KeyCode::Esc,
                KeyCode::CapsLock,
                KeyCode::ScrollLock,
                KeyCode::NumLock,
                KeyCode::PrintScreen,
                KeyCode::Pause,
                KeyCode::Menu,
                KeyCode::KeypadBegin,
            ]),
        }
    }

    fn event(rng: &mut Rng, size: ratatui::layout::Rect) -> Event {
        match rng.below(100) {
            0..=69 => {
                let modifiers = if rng.below(3) == 0 {
                    KeyModifiers::from_bits_truncate(u8::try_from(rng.below(256)).unwrap())
                } else {
                    KeyModifiers::NONE
                };
                let kind = rng.pick(&[
                    KeyEventKind::Press,
                    KeyEventKind::Press,
                    KeyEventKind::Press,
                    KeyEventKind::Repeat,
                    KeyEventKind::Release,
                ]);
                let state = KeyEventState::from_bits_truncate(u8::try_from(rng.below(16)).unwrap());
                Event::Key(KeyEvent { code: key_code(rng), modifiers, kind, state })
            }
            70..=89 => {
                let button = rng.pick(&[MouseButton::Left, MouseButton::Left, MouseButton::Right, MouseButton::Middle]);
                let kind = rng.pick(&[
                    MouseEventKind::Down(button),
                    MouseEventKind::Up(button),
                    MouseEventKind::Drag(button),
                    MouseEventKind::Drag(button),
                    MouseEventKind::Moved,
                    MouseEventKind::ScrollDown,
                    MouseEventKind::ScrollUp,
                    MouseEventKind::ScrollLeft,
                    MouseEventKind::ScrollRight,
                ]);
                // Mostly on screen, sometimes anywhere at all.
                let (column, row) = if rng.below(10) == 0 {
                    (rng.u16(u16::MAX), rng.u16(u16::MAX))
                } else {
                    (rng.u16(size.width), rng.u16(size.height))
                };
                let modifiers = KeyModifiers::from_bits_truncate(u8::try_from(rng.below(8)).unwrap());
                Event::Mouse(MouseEvent { kind, column, row, modifiers })
            }
            90..=95 => match rng.below(10) {
                0 => Event::Resize(rng.u16(u16::MAX), rng.u16(u16::MAX)),
                1 => Event::Resize(rng.u16(2), rng.u16(2)),
                _ => Event::Resize(rng.u16(200), rng.u16(70)),
            },
            96..=98 => {
                let length = if rng.below(20) == 0 { 3000 } else { rng.below(40) };
                Event::Paste((0..length).map(|_| rng.char()).collect())
            }
            _ => rng.pick(&[Event::FocusGained, Event::FocusLost]),
        }
    }

    #[test]
    fn any_sequence_of_events_leaves_the_app_whole_and_drawable() {
        const EVENTS: usize = 80_000;
        let scratch = Scratch::new("input-random");
        let mut app = app_saving_to(Some(scratch.0.join("scene.toml")));
        let mut rng = Rng(geom_test::SplitMix(0x9e0_5eed));
        let started = Instant::now();
        let mut drawn = 0;
        // What the events got up to, to show they went somewhere.
        let mut seen = std::collections::BTreeSet::new();
        // Now and then a few keys that mean something together.
        let phrases: Vec<Vec<Event>> = ["w", "O\n", "\t\nx=1.5 vy=-0.25\n", "\t\nr=0.5\n", "\t\n\n", "c...", ".....,,"]
            .iter()
            .map(|text| {
                let code = |c: char| match c {
                    '\n' => KeyCode::Enter,
                    '\t' => KeyCode::Tab,
                    c => KeyCode::Char(c),
                };
                text.chars().map(|c| Event::Key(KeyEvent::new(code(c), KeyModifiers::NONE))).collect()
            })
            .collect();
        let mut pending = Vec::new();
        for i in 0..EVENTS {
            if pending.is_empty() && rng.below(100) == 0 {
                pending = rng.pick(&phrases);
                pending.reverse();
            }
            let event = pending.pop().unwrap_or_else(|| event(&mut rng, app.size));
            app.handle(&event);
            if let Err(broken) = app.check_invariants(i % 100 == 0) {
                panic!("after event {i} ({event:?}): {broken}");
            }
            let words = app.message.as_ref().and_then(|m| m.text.split([' ', ':']).next().map(str::to_owned));
            seen.extend(words);
            seen.extend(
                app.prompt.as_ref().map(|p| format!("{:?} prompt", p.kind).replace(|c: char| c.is_ascii_digit(), "")),
            );
            seen.extend(
                [app.help.then_some("help"), app.secondary().map(|_| "split"), app.should_quit().then_some("quit")]
                    .into_iter()
                    .flatten()
                    .map(str::to_owned),
            );
            seen.extend((app.tick() > 100).then(|| "tick > 100".to_owned()));
            seen.extend((app.primary().body_count() > 8).then(|| "more bodies".to_owned()));
            if rng.below(4) == 0 {
                app.advance(Duration::from_millis(u64::try_from(rng.below(200)).unwrap()));
            }
            // Draw now and then, at the size the events asked for when it
            // is a reasonable one to allocate.
            let size = app.size;
            if i % 20 == 0 && u32::from(size.width) * u32::from(size.height) <= 200 * 70 {
                let mut terminal = Terminal::new(TestBackend::new(size.width, size.height)).unwrap();
                terminal.draw(|frame| crate::ui::draw(frame, &app)).unwrap();
                drawn += 1;
            }
            // Stepping forward and back again changes nothing.
            if i % 500 == 0 {
                let checksum = app.checksum();
                app.step_forward();
                app.step_back();
                assert_eq!(app.checksum(), checksum, "after event {i}");
            }
        }
        assert!(drawn > EVENTS / 40, "drew {drawn} frames");
        for what in [
            "help",
            "split",
            "quit",
            "tick > 100",
            "more bodies",
            "Open prompt",
            "Edit(Body(BodyId())) prompt",
            "saved",
            "opened",
            "kept",
            "edit",
            "edited",
            "added",
            "deleted",
            "now",
            "nothing",
        ] {
            assert!(seen.contains(what), "the events never reached {what:?}: {seen:?}");
        }
        assert!(started.elapsed() < Duration::from_mins(1), "took {:?}", started.elapsed());
    }
}
