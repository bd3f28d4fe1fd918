//! The sandbox: a thin [`App`] of a timeline, an editor and a view, which
//! changes only by [`App::apply`]. `input` turns terminal events into
//! [`Action`]s; `ui` draws the app and changes nothing.

mod edit;
mod file;
mod footer;
mod play;
mod view;

pub(crate) use self::footer::{footer_rows, footer_text, wrap};

use std::path::PathBuf;
use std::time::{Duration, Instant};

use geom_core::Vec2;
use ratatui::crossterm::event::Event;
use ratatui::layout::{Position, Rect};

use crate::editor::{self, Editor, Prompt, PromptKind, Question};
use crate::keymap::{Action, Mode};
use crate::layout::{self, Areas, Camera, Needs};
use crate::num::ScalarKind;
use crate::scene::{MAX_BODIES, MAX_COLLIDERS, Scene, SceneError};
use crate::sim::Selected;
use crate::timeline::Timeline;

/// The file `w` writes when the scene did not come from one.
pub(crate) const DEFAULT_SAVE_PATH: &str = "geom-scene.toml";
/// The most wall-clock time one frame spends stepping while playing, so a
/// scene too large to keep up slows down instead of freezing the sandbox.
const STEP_BUDGET: Duration = Duration::from_millis(50);
/// The radius step of `[` and `]`.
pub(crate) const RADIUS_STEP: f64 = 0.125;

/// A message on the bottom line: the result of the last action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Message {
    /// What to say.
    pub text: String,
    /// Whether it reports something refused or failed.
    pub error: bool,
}

/// How the sandbox is shown.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct View {
    /// The view onto the world.
    pub camera: Camera,
    /// The terminal's size.
    pub size: Rect,
    /// Colours, or none (`NO_COLOR`).
    pub colors: bool,
    /// Whether the inspector is shown.
    pub inspector: bool,
    /// The help's first line shown, while it is open.
    pub help: Option<u16>,
    /// The bottom line's message.
    pub message: Option<Message>,
    /// The cell under the pointer, when it is over the canvas.
    pub pointer: Option<(u16, u16)>,
    quit: bool,
}

/// The sandbox.
///
/// # Examples
///
/// ```
/// use geom_tui::{Action, App, ScalarKind};
/// use geom_tui::scene::{Scene, DEFAULT_SCENE};
///
/// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
/// assert_eq!(app.tick(), 0);
/// app.apply(Action::StepForward);
/// let after_one = app.checksum();
/// app.apply(Action::StepBack);
/// app.apply(Action::StepForward);
/// assert_eq!(app.checksum(), after_one);
/// app.apply(Action::Quit);
/// assert!(app.should_quit()); // nothing was edited
/// assert_eq!(app.check(), Ok(()));
/// # Ok::<(), geom_tui::scene::SceneError>(())
/// ```
pub struct App {
    pub(crate) timeline: Timeline,
    pub(crate) editor: Editor,
    pub(crate) view: View,
    /// Play mode's character and keys, while it is on.
    pub(crate) play: Option<play::Play>,
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
        let view = View {
            camera: Camera { center: Vec2::new(0.0, 0.0), scale: 1.0 },
            size: Rect::new(0, 0, 80, 24),
            colors: true,
            inspector: true,
            help: None,
            message: None,
            pointer: None,
            quit: false,
        };
        // The scene's own file was opened: `w` writes over it unasked.
        let known = path.iter().filter(|p| p.exists()).map(|p| editor::known(p)).collect();
        let mut app = Self {
            timeline: Timeline::new(scene, kind)?,
            editor: Editor { path, known, ..Editor::default() },
            view,
            play: None,
        };
        app.fit();
        Ok(app)
    }

    /// Turns colours on or off (off when `NO_COLOR` is set).
    ///
    /// See [`App::handle`] for an example.
    pub fn set_colors(&mut self, colors: bool) {
        self.view.colors = colors;
    }

    /// Whether the user asked to quit, and confirmed it if there were
    /// unsaved edits.
    ///
    /// See [`App`] for an example.
    #[must_use]
    pub fn should_quit(&self) -> bool {
        self.view.quit
    }

    /// The current tick.
    ///
    /// See [`App`] for an example.
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.timeline.tick()
    }

    /// The world's checksum at the current tick.
    ///
    /// See [`App`] for an example.
    #[must_use]
    pub fn checksum(&self) -> u64 {
        self.timeline.primary().checksum()
    }

    /// The scalar type the world runs in.
    ///
    /// See [`App::message`] for an example.
    #[must_use]
    pub fn kind(&self) -> ScalarKind {
        self.timeline.kind()
    }

    /// The bottom line's message, if any: what the last action did or why
    /// it was refused.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{Action, App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
    /// app.apply(Action::Precision(ScalarKind::F32));
    /// assert_eq!(app.kind(), ScalarKind::F32);
    /// assert_eq!(app.message(), Some("re-ran the set-up in f32; re-ran to tick 0"));
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.view.message.as_ref().map(|m| m.text.as_str())
    }

    /// What is unsaved, in words: edits to the set-up that its file does
    /// not have yet, and edits made after tick 0, which no scene file
    /// keeps. `None` when quitting loses nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{Action, Addition, App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
    /// assert_eq!(app.unsaved(), None);
    /// app.apply(Action::Add(Addition::Ball));
    /// assert_eq!(app.unsaved().as_deref(), Some("the set-up has unsaved edits"));
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn unsaved(&self) -> Option<String> {
        let later = self.timeline.later_edits();
        let later_text = || format!("{} after tick 0 that no scene file keeps", count(later, "edit"));
        match (self.timeline.setup_changed(), later) {
            (false, 0) => None,
            (true, 0) => Some("the set-up has unsaved edits".to_owned()),
            (false, _) => Some(later_text()),
            (true, _) => Some(format!("the set-up has unsaved edits, and {}", later_text())),
        }
    }

    /// The world at the current tick as a scene (what `W` saves), with
    /// the set-up's settings.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{Action, App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
    /// app.apply(Action::StepForward);
    /// assert_ne!(app.state().bodies, app.setup().bodies); // they fell one tick
    /// assert_eq!(app.state().settings, app.setup().settings);
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn state(&self) -> Scene {
        self.timeline.state()
    }

    /// The set-up: the scene as last opened or edited at tick 0, what `r`
    /// returns to and `w` saves.
    ///
    /// See [`App::state`] for an example.
    #[must_use]
    pub fn setup(&self) -> &Scene {
        self.timeline.setup()
    }

    /// The split view's second world at the current tick as a scene, and
    /// its checksum, while the split view is on.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{Action, App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
    /// assert!(app.split().is_none());
    /// app.apply(Action::ToggleSplit);
    /// let (scene, _checksum) = app.split().unwrap();
    /// assert_eq!(scene.scalar, Some(ScalarKind::F64));
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn split(&self) -> Option<(Scene, u64)> {
        let world = self.timeline.secondary()?;
        let mut scene = world.to_scene();
        scene.settings = self.timeline.setup().settings;
        Some((scene, world.checksum()))
    }

    /// The selection in words (`body 3`, `collider 2 (segment)`), while
    /// it exists at this tick.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{Action, App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
    /// app.apply(Action::Select(true));
    /// assert_eq!(app.selected().as_deref(), Some("body 0"));
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn selected(&self) -> Option<String> {
        self.selection().map(|s| editor::describe(s, self.timeline.primary()))
    }

    /// The terminal cell that shows world point `point` in the canvas,
    /// when it is in view: where to click it.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{Action, App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::I32F32)?;
    /// let ball = app.setup().bodies[0].position;
    /// let (column, row) = app.cell_of(ball).unwrap();
    /// app.apply(Action::Click(column, row));
    /// assert_eq!(app.selected().as_deref(), Some("body 0"));
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    #[must_use]
    pub fn cell_of(&self, point: Vec2<f64>) -> Option<(u16, u16)> {
        self.view.camera.cell_of(self.areas(self.view.size).canvas, point)
    }

    /// Handles one terminal event: key presses (not releases or
    /// repeats), the mouse, resizes and pasted text.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    ///
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::F64)?;
    /// app.set_colors(std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()));
    /// app.handle(&Event::Key(KeyEvent::new(KeyCode::Char('.'), KeyModifiers::NONE)));
    /// assert_eq!(app.tick(), 1);
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    pub fn handle(&mut self, event: &Event) {
        if let Some(action) = crate::input::action(event, self.mode()) {
            self.apply(action);
        }
    }

    /// Runs the ticks due after `elapsed` of wall-clock time at the chosen
    /// speed, when playing: at most 32, and no more once stepping has
    /// taken 50 ms, so a scene too large for the speed runs slower instead
    /// of freezing the sandbox. The clock sets only the pace: the ticks,
    /// and so every result, are the same however fast they run.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{Action, App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// use std::time::Duration;
    ///
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::F32)?;
    /// app.advance(Duration::from_millis(100));
    /// assert_eq!(app.tick(), 0); // paused
    /// app.apply(Action::TogglePlay);
    /// app.advance(Duration::from_millis(100));
    /// // 60 ticks a second: 6, unless stepping them took over 50 ms.
    /// assert!((1..=6).contains(&app.tick()));
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    pub fn advance(&mut self, elapsed: Duration) {
        let started = Instant::now();
        self.advance_within(elapsed, || started.elapsed() >= STEP_BUDGET);
    }

    /// [`advance`](Self::advance) with the budget given: stepping stops
    /// once `spent` says the frame's time is up (it is asked after each
    /// tick). Without a clock, as a script or a test runs it, every call
    /// gives the same ticks.
    ///
    /// # Examples
    ///
    /// ```
    /// # use geom_tui::{Action, App, ScalarKind};
    /// # use geom_tui::scene::{Scene, DEFAULT_SCENE};
    /// use std::time::Duration;
    ///
    /// let mut app = App::new(Scene::parse(DEFAULT_SCENE)?, None, ScalarKind::F32)?;
    /// app.apply(Action::TogglePlay);
    /// app.advance_within(Duration::from_millis(100), || false);
    /// assert_eq!(app.tick(), 6); // 60 ticks a second
    /// app.advance_within(Duration::from_secs(10), || false);
    /// assert_eq!(app.tick(), 6 + 32); // a long stall: one frame's worth
    /// let mut steps = 0;
    /// app.advance_within(Duration::from_secs(1), || { steps += 1; steps == 5 });
    /// assert_eq!(app.tick(), 38 + 5); // the time was up after 5
    /// # Ok::<(), geom_tui::scene::SceneError>(())
    /// ```
    pub fn advance_within(&mut self, elapsed: Duration, spent: impl FnMut() -> bool) {
        let split = self.timeline.secondary().is_some();
        let play = &mut self.play;
        let skipped = self.timeline.advance(elapsed, spent, |timeline| {
            if let Some(play) = play.as_mut() {
                play::drive(timeline, play);
            }
        });
        self.report_skipped(skipped);
        self.report_split_lost(split);
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
        if self.timeline.playing() { Duration::from_millis(16) } else { Duration::from_millis(250) }
    }

    /// What the keys are for at the moment.
    pub(crate) fn mode(&self) -> Mode {
        if self.editor.question.is_some() {
            Mode::Confirm
        } else if self.editor.prompt.is_some() {
            Mode::Prompt
        } else if self.view.help.is_some() {
            Mode::Help
        } else if self.play.is_some() {
            Mode::Play
        } else {
            Mode::Normal
        }
    }

    /// Where each part of the screen goes in a terminal of `size`.
    pub(crate) fn areas(&self, size: Rect) -> Areas {
        let needs = Needs {
            split: self.timeline.secondary().is_some(),
            inspector: self.view.inspector,
            footer_rows: footer_rows(self, size.width),
        };
        layout::layout(size, needs)
    }

    /// The selection, if it still exists at this tick.
    pub(crate) fn selection(&self) -> Option<Selected> {
        self.editor.selected.filter(|&s| editor::anchor(self.timeline.primary(), s).is_some())
    }

    fn info(&mut self, text: impl Into<String>) {
        self.view.message = Some(Message { text: text.into(), error: false });
    }

    fn refuse(&mut self, text: impl Into<String>) {
        self.view.message = Some(Message { text: text.into(), error: true });
    }

    /// Does what `action` asks. Whatever it is, the app stays whole: a
    /// refusal changes nothing and says why on the bottom line.
    ///
    /// See [`App`] for an example.
    pub fn apply(&mut self, action: Action) {
        if self.view.quit {
            // Quitting is final: what comes after it is not for this app.
            return;
        }
        match action {
            Action::Resize(width, height) => return self.view.size = Rect::new(0, 0, width, height),
            Action::Hover(column, row) => return self.hover(column, row),
            Action::DragTo(column, row) => return self.drag_to(column, row),
            Action::Release => {
                self.editor.drag = None;
                return self.timeline.end_merge();
            }
            _ => {}
        }
        if matches!(self.mode(), Mode::Normal | Mode::Play) && !matches!(action, Action::Walk(_) | Action::Jump) {
            self.view.message = None;
        }
        match action {
            Action::Quit => self.quit(),
            Action::Escape => self.escape(),
            Action::Confirm => self.confirm(),
            Action::Cancel => self.cancel(),
            Action::Help => self.view.help = if self.view.help.is_some() { None } else { Some(0) },
            Action::Scroll(by) => {
                // The help's lines at this width less those its box shows
                // at once.
                let lines = u16::try_from(crate::ui::help_rows(self.view.size.width).len()).unwrap_or(u16::MAX);
                let last = lines.saturating_sub(self.view.size.height.saturating_sub(2));
                self.view.help = self.view.help.map(|top| top.saturating_add_signed(by).min(last));
            }
            Action::TogglePlay => self.timeline.toggle_play(),
            Action::StepForward => self.step_forward(),
            Action::StepBack => {
                self.timeline.pause();
                if !self.timeline.step_back() {
                    self.refuse("nothing earlier to rewind to");
                }
            }
            Action::Speed(faster) => {
                self.timeline.change_speed(faster);
                self.info(format!(
                    "{} per second",
                    count(usize::try_from(self.timeline.ticks_per_second()).unwrap_or(usize::MAX), "tick")
                ));
            }
            Action::Reset => match self.timeline.reset() {
                Ok(()) => self.info("back to tick 0 of the set-up, with every edit"),
                Err(e) => self.refuse(format!("cannot reset: {e}")),
            },
            Action::Undo | Action::Redo => self.undo(action == Action::Redo),
            Action::Precision(kind) => self.set_precision(kind),
            Action::NextPrecision => self.set_precision(self.kind().next()),
            Action::ToggleSplit => self.toggle_split(),
            Action::NextCompare => self.next_compare(),
            Action::Threshold(up) => {
                let exponent = self.timeline.scale_threshold(up);
                self.info(format!("divergence threshold 1e{exponent}"));
            }
            Action::Select(forward) => self.cycle_selection(forward),
            Action::Nudge(dx, dy) => self.nudge(f64::from(dx), f64::from(dy)),
            Action::Pan(columns, rows) => self.view.camera.pan(f64::from(columns), f64::from(rows)),
            Action::Zoom(closer) => {
                let center = self.view.camera.center;
                self.view.camera.zoom(if closer { 0.8 } else { 1.25 }, center);
            }
            Action::Fit => self.fit(),
            Action::Radius(grow) => self.change_radius(if grow { RADIUS_STEP } else { -RADIUS_STEP }),
            Action::EditPrompt => {
                let kind = self.selection().map_or(PromptKind::World, PromptKind::Edit);
                self.editor.prompt = Some(Prompt::new(kind, String::new()));
            }
            Action::Add(what) => self.add(what),
            Action::Delete => self.delete(),
            Action::NextTarget => self.editor.target_rank = self.editor.target_rank.wrapping_add(1),
            Action::ToggleInspector => self.toggle_inspector(),
            Action::Save => self.save(),
            Action::SaveStatePrompt => {
                let text = self.state_file_name().display().to_string();
                self.editor.prompt = Some(Prompt::new(PromptKind::SaveState, text));
            }
            Action::OpenPrompt => {
                let text = self.editor.path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
                self.editor.prompt = Some(Prompt::new(PromptKind::Open, text));
            }
            Action::Type(_) | Action::Paste(_) | Action::Line(_) | Action::Complete | Action::Submit => {
                self.prompt_action(action);
            }
            Action::Click(column, row) => self.click(column, row),
            Action::Wheel(closer, column, row) => {
                let canvas = self.areas(self.view.size).canvas;
                if canvas.contains(Position::new(column, row)) {
                    let at = self.view.camera.world_at(canvas, column, row);
                    self.view.camera.zoom(if closer { 0.8 } else { 1.25 }, at);
                }
            }
            Action::ToggleCharacter | Action::Walk(_) | Action::Jump | Action::SaveInputsPrompt => {
                self.play_action(&action);
            }
            Action::Resize(..) | Action::Hover(..) | Action::DragTo(..) | Action::Release => {}
        }
    }

    /// One tick forward, paused: with play mode's move for this tick.
    fn step_forward(&mut self) {
        self.timeline.pause();
        if let Some(play) = self.play.as_mut() {
            play::drive(&mut self.timeline, play);
        }
        let split = self.timeline.secondary().is_some();
        let skipped = self.timeline.step_forward();
        self.report_skipped(skipped);
        self.report_split_lost(split);
    }

    fn prompt_action(&mut self, action: Action) {
        let Some(prompt) = &mut self.editor.prompt else { return };
        match action {
            Action::Type(c) => {
                prompt.type_char(c);
            }
            Action::Paste(text) => text.chars().take_while(|&c| prompt.type_char(c)).for_each(drop),
            Action::Line(edit) => prompt.edit(edit),
            Action::Complete => self.complete(),
            Action::Submit => self.submit(),
            _ => {}
        }
    }

    fn toggle_split(&mut self) {
        match self.timeline.toggle_split() {
            Ok(true) => {
                let (kind, compare, tick) = (self.kind(), self.timeline.compare(), self.tick());
                self.info(format!("split view: {kind} against {compare}, both re-run from the set-up to tick {tick}"));
            }
            Ok(false) => self.info("split view off"),
            Err(e) => self.refuse(format!("no split view: {e}")),
        }
    }

    fn next_compare(&mut self) {
        match self.timeline.next_compare() {
            Ok(compare) if self.timeline.secondary().is_some() => {
                self.info(format!("split view: {} against {compare}", self.kind()));
            }
            Ok(compare) => self.info(format!("split view will compare with {compare}")),
            Err(e) => self.refuse(format!("kept the comparison: {e}")),
        }
    }

    // --- Quitting ---------------------------------------------------------

    /// Quits, or asks first when something is unsaved; asked already,
    /// quitting again (a second ctrl-c) means it.
    fn quit(&mut self) {
        self.editor.prompt = None;
        self.view.help = None;
        if self.editor.question == Some(Question::Quit) {
            self.editor.question = None;
            self.view.quit = true;
            return;
        }
        match self.unsaved() {
            None => self.view.quit = true,
            Some(what) => {
                self.editor.question = Some(Question::Quit);
                let save = if self.timeline.setup_changed() { " (then w saves the set-up)" } else { "" };
                self.refuse(format!("quit? {what}: y quits without saving, any other key stays{save}"));
            }
        }
    }

    /// Esc: deselects, or with nothing selected quits.
    fn escape(&mut self) {
        if self.selection().is_some() {
            self.select(None);
            self.info("nothing selected (Enter edits the world)");
        } else {
            self.quit();
        }
    }

    fn confirm(&mut self) {
        match self.editor.question.take() {
            Some(Question::Quit) => self.view.quit = true,
            Some(Question::Open(path)) => self.open_now(path),
            Some(Question::Overwrite(what, path)) => self.write(what, &path),
            None => {}
        }
    }

    fn cancel(&mut self) {
        if self.editor.question.take().is_some() {
            self.info("stayed; nothing changed");
        } else if self.editor.prompt.take().is_none() {
            self.view.help = None;
        }
    }

    /// Checks what must hold after any action, whatever came before:
    /// `Err` says what does not. For tests and fuzzing.
    ///
    /// # Errors
    ///
    /// The broken rule, in words.
    ///
    /// See [`App`] for an example.
    pub fn check(&self) -> Result<(), String> {
        self.timeline.check()?;
        let sim = self.timeline.primary();
        let (bodies, colliders) = (sim.body_count(), sim.collider_count());
        if bodies > MAX_BODIES || colliders > MAX_COLLIDERS {
            return Err(format!("{bodies} bodies and {colliders} colliders, beyond the limits"));
        }
        if !self.view.camera.is_sound() {
            return Err(format!("the camera is lost: {:?}", self.view.camera));
        }
        if self.editor.prompt.as_ref().is_some_and(|p| {
            let chars = p.text.chars().count();
            chars > editor::PROMPT_CHARS || p.cursor > chars || p.text.contains(char::is_control)
        }) {
            return Err("the prompt is too long, its cursor past its end, or it holds control characters".to_owned());
        }
        if self.editor.question.is_some() && self.view.quit {
            return Err("quit with a question still open".to_owned());
        }
        Ok(())
    }
}

/// `n` things, in words: `1 body`, `2 bodies`, `1 tick`, `60 ticks`.
pub(crate) fn count(n: usize, thing: &str) -> String {
    match (n, thing.strip_suffix('y')) {
        (1, _) => format!("1 {thing}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {thing}s"),
    }
}
