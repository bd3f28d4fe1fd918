//! The braille canvas: colliders, bodies, the split view's twins, contacts,
//! the last tick's impacts and the inspected body's coming tick.

use geom_core::Vec2;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::symbols::Marker;
use ratatui::widgets::canvas::{Canvas, Context, Line as CanvasLine, Painter, Shape as CanvasShape};

use super::{ARROW_TICKS, Theme};
use crate::app::App;
use crate::inspect::{Inspection, SweepReading, Target};
use crate::layout::Camera;
use crate::num::ScalarKind;
use crate::scene::{BodySpec, ColliderSpec, Shape};
use crate::sim::{ContactView, EventView, Selected, Sim};
use geom_core::world::{BodyId, ColliderId};

pub(super) fn draw(frame: &mut Frame<'_>, area: Rect, app: &App, inspection: Option<&Inspection>, theme: Theme) {
    let (x_bounds, y_bounds) = app.view.camera.bounds(area);
    let scale = app.view.camera.scale;
    let primary = app.timeline.primary();
    let bodies = primary.bodies();
    let colliders = primary.colliders();
    let contacts = primary.contacts();
    let events = primary.events();
    let secondary = app.timeline.secondary().map(crate::sim::Sim::bodies);
    let selected = app.selection();
    let canvas = Canvas::default().marker(Marker::Braille).x_bounds(x_bounds).y_bounds(y_bounds).paint(|ctx| {
        paint_colliders(ctx, &colliders, selected, theme, scale);
        if let Some(others) = &secondary {
            for (_, body) in others {
                draw_shape(ctx, &body.shape(), theme.color(Color::Magenta), scale, true);
            }
            ctx.layer();
        }
        let color = |id: BodyId, _: &BodySpec| (selected == Some(Selected::Body(id))).then_some(Color::Yellow);
        paint_bodies(ctx, &bodies, color, theme, scale);
        paint_contacts(ctx, &contacts, &events, theme, scale);
        if let Some(inspection) = inspection {
            draw_inspection(ctx, inspection, app.kind(), theme, scale);
        }
    });
    frame.render_widget(canvas, area);
}

/// A world as the netcode lab shows each peer's: as the sandbox draws it,
/// player 1's body (`players[0]`) yellow and player 2's light red.
pub(super) fn draw_world(
    frame: &mut Frame<'_>,
    area: Rect,
    camera: &Camera,
    world: &dyn Sim,
    players: [BodyId; 2],
    theme: Theme,
) {
    let (x_bounds, y_bounds) = camera.bounds(area);
    let scale = camera.scale;
    let (bodies, colliders, contacts, events) = (world.bodies(), world.colliders(), world.contacts(), world.events());
    let canvas = Canvas::default().marker(Marker::Braille).x_bounds(x_bounds).y_bounds(y_bounds).paint(|ctx| {
        paint_colliders(ctx, &colliders, None, theme, scale);
        let color = |id: BodyId, _: &BodySpec| {
            [Color::Yellow, Color::LightRed].into_iter().zip(players).find(|(_, p)| *p == id).map(|(c, _)| c)
        };
        paint_bodies(ctx, &bodies, color, theme, scale);
        paint_contacts(ctx, &contacts, &events, theme, scale);
    });
    frame.render_widget(canvas, area);
}

/// The colliders, the selected one yellow, sensors dotted green, moving
/// platforms blue with their velocity; then a new layer.
fn paint_colliders(
    ctx: &mut Context<'_>,
    colliders: &[(ColliderId, ColliderSpec)],
    selected: Option<Selected>,
    theme: Theme,
    scale: f64,
) {
    for (id, collider) in colliders {
        let color = if selected == Some(Selected::Collider(*id)) {
            Color::Yellow
        } else if collider.sensor {
            Color::LightGreen
        } else if collider.is_moving() {
            Color::LightBlue
        } else {
            Color::Gray
        };
        draw_shape(ctx, &collider.shape, theme.color(color), scale, collider.sensor);
        if collider.is_moving() {
            let from = collider.shape.anchor();
            ctx.draw(&segment(from, from + collider.velocity * ARROW_TICKS, theme.color(Color::Green)));
        }
    }
    ctx.layer();
}

/// The bodies with their velocity arrows, in the colour `color` gives or
/// else blue (immovable) or cyan; then a new layer.
fn paint_bodies(
    ctx: &mut Context<'_>,
    bodies: &[(BodyId, BodySpec)],
    color: impl Fn(BodyId, &BodySpec) -> Option<Color>,
    theme: Theme,
    scale: f64,
) {
    for (id, body) in bodies {
        let fallback = if body.inverse_mass == 0.0 { Color::Blue } else { Color::Cyan };
        let color = color(*id, body).unwrap_or(fallback);
        draw_shape(ctx, &body.shape(), theme.color(color), scale, body.sensor);
        let tip = body.position + body.velocity * ARROW_TICKS;
        ctx.draw(&segment(body.position, tip, theme.color(Color::Green)));
    }
    ctx.layer();
}

/// The contacts' normals, and a star where each of the last tick's
/// impacts hit.
fn paint_contacts(ctx: &mut Context<'_>, contacts: &[ContactView], events: &[EventView], theme: Theme, scale: f64) {
    for contact in contacts {
        let tip = contact.point + contact.normal * (6.0 * scale);
        ctx.draw(&segment(contact.point, tip, theme.color(Color::Red)));
    }
    for impact in events.iter().filter_map(|e| e.impact) {
        let (p, r) = (impact.point, 3.0 * scale);
        let color = theme.color(Color::LightMagenta);
        for d in [Vec2::new(r, 0.0), Vec2::new(0.0, r), Vec2::new(r, r), Vec2::new(r, -r)] {
            ctx.draw(&segment(p - d, p + d, color));
        }
    }
}

/// The selected body's path over the coming tick, its first impact, and
/// the closest point of what it is inspected against.
fn draw_inspection(ctx: &mut Context<'_>, inspection: &Inspection, kind: ScalarKind, theme: Theme, scale: f64) {
    let highlight = theme.color(Color::LightYellow);
    match inspection.target {
        Target::Collider(shape) => draw_shape(ctx, &shape, highlight, scale, false),
        Target::Body(other) => draw_shape(ctx, &other.shape(), highlight, scale, false),
    }
    let Some((_, Ok(readings))) = inspection.table.iter().find(|(k, _)| *k == kind) else { return };
    let body = inspection.body.1;
    let path = theme.color(Color::Yellow);
    if body.is_capsule() {
        // Where it will be, dotted.
        draw_shape(ctx, &body.shape().translated(readings.motion), path, scale, true);
    } else {
        // The region the circle sweeps, dotted.
        let end = body.position + readings.motion;
        ctx.draw(&Outline::capsule(body.position, end, body.radius, path, scale).dashed());
    }
    if let SweepReading::Hit { t } = readings.sweep {
        let at = body.shape().translated(readings.motion * t);
        draw_shape(ctx, &at, theme.color(Color::LightRed), scale, false);
    }
    let cross = 2.0 * scale;
    let p = readings.closest;
    let color = theme.color(Color::LightRed);
    ctx.draw(&segment(p - Vec2::new(cross, cross), p + Vec2::new(cross, cross), color));
    ctx.draw(&segment(p - Vec2::new(cross, -cross), p + Vec2::new(cross, -cross), color));
}

fn segment(a: Vec2<f64>, b: Vec2<f64>, color: Color) -> CanvasLine {
    CanvasLine { x1: a.x, y1: a.y, x2: b.x, y2: b.y, color }
}

/// A shape's outline, dotted for a sensor.
fn draw_shape(ctx: &mut Context<'_>, shape: &Shape, color: Color, scale: f64, dashed: bool) {
    let outline = match *shape {
        Shape::Segment { start, end } if !dashed => return ctx.draw(&segment(start, end, color)),
        Shape::Segment { start, end } => Outline::capsule(start, end, 0.0, color, scale),
        Shape::Capsule { start, end, radius } => Outline::capsule(start, end, radius, color, scale),
        Shape::Circle { center, radius } => Outline::circle(center, radius, color, scale),
    };
    ctx.draw(&if dashed { outline.dashed() } else { outline });
}

/// The outline of a circle or a capsule, sampled densely enough for the
/// braille grid, solid or dotted.
struct Outline {
    start: Vec2<f64>,
    end: Vec2<f64>,
    radius: f64,
    color: Color,
    /// World units per braille dot.
    scale: f64,
    dashed: bool,
}

impl Outline {
    fn circle(center: Vec2<f64>, radius: f64, color: Color, scale: f64) -> Self {
        Self { start: center, end: center, radius, color, scale, dashed: false }
    }

    fn capsule(start: Vec2<f64>, end: Vec2<f64>, radius: f64, color: Color, scale: f64) -> Self {
        Self { start, end, radius, color, scale, dashed: false }
    }

    fn dashed(self) -> Self {
        Self { dashed: true, ..self }
    }

    fn dot(&self, painter: &mut Painter<'_, '_>, p: Vec2<f64>, index: usize) {
        if self.dashed && (index / 2) % 2 == 1 {
            return;
        }
        if let Some((x, y)) = painter.get_point(p.x, p.y) {
            painter.paint(x, y, self.color);
        }
    }
}

impl CanvasShape for Outline {
    fn draw(&self, painter: &mut Painter<'_, '_>) {
        let axis = self.end - self.start;
        let length = axis.length();
        // About one sample per dot along the outline, and never fewer than
        // a few, so a point-sized body is still a visible dot.
        let per_unit = 1.0 / self.scale.max(1e-12);
        let arc_samples = (std::f64::consts::PI * self.radius * per_unit).clamp(4.0, 2048.0);
        // Whole numbers from 4 to 2048.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let arc_samples = arc_samples.ceil() as usize;
        let (along, across) = if length > 0.0 {
            let along = axis * (1.0 / length);
            (along, Vec2::new(-along.y, along.x))
        } else {
            (Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0))
        };
        // Two half circles: around `end` from +across to -across through
        // +along, and around `start` the other way.
        let mut index = 0;
        for (center, forward) in [(self.end, along), (self.start, -along)] {
            let side = Vec2::new(-forward.y, forward.x);
            for i in 0..=arc_samples {
                // Whole sample counts are far below 2^53.
                #[allow(clippy::cast_precision_loss)]
                let angle = std::f64::consts::PI * (i as f64 / arc_samples as f64 - 0.5);
                let p = center + forward * (self.radius * angle.cos()) + side * (-self.radius * angle.sin());
                self.dot(painter, p, index);
                index += 1;
            }
        }
        if length > 0.0 {
            let line_samples = (length * per_unit).clamp(1.0, 100_000.0);
            // A whole number from 1 to 100 000.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let line_samples = line_samples.ceil() as usize;
            // Both sides of a capsule; a segment (radius 0) is its one line.
            let sides = if self.radius > 0.0 { 2 } else { 1 };
            for offset in [across * self.radius, across * -self.radius].into_iter().take(sides) {
                for i in 0..=line_samples {
                    #[allow(clippy::cast_precision_loss)]
                    let p = self.start + offset + axis * (i as f64 / line_samples as f64);
                    self.dot(painter, p, index);
                    index += 1;
                }
            }
        }
    }
}
