//! Prompts and files: completing and submitting what was typed, saving the
//! set-up or a tick's state, and opening another scene.

use std::path::{Path, PathBuf};

use super::{App, DEFAULT_SAVE_PATH, Message, count};
use crate::editor::{self, Prompt, PromptKind, Question, Save};
use crate::inputs::Inputs;
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
        prompt.set_text(text.chars().take(editor::PROMPT_CHARS).collect());
        self.view.message = match names.len() {
            0 => Some(Message { text: "no file name fits".to_owned(), error: true }),
            1 => None,
            _ => Some(Message { text: names.join("  "), error: false }),
        };
    }

    pub(super) fn submit(&mut self) {
        let Some(Prompt { kind, text, .. }) = self.editor.prompt.take() else { return };
        self.view.message = None;
        let path = || editor::expand(&text, editor::home().as_deref());
        match kind {
            PromptKind::Edit(selected) => self.edit_typed(selected, &text),
            PromptKind::World => self.edit_world(&text),
            PromptKind::Open | PromptKind::SaveState | PromptKind::SaveInputs if text.trim().is_empty() => {
                self.refuse("no file name given");
            }
            PromptKind::SaveInputs => self.save_to(Save::Inputs, path()),
            PromptKind::Open => match self.unsaved() {
                None => self.open_now(path()),
                // A file that cannot be read is refused before any question.
                Some(what) => {
                    if let Err(e) = Scene::load(&path()) {
                        self.refuse(format!("kept the current scene: {e}"));
                    } else {
                        self.editor.question = Some(Question::Open(path()));
                        self.refuse(format!("open? {what}: y opens without saving, any other key stays"));
                    }
                }
            },
            PromptKind::SaveState => self.save_to(Save::State, path()),
        }
    }

    /// Saves `what` to `path`, or first asks when a file is there that
    /// this session neither opened nor wrote (saying what it holds).
    pub(super) fn save_to(&mut self, what: Save, path: PathBuf) {
        let foreign = std::fs::symlink_metadata(&path).is_ok() && !self.editor.known.contains(&editor::known(&path));
        if foreign {
            let there = what_is_there(&path);
            self.refuse(format!(
                "{} is there already ({there}): y writes over it, any other key keeps it",
                path.display()
            ));
            self.editor.question = Some(Question::Overwrite(what, path));
        } else {
            self.write(what, &path);
        }
    }

    /// Saves `what` to `path`, whatever is there.
    pub(super) fn write(&mut self, what: Save, path: &Path) {
        let written = match what {
            Save::SetUp => self.write_setup(path),
            Save::State => self.write_state(path),
            Save::Inputs => self.write_inputs(path),
        };
        match written {
            Ok(done) => {
                self.remember(path);
                self.info(done);
            }
            Err(e) => self.refuse(format!("not saved: {e}")),
        }
    }

    /// Notes `path` as a file this session opened or wrote.
    fn remember(&mut self, path: &Path) {
        let known = editor::known(path);
        if !self.editor.known.contains(&known) {
            self.editor.known.push(known);
        }
    }

    fn write_state(&self, path: &Path) -> std::io::Result<String> {
        let scene = self.timeline.state();
        scene.save(path)?;
        Ok(format!(
            "saved tick {} ({}, {}) to {}; opened, it starts afresh at tick 0, without the contacts' \
             impulses and sleep, so its checksums are its own",
            self.tick(),
            count(scene.bodies.len(), "body"),
            count(scene.colliders.len(), "collider"),
            path.display()
        ))
    }

    /// A file name for the current tick's state beside the scene's file.
    pub(super) fn state_file_name(&self) -> PathBuf {
        let path = self.editor.path.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_SAVE_PATH));
        let stem = path.file_stem().map_or_else(|| "geom-scene".into(), |s| s.to_string_lossy().into_owned());
        path.with_file_name(format!("{stem}-tick{}.toml", self.tick()))
    }

    /// Saves the set-up where the scene came from (`w`).
    pub(super) fn save(&mut self) {
        let path = self.editor.path.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_SAVE_PATH));
        self.save_to(Save::SetUp, path);
    }

    /// Writes the set-up (tick 0 as edited), atomically, keeping what the
    /// file had that did not change; the scene's file is then `path`.
    fn write_setup(&mut self, path: &Path) -> std::io::Result<String> {
        let setup = self.timeline.setup();
        let (bodies, colliders) = (setup.bodies.len(), setup.colliders.len());
        setup.save(path)?;
        self.timeline.mark_saved();
        let later = match self.timeline.later_edits() {
            0 => String::new(),
            1 => "; the edit after tick 0 is not in it (W saves a tick's state)".to_owned(),
            n => format!("; the {n} edits after tick 0 are not in it (W saves a tick's state)"),
        };
        self.editor.path = Some(path.to_owned());
        Ok(format!(
            "saved the set-up ({}, {}) to {}{later}",
            count(bodies, "body"),
            count(colliders, "collider"),
            path.display()
        ))
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
                self.remember(&path);
                self.editor.path = Some(path);
            }
            Err(e) => self.refuse(format!("kept the current scene: {e}")),
        }
    }
}

/// What the file at `path` holds, in words: a scene, inputs, or so many
/// bytes of something else.
fn what_is_there(path: &Path) -> String {
    if let Ok(scene) = Scene::load(path) {
        return format!(
            "a scene of {} and {}",
            count(scene.bodies.len(), "body"),
            count(scene.colliders.len(), "collider")
        );
    }
    if let Ok(inputs) = Inputs::load(path) {
        return format!("inputs: {}", count(inputs.items().len(), "entry"));
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => "a directory".to_owned(),
        Ok(meta) => count(usize::try_from(meta.len()).unwrap_or(usize::MAX), "byte"),
        Err(_) => "something unreadable".to_owned(),
    }
}
