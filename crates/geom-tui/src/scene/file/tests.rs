use std::io::Write as _;

use geom_core::Vec2;

use super::*;
use crate::num::ScalarKind;
use crate::scene::testing::{CAPSULES, built_in_code, error};
use crate::scene::{DEFAULT_SCENE, Shape};
use crate::scratch::Scratch;

#[test]
fn capsule_bodies_are_saved_and_loaded_back_equal() {
    let scratch = Scratch::new("scene-capsules");
    let path = scratch.file("capsules.toml", CAPSULES.as_bytes());
    let scene = Scene::load(&path).unwrap();
    scene.save(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), CAPSULES, "saved unchanged, the file is as it was written");
    // Built in code, written in the order a reader expects: the shape, then where.
    built_in_code(&scene).save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(Scene::load(&path).unwrap(), scene);
    let standing = "[[body]]\nshape = \"capsule\"\nposition = [1.0, 2.0]\nstart = [0.0, -0.5]\nend = [0.0, 1.5]\nradius = 0.5\nvelocity = [0.0, 0.0]\n";
    assert!(text.contains(standing), "{text}");
    // In every precision, through the world and back.
    for kind in ScalarKind::ALL {
        let world = crate::sim::build(&scene, kind).unwrap();
        assert_eq!(world.to_scene().bodies, scene.bodies, "{kind}");
    }
}

#[test]
fn saving_replaces_the_file_whole_and_leaves_no_temporary_file() {
    let dir = std::env::temp_dir().join(format!("geom-tui-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("scene.toml");
    std::fs::write(&path, "old contents").unwrap();
    let scene = Scene::parse(DEFAULT_SCENE).unwrap();
    scene.save(&path).unwrap();
    assert_eq!(Scene::load(&path).unwrap(), scene);
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["scene.toml"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saving_into_a_missing_directory_fails_and_names_the_path() {
    let path = std::env::temp_dir().join("geom-tui-no-such-dir").join("scene.toml");
    let e = Scene::parse(DEFAULT_SCENE).unwrap().save(&path).unwrap_err();
    assert!(e.to_string().contains("geom-tui-no-such-dir"), "{e}");
    assert!(e.to_string().ends_with("geom-tui-no-such-dir"), "{e}");
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn a_file_over_the_size_limit_is_refused_from_its_length_without_reading_it() {
    let scratch = Scratch::new("scene-large");
    let path = scratch.0.join("huge.toml");
    // Sparse: 16 MiB and one byte long, and no disk used.
    std::fs::File::create(&path).unwrap().set_len(MAX_FILE_BYTES + 1).unwrap();
    let e = Scene::load(&path).unwrap_err();
    assert_eq!((e.kind, e.line), (SceneErrorKind::TooLarge { size: Some(MAX_FILE_BYTES + 1) }, None));
    assert_eq!(
        e.to_string(),
        format!("{}: too large: 16777217 bytes, more than the 16777216 (16 MiB) a scene file may have", path.display())
    );
    // Exactly at the limit, it is read (and refused for what it holds).
    std::fs::File::create(&path).unwrap().set_len(MAX_FILE_BYTES).unwrap();
    assert_eq!(Scene::load(&path).unwrap_err().kind, SceneErrorKind::NotText { byte: 0 });
}

#[cfg(unix)]
#[test]
fn a_file_that_never_ends_is_refused_one_byte_past_the_limit() {
    let e = Scene::load(Path::new("/dev/zero")).unwrap_err();
    assert_eq!(e.kind, SceneErrorKind::TooLarge { size: None });
    assert_eq!(e.to_string(), "/dev/zero: too large: more than the 16777216 bytes (16 MiB) a scene file may have");
}

#[test]
fn a_directory_is_refused_as_one() {
    let scratch = Scratch::new("scene-dir");
    let e = Scene::load(&scratch.0).unwrap_err();
    assert_eq!(e.kind, SceneErrorKind::Io(std::io::ErrorKind::IsADirectory));
    assert_eq!(e.to_string(), format!("{}: a directory, not a scene file", scratch.0.display()));
}

#[test]
fn binary_garbage_is_refused_as_not_text_naming_the_first_byte_that_is_not() {
    let scratch = Scratch::new("scene-binary");
    let cases: [(&[u8], usize, usize, &str); 5] = [
        (b"gravity = [0.0, -0.1]\n\xff\xfe\x00garbage", 22, 2, "not UTF-8 text: byte 22 is 0xff"),
        (
            b"gravity = [0.0, -0.1]\n\n# caf\xc3",
            28,
            3,
            "not UTF-8 text: the file ends inside a character at byte 28 (cut short?)",
        ),
        (b"\x7fELF\x02\x01\x01\x00\x00", 7, 1, "not a text file: byte 7 is NUL"),
        (b"gravity = [0.0, -0.1]\x00\xff", 21, 1, "not a text file: byte 21 is NUL"),
        (b"# \xe2\x82\n", 2, 1, "not UTF-8 text: byte 2 is 0xe2"),
    ];
    for (bytes, byte, line, message) in cases {
        let path = scratch.file("garbage.bin", bytes);
        let e = Scene::load(&path).unwrap_err();
        assert_eq!((e.kind, e.line, e.message.as_str()), (SceneErrorKind::NotText { byte }, Some(line), message));
        assert_eq!(e.to_string(), format!("{}:{line}: {message}", path.display()));
    }
    // A NUL in text given directly is refused the same way.
    let e = error("gravity = [0.0, -0.1]\n[[body]]\nposition = [0.0, 1.0]\nradius = 1\0\n");
    assert_eq!((e.kind, e.line), (SceneErrorKind::NotText { byte: 63 }, Some(4)), "{e}");
}

#[test]
fn a_scene_whose_text_would_be_too_large_to_load_again_is_not_saved() {
    // A file just under the limit, most of it one comment, whose body's
    // position grows from `0` to every digit of f64's smallest numbers.
    let comment = "#".repeat(usize::try_from(MAX_FILE_BYTES).unwrap() - 200);
    let text = format!("gravity = [0.0, -0.1]\n{comment}\n[[body]]\nposition = [0, 0]\nradius = 1\n");
    let mut scene = Scene::parse(&text).unwrap();
    let tiny = Vec2::new(-2.225_073_858_507_201_4e-308, -5e-324);
    for body in &mut scene.bodies {
        (body.position, body.velocity, body.radius) = (tiny, tiny, 5e-324);
    }
    scene.colliders = vec![Shape::Capsule { start: tiny, end: tiny, radius: 5e-324 }.into(); 4];
    let scratch = Scratch::new("scene-too-large");
    let path = scratch.file("kept.toml", b"old contents");
    let e = scene.save(&path).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::FileTooLarge);
    assert!(e.to_string().contains(": not written: its text would be "), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), b"old contents");
    assert_eq!(scratch.names(), ["kept.toml"], "no temporary file is left behind");
}

#[test]
fn saving_over_a_read_only_file_is_refused_and_leaves_it_as_it_was() {
    let scratch = Scratch::new("scene-read-only");
    let path = scratch.read_only_file("kept.toml", b"old contents");
    let e = Scene::parse(DEFAULT_SCENE).unwrap().save(&path).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
    assert_eq!(e.to_string(), format!("{}: the file is read-only; left as it is", path.display()));
    assert_eq!(std::fs::read(&path).unwrap(), b"old contents");
    assert_eq!(scratch.names(), ["kept.toml"], "no temporary file is left behind");
}

#[cfg(unix)]
#[test]
fn a_named_pipe_with_no_writer_is_refused_at_once() {
    let scratch = Scratch::new("scene-fifo");
    let pipe = scratch.fifo("scene.fifo");
    let e = Scene::load(&pipe).unwrap_err();
    assert_eq!(e.kind, SceneErrorKind::Io(std::io::ErrorKind::UnexpectedEof));
    assert_eq!(e.to_string(), format!("{}: a pipe with nothing written to it", pipe.display()));
}

#[cfg(target_os = "linux")]
#[test]
fn a_pipe_with_a_writer_is_read_to_its_end_as_a_shell_passes_one() {
    // `geom-tui <(make-scene)` hands over a path to a pipe whose writer
    // is already there, as here: /proc/self/fd/N names our read end.
    let (reader, mut writer) = std::io::pipe().unwrap();
    let path = PathBuf::from(format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&reader)));
    // Longer than a pipe's buffer, so the reader must wait for the rest.
    let text = format!("{DEFAULT_SCENE}{}", "# padding\n".repeat(20_000));
    let writing = std::thread::spawn(move || writer.write_all(text.as_bytes()));
    let scene = Scene::load(&path).unwrap();
    writing.join().unwrap().unwrap();
    drop(reader);
    assert_eq!(scene.bodies, Scene::parse(DEFAULT_SCENE).unwrap().bodies);
}

#[cfg(unix)]
#[test]
fn saving_through_a_link_writes_the_file_it_names_and_keeps_the_link_and_the_mode() {
    use std::os::unix::fs::{PermissionsExt as _, symlink};
    let scratch = Scratch::new("scene-link");
    std::fs::create_dir(scratch.0.join("real")).unwrap();
    let target = scratch.file("real/scene.toml", b"old contents");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    // A relative link, through a second, absolute one.
    symlink("real/scene.toml", scratch.0.join("near")).unwrap();
    let link = scratch.0.join("far");
    symlink(scratch.0.join("near"), &link).unwrap();
    let scene = Scene::parse(DEFAULT_SCENE).unwrap();
    scene.save(&link).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(Scene::load(&target).unwrap(), scene);
    assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o640);
    let names: Vec<_> = std::fs::read_dir(scratch.0.join("real")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["scene.toml"], "no temporary file is left behind");
    // A link to nothing yet: the file is made where it points.
    symlink("real/new.toml", scratch.0.join("dangling")).unwrap();
    scene.save(&scratch.0.join("dangling")).unwrap();
    assert_eq!(Scene::load(&scratch.0.join("real/new.toml")).unwrap(), scene);
}

/// A saved scene is an ordinary file: it is written through a temporary
/// file, which is made readable by its owner only unless asked otherwise.
#[cfg(unix)]
#[test]
fn a_scene_saved_to_a_new_file_gets_the_mode_any_new_file_gets() {
    use std::os::unix::fs::PermissionsExt as _;
    let scratch = Scratch::new("scene-new-mode");
    // `std::fs::write` makes a file as every program does: 0o666 less the umask.
    let ordinary = scratch.file("ordinary.toml", b"");
    let saved = scratch.0.join("saved.toml");
    Scene::parse(DEFAULT_SCENE).unwrap().save(&saved).unwrap();
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&saved), mode(&ordinary));
    assert_eq!(scratch.names(), ["ordinary.toml", "saved.toml"], "no temporary file is left behind");
}

#[cfg(unix)]
#[test]
fn saving_through_a_loop_of_links_is_refused_and_names_the_path() {
    let scratch = Scratch::new("scene-link-loop");
    let (a, b) = (scratch.0.join("a"), scratch.0.join("b"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let e = Scene::parse(DEFAULT_SCENE).unwrap().save(&a).unwrap_err();
    assert_eq!(e.to_string(), format!("{}: more than 40 symbolic links in a row", a.display()));
    assert_eq!(scratch.names(), ["a", "b"]);
}

#[test]
fn saving_to_a_directory_or_a_special_file_is_refused() {
    let scratch = Scratch::new("scene-save-dir");
    std::fs::create_dir(scratch.0.join("sub")).unwrap();
    let scene = Scene::parse(DEFAULT_SCENE).unwrap();
    let e = scene.save(&scratch.0.join("sub")).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::IsADirectory);
    assert_eq!(e.to_string(), format!("{}: a directory, not a file", scratch.0.join("sub").display()));
    assert_eq!(scratch.names(), ["sub"], "no temporary file is left behind");
    let e = scene.save(Path::new("/")).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
    #[cfg(unix)]
    {
        let e = scene.save(Path::new("/dev/null")).unwrap_err();
        assert_eq!(e.to_string(), "/dev/null: not a regular file; left as it is");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn saving_where_nothing_can_be_written_fails_with_the_path() {
    // /proc takes no new files, even from root.
    let e = Scene::parse(DEFAULT_SCENE).unwrap().save(Path::new("/proc/geom-scene.toml")).unwrap_err();
    assert!(e.to_string().starts_with("/proc/geom-scene.toml: "), "{e}");
    assert!(!Path::new("/proc/geom-scene.toml").exists());
}
