//! Edits as data: what a user changes in a world, kept by the timeline so
//! that stepping back past an edit and forward again replays it, and so
//! that it can be undone.

use geom_core::Vec2;

use crate::num::ScalarKind;
use crate::scene::{BodySpec, ColliderSpec, MAX_BODIES, MAX_COLLIDERS, Scene};
use crate::sim::{self, Field, Selected, Sim};

/// A body or a collider, named by the number in its id. Worlds built from
/// the same set-up and given the same edits number their items alike, so
/// an edit names the same item in every replay and every precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// The body whose id has this index.
    Body(u32),
    /// The collider whose id has this index.
    Collider(u32),
}

impl Item {
    /// The item a selection names.
    pub(crate) fn of(selected: Selected) -> Self {
        match selected {
            Selected::Body(id) => Self::Body(id.index()),
            Selected::Collider(id) => Self::Collider(id.index()),
        }
    }

    /// The item in `sim`, when it exists there.
    pub(crate) fn find(self, sim: &dyn Sim) -> Result<Selected, String> {
        let found = match self {
            Self::Body(index) => {
                sim.bodies().into_iter().find(|(id, _)| id.index() == index).map(|(id, _)| Selected::Body(id))
            }
            Self::Collider(index) => {
                sim.colliders().into_iter().find(|(id, _)| id.index() == index).map(|(id, _)| Selected::Collider(id))
            }
        };
        found.ok_or_else(|| match self {
            Self::Body(index) => format!("body {index} does not exist then"),
            Self::Collider(index) => format!("collider {index} does not exist then"),
        })
    }

    /// The number in its id.
    fn index(self) -> u32 {
        let (Self::Body(index) | Self::Collider(index)) = self;
        index
    }

    /// Its position in a set-up's list, whose ids count up from 0.
    fn position(self) -> usize {
        usize::try_from(self.index()).unwrap_or(usize::MAX)
    }
}

/// One change to a world.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Edit {
    /// Sets some values of a body or a collider; the others keep every bit.
    Set(Item, Vec<(Field, f64)>),
    /// Adds a body.
    AddBody(BodySpec),
    /// Adds a collider.
    AddCollider(ColliderSpec),
    /// Removes a body or a collider.
    Remove(Item),
    /// Moves a character (a body of inverse mass 0) by a motion, through
    /// the character controller: play mode's input for one tick. Unlike
    /// the others it applies as the tick it is made at steps on, as
    /// `run --inputs` applies a `[[move]]`.
    Move(Item, Vec2<f64>),
}

/// How a set-up's numbering changed: what later edits are renumbered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Renumber {
    /// An item was added at the end of its list: the items added later
    /// move up by one.
    Added(Item),
    /// An item was removed: those after it move down by one.
    Removed(Item),
}

impl Edit {
    /// Applies the edit to a running world, converting each value from
    /// `f64` once: what it added, if anything.
    ///
    /// # Errors
    ///
    /// The item does not exist, the world refuses the change (a value
    /// outside the type's range), or an addition would pass the most a
    /// scene may have; the world is then unchanged.
    pub(crate) fn apply(&self, sim: &mut dyn Sim) -> Result<Option<Selected>, String> {
        match self {
            Self::Set(item, changes) => {
                let selected = item.find(sim)?;
                sim.set_fields(selected, changes).map(|()| None)
            }
            Self::AddBody(_) if sim.body_count() >= MAX_BODIES => {
                Err(format!("a scene may have at most {MAX_BODIES} bodies"))
            }
            Self::AddCollider(_) if sim.collider_count() >= MAX_COLLIDERS => {
                Err(format!("a scene may have at most {MAX_COLLIDERS} colliders"))
            }
            Self::AddBody(body) => sim.add_body(*body).map(|id| Some(Selected::Body(id))),
            Self::AddCollider(collider) => sim.add_collider(*collider).map(|id| Some(Selected::Collider(id))),
            Self::Remove(item) => match item.find(sim)? {
                Selected::Body(id) => sim.remove_body(id),
                Selected::Collider(id) => sim.remove_collider(id),
            }
            .map(|()| None),
            Self::Move(item, motion) => match item.find(sim)? {
                Selected::Body(id) => sim.move_character(id, *motion).map(|_| None),
                Selected::Collider(_) => Err("only a body moves as a character".to_owned()),
            },
        }
    }

    /// Applies the edit to a set-up, in `f64`: a value is kept as typed
    /// (each precision rounds it when the world is built, as `run` does).
    ///
    /// # Errors
    ///
    /// The item does not exist, or the value is refused even in `f64`.
    pub(crate) fn apply_to_scene(&self, scene: &mut Scene) -> Result<Option<Renumber>, String> {
        let missing = |item: Item| match item {
            Item::Body(index) => format!("body {index} does not exist"),
            Item::Collider(index) => format!("collider {index} does not exist"),
        };
        match self {
            Self::Set(item, _) => {
                // The world's own setter, in f64, which holds every typed
                // value exactly: the item comes back as a spec.
                let mut world = sim::build(scene, ScalarKind::F64).map_err(|e| e.to_string())?;
                let selected = item.find(&*world)?;
                self.apply(&mut *world)?;
                match selected {
                    Selected::Body(id) => {
                        let body = world.body(id).ok_or_else(|| missing(*item))?;
                        let spec = scene.bodies.get_mut(item.position()).ok_or_else(|| missing(*item))?;
                        // The player is the scene's: the world has none.
                        *spec = BodySpec { player: spec.player, ..body };
                    }
                    Selected::Collider(id) => {
                        let collider = world.collider(id).ok_or_else(|| missing(*item))?;
                        *scene.colliders.get_mut(item.position()).ok_or_else(|| missing(*item))? = collider;
                    }
                }
                Ok(None)
            }
            Self::AddBody(body) => {
                scene.bodies.push(*body);
                Ok(Some(Renumber::Added(Item::Body(index_of(scene.bodies.len() - 1)))))
            }
            Self::AddCollider(collider) => {
                scene.colliders.push(*collider);
                Ok(Some(Renumber::Added(Item::Collider(index_of(scene.colliders.len() - 1)))))
            }
            Self::Remove(item) => {
                let list_len = match item {
                    Item::Body(_) => scene.bodies.len(),
                    Item::Collider(_) => scene.colliders.len(),
                };
                if item.position() >= list_len {
                    return Err(missing(*item));
                }
                match item {
                    Item::Body(_) => drop(scene.bodies.remove(item.position())),
                    Item::Collider(_) => drop(scene.colliders.remove(item.position())),
                }
                Ok(Some(Renumber::Removed(*item)))
            }
            Self::Move(..) => Err("a character moves while the world runs, not in the set-up".to_owned()),
        }
    }

    /// The edit as it reads after the set-up's numbering changed: `None`
    /// when it names the item removed.
    pub(crate) fn renumbered(&self, change: Renumber) -> Option<Self> {
        let map = |item: Item| -> Option<Item> {
            let (Renumber::Added(changed) | Renumber::Removed(changed)) = change;
            if std::mem::discriminant(&item) != std::mem::discriminant(&changed) {
                return Some(item);
            }
            let (index, at) = (item.index(), changed.index());
            let moved = match change {
                Renumber::Removed(_) if index == at => return None,
                Renumber::Removed(_) if index > at => index - 1,
                Renumber::Added(_) if index >= at => index.saturating_add(1),
                _ => index,
            };
            Some(match item {
                Item::Body(_) => Item::Body(moved),
                Item::Collider(_) => Item::Collider(moved),
            })
        };
        Some(match self {
            Self::Set(item, changes) => Self::Set(map(*item)?, changes.clone()),
            Self::Remove(item) => Self::Remove(map(*item)?),
            Self::Move(item, motion) => Self::Move(map(*item)?, *motion),
            other => other.clone(),
        })
    }
}

/// An index in a list of at most a few thousand items, as an id's number.
fn index_of(position: usize) -> u32 {
    u32::try_from(position).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use geom_core::Vec2;

    use super::*;

    #[test]
    fn renumbering_moves_only_the_items_of_the_changed_list_past_the_change() {
        let walk = |item| Edit::Move(item, Vec2::new(0.125, 0.0));
        assert_eq!(walk(Item::Body(5)).renumbered(Renumber::Removed(Item::Body(2))), Some(walk(Item::Body(4))));
        assert_eq!(walk(Item::Body(2)).renumbered(Renumber::Removed(Item::Body(2))), None);
        let set = |item| Edit::Set(item, vec![(Field::X, 1.0)]);
        let removed = Renumber::Removed(Item::Body(2));
        assert_eq!(set(Item::Body(1)).renumbered(removed), Some(set(Item::Body(1))));
        assert_eq!(set(Item::Body(2)).renumbered(removed), None);
        assert_eq!(set(Item::Body(5)).renumbered(removed), Some(set(Item::Body(4))));
        assert_eq!(set(Item::Collider(5)).renumbered(removed), Some(set(Item::Collider(5))));
        let added = Renumber::Added(Item::Collider(3));
        assert_eq!(Edit::Remove(Item::Collider(3)).renumbered(added), Some(Edit::Remove(Item::Collider(4))));
        assert_eq!(Edit::Remove(Item::Collider(2)).renumbered(added), Some(Edit::Remove(Item::Collider(2))));
        assert_eq!(Edit::Remove(Item::Body(7)).renumbered(added), Some(Edit::Remove(Item::Body(7))));
    }

    #[test]
    fn a_set_up_keeps_a_typed_value_as_typed_whatever_the_precision_later_rounds_it_to() {
        let mut scene = Scene::parse(crate::scene::DEFAULT_SCENE).unwrap();
        let edit = Edit::Set(Item::Body(0), vec![(Field::X, 0.1), (Field::Vy, -0.3)]);
        assert_eq!(edit.apply_to_scene(&mut scene), Ok(None));
        assert_eq!((scene.bodies[0].position.x, scene.bodies[0].velocity.y), (0.1, -0.3));
        let added = Edit::AddBody(BodySpec::new(Vec2::new(1.0, 2.0), 0.5)).apply_to_scene(&mut scene);
        assert_eq!(added, Ok(Some(Renumber::Added(Item::Body(index_of(scene.bodies.len() - 1))))));
        let gone = Edit::Remove(Item::Collider(999)).apply_to_scene(&mut scene);
        assert_eq!(gone, Err("collider 999 does not exist".to_owned()));
    }

    /// A later edit replayed into a full scene is refused, so the timeline
    /// skips it: replaying never passes the most a scene may have.
    #[test]
    fn an_addition_past_the_most_a_scene_may_have_is_refused_when_applied() {
        let mut scene = Scene::new(crate::scene::Settings::new(Vec2::new(0.0, 0.0)));
        scene.bodies = (0..MAX_BODIES).map(|i| BodySpec::new(Vec2::new(f64::from(index_of(i)), 0.0), 0.25)).collect();
        let mut sim = sim::build(&scene, ScalarKind::F64).unwrap();
        let refused = Edit::AddBody(BodySpec::new(Vec2::new(0.0, 9.0), 0.25)).apply(&mut *sim);
        assert_eq!(refused, Err(format!("a scene may have at most {MAX_BODIES} bodies")));
        assert_eq!(sim.body_count(), MAX_BODIES);
        let collider = crate::scene::Shape::Circle { center: Vec2::new(0.0, 9.0), radius: 1.0 }.into();
        assert!(Edit::AddCollider(collider).apply(&mut *sim).is_ok(), "colliders have their own limit");
    }
}
