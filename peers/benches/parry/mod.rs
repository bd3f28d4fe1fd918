//! The benchmark's questions asked of parry2d (`f32`) and parry2d-f64, built
//! from the very `Raw` scenes geom's benchmarks use. Shared by the benchmark
//! (which times these functions) and `tests/same_questions.rs` (which checks
//! that they answer what geom answers), so that what is timed is what is
//! checked.
//!
//! Segments and capsules stay in world coordinates with the identity pose,
//! as geom's shapes carry their own coordinates; a circle is a `Ball` (a
//! radius) placed by a pose translated to its centre. Each query comes in two
//! flavours:
//!
//! - `*_query`: parry's generic entry point (`query::intersection_test`,
//!   `query::distance`, `query::contact`, `query::cast_shapes`) on
//!   `&dyn Shape`, with the poses of both shapes: dynamic dispatch on the
//!   shape pair, then the specialised routine.
//! - `*_kernel`: the fastest typed path parry exposes for that pair, called
//!   directly on the concrete shapes with the relative pose it expects.

/// The parry functions for one parry crate (`$parry`: `parry2d` or
/// `parry2d_f64`, whose APIs are the same up to the scalar type).
macro_rules! parry_queries {
    ($module:ident, $parry:ident) => {
        pub(crate) mod $module {
            use $parry::math::{Pose, Real, Vector};
            use $parry::query::details::{
                cast_shapes_support_map_support_map, closest_points_segment_segment_with_locations_nD,
                contact_ball_ball, contact_convex_polyhedron_ball, intersection_test_point_query_ball,
            };
            use $parry::query::{
                self, Contact, PointQuery, Ray, RayCast, ShapeCastHit, ShapeCastOptions, ShapeDistance,
                ShapeIntersection, Unsupported,
            };
            use $parry::shape::{Ball, Capsule, Segment};

            use crate::common::{Raw, Workload, raw_scenes};

            /// One scene as parry shapes: `a` and `b` circles, the moving
            /// circle and its motion, a segment, two capsules, and the
            /// moving capsule with the obstacle's drift (see `common::Raw`).
            pub(crate) struct Scene {
                pub(crate) a_pose: Pose,
                pub(crate) a: Ball,
                pub(crate) b_pose: Pose,
                pub(crate) b: Ball,
                pub(crate) mover_pose: Pose,
                pub(crate) mover: Ball,
                pub(crate) motion: Vector,
                pub(crate) segment: Segment,
                pub(crate) capsule: Capsule,
                pub(crate) other: Capsule,
                pub(crate) sweeper: Capsule,
                pub(crate) drift: Vector,
                /// `motion + drift` (exact: the scenes' grid is coarse enough).
                pub(crate) sweeper_motion: Vector,
            }

            /// A point of the scene (`f64` from the shared generator, exact
            /// in `f32` too: the scenes lie on a 2^-12 grid within ±600).
            fn v(x: f64, y: f64) -> Vector {
                Vector::new(x as Real, y as Real)
            }

            impl Scene {
                fn new(raw: &Raw) -> Self {
                    let capsule = |[x0, y0, x1, y1, r]: [f64; 5]| Capsule::new(v(x0, y0), v(x1, y1), r as Real);
                    let [x0, y0, x1, y1] = raw.segment;
                    Self {
                        a_pose: Pose::from_translation(v(raw.a[0], raw.a[1])),
                        a: Ball::new(raw.a[2] as Real),
                        b_pose: Pose::from_translation(v(raw.b[0], raw.b[1])),
                        b: Ball::new(raw.b[2] as Real),
                        mover_pose: Pose::from_translation(v(raw.mover[0], raw.mover[1])),
                        mover: Ball::new(raw.mover[2] as Real),
                        motion: v(raw.motion[0], raw.motion[1]),
                        segment: Segment::new(v(x0, y0), v(x1, y1)),
                        capsule: capsule(raw.capsule),
                        other: capsule(raw.other),
                        sweeper: capsule(raw.sweeper),
                        drift: v(raw.drift[0], raw.drift[1]),
                        sweeper_motion: v(raw.motion[0] + raw.drift[0], raw.motion[1] + raw.drift[1]),
                    }
                }
            }

            /// The workload's scenes as parry shapes.
            pub(crate) fn scenes(workload: Workload) -> Vec<Scene> {
                raw_scenes(workload).iter().map(Scene::new).collect()
            }

            /// A point as a shape: a ball of radius zero.
            const POINT: Ball = Ball { radius: 0.0 };

            /// `query::intersection_test`, ball against segment: dispatches
            /// to `intersection_test_ball_point_query`.
            pub(crate) fn intersects_circle_segment_query(s: &Scene) -> Result<ShapeIntersection, Unsupported> {
                query::intersection_test(&s.a_pose, &s.a, &Pose::IDENTITY, &s.segment)
            }

            /// `intersection_test_point_query_ball`, typed on `Segment`: the
            /// segment's `project_local_point` of the centre, compared with
            /// the radius squared (the dispatcher's routine without the
            /// `dyn` call and the pose inversion).
            pub(crate) fn intersects_circle_segment_kernel(s: &Scene) -> bool {
                intersection_test_point_query_ball(&s.a_pose, &s.segment, &s.a).intersecting
            }

            /// `query::distance` from a zero-radius ball: dispatches to
            /// `distance_ball_convex_polyhedron` (a solid point projection).
            pub(crate) fn distance_point_segment_query(s: &Scene) -> Result<ShapeDistance, Unsupported> {
                query::distance(&s.a_pose, &POINT, &Pose::IDENTITY, &s.segment)
            }

            /// `PointQuery::distance_to_local_point` on `Segment` (solid):
            /// one projection and a length.
            pub(crate) fn distance_point_segment_kernel(s: &Scene) -> Real {
                s.segment.distance_to_local_point(s.a_pose.translation, true)
            }

            /// `query::contact` (prediction 0), ball against segment:
            /// dispatches to `contact_ball_convex_polyhedron`.
            pub(crate) fn contact_circle_segment_query(s: &Scene) -> Result<Option<Contact>, Unsupported> {
                query::contact(&s.a_pose, &s.a, &Pose::IDENTITY, &s.segment, 0.0)
            }

            /// `contact_convex_polyhedron_ball` typed on `Segment`, the
            /// segment first so that no pose is inverted and the contact
            /// comes out in world space: parry's ball–convex contact (a point
            /// projection with its feature). Parry has no ball–segment
            /// specific contact function.
            pub(crate) fn contact_circle_segment_kernel(s: &Scene) -> Option<Contact> {
                contact_convex_polyhedron_ball(&s.a_pose, &s.segment, &s.a, 0.0)
            }

            /// `query::contact` (prediction 0), ball against capsule:
            /// dispatches to `contact_ball_convex_polyhedron`.
            pub(crate) fn contact_circle_capsule_query(s: &Scene) -> Result<Option<Contact>, Unsupported> {
                query::contact(&s.a_pose, &s.a, &Pose::IDENTITY, &s.capsule, 0.0)
            }

            /// `contact_convex_polyhedron_ball` typed on `Capsule`, as for
            /// the segment: parry has no ball–capsule specific contact.
            pub(crate) fn contact_circle_capsule_kernel(s: &Scene) -> Option<Contact> {
                contact_convex_polyhedron_ball(&s.a_pose, &s.capsule, &s.a, 0.0)
            }

            /// `query::contact` (prediction 0), ball against ball:
            /// dispatches to `contact_ball_ball`.
            pub(crate) fn contact_circle_circle_query(s: &Scene) -> Result<Option<Contact>, Unsupported> {
                query::contact(&s.a_pose, &s.a, &s.b_pose, &s.b, 0.0)
            }

            /// `contact_ball_ball` on the relative pose (a translation,
            /// built here from the two centres as geom's query does).
            pub(crate) fn contact_circle_circle_kernel(s: &Scene) -> Option<Contact> {
                let pos12 = Pose::from_translation(s.b_pose.translation - s.a_pose.translation);
                contact_ball_ball(&pos12, &s.a, &s.b, 0.0)
            }

            /// `query::contact` (prediction 0), capsule against capsule:
            /// dispatches to `contact_support_map_support_map` (GJK, and EPA
            /// when the cores' hulls overlap).
            pub(crate) fn contact_capsule_capsule_query(s: &Scene) -> Result<Option<Contact>, Unsupported> {
                query::contact(&Pose::IDENTITY, &s.capsule, &Pose::IDENTITY, &s.other, 0.0)
            }

            /// Parry has no typed capsule–capsule contact function (only the
            /// generic GJK `contact_support_map_support_map` that
            /// `query::contact` uses, and a persistent contact-manifold
            /// generator). This is the first point of that generator,
            /// `contact_manifold_capsule_capsule`, built the same way by
            /// hand: the cores' closest points
            /// (`closest_points_segment_segment_with_locations_nD`), the
            /// normal between them, the radii subtracted.
            pub(crate) fn contact_capsule_capsule_kernel(s: &Scene) -> Option<Contact> {
                let (seg1, seg2) = (&s.capsule.segment, &s.other.segment);
                let (loc1, loc2) =
                    closest_points_segment_segment_with_locations_nD((&seg1.a, &seg1.b), (&seg2.a, &seg2.b));
                let p1 = seg1.point_at(&loc1);
                let p2 = seg2.point_at(&loc2);
                let normal = (p2 - p1).try_normalize().unwrap_or(Vector::Y);
                let dist = (p2 - p1).dot(normal) - s.capsule.radius - s.other.radius;
                (dist <= 0.0).then(|| {
                    Contact::new(p1 + normal * s.capsule.radius, p2 - normal * s.other.radius, normal, -normal, dist)
                })
            }

            /// `query::cast_shapes`, the ball moving by its motion against
            /// the static segment, time of impact at most 1 (one tick):
            /// dispatches to `cast_shapes_support_map_support_map` (GJK
            /// directional distance, and a contact for the impact geometry
            /// when touching at the start).
            pub(crate) fn sweep_circle_segment_query(s: &Scene) -> Result<Option<ShapeCastHit>, Unsupported> {
                let options = ShapeCastOptions::with_max_time_of_impact(1.0);
                query::cast_shapes(
                    &s.mover_pose,
                    s.motion,
                    &s.mover,
                    &Pose::IDENTITY,
                    Vector::ZERO,
                    &s.segment,
                    options,
                )
            }

            /// The swept circle as a ray (its centre and motion) against the
            /// segment inflated by the radius, a `Capsule`:
            /// `RayCast::cast_local_ray` (solid, so a start inside gives 0),
            /// time at most 1. Building the ray and the capsule is part of
            /// the question (they combine both operands) and costs a few
            /// moves. The time only: `cast_local_ray_and_get_normal` would
            /// add the normal.
            pub(crate) fn sweep_circle_segment_kernel(s: &Scene) -> Option<Real> {
                let ray = Ray::new(s.mover_pose.translation, s.motion);
                Capsule::new(s.segment.a, s.segment.b, s.mover.radius).cast_local_ray(&ray, 1.0, true)
            }

            /// `query::cast_shapes`, the sweeper moving by its motion
            /// against the static segment, time of impact at most 1:
            /// dispatches to `cast_shapes_support_map_support_map` (GJK
            /// ray cast on the Minkowski difference, then a contact for the
            /// impact geometry when the time is below 1e-4).
            pub(crate) fn sweep_capsule_segment_query(s: &Scene) -> Result<Option<ShapeCastHit>, Unsupported> {
                let options = ShapeCastOptions::with_max_time_of_impact(1.0);
                query::cast_shapes(
                    &Pose::IDENTITY,
                    s.motion,
                    &s.sweeper,
                    &Pose::IDENTITY,
                    Vector::ZERO,
                    &s.segment,
                    options,
                )
            }

            /// `cast_shapes_support_map_support_map` typed on `Capsule` and
            /// `Segment`, with the relative pose (the identity: both shapes
            /// are in world coordinates) and the relative motion it
            /// expects: the dispatcher's routine without the `dyn` calls.
            /// Parry has no capsule–segment (or capsule–capsule) specific
            /// shape cast, nor a ray-cast reduction for it as it has for
            /// the ball.
            pub(crate) fn sweep_capsule_segment_kernel(s: &Scene) -> Option<ShapeCastHit> {
                let options = ShapeCastOptions::with_max_time_of_impact(1.0);
                cast_shapes_support_map_support_map(&Pose::IDENTITY, -s.motion, &s.sweeper, &s.segment, options)
            }

            /// `query::cast_shapes`, the sweeper moving by `sweeper_motion`
            /// against the capsule moving by `drift`, time of impact at most
            /// 1: dispatches to `cast_shapes_support_map_support_map` on the
            /// relative motion.
            pub(crate) fn sweep_capsule_capsule_query(s: &Scene) -> Result<Option<ShapeCastHit>, Unsupported> {
                let options = ShapeCastOptions::with_max_time_of_impact(1.0);
                query::cast_shapes(
                    &Pose::IDENTITY,
                    s.sweeper_motion,
                    &s.sweeper,
                    &Pose::IDENTITY,
                    s.drift,
                    &s.capsule,
                    options,
                )
            }

            /// `cast_shapes_support_map_support_map` typed on two
            /// `Capsule`s, on the relative motion (`drift − sweeper_motion`,
            /// the second shape's seen from the first, computed here as
            /// `cast_shapes` does: part of the question).
            pub(crate) fn sweep_capsule_capsule_kernel(s: &Scene) -> Option<ShapeCastHit> {
                let options = ShapeCastOptions::with_max_time_of_impact(1.0);
                let vel12 = s.drift - s.sweeper_motion;
                cast_shapes_support_map_support_map(&Pose::IDENTITY, vel12, &s.sweeper, &s.capsule, options)
            }
        }
    };
}

parry_queries!(parry32, parry2d);
parry_queries!(parry64, parry2d_f64);
