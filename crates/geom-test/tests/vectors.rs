//! The test vectors for ports, read back: every vector in
//! `golden/vectors.json` must match what geom answers, bit for bit, and the
//! file must be exactly what `cargo xtask vectors` writes today.

use std::path::PathBuf;

use geom_test::golden::{self, vectors};

fn text() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(vectors::FILE);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}; run `cargo xtask vectors`", path.display()))
}

#[test]
fn every_vector_matches_geoms_answer_bit_for_bit() {
    let mut mismatches = vectors::check(&text()).unwrap_or_else(|e| panic!("{}: {e}", vectors::FILE));
    // On x87 float answers are not bit-identical (see `golden::X87`):
    // reported, not checked.
    mismatches.retain(|m| {
        let checked = golden::type_checked_here(&m.type_name);
        if !checked {
            eprintln!("not checked on x87: {} in {}, case {} differs", m.query, m.type_name, m.case);
        }
        checked
    });
    let listed: Vec<String> = mismatches.iter().take(5).map(ToString::to_string).collect();
    assert!(
        mismatches.is_empty(),
        "{} vectors differ, the first:\n{}\nIf the change is deliberate, run `cargo xtask golden --bless`.",
        mismatches.len(),
        listed.join("\n")
    );
}

/// The file's lines but the vectors of types not checked on this target
/// (on x87 the float streams' inputs, placed with `f64` arithmetic, differ).
fn checked_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| {
            line.rsplit_once("\"type\":\"")
                .is_none_or(|(_, rest)| golden::type_checked_here(rest.trim_end_matches(['"', '}', ','])))
        })
        .collect()
}

#[test]
fn the_file_is_what_the_generator_writes_today() {
    if golden::X87 {
        eprintln!("not checked on x87: the float vectors' inputs (the generator places them with f64 arithmetic)");
    }
    assert!(
        checked_lines(&text()) == checked_lines(&vectors::render()),
        "{} is stale: run `cargo xtask vectors`",
        vectors::FILE
    );
}

#[test]
fn a_changed_output_bit_is_reported_with_its_case() {
    let text = text();
    // Flip the last hex digit of the first vector's first output value.
    let start = text.find("\"output\":{").expect("an output") + "\"output\":{".len();
    let digit = start + text[start..].find("\"0x").expect("a hex output") + 3;
    let end = digit + text[digit..].find('"').expect("the end of the value") - 1;
    let flipped = if &text[end..=end] == "0" { "1" } else { "0" };
    let changed = format!("{}{flipped}{}", &text[..end], &text[end + 1..]);
    // Beside those that already differ on this target (on x87, some f32
    // and f64 answers do; elsewhere none).
    let before = vectors::check(&text).expect("a vectors file").len();
    let mut mismatches = vectors::check(&changed).expect("still a vectors file");
    assert_eq!(mismatches.len(), before + 1);
    mismatches.retain(|m| m.case == 0 && m.query == "closest_point_point_segment" && m.type_name == "f32");
    assert_eq!(mismatches.len(), 1);
    assert_eq!(
        (mismatches[0].query.as_str(), mismatches[0].type_name.as_str(), mismatches[0].case),
        ("closest_point_point_segment", "f32", 0)
    );
}

#[test]
fn a_file_of_another_format_is_refused() {
    assert!(vectors::check("{\"format\":\"something else\",\"vectors\":[]}").is_err());
    assert!(vectors::check("not json").is_err());
}
