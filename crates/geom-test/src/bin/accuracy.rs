//! Prints how far each scalar type can be trusted, measured against the
//! exact oracle: `cargo xtask accuracy [CASES]`.

use fixed::types::{I16F16, I32F32, I48F16};
use geom_test::accuracy::{QueryAccuracy, SWEEPS, SweepAccuracy, all};
use geom_test::golden::stream::Query;

const TYPES: [&str; 5] = ["f32", "f64", "I16F16", "I32F32", "I48F16"];

/// Every query's summary and the sweeps' details, for one type.
type Results = (Vec<(Query, QueryAccuracy)>, [SweepAccuracy; SWEEPS]);

fn main() {
    let cases = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let results: [Results; 5] = std::thread::scope(|scope| {
        let jobs: [fn(usize) -> Results; 5] = [all::<f32>, all::<f64>, all::<I16F16>, all::<I32F32>, all::<I48F16>];
        let handles: Vec<_> = jobs.map(|job| scope.spawn(move || job(cases))).into_iter().collect();
        let mut out = handles.into_iter().map(|h| h.join().expect("a measurement panicked"));
        std::array::from_fn(|_| out.next().expect("five results"))
    });
    println!("Accuracy against the exact oracle: {cases} seeded scenes per query and type, most of them within");
    println!("a few rounding steps of touching (geom-test's strategies).");

    println!("\nYes/no answers that differ from the oracle: share of scenes (and how many are not near-ties,");
    println!("i.e. more than 16 rounding steps from the boundary between the answers)\n");
    table(&results, |a| Some(disagreements(a)), has_yes_no);

    println!("\nLargest error in a closest point, a distance or a depth, in rounding steps at the scene's scale");
    println!("(for capsule pairs, where the cores are apart: crossing cores are pushed out along a separating axis)\n");
    table(&results, |a| a.max_length_error.map(|e| format!("{e:.2}")), has_length);

    let contacts = |q: Query| q.name().starts_with("contact_");
    println!("\nLargest error in a contact point, in rounding steps at the scene's scale (b's closest core point");
    println!("and b's radius along the exact normal, each rounded once; not for parallel capsule cores, whose");
    println!("closest pairs are many)\n");
    table(&results, |a| a.max_point_error.map(|e| format!("{e:.1}")), contacts);

    println!("\nLargest error in a contact normal (length of the difference of unit vectors), where the cores are");
    println!("more than 16 rounding steps apart; and normals pointing the wrong way at any distance above zero\n");
    table(&results, |a| Some(format!("{:.1e}; {}", a.max_normal_error?, a.wrong_way_normals.unwrap_or(0))), contacts);

    println!("\nSweeps in detail (t in fractions of the tick; overlap in rounding steps at the scene's scale;");
    println!("gap in resolutions: a rounding step plus the distance covered in one step of t)\n");
    println!(
        "| type | query | outcome ≠ oracle (beyond near-ties) | hits | max early t | max late t | max t error, direct hits | max overlap | max gap |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, (_, sweeps)) in TYPES.iter().zip(&results) {
        for (query, a) in Query::ALL[12..].iter().zip(sweeps) {
            let SweepAccuracy {
                cases,
                outcome_disagreements,
                clear_disagreements,
                hits,
                max_early,
                max_late,
                max_direct_error,
                max_overlap_steps,
                max_gap_resolutions,
            } = a;
            println!(
                "| {name} | {} | {} ({clear_disagreements}) | {hits} | {max_early:.1e} | {max_late:.1e} | {max_direct_error:.1e} | {max_overlap_steps:.1} | {max_gap_resolutions:.1} |",
                query.name(),
                percent(*outcome_disagreements, *cases),
            );
        }
    }
}

/// Whether a query gives a yes/no answer: intersection tests, contacts
/// (some or none), the closest point's feature, sweeps' outcomes.
fn has_yes_no(q: Query) -> bool {
    !matches!(q, Query::ClosestPointsSegmentSegment | Query::DistanceSquaredPointSegment | Query::DistancePointSegment)
}

/// Whether a query returns a length the table measures.
fn has_length(q: Query) -> bool {
    !q.name().starts_with("intersects_") && !q.name().starts_with("sweep_")
}

fn percent(count: usize, cases: usize) -> String {
    if count == 0 {
        return "0".to_owned();
    }
    // Counts far below 2^52.
    #[allow(clippy::cast_precision_loss)]
    let share = 100.0 * count as f64 / cases as f64;
    if share >= 1.0 { format!("{share:.1}%") } else { format!("{share:.2}%") }
}

fn disagreements(a: &QueryAccuracy) -> String {
    if a.disagreements == 0 {
        "0".to_owned()
    } else {
        format!("{} ({})", percent(a.disagreements, a.cases), a.clear_disagreements)
    }
}

/// A table with one row per query that `rows` keeps and one column per
/// type.
fn table(results: &[Results; 5], cell: impl Fn(&QueryAccuracy) -> Option<String>, rows: impl Fn(Query) -> bool) {
    println!("| query | {} |", TYPES.join(" | "));
    println!("|---|{}", "---:|".repeat(TYPES.len()));
    for (i, query) in Query::ALL.iter().enumerate() {
        if !rows(*query) {
            continue;
        }
        let cells: Vec<String> =
            results.iter().map(|(summary, _)| cell(&summary[i].1).unwrap_or_else(|| "–".to_owned())).collect();
        println!("| {} | {} |", query.name(), cells.join(" | "));
    }
}
