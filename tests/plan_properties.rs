//! Properties of plans over random layouts: exact tiling, pieces inside their source, verification,
//! intersection ≤ whole shard, determinism, and every injected fault caught.

use proptest::prelude::*;
use reshard_lens::core::model::{Reshard, SplitRule};
use reshard_lens::core::plan::{Plan, Strategy as PlanStrategy, count_pieces, plan};
use reshard_lens::core::region::device_regions;
use reshard_lens::core::spec::parse_spec;
use reshard_lens::core::traffic::analyse;
use reshard_lens::core::verify::{Fault, VerifyError, VerifyOptions, verify};

/// A random but valid spec: rank 1–4 shape, meshes of rank 1–3 with sizes 1–6, any placements (Partial
/// only on the source), disjoint or colocated devices, either split rule.
fn spec_strategy() -> impl Strategy<Value = String> {
    (1usize..=4, 1usize..=3, 1usize..=3, any::<bool>(), any::<bool>(), any::<bool>()).prop_flat_map(
        |(rank, src_rank, dst_rank, balanced, colocate, strided)| {
            let shape = prop::collection::vec(1u64..=9, rank);
            let src_mesh = prop::collection::vec(1u64..=6, src_rank);
            let dst_mesh = prop::collection::vec(1u64..=6, dst_rank);
            let src_p = prop::collection::vec(placement(rank, true), src_rank);
            let dst_p = prop::collection::vec(placement(rank, false), dst_rank);
            (shape, src_mesh, dst_mesh, src_p, dst_p).prop_map(move |(shape, src_mesh, mut dst_mesh, src_p, dst_p)| {
                let src_size: u64 = src_mesh.iter().product();
                // Colocated layouts need meshes of the same size: reuse the source shape's product.
                let devices = if colocate && src_size <= 6 {
                    dst_mesh = vec![src_size];
                    r#", "devices": "colocated""#
                } else {
                    ""
                };
                let dst_p = if dst_mesh.len() != dst_p.len() { vec![dst_p[0].clone()] } else { dst_p };
                format!(
                    r#"{{"tensor": {{"shape": {shape:?}}}, "split": "{}",
                        "source": {{"mesh": {src_mesh:?}, "placements": {src_p:?}, "order": "{}"}},
                        "destination": {{"mesh": {dst_mesh:?}, "placements": {dst_p:?}{devices}}}}}"#,
                    if balanced { "balanced" } else { "chunk" },
                    if strided { "strided" } else { "mesh" },
                )
            })
        },
    )
}

fn placement(rank: usize, allow_partial: bool) -> impl Strategy<Value = String> {
    let kinds = if allow_partial { 0..4u8 } else { 0..3u8 };
    (kinds, 0..rank).prop_map(|(kind, dim)| match kind {
        0 | 1 => format!("S({dim})"),
        2 => "R".to_string(),
        _ => "P".to_string(),
    })
}

fn setup(spec: &str) -> (Reshard, Plan) {
    let reshard = parse_spec(spec).unwrap_or_else(|e| panic!("generated spec invalid: {e}\n{spec}"));
    let plan = plan(&reshard, PlanStrategy::Intersection).expect("plans");
    (reshard, plan)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn pieces_tile_every_destination_exactly(spec in spec_strategy()) {
        let (reshard, plan) = setup(&spec);
        let tensor = &reshard.tensors[0];
        let sources = device_regions(&tensor.source, &reshard.source_mesh, &tensor.shape, reshard.split).unwrap();
        let destinations = device_regions(&tensor.destination, &reshard.destination_mesh, &tensor.shape, reshard.split).unwrap();
        let contributors = sources.iter().map(|d| d.contributor).max().unwrap_or(0) as u64 + 1;
        for dst in &destinations {
            let mine: Vec<_> = plan.pieces.iter().filter(|p| p.dst == dst.device).collect();
            // Entry counts add up (once per contributor) and every piece lies inside the destination...
            let total: u64 = mine.iter().map(|p| p.region.entries()).sum();
            prop_assert_eq!(total, dst.region.entries() * contributors, "{}", spec);
            for p in &mine {
                prop_assert!(dst.region.contains(&p.region));
            }
            // ...and pieces of one contributor never overlap, so together they tile the region.
            for c in 0..contributors as usize {
                let of_c: Vec<_> = mine.iter().filter(|p| p.contributor == c).collect();
                for (i, a) in of_c.iter().enumerate() {
                    for b in &of_c[i + 1..] {
                        prop_assert!(a.region.intersect(&b.region).is_none(), "overlap {:?} {:?}", a.region, b.region);
                    }
                }
            }
        }
        // Every piece lies inside its sender's region.
        for p in &plan.pieces {
            let src = sources.iter().find(|s| s.device == p.src && s.contributor == p.contributor).expect("sender is a source");
            prop_assert!(src.region.contains(&p.region), "{:?} outside {:?}", p.region, src.region);
        }
    }

    #[test]
    fn plans_verify_and_are_deterministic(spec in spec_strategy()) {
        let (reshard, first) = setup(&spec);
        let again = plan(&reshard, PlanStrategy::Intersection).unwrap();
        prop_assert_eq!(&first.pieces, &again.pieces);
        let v = verify(&reshard, &first, VerifyOptions::default()).unwrap();
        prop_assert!(v.passed(), "{:?}\n{}", &v.mismatches[..v.mismatches.len().min(3)], spec);
        let whole = plan(&reshard, PlanStrategy::WholeShard).unwrap();
        let v = verify(&reshard, &whole, VerifyOptions::default()).unwrap();
        prop_assert!(v.passed(), "whole shard: {}", spec);
    }

    #[test]
    fn counting_pieces_without_planning_gives_the_plans_count(spec in spec_strategy()) {
        let (reshard, intersection) = setup(&spec);
        let pieces = intersection.pieces.len() as u64;
        prop_assert_eq!(count_pieces(&reshard, u64::MAX), pieces, "{}", spec);
        let whole = plan(&reshard, PlanStrategy::WholeShard).unwrap();
        prop_assert_eq!(whole.pieces.len() as u64, pieces);
        // Past a limit, counting stops, above it.
        if pieces > 0 {
            let limit = pieces - 1;
            prop_assert!(count_pieces(&reshard, limit) > limit);
        }
    }

    #[test]
    fn intersection_never_moves_more_than_whole_shard(spec in spec_strategy()) {
        let reshard = parse_spec(&spec).unwrap();
        let a = analyse(&reshard, PlanStrategy::Intersection).unwrap().totals();
        let b = analyse(&reshard, PlanStrategy::WholeShard).unwrap().totals();
        prop_assert!(a.bytes_received <= b.bytes_received);
        prop_assert!(a.entries_moved <= b.entries_moved);
        prop_assert!(a.max_link_bytes <= b.max_link_bytes);
    }

    #[test]
    fn every_injected_fault_is_caught(spec in spec_strategy()) {
        let (reshard, plan) = setup(&spec);
        for fault in Fault::ALL {
            match verify(&reshard, &plan, VerifyOptions { fault: Some(fault), ..Default::default() }) {
                Ok(v) => prop_assert!(!v.passed(), "{:?} not caught: {}", fault, spec),
                Err(VerifyError::FaultNotApplicable { .. }) => {}
                Err(e) => prop_assert!(false, "{e}"),
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = parse_spec(&text);
    }

    #[test]
    fn mutated_valid_specs_never_panic(spec in spec_strategy(), at in 0usize..400, byte in any::<u8>()) {
        let mut bytes = spec.into_bytes();
        let i = at % bytes.len();
        bytes[i] = byte;
        if let Ok(text) = String::from_utf8(bytes)
            && let Ok(reshard) = parse_spec(&text)
        {
            let _ = analyse(&reshard, PlanStrategy::Gather);
        }
    }
}

#[test]
fn split_rule_is_part_of_the_plan() {
    let chunk = parse_spec(
        r#"{"tensor": {"shape": [12]}, "source": {"mesh": [5], "placements": ["S(0)"]},
        "destination": {"mesh": [1], "placements": ["R"]}}"#,
    )
    .unwrap();
    assert_eq!(chunk.split, SplitRule::Chunk);
    let sizes: Vec<u64> =
        plan(&chunk, PlanStrategy::Intersection).unwrap().pieces.iter().map(|p| p.region.entries()).collect();
    assert_eq!(sizes, [3, 3, 3, 3], "the empty fifth shard sends nothing");
}
