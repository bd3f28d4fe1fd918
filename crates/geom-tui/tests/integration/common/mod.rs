//! What the app tests share: driving the app with keys, the mouse and
//! actions, and reading what it shows.

#![allow(dead_code, unused_imports)]

pub(crate) use std::collections::BTreeSet;
pub(crate) use std::path::{Path, PathBuf};
pub(crate) use std::time::{Duration, Instant};

pub(crate) use geom_core::Vec2;
pub(crate) use geom_test::SplitMix;
pub(crate) use geom_tui::scene::{
    BodySpec, DEFAULT_SCENE, MAX_BODIES, MAX_COLLIDERS, MAX_FILE_BYTES, Scene, Settings, Shape,
};
pub(crate) use geom_tui::{Action, Addition, App, LineEdit, ScalarKind};
pub(crate) use ratatui::Terminal;
pub(crate) use ratatui::backend::TestBackend;
pub(crate) use ratatui::buffer::Buffer;
pub(crate) use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MediaKeyCode, ModifierKeyCode, MouseButton,
    MouseEvent, MouseEventKind,
};
pub(crate) use ratatui::style::Color;

// --- Driving the app ------------------------------------------------------

pub(crate) fn default_scene() -> Scene {
    Scene::parse(DEFAULT_SCENE).unwrap()
}

/// The default scene in `kind`, at tick 0, in an 80 × 24 terminal.
pub(crate) fn app(kind: ScalarKind) -> App {
    App::new(default_scene(), None, kind).unwrap()
}

pub(crate) fn press(app: &mut App, code: KeyCode) {
    press_with(app, code, KeyModifiers::NONE);
}

pub(crate) fn press_with(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    app.handle(&Event::Key(KeyEvent::new(code, modifiers)));
}

/// Presses each character's key in turn.
pub(crate) fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

pub(crate) fn mouse(app: &mut App, kind: MouseEventKind, column: u16, row: u16) {
    app.handle(&Event::Mouse(MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE }));
}

pub(crate) fn apply_n(app: &mut App, action: &Action, times: usize) {
    for _ in 0..times {
        app.apply(action.clone());
    }
}

/// Opens a prompt with `open`, types `text` and submits it.
pub(crate) fn prompt(app: &mut App, open: Action, text: &str) {
    app.apply(open);
    for c in text.chars() {
        app.apply(Action::Type(c));
    }
    app.apply(Action::Submit);
}

/// Types `text` as `name=value` edits of the selection (or of the world,
/// with nothing selected).
pub(crate) fn edit(app: &mut App, text: &str) {
    prompt(app, Action::EditPrompt, text);
}

/// Selects `name` (as [`App::selected`] words it) by cycling the selection.
pub(crate) fn select(app: &mut App, name: &str) {
    let count = app.state().bodies.len() + app.state().colliders.len();
    for _ in 0..=count {
        if app.selected().as_deref() == Some(name) {
            return;
        }
        app.apply(Action::Select(true));
    }
    panic!("nothing selectable is called {name:?}");
}

/// The app, stepped `ticks` times.
pub(crate) fn stepped(mut app: App, ticks: usize) -> App {
    apply_n(&mut app, &Action::StepForward, ticks);
    app
}

/// The checksums of a fresh run of the default scene in `kind`, ticks 0
/// to `ticks`: what `geom-tui run` prints for it.
pub(crate) fn fresh_checksums(kind: ScalarKind, ticks: usize) -> Vec<u64> {
    let mut fresh = app(kind);
    let mut checksums = vec![fresh.checksum()];
    for _ in 0..ticks {
        fresh.apply(Action::StepForward);
        checksums.push(fresh.checksum());
    }
    checksums
}

/// Opens `path` through the open prompt, as a user would.
pub(crate) fn open(app: &mut App, path: &Path) {
    app.apply(Action::OpenPrompt);
    // Whatever the prompt was filled with: a prompt holds far fewer characters.
    apply_n(app, &Action::Line(LineEdit::Backspace), 2000);
    app.apply(Action::Paste(path.display().to_string()));
    app.apply(Action::Submit);
}

// --- Looking at it ------------------------------------------------------

/// The screen drawn `width` × `height` (the app's own idea of the
/// terminal's size is left as it is).
pub(crate) fn buffer(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| geom_tui::ui::draw(frame, app)).unwrap();
    terminal.backend().buffer().clone()
}

pub(crate) fn text_of(buffer: &Buffer) -> Vec<String> {
    let area = buffer.area;
    (0..area.height)
        .map(|y| (0..area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_owned())
        .collect()
}

/// The screen's lines, drawn at `width` × `height`.
pub(crate) fn lines(app: &App, width: u16, height: u16) -> Vec<String> {
    text_of(&buffer(app, width, height))
}

/// The status bar's lines, drawn wide enough to hold everything.
pub(crate) fn status(app: &App) -> (String, String) {
    let lines = lines(app, 240, 40);
    (lines[0].clone(), lines[1].clone())
}

/// How many ticks the status bar says can be rewound.
pub(crate) fn rewindable(app: &App) -> usize {
    let (first, _) = status(app);
    let rest = first.split("rewind ").nth(1).unwrap_or_else(|| panic!("no rewind count in {first:?}"));
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

/// Whether the split view's status line reports a divergence, in its words.
pub(crate) fn divergence(app: &App) -> String {
    let (_, second) = status(app);
    let at = second.find(" none >").or_else(|| second.find(" first >")).unwrap_or_else(|| panic!("{second:?}"));
    second[at + 1..].to_owned()
}

/// The gap between the split view's worlds now, as its status line says.
pub(crate) fn gap_now(app: &App) -> f64 {
    let (_, second) = status(app);
    let rest = second.split("gap now ").nth(1).unwrap_or_else(|| panic!("no gap in {second:?}"));
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

/// The last action's message, `Ok` when it reports something done and
/// `Err` when something refused or failed, told apart as the user sees
/// them: green or red on the bottom line of an 80 × 24 screen.
pub(crate) fn outcome(app: &App) -> Result<String, String> {
    let text = app.message().expect("a message").to_owned();
    let screen = buffer(app, 80, 24);
    let bottom = screen.area.height - 1;
    let cell = (0..screen.area.width)
        .map(|x| &screen[(x, bottom)])
        .find(|c| !c.symbol().trim().is_empty())
        .unwrap_or_else(|| panic!("the message {text:?} is not on the bottom line"));
    match cell.fg {
        Color::Red => Err(text),
        Color::Green => Ok(text),
        other => panic!("the message {text:?} is {other:?}, neither red nor green"),
    }
}

/// Asserts that the last action was refused with a message containing
/// `expected`, shown in full on an 80 × 24 screen: the message.
#[track_caller]
pub(crate) fn assert_refused(app: &App, expected: &str) -> String {
    let text = match outcome(app) {
        Err(text) => text,
        Ok(text) => panic!("{text:?} should be a refusal saying {expected:?}"),
    };
    assert!(text.contains(expected), "{text:?} should say {expected:?}");
    let shown = squash(&lines(app, 80, 24).join("\n"));
    assert!(shown.contains(&squash(&text)), "the whole message is on screen:\n{shown}");
    text
}

/// Asserts that the last action succeeded with a message containing
/// `expected`: the message.
#[track_caller]
pub(crate) fn assert_done(app: &App, expected: &str) -> String {
    match outcome(app) {
        Ok(text) => {
            assert!(text.contains(expected), "{text:?} should say {expected:?}");
            text
        }
        Err(text) => panic!("refused: {text:?} (expected {expected:?})"),
    }
}

/// Words separated by single spaces, however they were wrapped.
pub(crate) fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The least `t` in `[lo, hi]` at which `holds` turns true (false at `lo`,
/// true at `hi`, and never false again after true).
pub(crate) fn boundary(mut lo: f64, mut hi: f64, holds: impl Fn(f64) -> bool) -> f64 {
    assert!(!holds(lo) && holds(hi), "no boundary between {lo} and {hi}");
    loop {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            return hi;
        }
        if holds(mid) { hi = mid } else { lo = mid }
    }
}

/// Where the canvas's cells are in the world, found through
/// [`App::cell_of`] alone, from a point known to be in view.
pub(crate) struct Cells<'a> {
    app: &'a App,
    inside: Vec2<f64>,
}

impl<'a> Cells<'a> {
    pub(crate) fn new(app: &'a App, inside: Vec2<f64>) -> Self {
        assert!(app.cell_of(inside).is_some(), "{inside:?} is not in view");
        Self { app, inside }
    }

    /// The world x at which terminal column `column` starts.
    pub(crate) fn column_start(&self, column: u16) -> f64 {
        let Vec2 { x, y } = self.inside;
        boundary(x - 1e6, x + 1e6, |t| self.app.cell_of(Vec2::new(t, y)).map_or(t > x, |(c, _)| c >= column))
    }

    /// The world y at which terminal row `row` starts (its top).
    pub(crate) fn row_top(&self, row: u16) -> f64 {
        let Vec2 { x, y } = self.inside;
        -boundary(-y - 1e6, -y + 1e6, |t| self.app.cell_of(Vec2::new(x, -t)).map_or(-t < y, |(_, r)| r >= row))
    }

    /// The width of a cell in world units (a cell is twice as high).
    pub(crate) fn width(&self) -> f64 {
        let (column, _) = self.app.cell_of(self.inside).unwrap();
        self.column_start(column + 1) - self.column_start(column)
    }

    /// The world point at the middle of cell (`column`, `row`).
    pub(crate) fn middle(&self, column: u16, row: u16) -> Vec2<f64> {
        let x = f64::midpoint(self.column_start(column), self.column_start(column + 1));
        let y = f64::midpoint(self.row_top(row), self.row_top(row + 1));
        Vec2::new(x, y)
    }
}

/// The largest distance between a body's positions in two worlds, body by
/// body, and the first body at which it is reached.
pub(crate) fn gap(a: &Scene, b: &Scene) -> (f64, usize) {
    assert_eq!(a.bodies.len(), b.bodies.len());
    let mut worst = (0.0, 0);
    for (i, (p, q)) in a.bodies.iter().zip(&b.bodies).enumerate() {
        let d = (p.position - q.position).length();
        if d > worst.0 {
            worst = (d, i);
        }
    }
    worst
}

pub(crate) fn is_power_of_two(v: f64) -> bool {
    v > 0.0 && v.log2().fract() == 0.0
}
