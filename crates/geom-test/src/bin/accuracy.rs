//! Prints how far each scalar type can be trusted, measured against the
//! exact oracle: `cargo xtask accuracy [CASES]`.

use fixed::types::{I16F16, I32F32, I48F16};
use geom_test::Testable;
use geom_test::accuracy::{SweepAccuracy, sweeps};

fn main() {
    let cases = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    println!("Swept circles against the exact oracle, {cases} seeded scenes per query and type");
    println!(
        "(t in fractions of the tick; overlap in rounding steps at the scene's scale; gap in resolutions: a rounding\n\
         step plus the distance covered in one step of t)\n"
    );
    println!(
        "| type | query | outcome disagreements (beyond near-ties) | hits | max early t | max late t | max t error, direct hits | max overlap | max gap |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    row::<f32>(cases);
    row::<f64>(cases);
    row::<I16F16>(cases);
    row::<I32F32>(cases);
    row::<I48F16>(cases);
}

fn row<S: Testable>(cases: usize) {
    let names = ["sweep_circle_segment", "sweep_circle_capsule", "sweep_circle_circle"];
    for (name, a) in names.iter().zip(sweeps::<S>(cases)) {
        let SweepAccuracy {
            outcome_disagreements,
            clear_disagreements,
            hits,
            max_early,
            max_late,
            max_direct_error,
            max_overlap_steps,
            max_gap_resolutions,
            ..
        } = a;
        println!(
            "| {} | {name} | {outcome_disagreements} ({clear_disagreements}) | {hits} | {max_early:.1e} | {max_late:.1e} | {max_direct_error:.1e} | {max_overlap_steps:.1} | {max_gap_resolutions:.1} |",
            S::NAME
        );
    }
}
