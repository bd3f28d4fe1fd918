//! The sandbox's state and everything a user can do to it, with no
//! terminal in sight: `input` turns key presses and mouse events into
//! these actions and `ui` draws the result.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use geom_core::Vec2;
use geom_core::world::BodyId;
use ratatui::layout::Rect;

use crate::inspect::{Table, Target, inspect_all};
use crate::num::ScalarKind;
use crate::scene::{BodySpec, MAX_BODIES, MAX_COLLIDERS, Scene, SceneError, Shape};
pub(crate) use crate::sim::Selected;
use crate::sim::{self, Field, Sim, body_fields, collider_fields};

/// Run speeds to choose from, in ticks per second.
pub(crate) const SPEEDS: [u32; 11] = [1, 2, 5, 10, 20, 30, 60, 120, 240, 480, 960];
const DEFAULT_SPEED: usize = 6;
/// The most ticks one frame runs, so the sandbox stays responsive when a
/// large scene cannot keep up with the chosen speed.
const MAX_TICKS_PER_FRAME: u32 = 32;
/// The most wall-clock time one frame spends stepping while playing, so a
/// scene too large to keep up slows down instead of freezing the sandbox.
const STEP_BUDGET: Duration = Duration::from_millis(50);
/// The most characters a prompt holds.
pub(crate) const PROMPT_CHARS: usize = 1024;
/// The memory the rewind history may use; the oldest ticks go first.
const HISTORY_BYTES: usize = 256 << 20;
/// What the rewind history is estimated to hold per body and per frame.
const BYTES_PER_BODY: usize = 96;
const BYTES_PER_FRAME: usize = 256;
/// The radius step of `[` and `]`.
pub(crate) const RADIUS_STEP: f64 = 0.125;
/// The closest and the farthest the view zooms, in world units per braille
/// dot: far enough out to show all of `f64`'s safe range (±2²⁴⁰) at once.
const MIN_SCALE: f64 = 1e-6;
const MAX_SCALE: f64 = 1e72;
/// The file `w` writes when the scene did not come from one.
pub(crate) const DEFAULT_SAVE_PATH: &str = "geom-scene.toml";

/// The view onto the world: its centre and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Camera {
    /// The world point at the middle of the canvas.
    pub center: Vec2<f64>,
    /// World units per braille dot (a dot is half a cell wide and a quarter
    /// of a cell high, so dots are about square).
    pub scale: f64,
}

impl Camera {
    /// The world's x and y bounds shown in `area`.
    pub(crate) fn bounds(&self, area: Rect) -> ([f64; 2], [f64; 2]) {
        let half_w = f64::from(area.width) * self.scale;
        let half_h = f64::from(area.height) * 2.0 * self.scale;
        ([self.center.x - half_w, self.center.x + half_w], [self.center.y - half_h, self.center.y + half_h])
    }

    /// The world point under the middle of cell (`column`, `row`).
    pub(crate) fn world_at(&self, area: Rect, column: u16, row: u16) -> Vec2<f64> {
        let ([left, _], [_, top]) = self.bounds(area);
        let x = left + (f64::from(column.saturating_sub(area.x)) + 0.5) * 2.0 * self.scale;
        let y = top - (f64::from(row.saturating_sub(area.y)) + 0.5) * 4.0 * self.scale;
        Vec2::new(x, y)
    }

    /// The width of one cell in world units.
    pub(crate) fn cell(&self) -> f64 {
        2.0 * self.scale
    }

    /// The grid edits snap to: the largest power of two no wider than a
    /// cell, so edited values stay exact in every scalar type.
    pub(crate) fn grid(&self) -> f64 {
        let exponent = self.cell().log2().floor().clamp(-16.0, 40.0);
        // The exponent is clamped to a small integer range first.
        #[allow(clippy::cast_possible_truncation)]
        2.0_f64.powi(exponent as i32)
    }
}

/// A message on the bottom line: the result of the last action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Message {
    /// What to say.
    pub text: String,
    /// Whether it reports something refused or failed.
    pub error: bool,
}

/// What a text prompt on the bottom line is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PromptKind {
    /// `name=value` edits of the selection.
    Edit(Selected),
    /// A scene file to open.
    Open,
}

/// A line of text being typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Prompt {
    /// What it is for.
    pub kind: PromptKind,
    /// What has been typed.
    pub text: String,
}

/// A mouse drag in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Drag {
    /// Moving the selection, grabbed this far from its anchor.
    Move { grab: Vec2<f64> },
    /// Panning the view, from this cell.
    Pan { column: u16, row: u16 },
}

/// The state at one tick: the world, and its twin in split view.
struct Frame {
    primary: Box<dyn Sim>,
    split: Option<Split>,
}

/// The split view's second world at one tick.
struct Split {
    /// Which run of the split view this belongs to: a new one starts each
    /// time the split view is turned on or changes precision.
    session: u64,
    /// The same scene in the comparison precision.
    world: Box<dyn Sim>,
    /// How far apart the two worlds are at this tick.
    deviation: Deviation,
}

impl Clone for Frame {
    fn clone(&self) -> Self {
        let split = self.split.as_ref().map(|s| Split { world: s.world.boxed_clone(), ..*s });
        Self { primary: self.primary.boxed_clone(), split }
    }
}

impl Frame {
    fn bytes(&self) -> usize {
        let one = |s: &dyn Sim| BYTES_PER_FRAME + BYTES_PER_BODY * s.body_count();
        one(&*self.primary) + self.split.as_ref().map_or(0, |s| one(&*s.world))
    }

    /// Measures the split view's gap after the worlds changed.
    fn measure(&mut self) {
        if let Some(split) = &mut self.split {
            split.deviation = deviation(&*self.primary, &*split.world);
        }
    }
}

/// How far apart the two precisions of the split view were at one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Deviation {
    /// The tick.
    pub tick: u64,
    /// The largest distance between a body's positions in the two.
    pub gap: f64,
    /// The body it was, if any.
    pub body: Option<BodyId>,
}

/// The largest distance between a body's positions in two worlds.
fn deviation(a: &dyn Sim, b: &dyn Sim) -> Deviation {
    let others = b.bodies();
    let mut worst = Deviation { tick: a.tick(), gap: 0.0, body: None };
    for (id, body) in a.bodies() {
        let Ok(i) = others.binary_search_by_key(&id, |(other, _)| *other) else { continue };
        let gap = (body.position - others[i].1.position).length();
        if gap > worst.gap || worst.body.is_none() {
            worst = Deviation { tick: worst.tick, gap, body: Some(id) };
        }
    }
    worst
}

/// The inspector's subject: a body, what it is measured against, and the
/// readings in every scalar type.
pub(crate) struct Inspection {
    /// The body.
    pub body: (BodyId, BodySpec),
    /// What it is measured against, and how that is named.
    pub target: Target,
    /// The target's name ("collider 3 (segment)", "body 7").
    pub target_name: String,
    /// Which of the nearest shapes this is (0 = the nearest).
    pub rank: usize,
    /// The readings.
    pub table: Table,
}

/// The sandbox.
///
/// # Examples
///
/// ```
/// use geom_tui::{App, ScalarKind};
/// use geom_tui::scene::{Scene, DEFAULT_SCENE};
///
/// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
/// assert_eq!(app.tick(), 0);
/// app.step_forward();
/// let after_one = app.checksum();
/// app.step_back();
/// app.step_forward();
/// assert_eq!(app.checksum(), after_one);
/// # Ok::<(), geom_tui::scene::SceneError>(())
/// ```
// Play, help, inspector, colours and quit are independent switches.
#[allow(clippy::struct_excessive_bools)]
pub struct App {
    scene: Scene,
    pub(crate) path: Option<PathBuf>,
    now: Frame,
    history: VecDeque<Frame>,
    history_bytes: usize,
    sessions: u64,
    pub(crate) compare: ScalarKind,
    pub(crate) threshold: f64,
    pub(crate) playing: bool,
    speed: usize,
    pending: f64,
    pub(crate) selected: Option<Selected>,
    pub(crate) target_rank: usize,
    pub(crate) camera: Camera,
    pub(crate) help: bool,
    pub(crate) inspector: bool,
    pub(crate) prompt: Option<Prompt>,
    pub(crate) drag: Option<Drag>,
    pub(crate) message: Option<Message>,
    pub(crate) size: Rect,
    pub(crate) colors: bool,
    quit: bool,
}

impl App {
    /// The sandbox on `scene` in scalar type `kind`, paused at tick 0.
    /// `path` is where the scene came from and where `w` saves it.
    ///
    /// # Errors
    ///
    /// The scene does not fit `kind` (a coordinate outside its range).
    ///
    /// See [`App`] for an example.
    pub fn new(scene: Scene, path: Option<PathBuf>, kind: ScalarKind) -> Result<Self, SceneError> {
        let primary = sim::build(&scene, kind)?;
        let mut app = Self {
            scene,
            path,
            now: Frame { primary, split: None },
            history: VecDeque::new(),
            history_bytes: 0,
            sessions: 0,
            compare: if kind == ScalarKind::F64 { ScalarKind::F32 } else { ScalarKind::F64 },
            threshold: 0.01,
            playing: false,
            speed: DEFAULT_SPEED,
            pending: 0.0,
            selected: None,
            target_rank: 0,
            camera: Camera { center: Vec2::new(0.0, 0.0), scale: 1.0 },
            help: false,
            inspector: true,
            prompt: None,
            drag: None,
            message: None,
            size: Rect::new(0, 0, 80, 24),
            colors: true,
            quit: false,
        };
        app.fit();
        Ok(app)
    }

    /// Turns colours on or off (off when `NO_COLOR` is set).
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::F64)?;
    /// app.set_colors(std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()));
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    pub fn set_colors(&mut self, colors: bool) {
        self.colors = colors;
    }

    /// Whether the user asked to quit.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    ///
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::F64)?;
    /// assert!(!app.should_quit());
    /// app.handle(&Event::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE)));
    /// assert!(app.should_quit());
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub(crate) fn request_quit(&mut self) {
        self.quit = true;
    }

    /// The current tick.
    ///
    /// See [`App`] for an example.
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.now.primary.tick()
    }

    /// The world's checksum at the current tick.
    ///
    /// See [`App`] for an example.
    #[must_use]
    pub fn checksum(&self) -> u64 {
        self.now.primary.checksum()
    }

    /// The scalar type the world runs in.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I16F16)?;
    /// assert_eq!(app.kind(), ScalarKind::I16F16);
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn kind(&self) -> ScalarKind {
        self.now.primary.kind()
    }

    pub(crate) fn primary(&self) -> &dyn Sim {
        &*self.now.primary
    }

    pub(crate) fn secondary(&self) -> Option<&dyn Sim> {
        self.now.split.as_ref().map(|s| &*s.world)
    }

    /// The run speed, in ticks per second.
    pub(crate) fn ticks_per_second(&self) -> u32 {
        SPEEDS.get(self.speed).copied().unwrap_or(SPEEDS[DEFAULT_SPEED])
    }

    /// How many earlier ticks [`step_back`](Self::step_back) can return to.
    pub(crate) fn rewindable(&self) -> usize {
        self.history.len()
    }

    pub(crate) fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), error: false });
    }

    pub(crate) fn refuse(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), error: true });
    }

    // --- Stepping -------------------------------------------------------

    /// Advances one tick (both precisions in split view), keeping the
    /// current state for [`step_back`](Self::step_back).
    ///
    /// See [`App`] for an example.
    pub fn step_forward(&mut self) {
        let saved = self.now.clone();
        self.history_bytes += saved.bytes();
        self.history.push_back(saved);
        while self.history_bytes > HISTORY_BYTES && self.history.len() > 1 {
            if let Some(old) = self.history.pop_front() {
                self.history_bytes -= old.bytes();
            }
        }
        self.now.primary.step();
        if let Some(split) = &mut self.now.split {
            split.world.step();
        }
        self.now.measure();
    }

    /// Returns to the previous tick, exactly as it was (stepping forward
    /// again reproduces the same checksums); says so when there is none.
    ///
    /// See [`App`] for an example.
    pub fn step_back(&mut self) {
        let Some(previous) = self.history.pop_back() else {
            self.refuse("nothing earlier to rewind to");
            return;
        };
        self.history_bytes -= previous.bytes();
        self.now = previous;
    }

    /// Runs the ticks due after `elapsed` of wall-clock time at the chosen
    /// speed, when playing: at most 32, and no more once stepping has
    /// taken 50 ms, so that a scene too large for the chosen speed runs
    /// slower instead of freezing the sandbox. The clock sets only the
    /// pace: the ticks, and so every result, are the same however fast
    /// they run.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// use std::time::Duration;
    /// use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    ///
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::F32)?;
    /// app.advance(Duration::from_millis(100));
    /// assert_eq!(app.tick(), 0); // paused
    /// app.handle(&Event::Key(KeyEvent::new(KeyCode::Char(' '), KeyModifiers::NONE)));
    /// app.advance(Duration::from_millis(100));
    /// assert_eq!(app.tick(), 6); // 60 ticks a second
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    pub fn advance(&mut self, elapsed: Duration) {
        if !self.playing {
            self.pending = 0.0;
            return;
        }
        self.pending += elapsed.as_secs_f64() * f64::from(self.ticks_per_second());
        let due = self.pending.floor().min(f64::from(MAX_TICKS_PER_FRAME));
        // `due` is a whole number from 0 to MAX_TICKS_PER_FRAME.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let ticks = due as u32;
        // Behind by more than a frame's worth: drop the backlog rather
        // than fall further behind.
        self.pending = if self.pending - due >= 1.0 { 0.0 } else { self.pending - due };
        let started = Instant::now();
        for _ in 0..ticks {
            self.step_forward();
            if started.elapsed() >= STEP_BUDGET {
                self.pending = 0.0;
                break;
            }
        }
    }

    /// How long the event loop may wait for input before the next frame.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::F32)?;
    /// assert!(app.frame_timeout().as_millis() >= 100); // paused: nothing to animate
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn frame_timeout(&self) -> Duration {
        if self.playing { Duration::from_millis(16) } else { Duration::from_millis(250) }
    }

    pub(crate) fn toggle_play(&mut self) {
        self.playing = !self.playing;
        self.pending = 0.0;
    }

    pub(crate) fn change_speed(&mut self, faster: bool) {
        self.speed = if faster { (self.speed + 1).min(SPEEDS.len() - 1) } else { self.speed.saturating_sub(1) };
        self.info(format!("{} ticks per second", self.ticks_per_second()));
    }

    /// Back to the scene as loaded, at tick 0, in the current precision(s).
    pub(crate) fn reset(&mut self) {
        match self.start(self.scene.clone(), self.kind(), self.secondary().map(Sim::kind)) {
            Ok(()) => self.info("back to tick 0"),
            Err(e) => self.refuse(format!("cannot reset: {e}")),
        }
    }

    /// Starts over on `scene` at tick 0, in `kind` (and `compare` in the
    /// split view), forgetting the history; changes nothing on error.
    fn start(&mut self, scene: Scene, kind: ScalarKind, compare: Option<ScalarKind>) -> Result<(), SceneError> {
        let primary = sim::build(&scene, kind)?;
        let world = compare.map(|k| sim::build(&scene, k)).transpose()?;
        self.sessions += 1;
        let split = world.map(|world| {
            let deviation = deviation(&*primary, &*world);
            Split { session: self.sessions, world, deviation }
        });
        self.now = Frame { primary, split };
        self.scene = scene;
        self.history.clear();
        self.history_bytes = 0;
        Ok(())
    }

    // --- Precision ------------------------------------------------------

    /// Switches the world to another scalar type at the current tick.
    pub(crate) fn set_precision(&mut self, kind: ScalarKind) {
        if kind == self.kind() {
            return;
        }
        match self.now.primary.convert(kind) {
            Ok(converted) => {
                self.now.primary = converted;
                self.now.measure();
                self.info(format!("now running in {kind} from tick {}", self.tick()));
            }
            Err(e) => self.refuse(e),
        }
    }

    /// Turns the split view on (from the current state, converted to the
    /// comparison precision) or off.
    pub(crate) fn toggle_split(&mut self) {
        if self.now.split.take().is_some() {
            self.info("split view off");
        } else {
            self.start_split();
        }
    }

    /// Compares with the next precision (restarting the split view).
    pub(crate) fn next_compare(&mut self) {
        self.compare = self.secondary().map_or(self.compare, Sim::kind).next();
        if self.now.split.is_some() {
            self.start_split();
        } else {
            self.info(format!("split view will compare with {}", self.compare));
        }
    }

    fn start_split(&mut self) {
        match self.now.primary.convert(self.compare) {
            Ok(world) => {
                self.sessions += 1;
                let deviation = deviation(&*self.now.primary, &*world);
                self.now.split = Some(Split { session: self.sessions, world, deviation });
                self.info(format!("split view: {} against {} from tick {}", self.kind(), self.compare, self.tick()));
            }
            Err(e) => self.refuse(e),
        }
    }

    /// How far apart the split view's two worlds are now.
    pub(crate) fn deviation_now(&self) -> Option<Deviation> {
        self.now.split.as_ref().map(|s| s.deviation)
    }

    /// The first tick of the current split view at which a body's
    /// positions in the two precisions were more than the threshold apart.
    pub(crate) fn first_divergence(&self) -> Option<Deviation> {
        let session = self.now.split.as_ref()?.session;
        self.history
            .iter()
            .chain(std::iter::once(&self.now))
            .filter_map(|frame| frame.split.as_ref())
            .filter(|split| split.session == session)
            .map(|split| split.deviation)
            .find(|d| d.gap > self.threshold)
    }

    /// Scales the divergence threshold by `factor`.
    pub(crate) fn scale_threshold(&mut self, factor: f64) {
        self.threshold = (self.threshold * factor).clamp(1e-9, 1e3);
        self.info(format!("divergence threshold {:e}", self.threshold));
    }

    // --- Selection ------------------------------------------------------

    /// Every selectable thing, bodies first, each in id order.
    fn selectables(&self) -> Vec<Selected> {
        let bodies = self.now.primary.bodies().into_iter().map(|(id, _)| Selected::Body(id));
        bodies.chain(self.now.primary.colliders().into_iter().map(|(id, _)| Selected::Collider(id))).collect()
    }

    /// The selection, if it still exists at this tick.
    pub(crate) fn selection(&self) -> Option<Selected> {
        self.selected.filter(|&s| self.anchor(s).is_some())
    }

    /// Selects the next (or previous) body or collider.
    pub(crate) fn cycle_selection(&mut self, forward: bool) {
        let all = self.selectables();
        if all.is_empty() {
            return self.refuse("nothing to select");
        }
        let current = self.selection().and_then(|s| all.iter().position(|&x| x == s));
        let next = match (current, forward) {
            (None, true) => 0,
            (None, false) => all.len() - 1,
            (Some(i), true) => (i + 1) % all.len(),
            (Some(i), false) => (i + all.len() - 1) % all.len(),
        };
        self.select(Some(all[next]));
    }

    pub(crate) fn select(&mut self, selected: Option<Selected>) {
        if selected != self.selected {
            self.target_rank = 0;
        }
        self.selected = selected;
    }

    /// The body or collider nearest `point` within `reach` of its outline
    /// (or inside it), bodies first.
    pub(crate) fn pick(&self, point: Vec2<f64>, reach: f64) -> Option<Selected> {
        // The first of equally near candidates: the lowest id.
        let nearest = |candidates: Vec<(f64, Selected)>| {
            candidates.into_iter().filter(|(gap, _)| *gap <= reach).min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, s)| s)
        };
        let bodies = self.now.primary.bodies().into_iter();
        let body = nearest(bodies.map(|(id, b)| (body_distance(&b, point), Selected::Body(id))).collect());
        body.or_else(|| {
            let colliders = self.now.primary.colliders().into_iter();
            nearest(colliders.map(|(id, c)| (outline_distance(&c.shape, point), Selected::Collider(id))).collect())
        })
    }

    /// The point a selection is moved by.
    pub(crate) fn anchor(&self, selected: Selected) -> Option<Vec2<f64>> {
        match selected {
            Selected::Body(id) => self.now.primary.body(id).map(|b| b.position),
            Selected::Collider(id) => self.now.primary.collider(id).map(|c| c.shape.anchor()),
        }
    }

    // --- Editing --------------------------------------------------------

    /// Applies an edit to the world and, in the split view, the same edit
    /// to its twin: all or nothing, with a message saying why when refused.
    fn edit<T>(&mut self, what: &str, f: impl Fn(&mut dyn Sim) -> Result<T, String>) -> Option<T> {
        let mut next = self.now.clone();
        let result = f(&mut *next.primary);
        let checked = result.and_then(|value| match &mut next.split {
            Some(split) => f(&mut *split.world).map(|_| value),
            None => Ok(value),
        });
        match checked {
            Ok(value) => {
                next.measure();
                self.now = next;
                Some(value)
            }
            Err(e) => {
                self.refuse(format!("{what} refused: {e}"));
                None
            }
        }
    }

    /// Sets some values of the selection, in both worlds of the split view
    /// (each keeps the values not named).
    fn set_fields(&mut self, what: &str, selected: Selected, changes: &[(Field, f64)]) -> bool {
        self.edit(what, |sim| sim.set_fields(selected, changes)).is_some()
    }

    /// Moves the selection so its anchor is at `to`.
    pub(crate) fn move_selection_to(&mut self, to: Vec2<f64>) {
        let Some(selected) = self.selection() else { return };
        let changes = match selected {
            Selected::Body(_) => vec![(Field::X, to.x), (Field::Y, to.y)],
            Selected::Collider(id) => {
                let Some(collider) = self.now.primary.collider(id) else { return };
                let moved = collider.shape.translated(to - collider.shape.anchor());
                let shape_only =
                    |f: &Field| matches!(f, Field::X | Field::Y | Field::X1 | Field::Y1 | Field::X2 | Field::Y2);
                collider_fields(&moved.into()).into_iter().filter(|(f, _)| shape_only(f)).collect()
            }
        };
        self.set_fields("move", selected, &changes);
    }

    /// Moves the selection by a number of grid steps, or pans the view
    /// when nothing is selected.
    pub(crate) fn nudge(&mut self, dx: f64, dy: f64) {
        let Some(anchor) = self.selection().and_then(|s| self.anchor(s)) else {
            return self.pan(dx * 4.0, dy * 2.0);
        };
        let grid = self.camera.grid();
        self.move_selection_to(Vec2::new(snap(anchor.x + dx * grid, grid), snap(anchor.y + dy * grid, grid)));
    }

    /// Grows (or shrinks, with a negative `by`) the selection's radius.
    pub(crate) fn change_radius(&mut self, by: f64) {
        let Some(selected) = self.selection() else {
            return self.refuse("select a body or a collider first (Tab or click)");
        };
        let radius = self.edit_fields(selected).into_iter().find(|(f, _)| *f == Field::Radius);
        let Some((_, radius)) = radius else { return self.refuse("a segment has no radius") };
        if self.set_fields("radius", selected, &[(Field::Radius, radius + by)]) {
            self.info(format!("{} radius {}", describe(selected, self), radius + by));
        }
    }

    /// Adds a body or a collider at the middle of the view and selects it,
    /// up to the most a scene may have.
    pub(crate) fn add(&mut self, what: Addition) {
        if what == Addition::Ball && self.now.primary.body_count() >= MAX_BODIES {
            return self.refuse(format!("adding a ball refused: a scene may have at most {MAX_BODIES} bodies"));
        }
        if what != Addition::Ball && self.now.primary.collider_count() >= MAX_COLLIDERS {
            return self.refuse(format!("adding refused: a scene may have at most {MAX_COLLIDERS} colliders"));
        }
        let grid = self.camera.grid();
        let c = Vec2::new(snap(self.camera.center.x, grid), snap(self.camera.center.y, grid));
        let half = Vec2::new(2.0, 0.0);
        let added = match what {
            Addition::Ball => self.edit("adding a ball", |sim| sim.add_body(BodySpec::new(c, 0.5))).map(Selected::Body),
            Addition::Post => self
                .edit("adding a circle", |sim| sim.add_collider(Shape::Circle { center: c, radius: 1.0 }.into()))
                .map(Selected::Collider),
            Addition::Segment => self
                .edit("adding a segment", |sim| {
                    sim.add_collider(Shape::Segment { start: c - half, end: c + half }.into())
                })
                .map(Selected::Collider),
            Addition::Capsule => self
                .edit("adding a capsule", |sim| {
                    sim.add_collider(Shape::Capsule { start: c - half, end: c + half, radius: 0.5 }.into())
                })
                .map(Selected::Collider),
        };
        if let Some(selected) = added {
            self.select(Some(selected));
            self.info(format!("added {}", describe(selected, self)));
        }
    }

    /// Deletes the selection.
    pub(crate) fn delete(&mut self) {
        let Some(selected) = self.selection() else { return self.refuse("nothing selected to delete") };
        let name = describe(selected, self);
        let done = match selected {
            Selected::Body(id) => self.edit("delete", |sim| sim.remove_body(id)),
            Selected::Collider(id) => self.edit("delete", |sim| sim.remove_collider(id)),
        };
        if done.is_some() {
            self.select(None);
            self.info(format!("deleted {name}"));
        }
    }

    /// The values the selection can be edited by, as they are now.
    pub(crate) fn edit_fields(&self, selected: Selected) -> Vec<(Field, f64)> {
        match selected {
            Selected::Body(id) => self.now.primary.body(id).map_or_else(Vec::new, |b| body_fields(&b)),
            Selected::Collider(id) => self.now.primary.collider(id).map_or_else(Vec::new, |c| collider_fields(&c)),
        }
    }

    /// Applies typed `name=value` edits (`x=1.5 vy=-2`) to the selection:
    /// only the values named change, in both worlds of the split view.
    pub(crate) fn apply_edit(&mut self, selected: Selected, text: &str) {
        let fields = self.edit_fields(selected);
        if fields.is_empty() {
            return self.refuse("the selection no longer exists");
        }
        let mut changes = Vec::new();
        for token in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
            let Some((name, value)) = token.split_once('=') else {
                return self.refuse(format!("edit refused: expected name=value, not `{token}`"));
            };
            let Some(&(field, _)) = fields.iter().find(|(f, _)| f.name() == name.trim()) else {
                let names: Vec<_> = fields.iter().map(|(f, _)| f.name()).collect();
                return self.refuse(format!("edit refused: no field `{name}` (fields: {})", names.join(" ")));
            };
            match value.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => changes.push((field, v)),
                _ => return self.refuse(format!("edit refused: {name} = `{value}` is not a finite number")),
            }
        }
        if changes.is_empty() {
            return self.info("nothing to change");
        }
        if self.set_fields("edit", selected, &changes) {
            self.info(format!("edited {}", describe(selected, self)));
        }
    }

    // --- Files ----------------------------------------------------------

    /// Writes the current state as a scene, atomically.
    pub(crate) fn save(&mut self) {
        let path = self.path.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_SAVE_PATH));
        let scene = self.now.primary.to_scene();
        match scene.save(&path) {
            Ok(()) => {
                self.info(format!(
                    "saved tick {} ({} bodies, {} colliders) to {}",
                    self.tick(),
                    scene.bodies.len(),
                    scene.colliders.len(),
                    path.display()
                ));
                self.path = Some(path);
            }
            Err(e) => self.refuse(format!("not saved: {e}")),
        }
    }

    /// Opens a scene file, in the precision it asks for or else the current
    /// one, at tick 0 with nothing selected and no split view; keeps
    /// everything as it is when the file cannot be read, parsed or built.
    pub(crate) fn open(&mut self, path: PathBuf) {
        let loaded = Scene::load(&path);
        let opened = loaded.and_then(|scene| {
            let kind = scene.scalar.unwrap_or(self.kind());
            self.start(scene, kind, None)
        });
        match opened {
            Ok(()) => {
                self.select(None);
                self.fit();
                self.info(format!("opened {} in {}", path.display(), self.kind()));
                self.path = Some(path);
            }
            Err(e) => self.refuse(format!("kept the current scene: {e}")),
        }
    }

    // --- View -----------------------------------------------------------

    /// Records the terminal's size, which places the canvas.
    pub(crate) fn resize(&mut self, width: u16, height: u16) {
        self.size = Rect::new(0, 0, width, height);
    }

    /// Pans the view by a number of cells.
    pub(crate) fn pan(&mut self, columns: f64, rows: f64) {
        self.camera.center.x += columns * self.camera.cell();
        self.camera.center.y += rows * 2.0 * self.camera.cell();
    }

    /// Zooms in (`factor` < 1) or out, keeping `at` where it is on screen.
    pub(crate) fn zoom(&mut self, factor: f64, at: Vec2<f64>) {
        let scale = (self.camera.scale * factor).clamp(MIN_SCALE, MAX_SCALE);
        let actual = scale / self.camera.scale;
        self.camera.center = at + (self.camera.center - at) * actual;
        self.camera.scale = scale;
    }

    /// Fits the whole scene in the canvas (leaving the view as it is while
    /// the terminal is too small to show one).
    pub(crate) fn fit(&mut self) {
        let areas = crate::ui::layout(self.size, self);
        if areas.too_small {
            return;
        }
        let canvas = areas.canvas;
        let (mut lo, mut hi) =
            (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        let mut include = |p: Vec2<f64>, r: f64| {
            lo = Vec2::new(lo.x.min(p.x - r), lo.y.min(p.y - r));
            hi = Vec2::new(hi.x.max(p.x + r), hi.y.max(p.y + r));
        };
        for (_, body) in self.now.primary.bodies() {
            let (low, high) = body.shape().bounds();
            include(low, 0.0);
            include(high, 0.0);
        }
        for (_, collider) in self.now.primary.colliders() {
            let (low, high) = collider.shape.bounds();
            include(low, 0.0);
            include(high, 0.0);
        }
        if lo.x > hi.x {
            lo = Vec2::new(-10.0, -10.0);
            hi = Vec2::new(10.0, 10.0);
        }
        let dots_x = f64::from(canvas.width.max(1)) * 2.0;
        let dots_y = f64::from(canvas.height.max(1)) * 4.0;
        let margin = 1.05;
        self.camera = Camera {
            center: (lo + hi) * 0.5,
            scale: (((hi.x - lo.x) / dots_x).max((hi.y - lo.y) / dots_y) * margin).clamp(MIN_SCALE, MAX_SCALE),
        };
    }

    /// What must hold after any event, whatever came before: `Err` says
    /// what does not. `deep` also checks every frame of the history.
    #[cfg(test)]
    pub(crate) fn check_invariants(&self, deep: bool) -> Result<(), String> {
        let tick = self.tick();
        let history = if deep { self.history.len() } else { 0 };
        let frames = || self.history.iter().skip(self.history.len() - history);
        if deep {
            let ticks: Vec<u64> = frames().map(|f| f.primary.tick()).collect();
            let expected: Vec<u64> = (tick - ticks.len() as u64..tick).collect();
            if ticks != expected {
                return Err(format!("the history's ticks {ticks:?} do not lead up to tick {tick}"));
            }
            let bytes: usize = frames().map(Frame::bytes).sum();
            if bytes != self.history_bytes || (bytes > HISTORY_BYTES && self.history.len() > 1) {
                return Err(format!("the history holds {bytes} bytes, counted {}", self.history_bytes));
            }
        }
        for frame in frames().chain(std::iter::once(&self.now)) {
            if let Some(split) = &frame.split {
                let ids = |sim: &dyn Sim| sim.bodies().into_iter().map(|(id, _)| id).collect::<Vec<_>>();
                if split.world.tick() != frame.primary.tick() || split.deviation.tick != frame.primary.tick() {
                    return Err(format!("the split view is at tick {} at tick {}", split.world.tick(), tick));
                }
                if ids(&*split.world) != ids(&*frame.primary) {
                    return Err(format!("the split view's bodies differ from the world's at tick {tick}"));
                }
            }
        }
        let (bodies, colliders) = (self.now.primary.body_count(), self.now.primary.collider_count());
        if bodies > MAX_BODIES || colliders > MAX_COLLIDERS {
            return Err(format!("{bodies} bodies and {colliders} colliders, beyond the limits"));
        }
        let camera = self.camera;
        if !(camera.center.x.is_finite()
            && camera.center.y.is_finite()
            && (MIN_SCALE..=MAX_SCALE).contains(&camera.scale))
        {
            return Err(format!("the camera is lost: {camera:?}"));
        }
        if !(1e-9..=1e3).contains(&self.threshold) || self.speed >= SPEEDS.len() {
            return Err(format!("threshold {} or speed {} out of bounds", self.threshold, self.speed));
        }
        if self
            .prompt
            .as_ref()
            .is_some_and(|p| p.text.chars().count() > PROMPT_CHARS || p.text.contains(char::is_control))
        {
            return Err("the prompt is too long or holds control characters".to_owned());
        }
        Ok(())
    }

    // --- Inspector ------------------------------------------------------

    /// What the inspector shows: the selected body against its
    /// `target_rank`-th nearest shape, or the selected collider against its
    /// nearest body.
    pub(crate) fn inspection(&self) -> Option<Inspection> {
        let bodies = self.now.primary.bodies();
        let colliders = self.now.primary.colliders();
        let gravity = self.now.primary.gravity();
        match self.selection()? {
            Selected::Body(id) => {
                let body = *bodies.iter().find(|(b, _)| *b == id)?;
                let mut targets: Vec<(f64, String, Target)> = colliders
                    .iter()
                    .map(|(c, collider)| {
                        let shape = &collider.shape;
                        let name = format!("collider {} ({})", c.index(), shape.kind());
                        (reach(&body.1, shape), name, Target::Collider(*shape))
                    })
                    .chain(bodies.iter().filter(|(b, _)| *b != id).map(|(b, other)| {
                        let gap = if body.1.is_capsule() || other.is_capsule() {
                            reach(&body.1, &other.shape())
                        } else {
                            (other.position - body.1.position).length() - other.radius
                        };
                        (gap, body_name(*b, other), Target::Body(*other))
                    }))
                    .collect();
                // Stable, so equally near shapes stay in id order.
                targets.sort_by(|a, b| a.0.total_cmp(&b.0));
                if targets.is_empty() {
                    return None;
                }
                let rank = self.target_rank % targets.len();
                let (_, target_name, target) = targets.swap_remove(rank);
                let table = inspect_all(&body.1, &target, gravity);
                Some(Inspection { body, target, target_name, rank, table })
            }
            Selected::Collider(id) => {
                let shape = colliders.iter().find(|(c, _)| *c == id).map(|(_, c)| c.shape)?;
                let mut nearest: Vec<(f64, (BodyId, BodySpec))> =
                    bodies.iter().map(|b| (reach(&b.1, &shape) - b.1.radius, *b)).collect();
                // Stable, so equally near bodies stay in id order.
                nearest.sort_by(|a, b| a.0.total_cmp(&b.0));
                if nearest.is_empty() {
                    return None;
                }
                let rank = self.target_rank % nearest.len();
                let body = nearest.swap_remove(rank).1;
                let target = Target::Collider(shape);
                let table = inspect_all(&body.1, &target, gravity);
                let target_name = format!("collider {} ({})", id.index(), shape.kind());
                Some(Inspection { body, target, target_name, rank, table })
            }
        }
    }
}

/// What `add` adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Addition {
    /// A moving ball.
    Ball,
    /// A static circle.
    Post,
    /// A static segment.
    Segment,
    /// A static capsule.
    Capsule,
}

/// A selection in words.
pub(crate) fn describe(selected: Selected, app: &App) -> String {
    match selected {
        Selected::Body(id) => match app.now.primary.body(id) {
            Some(body) => body_name(id, &body),
            None => format!("body {}", id.index()),
        },
        Selected::Collider(id) => {
            let kind = app.now.primary.collider(id).map_or("collider", |c| c.shape.kind());
            format!("collider {} ({kind})", id.index())
        }
    }
}

/// The distance from `point` to a shape's outline (negative inside it).
pub(crate) fn outline_distance(shape: &Shape, point: Vec2<f64>) -> f64 {
    let (start, end) = shape.core();
    // The endpoints come from a valid world, so they make a valid segment.
    let core = geom_core::Segment::new(start, end)
        .map_or_else(|_| (point - start).length(), |segment| geom_core::distance_point_segment(point, &segment));
    core - shape.radius()
}

/// A body in words: `body 3`, or `body 3 (capsule)`.
pub(crate) fn body_name(id: BodyId, body: &BodySpec) -> String {
    if body.is_capsule() { format!("body {} (capsule)", id.index()) } else { format!("body {}", id.index()) }
}

/// The distance from `point` to a body's outline (negative inside it):
/// what a click is measured by.
fn body_distance(body: &BodySpec, point: Vec2<f64>) -> f64 {
    if body.is_capsule() {
        outline_distance(&body.shape(), point)
    } else {
        (point - body.position).length() - body.radius
    }
}

/// The distance from a body's core (its centre, for a circle) to the
/// outline of `shape` (negative inside it): what the inspector orders
/// shapes by, nearest first.
fn reach(body: &BodySpec, shape: &Shape) -> f64 {
    if !body.is_capsule() {
        return outline_distance(shape, body.position);
    }
    let (a, b) = body.shape().core();
    let (c, d) = shape.core();
    // The end points come from a valid world, so they make valid segments.
    let core = match (geom_core::Segment::new(a, b), geom_core::Segment::new(c, d)) {
        (Ok(mine), Ok(theirs)) => geom_core::closest_points_segment_segment(&mine, &theirs).distance,
        _ => (c - a).length(),
    };
    core - shape.radius()
}

/// `v` rounded to a multiple of `grid`.
pub(crate) fn snap(v: f64, grid: f64) -> f64 {
    (v / grid).round() * grid
}
