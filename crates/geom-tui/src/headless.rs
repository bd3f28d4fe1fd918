//! The headless runner behind `geom-tui run`: steps a scene without a
//! terminal and prints the world's checksum at every tick, for scripts,
//! CI and comparing machines.
//!
//! Text output is one line per tick, from tick 0 (the scene as loaded):
//! the tick and the checksum as 16 hex digits. With `--events`, each tick's
//! line is followed by one line per event of that tick, in the world's
//! order: the tick, the event's name, the body (`b<id>`) and the other
//! (`c<id>` for a collider, `b<id>` for a body), and for an impact its
//! time, point, normal and speed, each `name=value` with points as `x,y`:
//!
//! ```text
//! 12 6fd3c1a09b2e4477
//! 12 contact-began b3 c0
//! 12 impact b3 c0 t=0.25 point=1.5,0 normal=0,1 speed=0.4
//! ```
//!
//! With `--json` it is one JSON document: the scalar type, the number of
//! ticks, the checksums (index = tick), with `--events` every event with
//! its tick, and the final state of every body and collider, each with the
//! keys of its scene-file table (a capsule body's `shape`, `start` and
//! `end` too). The same scene and arguments print the same bytes on every
//! run and every machine.
//!
//! With `--inputs FILE` ([`run_with_inputs`]), impulses and velocities
//! from the file (see [`inputs`](crate::inputs)) are applied to bodies as
//! the run goes: each after its tick's output and before the step to the
//! next tick. The text output keeps its shape; the JSON document gains
//! `inputs`, after `checksums` (and `events`): every input applied, in the
//! order applied, with its tick, its kind (`impulse` or `velocity`), the
//! body and the value as applied (converted to the run's scalar type).

use std::io::{self, Write};

use serde::Serialize;

use geom_core::world::Id;

use crate::inputs::{Inputs, InputsError};
use crate::num::{SandboxScalar, ScalarKind, with_scalar};
use crate::scene::{BodySpec, ColliderSpec, Scene, SceneError};
use crate::sim::{EventView, Sim};

/// What to run.
///
/// # Examples
///
/// See [`run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// How many ticks to step.
    pub ticks: u64,
    /// The scalar type to step in.
    pub kind: ScalarKind,
    /// One JSON document, with the final state, instead of text lines.
    pub json: bool,
    /// Every event of every tick too.
    pub events: bool,
}

/// Why a run failed.
#[derive(Debug)]
pub enum RunError {
    /// The scene does not fit the scalar type.
    Scene(SceneError),
    /// An input names a body the scene does not have or a value outside
    /// the scalar type's range (found before anything is written), or an
    /// impulse would take a velocity outside it (found at its tick).
    Inputs(InputsError),
    /// The output could not be written.
    Io(io::Error),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Scene(e) => write!(f, "{e}"),
            Self::Inputs(e) => write!(f, "{e}"),
            Self::Io(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<io::Error> for RunError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

#[derive(Serialize)]
struct FinalState {
    tick: u64,
    checksum: String,
    bodies: Vec<Identified<BodySpec>>,
    colliders: Vec<Identified<ColliderSpec>>,
}

/// An event, as the JSON output lists it.
#[derive(Serialize)]
struct EventOut {
    tick: u64,
    kind: &'static str,
    body: u32,
    other: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    point: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speed: Option<f64>,
}

/// A body or collider as the output names it: `b3`, `c0`.
fn name(id: Id) -> String {
    match id {
        Id::Body(b) => format!("b{}", b.index()),
        Id::Collider(c) => format!("c{}", c.index()),
    }
}

/// An event as one line of text, after its tick.
fn event_line(tick: u64, e: &EventView) -> String {
    let line = format!("{tick} {} b{} {}", e.kind, e.body.index(), name(e.other));
    match e.impact {
        Some(i) => {
            let (p, n) = (i.point, i.normal);
            format!("{line} t={} point={},{} normal={},{} speed={}", i.t, p.x, p.y, n.x, n.y, i.speed)
        }
        None => line,
    }
}

#[derive(Serialize)]
struct Identified<T> {
    id: u32,
    #[serde(flatten)]
    item: T,
}

/// Steps `scene` and writes its checksums (see the [module
/// documentation](self)) to `out`.
///
/// # Errors
///
/// [`RunError::Scene`] when the scene does not fit the scalar type (before
/// anything is written), [`RunError::Io`] when writing fails.
///
/// # Examples
///
/// ```
/// use geom_tui::headless::{run, Options};
/// use geom_tui::scene::{Scene, DEFAULT_SCENE};
/// use geom_tui::ScalarKind;
///
/// let scene = Scene::parse(DEFAULT_SCENE)?;
/// let mut out = Vec::new();
/// run(&scene, &Options { ticks: 3, kind: ScalarKind::I16F16, json: false, events: false }, &mut out)?;
/// let text = String::from_utf8(out)?;
/// assert_eq!(text.lines().count(), 4); // ticks 0 to 3
/// assert!(text.starts_with("0 "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(scene: &Scene, options: &Options, out: &mut dyn Write) -> Result<(), RunError> {
    with_scalar!(options.kind, S => run_in::<S>(scene, None, options, out))
}

/// Steps `scene` as [`run`] does, applying `inputs` as it goes (see the
/// [`inputs`](crate::inputs) module), and with `--json` lists the inputs
/// it applied.
///
/// # Errors
///
/// [`run`]'s, and [`RunError::Inputs`] for an input naming a body the
/// scene does not have or a value outside the scalar type's range (before
/// anything is written), or an impulse that would take a velocity outside
/// it (when its tick comes, after the output of the ticks before it).
///
/// # Examples
///
/// ```
/// use geom_tui::headless::{run, run_with_inputs, Options};
/// use geom_tui::inputs::Inputs;
/// use geom_tui::scene::{Scene, DEFAULT_SCENE};
/// use geom_tui::ScalarKind;
///
/// let scene = Scene::parse(DEFAULT_SCENE)?;
/// let inputs = Inputs::parse("[[impulse]]\ntick = 2\nbody = 1\nimpulse = [0.0, 1.0]\n")?;
/// let options = Options { ticks: 5, kind: ScalarKind::I32F32, json: false, events: false };
/// let (mut plain, mut pushed) = (Vec::new(), Vec::new());
/// run(&scene, &options, &mut plain)?;
/// run_with_inputs(&scene, &inputs, &options, &mut pushed)?;
/// let (plain, pushed) = (String::from_utf8(plain)?, String::from_utf8(pushed)?);
/// let first_different = plain.lines().zip(pushed.lines()).position(|(a, b)| a != b);
/// assert_eq!(first_different, Some(3)); // applied at tick 2: tick 3 is the first to change
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_with_inputs(scene: &Scene, inputs: &Inputs, options: &Options, out: &mut dyn Write) -> Result<(), RunError> {
    with_scalar!(options.kind, S => run_in::<S>(scene, Some(inputs), options, out))
}

/// An input as the JSON output lists it.
#[derive(Serialize)]
struct InputOut {
    tick: u64,
    kind: &'static str,
    body: u32,
    value: [f64; 2],
}

/// [`run`] and [`run_with_inputs`] in scalar type `S`: the inputs are
/// bound to the world, and so checked, before anything is written.
fn run_in<S: SandboxScalar>(
    scene: &Scene,
    inputs: Option<&Inputs>,
    options: &Options,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let mut world = scene.build::<S>().map_err(RunError::Scene)?;
    let none = Inputs::default();
    let mut schedule = inputs.unwrap_or(&none).bind(&world).map_err(RunError::Inputs)?;
    if options.json {
        write!(out, "{{\"scalar\":\"{}\",\"ticks\":{},\"checksums\":[", options.kind, options.ticks)?;
    }
    let mut events = Vec::new();
    for tick in 0..=options.ticks {
        if tick > 0 {
            world.step();
        }
        let checksum = world.checksum();
        if options.json {
            let comma = if tick > 0 { "," } else { "" };
            write!(out, "{comma}\"{checksum:016x}\"")?;
        } else {
            writeln!(out, "{tick} {checksum:016x}")?;
        }
        if options.events && tick > 0 {
            for e in Sim::events(&world) {
                if options.json {
                    let impact = e.impact;
                    events.push(EventOut {
                        tick,
                        kind: e.kind,
                        body: e.body.index(),
                        other: name(e.other),
                        t: impact.map(|i| i.t),
                        point: impact.map(|i| [i.point.x, i.point.y]),
                        normal: impact.map(|i| [i.normal.x, i.normal.y]),
                        speed: impact.map(|i| i.speed),
                    });
                } else {
                    writeln!(out, "{}", event_line(tick, &e))?;
                }
            }
        }
        // After the tick's output, before the step to the next tick; inputs
        // at the last tick would act after the run, so they never apply.
        if tick < options.ticks {
            schedule.apply_due(&mut world).map_err(RunError::Inputs)?;
        }
    }
    if options.json {
        if options.events {
            let events = serde_json::to_string(&events).map_err(io::Error::from)?;
            write!(out, "],\"events\":{events}")?;
        } else {
            write!(out, "]")?;
        }
        if inputs.is_some() {
            let applied: Vec<InputOut> = schedule
                .applied()
                .map(|(input, v)| InputOut {
                    tick: input.tick,
                    kind: input.action.name(),
                    body: input.body,
                    value: [v.x, v.y],
                })
                .collect();
            write!(out, ",\"inputs\":{}", serde_json::to_string(&applied).map_err(io::Error::from)?)?;
        }
        let state = FinalState {
            tick: world.tick(),
            checksum: format!("{:016x}", world.checksum()),
            bodies: Sim::bodies(&world).into_iter().map(|(id, item)| Identified { id: id.index(), item }).collect(),
            colliders: Sim::colliders(&world)
                .into_iter()
                .map(|(id, item)| Identified { id: id.index(), item })
                .collect(),
        };
        let state = serde_json::to_string(&state).map_err(io::Error::from)?;
        writeln!(out, ",\"final\":{state}}}")?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::DEFAULT_SCENE;
    use crate::sim;

    fn output(ticks: u64, kind: ScalarKind, json: bool) -> String {
        let scene = Scene::parse(DEFAULT_SCENE).unwrap();
        let mut out = Vec::new();
        run(&scene, &Options { ticks, kind, json, events: false }, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn text_output_is_one_line_per_tick_matching_the_world() {
        let text = output(20, ScalarKind::I32F32, false);
        let mut world = sim::build(&Scene::parse(DEFAULT_SCENE).unwrap(), ScalarKind::I32F32).unwrap();
        for (tick, line) in text.lines().enumerate() {
            if tick > 0 {
                world.step();
            }
            assert_eq!(line, format!("{tick} {:016x}", world.checksum()));
        }
        assert_eq!(text.lines().count(), 21);
    }

    #[test]
    fn json_output_holds_the_checksums_and_the_final_state() {
        let json: serde_json::Value = serde_json::from_str(&output(10, ScalarKind::F64, true)).unwrap();
        let text = output(10, ScalarKind::F64, false);
        let checksums: Vec<&str> = text.lines().map(|l| l.split_once(' ').unwrap().1).collect();
        assert_eq!(json["scalar"], "f64");
        assert_eq!(json["ticks"], 10);
        assert_eq!(
            json["checksums"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect::<Vec<_>>(),
            checksums
        );
        assert_eq!(json["final"]["tick"], 10);
        assert_eq!(json["final"]["checksum"], checksums[10]);
        let bullet = &json["final"]["bodies"][0];
        assert_eq!((bullet["id"].as_u64(), bullet["radius"].as_f64()), (Some(0), Some(0.25)));
        assert_eq!(json["final"]["colliders"][4]["shape"], "capsule");
    }

    #[test]
    fn a_scene_outside_the_types_range_is_an_error_before_any_output() {
        let mut scene = Scene::parse(DEFAULT_SCENE).unwrap();
        scene.bodies[2].position.x = 5000.0;
        let mut out = Vec::new();
        let e = run(&scene, &Options { ticks: 5, kind: ScalarKind::I16F16, json: false, events: false }, &mut out)
            .unwrap_err();
        assert!(matches!(e, RunError::Scene(_)) && e.to_string().contains("body 2"), "{e}");
        assert!(out.is_empty());
    }
}
