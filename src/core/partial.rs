//! Partial sums: where a Partial source's values are added, and what reducing them first would move.
//!
//! With a Partial source every entry exists as one partial value per contributor, and the true value is
//! their sum. The intersection plan sends every contributor's partial to every destination that needs the
//! entry, so each destination adds them itself and receives each entry once per contributor. Reducing
//! first (a reduce-scatter among each contributor group, which turns Partial into Shard) costs traffic among
//! the sources but sends each entry once. Both are counted here from real plans, so a teacher can say
//! "reduce first moves 4× fewer bytes to the destinations" with the numbers of the layout on screen.

use super::geometry::Dtype;
use super::model::{ConvertAt, Mesh, Reshard};
use super::placement::Placement;
use super::plan::{Piece, Planner, Strategy};
use super::region::SideRegions;

/// What one destination device receives and adds.
#[derive(Clone, Debug, PartialEq)]
pub struct Sum {
    pub device: u32,
    /// Per contributor (index = the contributor), the source devices its partials come from, ascending.
    pub sources: Vec<Vec<u32>>,
    /// Bytes of one contributor's partials (every contributor sends the same boxes).
    pub bytes_each: u64,
    /// Bytes of partials already on the device (local copies, colocated sides); they do not arrive.
    pub local_bytes: u64,
}

/// Reducing first: a reduce-scatter among each group of contributors, then the change from the scattered
/// layout.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceFirst {
    /// The tensor dim the reduce-scatter splits (each contributor keeps one chunk of the sum).
    pub dim: usize,
    /// Bytes sent among source devices by the reduce-scatter: each sends its region but its own chunk.
    pub among_sources: u64,
    /// Bytes received by destination devices from the scattered layout (each entry once).
    pub received: u64,
}

/// A Partial source's sums for one tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct PartialSums {
    /// The mesh dims that are Partial, by name.
    pub dims: Vec<String>,
    /// Partial values per entry: the product of those dims' sizes.
    pub contributors: u64,
    /// Bytes received by destination devices as planned (every contributor's partials).
    pub received: u64,
    /// Every destination device that receives anything, in mesh order.
    pub sums: Vec<Sum>,
    /// `None` when the scattered layout cannot be planned (a strided shard on the dim it would split).
    pub reduce_first: Option<ReduceFirst>,
    /// The conversion (source, destination dtype) each partial goes through at its sender, before the
    /// destination adds them, when it loses precision (fp32 → bf16): the sum then carries a rounding per
    /// partial, where converting the sum carries one. `None` when it converts after the sum or loses nothing.
    pub rounded_before_sum: Option<(Dtype, Dtype)>,
}

/// The partial sums of tensor `index` of `reshard`, or `None` when its source is not Partial.
pub fn partial_sums(reshard: &Reshard, index: usize) -> Result<Option<PartialSums>, String> {
    let tensor = reshard.tensors.get(index).ok_or_else(|| format!("no tensor {index}"))?;
    let mesh = &reshard.source_mesh;
    let partial: Vec<usize> =
        (0..tensor.source.placements.len()).filter(|&d| tensor.source.placements[d] == Placement::Partial).collect();
    if partial.is_empty() {
        return Ok(None);
    }
    let contributors: u64 = partial.iter().map(|&d| mesh.shape.get(d).copied().unwrap_or(1)).product();
    let dims = partial.iter().map(|&d| mesh.dim_names.get(d).cloned().unwrap_or_else(|| format!("dim {d}"))).collect();

    // The plan as it stands: per destination slot, the sources of each contributor.
    let mut planner = Planner::new(reshard, Strategy::Intersection);
    let slots = planner.table.devices.len();
    let width = usize::try_from(contributors).map_err(|_| "too many contributors".to_string())?;
    let mut sources: Vec<Vec<Vec<u32>>> = vec![Vec::new(); slots];
    let mut bytes_each = vec![0u64; slots];
    let mut local_bytes = vec![0u64; slots];
    let mut received = 0u64;
    let mut visit = |piece: &Piece| {
        let slot = piece.dst_slot as usize;
        let per = &mut sources[slot];
        if per.is_empty() {
            per.resize(width, Vec::new());
        }
        if let Some(list) = per.get_mut(piece.contributor) {
            list.push(piece.src);
        }
        if piece.contributor == 0 {
            bytes_each[slot] = bytes_each[slot].saturating_add(piece.bytes);
        }
        // Saturating, as the traffic's counts are checked: a change too large for them is refused there.
        if piece.is_local() {
            local_bytes[slot] = local_bytes[slot].saturating_add(piece.bytes);
        } else {
            received = received.saturating_add(piece.bytes);
        }
    };
    planner.run_tensor(index, &mut visit)?;
    let sums = planner
        .table
        .destination_slots
        .iter()
        .zip(&reshard.destination_mesh.devices)
        .filter_map(|(&slot, &device)| {
            let slot = slot as usize;
            let mut per = std::mem::take(&mut sources[slot]);
            if per.is_empty() {
                return None;
            }
            for list in &mut per {
                list.sort_unstable();
                list.dedup();
            }
            Some(Sum { device, sources: per, bytes_each: bytes_each[slot], local_bytes: local_bytes[slot] })
        })
        .collect();
    let reduce_first = reduce_first(reshard, index, &partial)?;
    let (from, to) = (tensor.source.dtype, tensor.destination.dtype);
    let rounded_before_sum =
        (reshard.convert_at == ConvertAt::Sender && !to.holds_every(from) && contributors > 1).then_some((from, to));
    Ok(Some(PartialSums { dims, contributors, received, sums, reduce_first, rounded_before_sum }))
}

/// The change after a reduce-scatter along the tensor's first dim long enough for a chunk per contributor
/// (else its longest): every Partial mesh dim becomes `Shard` of that dim, nested in mesh-dim order.
fn reduce_first(reshard: &Reshard, index: usize, partial: &[usize]) -> Result<Option<ReduceFirst>, String> {
    let tensor = &reshard.tensors[index];
    let contributors: u64 = partial.iter().map(|&d| reshard.source_mesh.shape.get(d).copied().unwrap_or(1)).product();
    let longest = (0..tensor.shape.len()).max_by_key(|&d| (tensor.shape[d], std::cmp::Reverse(d))).unwrap_or(0);
    let dim = (0..tensor.shape.len()).find(|&d| tensor.shape[d] >= contributors).unwrap_or(longest);
    let mut scattered = reshard.clone();
    scattered.tensors = vec![tensor.clone()];
    for &d in partial {
        scattered.tensors[0].source.placements[d] = Placement::Shard(dim);
    }
    let mesh: &Mesh = &reshard.source_mesh;
    let (Ok(before), Ok(after)) = (
        SideRegions::new(&tensor.source, mesh, &tensor.shape, reshard.split),
        SideRegions::new(&scattered.tensors[0].source, mesh, &tensor.shape, reshard.split),
    ) else {
        return Ok(None);
    };
    let entry = tensor.source.dtype.bytes();
    let among_sources = (0..mesh.size())
        .map(|flat| before.region_of(flat).entries().saturating_sub(after.region_of(flat).entries()) * entry)
        .fold(0u64, u64::saturating_add);
    let mut received = 0u64;
    let mut visit = |piece: &Piece| {
        if !piece.is_local() {
            received = received.saturating_add(piece.bytes);
        }
    };
    Planner::new(&scattered, Strategy::Intersection).run_tensor(0, &mut visit)?;
    Ok(Some(ReduceFirst { dim, among_sources, received }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::presets;
    use crate::core::spec::parse_spec;
    use crate::core::traffic::analyse;

    fn spec(json: &str) -> Reshard {
        parse_spec(json).expect("test spec is valid")
    }

    #[test]
    fn the_partial_preset_adds_four_partials_on_each_destination() {
        // 8 × 8 bf16 (128 B) as Partial over 4 devices, to Replicate on 2.
        let reshard = presets::partial();
        let sums = partial_sums(&reshard, 0).unwrap().expect("the source is Partial");
        assert_eq!(sums.dims, ["tp"]);
        assert_eq!(sums.contributors, 4);
        // The received bytes are the traffic panel's.
        assert_eq!(sums.received, analyse(&reshard, Strategy::Intersection).unwrap().totals().bytes_received);
        assert_eq!(sums.received, 2 * 4 * 128);
        assert_eq!(sums.sums.len(), 2);
        for (sum, device) in sums.sums.iter().zip(&reshard.destination_mesh.devices) {
            assert_eq!(sum.device, *device);
            assert_eq!(sum.sources, [vec![0], vec![1], vec![2], vec![3]]);
            assert_eq!(sum.bytes_each, 128);
            assert_eq!(sum.local_bytes, 0);
        }
        // Reducing first: each source sends 3 of its 4 row chunks (96 B); each destination receives 128 B.
        let first = sums.reduce_first.expect("plannable");
        assert_eq!(first.dim, 0);
        assert_eq!(first.among_sources, 4 * 96);
        assert_eq!(first.received, 2 * 128);
    }

    #[test]
    fn partials_converted_at_their_senders_are_rounded_before_the_sum() {
        // The partial preset is bf16 throughout: nothing is rounded on the way.
        let mut reshard = presets::partial();
        assert_eq!(partial_sums(&reshard, 0).unwrap().unwrap().rounded_before_sum, None);
        // fp32 partials sent as bf16: each is rounded before the destination adds them.
        reshard.tensors[0].source.dtype = Dtype::Fp32;
        assert_eq!(partial_sums(&reshard, 0).unwrap().unwrap().rounded_before_sum, Some((Dtype::Fp32, Dtype::Bf16)));
        // Converted by the receiver, or to a dtype that holds every value, the partials are added as sent.
        reshard.convert_at = ConvertAt::Receiver;
        assert_eq!(partial_sums(&reshard, 0).unwrap().unwrap().rounded_before_sum, None);
        reshard.convert_at = ConvertAt::Sender;
        reshard.tensors[0].source.dtype = Dtype::Bf16;
        reshard.tensors[0].destination.dtype = Dtype::Fp32;
        assert_eq!(partial_sums(&reshard, 0).unwrap().unwrap().rounded_before_sum, None);
    }

    #[test]
    fn a_source_without_partial_has_no_sums() {
        assert_eq!(partial_sums(&presets::toy(), 0).unwrap(), None);
        assert!(partial_sums(&presets::toy(), 1).is_err());
    }

    #[test]
    fn sharded_partials_come_from_the_shards_that_overlap_and_colocated_ones_stay_local() {
        // Mesh 2 × 2: rows sharded by dp, partial over tp; destination: rows over 4 devices, colocated.
        let reshard = spec(
            r#"{"tensor": {"name": "w", "shape": [8, 4], "dtype": "fp32"},
                "source": {"mesh": [2, 2], "dim_names": ["dp", "tp"], "placements": ["S(0)", "P"]},
                "destination": {"mesh": [4], "devices": "colocated", "placements": ["S(0)"]}}"#,
        );
        let sums = partial_sums(&reshard, 0).unwrap().unwrap();
        assert_eq!((sums.dims.clone(), sums.contributors), (vec!["tp".to_string()], 2));
        // Device 0 holds rows 0..2 of the destination; rows 0..4 partials live on devices 0 (P0) and 1 (P1).
        let first = &sums.sums[0];
        assert_eq!((first.device, first.sources.clone(), first.bytes_each), (0, vec![vec![0], vec![1]], 2 * 4 * 4));
        assert_eq!(first.local_bytes, first.bytes_each, "device 0 keeps its own partial");
        // Received: every destination gets two partials of 32 B, one of them local for devices 0 and 3.
        assert_eq!(sums.received, analyse(&reshard, Strategy::Intersection).unwrap().totals().bytes_received);
        // Reduce-scatter along rows: each source keeps half of its 64 B region.
        let first = sums.reduce_first.unwrap();
        assert_eq!(first.among_sources, 4 * 32);
        assert!(first.received < sums.received);
    }

    #[test]
    fn a_dim_too_short_for_a_chunk_each_scatters_the_longest() {
        let reshard = spec(
            r#"{"tensor": {"name": "b", "shape": [2, 16]},
                "source": {"mesh": [4], "placements": ["P"]},
                "destination": {"mesh": [2], "placements": ["R"]}}"#,
        );
        let first = partial_sums(&reshard, 0).unwrap().unwrap().reduce_first.unwrap();
        assert_eq!(first.dim, 1);
        assert_eq!(first.received, 2 * 32 * 2);
    }

    mod properties {
        use super::{Strategy as Plan, *};
        use proptest::prelude::{Strategy, *};

        /// A small change whose source is Partial on at least one of its two mesh dims.
        fn partial_change() -> impl Strategy<Value = (String, bool)> {
            let source = prop::sample::select(vec!["S(0)", "S(1)", "R", "P"]);
            let destination = prop::sample::select(vec!["S(0)", "S(1)", "R"]);
            (1u64..12, 1u64..12, 1u64..4, 1u64..4, source.clone(), source, destination, 1u64..5, any::<bool>())
                .prop_filter("a Partial source", |(_, _, _, _, a, b, ..)| *a == "P" || *b == "P")
                .prop_map(|(rows, cols, m0, m1, a, b, destination, n, colocated)| {
                    let colocated = colocated && m0 * m1 == n;
                    let devices = if colocated { r#""devices": "colocated","# } else { "" };
                    (
                        format!(
                            r#"{{"tensor": {{"name": "w", "shape": [{rows}, {cols}]}},
                                "source": {{"mesh": [{m0}, {m1}], "placements": ["{a}", "{b}"]}},
                                "destination": {{"mesh": [{n}], {devices} "placements": ["{destination}"]}}}}"#
                        ),
                        colocated,
                    )
                })
        }

        proptest! {
            /// The sums agree with the traffic panel, every destination hears from every contributor, and
            /// reducing first sends each entry once: `contributors` times fewer bytes on disjoint devices.
            #[test]
            fn sums_match_the_plan_and_reducing_first_divides_by_the_contributors((json, colocated) in partial_change()) {
                let reshard = spec(&json);
                let sums = partial_sums(&reshard, 0).unwrap().expect("Partial");
                prop_assert_eq!(sums.received, analyse(&reshard, Plan::Intersection).unwrap().totals().bytes_received);
                let arriving: u64 = sums.sums.iter().map(|sum| sums.contributors * sum.bytes_each - sum.local_bytes).sum();
                prop_assert_eq!(arriving, sums.received, "each contributor sends the same boxes");
                for sum in &sums.sums {
                    prop_assert_eq!(sum.sources.len() as u64, sums.contributors);
                    prop_assert!(sum.sources.iter().all(|list| !list.is_empty()));
                }
                if let Some(first) = sums.reduce_first {
                    prop_assert!(first.received <= sums.received);
                    if !colocated {
                        prop_assert_eq!(first.received * sums.contributors, sums.received);
                    }
                }
            }
        }
    }
}
