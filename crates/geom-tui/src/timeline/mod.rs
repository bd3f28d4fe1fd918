//! The sandbox's timeline: the set-up (the scene as last opened or edited
//! at tick 0), the edits made at later ticks, the current state and the
//! ticks before it, the split view's second world, undo and redo, and the
//! pace of play. No terminal here: every action returns what happened or
//! why it was refused, and the app puts that into words.
//!
//! Every state the timeline shows is the set-up built in the chosen type
//! and stepped tick by tick, with each later edit applied at its tick: the
//! same run as `geom-tui run` makes of the saved set-up. Switching
//! precision, undoing, or turning the split view on re-runs from the
//! set-up to the current tick rather than converting the state.

mod edit;

use std::collections::VecDeque;
use std::time::Duration;

use geom_core::Vec2;
use geom_core::world::BodyId;

pub(crate) use self::edit::{Edit, Item};
use crate::num::ScalarKind;
use crate::scene::{Scene, SceneError, SceneErrorKind, Settings};
use crate::sim::{self, MoveView, Selected, Sim};

/// Run speeds to choose from, in ticks per second.
pub(crate) const SPEEDS: [u32; 11] = [1, 2, 5, 10, 20, 30, 60, 120, 240, 480, 960];
const DEFAULT_SPEED: usize = 6;
/// The most ticks one frame runs, so the sandbox stays responsive when a
/// large scene cannot keep up with the chosen speed.
const MAX_TICKS_PER_FRAME: u32 = 32;
/// The memory the rewind history may use; the oldest ticks go first.
const HISTORY_BYTES: usize = 256 << 20;
/// What the rewind history is estimated to hold per body and per frame.
const BYTES_PER_BODY: usize = 96;
const BYTES_PER_FRAME: usize = 256;
/// How many edits can be undone.
const UNDO_DEPTH: usize = 100;
/// The divergence threshold's powers of ten: from 10⁻⁹ to 10³, 10⁻² at
/// first.
pub(crate) const THRESHOLD_EXPONENTS: std::ops::RangeInclusive<i32> = -9..=3;
const DEFAULT_THRESHOLD_EXPONENT: i32 = -2;

/// The state at one tick: the world, and its twin in split view, and
/// what the character's move that led to it met.
struct Frame {
    primary: Box<dyn Sim>,
    split: Option<Split>,
    moved: Option<MoveView>,
}

/// The split view's second world at one tick.
struct Split {
    /// The same run in the comparison precision.
    world: Box<dyn Sim>,
    /// How far apart the two worlds are at this tick.
    deviation: Deviation,
}

impl Clone for Frame {
    fn clone(&self) -> Self {
        let split = self.split.as_ref().map(|s| Split { world: s.world.boxed_clone(), deviation: s.deviation });
        Self { primary: self.primary.boxed_clone(), split, moved: self.moved }
    }
}

impl Frame {
    /// The set-up at tick 0 in `kind`, and in `compare` for the split view.
    fn build(setup: &Scene, kind: ScalarKind, compare: Option<ScalarKind>) -> Result<Self, SceneError> {
        let primary = sim::build(setup, kind)?;
        let world = compare.map(|k| sim::build(setup, k)).transpose()?;
        let split = world.map(|world| Split { deviation: deviation(&*primary, &*world), world });
        Ok(Self { primary, split, moved: None })
    }

    fn bytes(&self) -> usize {
        let one = |s: &dyn Sim| BYTES_PER_FRAME + BYTES_PER_BODY * s.body_count();
        one(&*self.primary) + self.split.as_ref().map_or(0, |s| one(&*s.world))
    }

    /// One tick on, with the edits made at that tick: how many of them no
    /// longer apply to the world (their item is gone, or the value is
    /// refused). When the split view's twin cannot take an edit the world
    /// took, the frame loses its twin.
    fn step(&mut self, edits: &[(u64, Edit)]) -> usize {
        // The moves made at this tick first, as the tick steps on (as
        // `run --inputs` applies a `[[move]]`).
        let now = self.primary.tick();
        let mut skipped = 0;
        self.moved = None;
        for (_, edit) in edits.iter().filter(|(at, e)| *at == now && matches!(e, Edit::Move(..))) {
            let Edit::Move(item, motion) = edit else { continue };
            let Ok(Selected::Body(id)) = item.find(&*self.primary) else {
                skipped += 1;
                continue;
            };
            match self.primary.move_character(id, *motion) {
                Ok(view) => self.moved = Some(view),
                Err(_) => skipped += 1,
            }
            if let Some(split) = &mut self.split
                && edit.apply(&mut *split.world).is_err()
            {
                self.split = None;
            }
        }
        self.primary.step();
        if let Some(split) = &mut self.split {
            split.world.step();
        }
        self.measure();
        let tick = self.primary.tick();
        // Each world on its own: what the comparison type refuses must not
        // change the run of the world shown, which is `run`'s.
        for (_, edit) in edits.iter().filter(|(at, e)| *at == tick && !matches!(e, Edit::Move(..))) {
            let applied = edit.apply(&mut *self.primary).is_ok();
            skipped += usize::from(!applied);
            // A twin that cannot take what the world took compares
            // nothing any more: the split view ends here.
            if applied && self.split.as_mut().is_some_and(|split| edit.apply(&mut *split.world).is_err()) {
                self.split = None;
            }
        }
        self.measure();
        skipped
    }

    /// Applies an edit to both worlds: all or nothing.
    fn apply(&mut self, edit: &Edit) -> Result<Option<Selected>, String> {
        let mut next = self.clone();
        let added = edit.apply(&mut *next.primary)?;
        if let Some(split) = &mut next.split {
            edit.apply(&mut *split.world)?;
        }
        next.measure();
        *self = next;
        Ok(added)
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
pub(crate) fn deviation(a: &dyn Sim, b: &dyn Sim) -> Deviation {
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

/// Keeps `frame` at the end of `history`, whose frames hold `bytes`,
/// letting the oldest go while they hold more than [`HISTORY_BYTES`].
fn remember(history: &mut VecDeque<Frame>, bytes: &mut usize, frame: Frame) {
    *bytes += frame.bytes();
    history.push_back(frame);
    while *bytes > HISTORY_BYTES && history.len() > 1 {
        if let Some(old) = history.pop_front() {
            *bytes -= old.bytes();
        }
    }
}

/// What an undo step restores: the set-up and the later edits.
#[derive(Clone)]
struct Snapshot {
    setup: Scene,
    edits: Vec<(u64, Edit)>,
}

/// What a re-run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rerun {
    /// The tick it ran to.
    pub tick: u64,
    /// How many later edits no longer applied on the way.
    pub skipped: usize,
}

/// The timeline. See the [module](self) documentation.
pub(crate) struct Timeline {
    /// The scene as last opened or edited at tick 0.
    setup: Scene,
    /// The set-up as the file holds it: what "unsaved" is measured from.
    saved: Scene,
    /// The edits made after tick 0, by tick, in the order made.
    edits: Vec<(u64, Edit)>,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The tick and item of the edit that merged edits join (a drag's).
    merging: Option<(u64, Item)>,
    kind: ScalarKind,
    /// The split view's precision: never `kind`.
    compare: ScalarKind,
    now: Frame,
    history: VecDeque<Frame>,
    history_bytes: usize,
    threshold_exponent: i32,
    playing: bool,
    speed: usize,
    pending: f64,
}

impl Timeline {
    /// The timeline of `scene` in `kind`, paused at tick 0.
    ///
    /// # Errors
    ///
    /// The scene does not fit `kind`.
    pub(crate) fn new(scene: Scene, kind: ScalarKind) -> Result<Self, SceneError> {
        let now = Frame::build(&scene, kind, None)?;
        Ok(Self {
            saved: scene.clone(),
            setup: scene,
            edits: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            merging: None,
            kind,
            compare: if kind == ScalarKind::F64 { ScalarKind::F32 } else { ScalarKind::F64 },
            now,
            history: VecDeque::new(),
            history_bytes: 0,
            threshold_exponent: DEFAULT_THRESHOLD_EXPONENT,
            playing: false,
            speed: DEFAULT_SPEED,
            pending: 0.0,
        })
    }

    // --- What there is ---------------------------------------------------

    /// The world at the current tick.
    pub(crate) fn primary(&self) -> &dyn Sim {
        &*self.now.primary
    }

    /// The split view's second world, when the split view is on.
    pub(crate) fn secondary(&self) -> Option<&dyn Sim> {
        self.now.split.as_ref().map(|s| &*s.world)
    }

    /// The current tick.
    pub(crate) fn tick(&self) -> u64 {
        self.now.primary.tick()
    }

    /// The precision the world runs in.
    pub(crate) fn kind(&self) -> ScalarKind {
        self.kind
    }

    /// The precision the split view compares with (or will, once on).
    pub(crate) fn compare(&self) -> ScalarKind {
        self.compare
    }

    /// The set-up: what `r` returns to and `w` saves.
    pub(crate) fn setup(&self) -> &Scene {
        &self.setup
    }

    /// The current state as a scene, with the set-up's settings (never
    /// the values the world derives from them) and its bodies' players: a
    /// body whose id is a set-up body's index is that body (ids are never
    /// reused, and the world is rebuilt from the set-up on every edit at
    /// tick 0).
    pub(crate) fn state(&self) -> Scene {
        let mut scene = self.now.primary.to_scene();
        scene.settings = self.setup.settings;
        scene.scalar = self.setup.scalar;
        for ((id, _), body) in self.now.primary.bodies().into_iter().zip(&mut scene.bodies) {
            let index = usize::try_from(id.index()).unwrap_or(usize::MAX);
            body.player = self.setup.bodies.get(index).and_then(|b| b.player);
        }
        scene
    }

    /// Whether the set-up differs from the file's.
    pub(crate) fn setup_changed(&self) -> bool {
        self.setup != self.saved
    }

    /// How many edits were made after tick 0 (no scene file keeps them).
    pub(crate) fn later_edits(&self) -> usize {
        self.edits.len()
    }

    /// How many earlier ticks [`step_back`](Self::step_back) can return to.
    pub(crate) fn rewindable(&self) -> usize {
        self.history.len()
    }

    /// Whether it is playing.
    pub(crate) fn playing(&self) -> bool {
        self.playing
    }

    /// The run speed, in ticks per second.
    pub(crate) fn ticks_per_second(&self) -> u32 {
        SPEEDS.get(self.speed).copied().unwrap_or(SPEEDS[DEFAULT_SPEED])
    }

    /// The divergence threshold's power of ten.
    pub(crate) fn threshold_exponent(&self) -> i32 {
        self.threshold_exponent
    }

    /// The divergence threshold, 10 to its exponent, correctly rounded.
    pub(crate) fn threshold(&self) -> f64 {
        format!("1e{}", self.threshold_exponent).parse().unwrap_or(1e-2)
    }

    /// How far apart the split view's two worlds are now.
    pub(crate) fn deviation_now(&self) -> Option<Deviation> {
        self.now.split.as_ref().map(|s| s.deviation)
    }

    /// The first tick still in the history at which a body's positions in
    /// the split view's two precisions were more than the threshold apart.
    pub(crate) fn first_divergence(&self) -> Option<Deviation> {
        let threshold = self.threshold();
        self.history
            .iter()
            .chain(std::iter::once(&self.now))
            .filter_map(|frame| frame.split.as_ref())
            .map(|split| split.deviation)
            .find(|d| d.gap > threshold)
    }

    // --- Stepping ---------------------------------------------------------

    /// Advances one tick (both precisions in split view), applying the
    /// edits made at the tick it reaches: how many of those no longer
    /// apply.
    pub(crate) fn step_forward(&mut self) -> usize {
        remember(&mut self.history, &mut self.history_bytes, self.now.clone());
        let had_split = self.now.split.is_some();
        let skipped = self.now.step(&self.edits);
        if had_split && self.now.split.is_none() {
            self.split_off();
        }
        skipped
    }

    /// Returns to the previous tick, exactly as it was; `false` when there
    /// is none.
    pub(crate) fn step_back(&mut self) -> bool {
        let Some(previous) = self.history.pop_back() else { return false };
        self.history_bytes -= previous.bytes();
        self.now = previous;
        // History keeps copies without their query index (see `Sim::boxed_clone`).
        self.now.primary.index_queries();
        if let Some(split) = &mut self.now.split {
            split.world.index_queries();
        }
        true
    }

    /// Back to the set-up at tick 0, in the current precision(s). The
    /// later edits stay: stepping forward replays them.
    pub(crate) fn reset(&mut self) -> Result<(), SceneError> {
        self.rerun(self.setup.clone(), self.kind, self.split_kind(), 0).map(drop)
    }

    /// Plays or pauses.
    pub(crate) fn toggle_play(&mut self) {
        self.playing = !self.playing;
        self.pending = 0.0;
    }

    /// Pauses.
    pub(crate) fn pause(&mut self) {
        self.playing = false;
    }

    /// One speed up or down, within the speeds offered.
    pub(crate) fn change_speed(&mut self, faster: bool) {
        self.speed = if faster { (self.speed + 1).min(SPEEDS.len() - 1) } else { self.speed.saturating_sub(1) };
    }

    /// Runs the ticks due after `elapsed` of wall-clock time at the chosen
    /// speed, when playing: at most 32, and no more once `spent` says the
    /// frame's time is up (asked after each tick): how many later edits no
    /// longer applied on the way. The clock sets only the pace, never a
    /// result.
    pub(crate) fn advance(
        &mut self,
        elapsed: Duration,
        mut spent: impl FnMut() -> bool,
        mut before_step: impl FnMut(&mut Self),
    ) -> usize {
        if !self.playing {
            self.pending = 0.0;
            return 0;
        }
        self.pending += elapsed.as_secs_f64() * f64::from(self.ticks_per_second());
        let due = self.pending.floor().min(f64::from(MAX_TICKS_PER_FRAME));
        // `due` is a whole number from 0 to MAX_TICKS_PER_FRAME.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let ticks = due as u32;
        // Behind by more than a frame's worth: drop the backlog rather
        // than fall further behind.
        self.pending = if self.pending - due >= 1.0 { 0.0 } else { self.pending - due };
        let mut skipped = 0;
        for _ in 0..ticks {
            before_step(self);
            skipped += self.step_forward();
            if spent() {
                self.pending = 0.0;
                break;
            }
        }
        skipped
    }

    // --- Re-running -------------------------------------------------------

    fn split_kind(&self) -> Option<ScalarKind> {
        self.now.split.as_ref().map(|_| self.compare)
    }

    /// Builds `setup` in `kind` (and `compare`) and steps it to `tick`
    /// with the later edits; takes it as the timeline only when every
    /// step succeeded, so on error nothing changes.
    fn rerun(
        &mut self,
        setup: Scene,
        kind: ScalarKind,
        compare: Option<ScalarKind>,
        tick: u64,
    ) -> Result<Rerun, SceneError> {
        let mut now = Frame::build(&setup, kind, compare)?;
        let mut history = VecDeque::new();
        let mut bytes = 0;
        let mut skipped = 0;
        while now.primary.tick() < tick {
            remember(&mut history, &mut bytes, now.clone());
            skipped += now.step(&self.edits);
        }
        if let (Some(compare), None) = (compare, &now.split) {
            let message = format!("an edit made after tick 0 does not fit {compare}, so it cannot be compared");
            return Err(SceneError { path: None, line: None, kind: SceneErrorKind::OutOfRange, message });
        }
        self.setup = setup;
        self.kind = kind;
        self.now = now;
        self.history = history;
        self.history_bytes = bytes;
        Ok(Rerun { tick, skipped })
    }

    /// Runs in another precision: the set-up re-run to the current tick
    /// in `kind`. The split view then compares with another type than
    /// `kind`, if it compared with `kind`.
    pub(crate) fn set_kind(&mut self, kind: ScalarKind) -> Result<Rerun, SceneError> {
        let compare = if self.compare == kind { self.kind } else { self.compare };
        let split = self.split_kind().map(|_| compare);
        let rerun = self.rerun(self.setup.clone(), kind, split, self.tick())?;
        self.compare = compare;
        Ok(rerun)
    }

    /// Turns the split view on (the set-up re-run to the current tick in
    /// the comparison type beside the world) or off: whether it is on.
    pub(crate) fn toggle_split(&mut self) -> Result<bool, SceneError> {
        if self.now.split.is_some() {
            self.split_off();
            return Ok(false);
        }
        self.rerun(self.setup.clone(), self.kind, Some(self.compare), self.tick())?;
        Ok(true)
    }

    /// Ends the split view, in every frame.
    fn split_off(&mut self) {
        for frame in self.history.iter_mut().chain(std::iter::once(&mut self.now)) {
            frame.split = None;
        }
        self.history_bytes = self.history.iter().map(Frame::bytes).sum();
    }

    /// Compares with the next type after the current comparison, never
    /// the world's own: re-runs the split view if it is on.
    pub(crate) fn next_compare(&mut self) -> Result<ScalarKind, SceneError> {
        let mut next = self.compare.next();
        if next == self.kind {
            next = next.next();
        }
        if self.now.split.is_some() {
            self.rerun(self.setup.clone(), self.kind, Some(next), self.tick())?;
        }
        self.compare = next;
        Ok(next)
    }

    /// Scales the divergence threshold by ten (`up`) or a tenth: its new
    /// exponent, within [`THRESHOLD_EXPONENTS`].
    pub(crate) fn scale_threshold(&mut self, up: bool) -> i32 {
        let exponent = self.threshold_exponent + if up { 1 } else { -1 };
        self.threshold_exponent = exponent.clamp(*THRESHOLD_EXPONENTS.start(), *THRESHOLD_EXPONENTS.end());
        self.threshold_exponent
    }

    // --- Editing ----------------------------------------------------------

    /// Makes an edit: at tick 0 to the set-up (kept as typed, in `f64`),
    /// later as an edit of that tick, applied to both worlds of the split
    /// view and replayed whenever the tick is reached again. Either all of
    /// it happens or nothing does. Returns what it added, if anything.
    ///
    /// With `merge`, a change to the same item as the merged edit before
    /// it, at the same tick, joins that edit: a drag is one edit to undo
    /// and to replay, however many moves it took.
    pub(crate) fn edit(&mut self, edit: Edit, merge: bool) -> Result<Option<Selected>, String> {
        let before = self.snapshot();
        let item = match &edit {
            Edit::Set(item, _) if merge => Some((self.tick(), *item)),
            _ => None,
        };
        let joins = item.is_some() && item == self.merging;
        let added = if self.tick() == 0 {
            let mut setup = self.setup.clone();
            let renumber = edit.apply_to_scene(&mut setup)?;
            // A typed edit's error: the file's lines say nothing of it.
            let now = Frame::build(&setup, self.kind, self.split_kind()).map_err(|e| e.message)?;
            if let Some(change) = renumber {
                self.edits = self.edits.iter().filter_map(|(t, e)| Some((*t, e.renumbered(change)?))).collect();
            }
            let added = match edit {
                Edit::AddBody(_) => now.primary.bodies().last().map(|(id, _)| Selected::Body(*id)),
                Edit::AddCollider(_) => now.primary.colliders().last().map(|(id, _)| Selected::Collider(*id)),
                _ => None,
            };
            self.setup = setup;
            self.now = now;
            added
        } else {
            let added = self.now.apply(&edit)?;
            let tick = self.tick();
            let at = self.edits.partition_point(|(t, _)| *t <= tick);
            match (self.edits.get_mut(at.wrapping_sub(1)), &edit) {
                (Some((t, Edit::Set(last, changes))), Edit::Set(item, more)) if joins && *t == tick && last == item => {
                    for &(field, value) in more {
                        match changes.iter_mut().find(|(f, _)| *f == field) {
                            Some(change) => change.1 = value,
                            None => changes.push((field, value)),
                        }
                    }
                }
                _ => self.edits.insert(at, (tick, edit)),
            }
            added
        };
        if !joins {
            self.push_undo(before);
        }
        self.merging = item;
        Ok(added)
    }

    /// Records a character's move at the current tick (play mode's input),
    /// replacing the one it had there: it applies as the tick steps on,
    /// and again whenever a replay steps on from it. Not an edit to undo:
    /// play mode records one a tick.
    pub(crate) fn record_move(&mut self, item: Item, motion: Vec2<f64>) {
        let tick = self.tick();
        let same = |(t, e): &(u64, Edit)| *t == tick && matches!(e, Edit::Move(i, _) if *i == item);
        if let Some(k) = self.edits.iter().position(same) {
            self.edits[k].1 = Edit::Move(item, motion);
        } else {
            let at = self.edits.partition_point(|(t, _)| *t <= tick);
            self.edits.insert(at, (tick, Edit::Move(item, motion)));
        }
    }

    /// The motion recorded for `item` at `tick`, if any.
    pub(crate) fn move_at(&self, tick: u64, item: Item) -> Option<Vec2<f64>> {
        self.edits.iter().find_map(|(t, e)| match e {
            Edit::Move(i, motion) if *t == tick && *i == item => Some(*motion),
            _ => None,
        })
    }

    /// Every character move recorded, by tick: what an inputs file of
    /// `[[move]]` tables replays.
    pub(crate) fn moves(&self) -> impl Iterator<Item = (u64, Item, Vec2<f64>)> + '_ {
        self.edits.iter().filter_map(|(t, e)| match e {
            Edit::Move(item, motion) => Some((*t, *item, *motion)),
            _ => None,
        })
    }

    /// What the character's move that led to the current tick met.
    pub(crate) fn last_move(&self) -> Option<MoveView> {
        self.now.moved
    }

    /// Ends the merged edit in progress: the next edit is one of its own.
    pub(crate) fn end_merge(&mut self) {
        self.merging = None;
    }

    /// Changes the world's settings: they belong to the set-up, so the
    /// set-up is re-run to the current tick with them.
    pub(crate) fn set_settings(&mut self, settings: Settings) -> Result<Rerun, SceneError> {
        let before = self.snapshot();
        let mut setup = self.setup.clone();
        setup.settings = settings;
        let rerun = self.rerun(setup, self.kind, self.split_kind(), self.tick())?;
        self.push_undo(before);
        Ok(rerun)
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot { setup: self.setup.clone(), edits: self.edits.clone() }
    }

    fn push_undo(&mut self, before: Snapshot) {
        self.undo.push(before);
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Takes back the last edit (`redo` false) or makes the last one taken
    /// back again, re-running to the current tick: `None` when there is
    /// nothing to take back (or make again).
    pub(crate) fn undo(&mut self, redo: bool) -> Option<Result<Rerun, SceneError>> {
        self.merging = None;
        let target = if redo { self.redo.pop()? } else { self.undo.pop()? };
        let current = self.snapshot();
        let edits = std::mem::replace(&mut self.edits, target.edits.clone());
        let result = self.rerun(target.setup.clone(), self.kind, self.split_kind(), self.tick());
        if result.is_ok() {
            if redo { self.undo.push(current) } else { self.redo.push(current) }
        } else {
            // What it would return to no longer builds (in another
            // precision since): nothing changes.
            self.edits = edits;
            if redo { self.redo.push(target) } else { self.undo.push(target) }
        }
        Some(result)
    }

    /// The file now holds the set-up.
    pub(crate) fn mark_saved(&mut self) {
        self.saved = self.setup.clone();
    }

    /// What must hold after any action: `Err` says what does not.
    pub(crate) fn check(&self) -> Result<(), String> {
        let tick = self.tick();
        let ticks: Vec<u64> = self.history.iter().map(|f| f.primary.tick()).collect();
        let expected: Vec<u64> = (tick.saturating_sub(ticks.len() as u64)..tick).collect();
        if ticks != expected {
            return Err(format!("the history's ticks {ticks:?} do not lead up to tick {tick}"));
        }
        let bytes: usize = self.history.iter().map(Frame::bytes).sum();
        if bytes != self.history_bytes || (bytes > HISTORY_BYTES && self.history.len() > 1) {
            return Err(format!("the history holds {bytes} bytes, counted {}", self.history_bytes));
        }
        if self.compare == self.kind || self.now.primary.kind() != self.kind {
            return Err(format!("{} compared with {}", self.kind, self.compare));
        }
        for frame in self.history.iter().chain(std::iter::once(&self.now)) {
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
        if !THRESHOLD_EXPONENTS.contains(&self.threshold_exponent) || self.speed >= SPEEDS.len() {
            return Err(format!("threshold 1e{} or speed {} out of bounds", self.threshold_exponent, self.speed));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use geom_core::Vec2;

    use super::*;
    use crate::scene::{BodySpec, DEFAULT_SCENE};
    use crate::sim::Field;

    fn timeline() -> Timeline {
        Timeline::new(Scene::parse(DEFAULT_SCENE).unwrap(), ScalarKind::I32F32).unwrap()
    }

    fn step(timeline: &mut Timeline, ticks: u64) {
        for _ in 0..ticks {
            timeline.step_forward();
        }
    }

    fn position(timeline: &Timeline, body: usize) -> Vec2<f64> {
        timeline.primary().bodies()[body].1.position
    }

    /// The players are the scene's, not the world's: an edit of a player's
    /// body at tick 0 keeps its key, and the state a later tick saves
    /// (`W`) names the same bodies, after a removal and an addition too.
    #[test]
    fn players_survive_edits_and_are_in_the_state_a_tick_saves() {
        // The built-in scene's players drive bodies 4 and 5.
        let mut timeline = timeline();
        let players = |scene: &Scene| scene.bodies.iter().map(|b| b.player).collect::<Vec<_>>();
        let mut expected = vec![None; timeline.setup().bodies.len()];
        (expected[4], expected[5]) = (Some(1), Some(2));
        assert_eq!(players(timeline.setup()), expected);
        timeline.edit(Edit::Set(Item::Body(4), vec![(Field::X, 0.5)]), false).unwrap();
        assert_eq!(timeline.setup().bodies[4].player, Some(1));
        assert_eq!(timeline.setup().bodies[4].position.x, 0.5);
        step(&mut timeline, 5);
        timeline.edit(Edit::Remove(Item::Body(0)), false).unwrap();
        timeline.edit(Edit::AddBody(BodySpec::new(Vec2::new(0.0, 9.0), 0.5)), false).unwrap();
        // Body 0 is gone and one is added: ids 4 and 5 are now the fourth
        // and fifth of the list, which is as long as before.
        expected.remove(0);
        expected.push(None);
        assert_eq!(players(&timeline.state()), expected);
    }

    #[test]
    fn the_moves_of_one_drag_are_one_edit_to_undo_and_to_replay() {
        let mut timeline = timeline();
        step(&mut timeline, 3);
        let before = timeline.primary().checksum();
        for x in [1.0, 2.0, 3.0] {
            timeline.edit(Edit::Set(Item::Body(0), vec![(Field::X, x), (Field::Y, 4.0)]), true).unwrap();
        }
        timeline.end_merge();
        assert_eq!(timeline.later_edits(), 1, "one edit at tick 3");
        assert_eq!(position(&timeline, 0), Vec2::new(3.0, 4.0));
        let dragged = timeline.primary().checksum();
        step(&mut timeline, 4);
        for _ in 0..4 {
            timeline.step_back();
        }
        assert_eq!(timeline.primary().checksum(), dragged, "tick 3 as dragged");
        timeline.undo(false).unwrap().unwrap();
        assert_eq!((timeline.tick(), timeline.primary().checksum()), (3, before), "one undo takes the drag back");
        // After the drag ended, the next move is an edit of its own.
        timeline.edit(Edit::Set(Item::Body(0), vec![(Field::X, 5.0)]), true).unwrap();
        timeline.end_merge();
        timeline.edit(Edit::Set(Item::Body(0), vec![(Field::X, 6.0)]), true).unwrap();
        assert_eq!(timeline.later_edits(), 2);
    }

    #[test]
    fn a_later_edit_follows_its_body_when_the_set_up_loses_an_earlier_one() {
        let mut timeline = timeline();
        step(&mut timeline, 5);
        timeline.edit(Edit::Set(Item::Body(3), vec![(Field::Vx, 0.75)]), false).unwrap();
        timeline.edit(Edit::Set(Item::Body(1), vec![(Field::Vx, -0.75)]), false).unwrap();
        let third = timeline.setup().bodies[3];
        timeline.reset().unwrap();
        timeline.edit(Edit::Remove(Item::Body(1)), false).unwrap();
        assert_eq!(timeline.later_edits(), 1, "the edit of the body removed went with it");
        step(&mut timeline, 5);
        let moved = timeline.primary().bodies()[2].1;
        assert_eq!(timeline.setup().bodies[2], third, "what was body 3 is body 2 now");
        assert_eq!(moved.velocity.x, 0.75, "and its edit is made to it at tick 5");
    }

    #[test]
    fn an_edit_refused_in_the_running_type_changes_nothing_even_if_f64_takes_it() {
        let mut timeline = Timeline::new(Scene::parse(DEFAULT_SCENE).unwrap(), ScalarKind::I16F16).unwrap();
        let before = (timeline.setup().clone(), timeline.primary().checksum());
        let far = Edit::Set(Item::Body(0), vec![(Field::X, 5000.0)]);
        let refused = timeline.edit(far, false).unwrap_err();
        assert!(refused.contains("±4096"), "{refused}");
        assert_eq!((timeline.setup().clone(), timeline.primary().checksum()), before);
        assert!(timeline.undo(false).is_none(), "nothing to undo");
    }
}
