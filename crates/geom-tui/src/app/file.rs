//! Prompts and files: completing and submitting what was typed, saving the
//! set-up or a tick's state, and opening another scene.

use std::path::PathBuf;

use super::{App, DEFAULT_SAVE_PATH, Message, count};
use crate::editor::{self, Prompt, PromptKind, Question};
use crate::scene::Scene;
use crate::timeline::Timeline;

impl App {
    // --- Prompts and files ------------------------------------------------

    pub(super) fn complete(&mut self) {
        let Some(prompt) = &mut self.editor.prompt else { return };
        if !matches!(prompt.kind, PromptKind::Open | PromptKind::SaveState | PromptKind::SaveInputs) {
            return;
        }
        let (text, names) = editor::complete(&prompt.text, editor::home().as_deref());
        prompt.text = text.chars().take(editor::PROMPT_CHARS).collect();
        self.view.message = match names.len() {
            0 => Some(Message { text: "no file name fits".to_owned(), error: true }),
            1 => None,
            _ => Some(Message { text: names.join("  "), error: false }),
        };
    }

    pub(super) fn submit(&mut self) {
        let Some(Prompt { kind, text }) = self.editor.prompt.take() else { return };
        self.view.message = None;
        let path = || editor::expand(&text, editor::home().as_deref());
        match kind {
            PromptKind::Edit(selected) => self.edit_typed(selected, &text),
            PromptKind::World => self.edit_world(&text),
            PromptKind::Open | PromptKind::SaveState | PromptKind::SaveInputs if text.trim().is_empty() => {
                self.refuse("no file name given");
            }
            PromptKind::SaveInputs => self.save_inputs(&path()),
            PromptKind::Open => match self.unsaved() {
                None => self.open_now(path()),
                Some(what) => {
                    self.editor.question = Some(Question::Open(path()));
                    self.refuse(format!("open? {what}: y opens without saving, any other key stays"));
                }
            },
            PromptKind::SaveState => {
                let scene = self.timeline.state();
                let path = path();
                match scene.save(&path) {
                    Ok(()) => self.info(format!(
                        "saved tick {} ({}, {}) to {}",
                        self.tick(),
                        count(scene.bodies.len(), "body"),
                        count(scene.colliders.len(), "collider"),
                        path.display()
                    )),
                    Err(e) => self.refuse(format!("not saved: {e}")),
                }
            }
        }
    }

    /// A file name for the current tick's state beside the scene's file.
    pub(super) fn state_file_name(&self) -> PathBuf {
        let path = self.editor.path.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_SAVE_PATH));
        let stem = path.file_stem().map_or_else(|| "geom-scene".into(), |s| s.to_string_lossy().into_owned());
        path.with_file_name(format!("{stem}-tick{}.toml", self.tick()))
    }

    /// Writes the set-up (tick 0 as edited), atomically, keeping what the
    /// file had that did not change.
    pub(super) fn save(&mut self) {
        let path = self.editor.path.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_SAVE_PATH));
        let setup = self.timeline.setup();
        let (bodies, colliders) = (setup.bodies.len(), setup.colliders.len());
        match setup.save(&path) {
            Ok(()) => {
                self.timeline.mark_saved();
                let later = match self.timeline.later_edits() {
                    0 => String::new(),
                    n => format!("; the {} after tick 0 are not in it (W saves a tick's state)", count(n, "edit")),
                };
                self.info(format!(
                    "saved the set-up ({}, {}) to {}{later}",
                    count(bodies, "body"),
                    count(colliders, "collider"),
                    path.display()
                ));
                self.editor.path = Some(path);
            }
            Err(e) => self.refuse(format!("not saved: {e}")),
        }
    }

    /// Opens a scene file, in the precision it asks for or else the current
    /// one; keeps everything as it is when the file cannot be read, parsed
    /// or built.
    pub(super) fn open_now(&mut self, path: PathBuf) {
        let opened = Scene::load(&path).and_then(|scene| {
            let kind = scene.scalar.unwrap_or(self.kind());
            Timeline::new(scene, kind)
        });
        match opened {
            Ok(timeline) => {
                self.timeline = timeline;
                self.play = None;
                self.select(None);
                self.fit();
                self.info(format!("opened {} in {}", path.display(), self.kind()));
                self.editor.path = Some(path);
            }
            Err(e) => self.refuse(format!("kept the current scene: {e}")),
        }
    }
}
