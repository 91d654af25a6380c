//! Our regions against PyTorch's own: `tests/fixtures/dtensor_regions.json` holds, for 200 layouts, the
//! local shape and global offset DTensor computes for every device (copied from shared/golden).

use reshard_lens::core::geometry::Dtype;
use reshard_lens::core::model::{Layout, Mesh, ShardOrder, SplitRule};
use reshard_lens::core::placement::Placement;
use reshard_lens::core::region::device_regions;
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    shape: Vec<u64>,
    mesh: Vec<u64>,
    placements: Vec<String>,
    devices: Vec<DeviceCase>,
}

#[derive(Deserialize)]
struct DeviceCase {
    coord: Vec<u64>,
    shape: Vec<u64>,
    offset: Vec<u64>,
}

#[test]
fn regions_match_pytorch_dtensor_for_every_golden_layout() {
    let text = include_str!("fixtures/dtensor_regions.json");
    let golden: Golden = serde_json::from_str(text).expect("fixture parses");
    assert_eq!(golden.cases.len(), 200);
    let mut checked = 0;
    for (i, case) in golden.cases.iter().enumerate() {
        let placements: Vec<Placement> =
            case.placements.iter().map(|p| Placement::parse(p).expect("golden placement parses")).collect();
        let layout = Layout { placements, order: ShardOrder::Mesh, dtype: Dtype::Bf16 };
        let mesh = Mesh::contiguous(&case.mesh, 0);
        let regions = device_regions(&layout, &mesh, &case.shape, SplitRule::Chunk)
            .unwrap_or_else(|e| panic!("case {i} {:?}: {e}", case.placements));
        assert_eq!(regions.len(), case.devices.len(), "case {i}");
        for (ours, theirs) in regions.iter().zip(&case.devices) {
            assert_eq!(ours.coord, theirs.coord, "case {i}: device order");
            assert_eq!(
                ours.region.shape(),
                &theirs.shape[..],
                "case {i} {:?} at {:?}: shape",
                case.placements,
                theirs.coord
            );
            // An empty shard's offset is PyTorch's bookkeeping, not a place: compare sizes only.
            if !theirs.shape.contains(&0) {
                assert_eq!(
                    ours.region.offset(),
                    &theirs.offset[..],
                    "case {i} {:?} at {:?}: offset",
                    case.placements,
                    theirs.coord
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} devices checked");
}
