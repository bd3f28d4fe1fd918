//! The front door stays short and every page it leads to exists: the
//! README fits on about four screens, links every page in `docs/`, and no
//! relative link in the README, the changelog or the pages points to a
//! file or a heading that is not there, and the number of query digests
//! they quote is the number pinned.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The README, the changelog and every page in `docs/`, with their text.
fn pages() -> Vec<(PathBuf, String)> {
    let mut paths = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths.into_iter().map(|path| (path.clone(), fs::read_to_string(&path).expect("a page"))).collect()
}

/// The targets of the Markdown links `[text](target)` outside code blocks.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    found
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces
/// turned into hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

#[test]
fn the_readme_fits_in_about_two_hundred_lines() {
    let readme = fs::read_to_string(root().join("README.md")).expect("the README");
    let lines = readme.lines().count();
    assert!(lines <= 200, "the README has {lines} lines: move detail to a page in docs/");
}

#[test]
fn the_readme_links_every_docs_page() {
    let readme = fs::read_to_string(root().join("README.md")).expect("the README");
    let targets = links(&readme);
    for (path, _) in pages() {
        if path.parent().is_some_and(|dir| dir.ends_with("docs")) {
            let name = format!("docs/{}", path.file_name().unwrap().to_string_lossy());
            assert!(targets.iter().any(|t| t.split('#').next() == Some(&name)), "the README does not link {name}");
        }
    }
}

#[test]
fn every_relative_link_reaches_an_existing_file_and_heading() {
    let mut broken = Vec::new();
    for (path, text) in pages() {
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = target.split_once('#').map_or((target.as_str(), None), |(f, a)| (f, Some(a)));
            let linked = if file.is_empty() { path.clone() } else { path.parent().unwrap().join(file) };
            if !linked.exists() {
                broken.push(format!("{}: {target} (no such file)", path.display()));
                continue;
            }
            if let Some(fragment) = fragment {
                let text = fs::read_to_string(&linked).expect("a linked page");
                if !anchors(&text).iter().any(|a| a == fragment) {
                    broken.push(format!("{}: {target} (no such heading)", path.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_githubs_rule() {
    assert_eq!(anchor(" The determinism contract"), "the-determinism-contract");
    assert_eq!(anchor(" Golden digests"), "golden-digests");
    assert_eq!(anchor(" geom-core's layers"), "geom-cores-layers");
}

/// Every "N query digests" the README and the pages quote is the number of
/// query digests pinned in `golden/digests.txt`: the count moves whenever a
/// query is added, and a figure on the front page must move with it.
#[test]
fn the_pages_quote_the_pinned_number_of_query_digests() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(geom_test::golden::FILE);
    let pinned = geom_test::golden::parse(&fs::read_to_string(file).expect("the digests")).expect("pinned digests");
    let pinned = pinned.keys().filter(|name| name.starts_with("query.")).count();
    let mut quoted = Vec::new();
    for (path, text) in pages() {
        let words: Vec<&str> = text.split_whitespace().collect();
        for w in words.windows(3) {
            if let [n, "query", digests] = w
                && digests.starts_with("digests")
                && let Ok(n) = n.parse::<usize>()
            {
                quoted.push((path.clone(), n));
            }
        }
    }
    assert!(!quoted.is_empty(), "no page quotes the number of query digests");
    for (path, n) in quoted {
        assert_eq!(n, pinned, "{} quotes {n} query digests; {pinned} are pinned", path.display());
    }
}

/// `cargo xtask golden --bless` writes the very token the golden tests
/// bless for (the xtask cannot depend on geom-test to share the constant).
#[test]
fn the_xtask_writes_the_bless_token_the_golden_tests_look_for() {
    let xtask = std::fs::read_to_string(root().join("xtask/src/golden.rs")).expect("the xtask's source");
    let token = geom_test::golden::BLESS_TOKEN.replace('\n', "\\n");
    assert!(xtask.contains(&format!("\"{token}\"")), "xtask/src/golden.rs does not write {token:?}");
}
