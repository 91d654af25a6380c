//! A side's layout written as text (DTensor or JAX notation), device id lists as text, and what a side's spec
//! says per mesh dim: the editor's two-way bridge between typed text and the spec.

use serde_json::Value;

use super::model::{Layout, ShardOrder};
use super::placement::{LayoutText, Placement};
use super::spec::{MAX_MESH_DEVICES, MeshShapeInput, SideInput};

/// DTensor's spelling as people write it in code: `Shard(0)`, `Replicate()`, `Partial()`,
/// `_StridedShard(dim=0, split_factor=4)`.
pub fn dtensor_spelling(placement: Placement) -> String {
    match placement {
        Placement::Shard(d) => format!("Shard({d})"),
        Placement::Replicate => "Replicate()".into(),
        Placement::Partial => "Partial()".into(),
        strided @ Placement::StridedShard { .. } => strided.dtensor(),
    }
}

/// A layout's placements as a DTensor list: `[Shard(0), Replicate()]`.
pub fn placements_list(layout: &Layout) -> String {
    let items: Vec<String> = layout.placements.iter().map(|&p| dtensor_spelling(p)).collect();
    format!("[{}]", items.join(", "))
}

/// Whether a layout's nested shards apply right to left where that changes who holds what: some tensor dim
/// split by two mesh dims of more than one device, in the strided order. Elsewhere the order is no news (an
/// inventory's FSDP-only training side is strided by construction, and a mark there read as nested).
pub fn strided_where_it_matters(layout: &Layout, mesh_shape: &[u64]) -> bool {
    order_matters(layout, mesh_shape) && layout.order == ShardOrder::Strided
}

/// Whether the order of nested shards changes who holds what: some tensor dim is sharded by two mesh dims
/// that both split it (size > 1).
pub fn order_matters(layout: &Layout, mesh_shape: &[u64]) -> bool {
    let splits = |m: usize| mesh_shape.get(m).is_some_and(|&n| n > 1);
    layout.placements.iter().enumerate().any(|(m, p)| {
        let Placement::Shard(dim) = p else { return false };
        splits(m)
            && layout.placements[m + 1..]
                .iter()
                .enumerate()
                .any(|(k, q)| *q == Placement::Shard(*dim) && splits(m + 1 + k))
    })
}

/// The text of a side's layout: DTensor notation for `placements`, JAX notation for `partition_spec`, and
/// `None` when the side gives neither. A placement that does not parse is shown as typed, so nothing is lost.
/// Nested shards in the strided order are written as PyTorch writes them, with `_StridedShard`: the text
/// pasted into PyTorch is the layout shown (`[Shard(0), Shard(0)]` there is the other order).
pub fn layout_text(side: &SideInput) -> Option<String> {
    if let Some(placements) = &side.placements {
        let parsed: Option<Vec<Placement>> = placements.iter().map(|text| Placement::parse(text).ok()).collect();
        let mesh_shape = mesh_shape_of(side);
        if let Some(parsed) = parsed.filter(|_| side.order.as_deref() == Some("strided"))
            && let Some(explicit) = strided_explicitly(&parsed, &mesh_shape)
        {
            let items: Vec<String> = explicit.into_iter().map(dtensor_spelling).collect();
            return Some(format!("[{}]", items.join(", ")));
        }
        let items: Vec<String> = placements
            .iter()
            .map(|text| Placement::parse(text).map_or_else(|_| text.trim().to_string(), dtensor_spelling))
            .collect();
        return Some(format!("[{}]", items.join(", ")));
    }
    let spec = side.partition_spec.as_ref()?;
    let entries: Vec<String> = spec.iter().map(partition_entry_text).collect();
    Some(format!("P({})", entries.join(", ")))
}

/// The mesh dims' sizes as typed (a size that is not a whole number of devices is `None`).
fn mesh_shape_of(side: &SideInput) -> Vec<Option<u64>> {
    let dims = match &side.mesh {
        Some(MeshShapeInput::Dims(dims)) => dims.clone(),
        Some(MeshShapeInput::Size(n)) => vec![*n],
        None => Vec::new(),
    };
    dims.into_iter().map(|n| u64::try_from(n).ok()).collect()
}

/// Plain `Shard`s applied right to left (the strided order) as the same layout in mesh order: each shard of
/// a tensor dim that a later mesh dim shards again becomes `_StridedShard` with the product of those later
/// mesh dims' sizes as its `split_factor`, as PyTorch writes FSDP2 + TP. `None` when the placements have a
/// `_StridedShard` already, or a mesh size is missing or not a whole number.
pub fn strided_explicitly(placements: &[Placement], mesh_shape: &[Option<u64>]) -> Option<Vec<Placement>> {
    if placements.iter().any(|p| matches!(p, Placement::StridedShard { .. })) {
        return None;
    }
    placements
        .iter()
        .enumerate()
        .map(|(m, &placement)| {
            let Placement::Shard(dim) = placement else { return Some(placement) };
            let later = placements.iter().enumerate().skip(m + 1).filter(|(_, p)| **p == Placement::Shard(dim));
            let mut split_factor = None::<u64>;
            for (k, _) in later {
                let size = (*mesh_shape.get(k)?)?;
                split_factor = Some(split_factor.unwrap_or(1).checked_mul(size)?);
            }
            Some(match split_factor {
                Some(split_factor) => Placement::StridedShard { dim, split_factor },
                None => placement,
            })
        })
        .collect()
}

/// One entry of a JAX partition spec: `None`, `'tp'` or `('dp', 'tp')`.
fn partition_entry_text(entry: &Value) -> String {
    match entry {
        Value::Null => "None".into(),
        Value::String(name) => format!("'{name}'"),
        Value::Array(items) if items.len() == 1 => partition_entry_text(&items[0]),
        Value::Array(items) => {
            format!("({})", items.iter().map(partition_entry_text).collect::<Vec<_>>().join(", "))
        }
        other => other.to_string(),
    }
}

/// Writes a parsed layout text into a side: DTensor notation sets `placements` and clears `partition_spec`;
/// JAX notation sets `partition_spec` and clears `placements`. Both clear `order`: each states the order of
/// nested shards itself (`_StridedShard`; JAX lists the axes).
pub fn apply_layout_text(side: &mut SideInput, text: LayoutText) {
    match text {
        LayoutText::Placements(placements) => {
            side.placements = Some(placements.into_iter().map(Placement::short).collect());
            side.partition_spec = None;
            // DTensor notation states the order too: plain shards apply in mesh order, `_StridedShard`s
            // otherwise (as [`layout_text`] writes a strided side).
            side.order = None;
        }
        LayoutText::PartitionSpec(dims) => {
            side.partition_spec = Some(
                dims.into_iter()
                    .map(|names| match names.len() {
                        0 => Value::Null,
                        1 => Value::String(names.into_iter().next().unwrap_or_default()),
                        _ => Value::Array(names.into_iter().map(Value::String).collect()),
                    })
                    .collect(),
            );
            side.placements = None;
            side.order = None;
        }
    }
}

/// What each of a side's mesh dims does, read from the spec as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshDimPlacements {
    /// One entry per mesh dim; `None` where the spec says nothing readable (a misspelt or missing placement).
    pub placements: Vec<Option<Placement>>,
    /// A partition spec lists nested axes in reverse mesh order (DTensor's `_StridedShard` order).
    pub strided: bool,
}

/// Reads a side's placements per mesh dim. `dim_names` are the mesh's names (one per mesh dim); a partition
/// spec's axis names are looked up among them, and mesh dims it does not name replicate.
pub fn placements_per_mesh_dim(side: &SideInput, dim_names: &[String]) -> MeshDimPlacements {
    let rank = dim_names.len();
    if let Some(list) = &side.placements {
        let mut placements: Vec<Option<Placement>> =
            list.iter().take(rank).map(|text| Placement::parse(text).ok()).collect();
        placements.resize(rank, None);
        return MeshDimPlacements { placements, strided: false };
    }
    let Some(spec) = &side.partition_spec else {
        return MeshDimPlacements { placements: vec![None; rank], strided: false };
    };
    let mut placements = vec![None; rank];
    let mut strided = false;
    // A name the mesh does not have (a typo) shards some mesh dim, but which is unknown: the dims no known
    // name shards are then unread, not Replicate (a form showing Replicate there would misstate the spec).
    let mut unknown_name = false;
    for (tensor_dim, entry) in spec.iter().enumerate() {
        let names: Vec<&str> = match entry {
            Value::String(name) => vec![name.as_str()],
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let mesh_dims: Vec<usize> = names.iter().filter_map(|name| dim_names.iter().position(|n| n == name)).collect();
        unknown_name |= mesh_dims.len() < names.len();
        strided |= mesh_dims.windows(2).any(|w| w[0] > w[1]);
        for m in mesh_dims {
            placements[m] = Some(Placement::Shard(tensor_dim));
        }
    }
    if !unknown_name {
        for placement in &mut placements {
            placement.get_or_insert(Placement::Replicate);
        }
    }
    MeshDimPlacements { placements, strided }
}

/// Device ids as compact text: runs of consecutive ids become ranges, `0-3, 8, 10-11`.
pub fn format_device_ids(ids: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let start = ids[i];
        let mut end = start;
        while i + 1 < ids.len() && end.checked_add(1) == Some(ids[i + 1]) {
            end = ids[i + 1];
            i += 1;
        }
        parts.push(match end - start {
            0 => start.to_string(),
            1 => format!("{start}, {end}"),
            _ => format!("{start}-{end}"),
        });
        i += 1;
    }
    parts.join(", ")
}

/// Reads a device id list as typed: ids and inclusive ranges separated by commas or spaces, optionally in
/// brackets (`[0, 1, 2]`, `0-3, 8`). Negative ids are kept so that the spec check can name them; a list
/// longer than any mesh can hold is refused here.
pub fn parse_device_ids(text: &str) -> Result<Vec<i64>, String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let mut ids = Vec::new();
    for item in inner.split(|c: char| c == ',' || c.is_whitespace()).filter(|s| !s.is_empty()) {
        let range = item.get(1..).and_then(|rest| rest.find(['-', '–']).map(|at| at + 1));
        match range {
            Some(at) => {
                let (start, end) = (&item[..at], item[at..].trim_start_matches(['-', '–']));
                let (Ok(start), Ok(end)) = (start.parse::<i64>(), end.parse::<i64>()) else {
                    return Err(format!("`{item}` is not a range of device ids; expected e.g. 0-7"));
                };
                if end < start {
                    return Err(format!("`{item}`: a range runs from low to high, e.g. 0-7"));
                }
                if end.abs_diff(start) >= MAX_MESH_DEVICES {
                    return Err(format!("`{item}` holds more than {MAX_MESH_DEVICES} devices"));
                }
                ids.extend(start..=end);
            }
            None => ids.push(
                item.parse::<i64>()
                    .map_err(|_| format!("`{item}` is not a device id; expected whole numbers such as 0, 1, 4-7"))?,
            ),
        }
        if ids.len() as u64 > MAX_MESH_DEVICES {
            return Err(format!("more than {MAX_MESH_DEVICES} devices"));
        }
    }
    if ids.is_empty() {
        return Err("empty: expected device ids such as 0, 1, 2 or 0-7".into());
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::placement::parse_layout_text;

    fn side_with(text: &str) -> SideInput {
        let mut side = SideInput::default();
        apply_layout_text(&mut side, parse_layout_text(text).unwrap());
        side
    }

    #[test]
    fn dtensor_text_round_trips_through_the_spec() {
        let side = side_with("S(0) R");
        assert_eq!(side.placements, Some(vec!["S(0)".to_string(), "R".to_string()]));
        assert_eq!(layout_text(&side).as_deref(), Some("[Shard(0), Replicate()]"));
        assert_eq!(side_with("[Shard(0), Replicate()]"), side);
    }

    #[test]
    fn jax_text_sets_the_partition_spec_and_clears_placements_and_order() {
        let mut side = side_with("[Shard(0)]");
        side.order = Some("strided".into());
        apply_layout_text(&mut side, parse_layout_text("P(('dp', 'tp'), None)").unwrap());
        assert_eq!(side.placements, None);
        assert_eq!(side.order, None);
        assert_eq!(layout_text(&side).as_deref(), Some("P(('dp', 'tp'), None)"));
        assert_eq!(layout_text(&side_with("P('tp')")).as_deref(), Some("P('tp')"));
        assert_eq!(layout_text(&side_with("P()")).as_deref(), Some("P()"));
    }

    #[test]
    fn a_misspelt_placement_is_shown_as_typed() {
        let side = SideInput { placements: Some(vec!["S(0)".into(), "Bogus".into()]), ..SideInput::default() };
        assert_eq!(layout_text(&side).as_deref(), Some("[Shard(0), Bogus]"));
        assert_eq!(layout_text(&SideInput::default()), None);
    }

    #[test]
    fn a_strided_side_is_written_with_strided_shards_and_read_back_in_mesh_order() {
        // nested: rows split by dp (2) then by tp (4), right to left: PyTorch's FSDP2 + TP spelling.
        let mut side = side_with("[S(0), S(0)]");
        side.mesh = Some(MeshShapeInput::Dims(vec![2, 4]));
        side.order = Some("strided".into());
        let text = layout_text(&side).expect("placements");
        assert_eq!(text, "[_StridedShard(dim=0, split_factor=4), Shard(0)]");
        // Read back, the text states the order itself: mesh order, the same layout.
        apply_layout_text(&mut side, parse_layout_text(&text).unwrap());
        assert_eq!((side.placements.clone(), side.order.clone()), (Some(vec!["SS(0,4)".into(), "S(0)".into()]), None));
        assert_eq!(layout_text(&side).as_deref(), Some(text.as_str()));
        // Plain shards typed over a strided side are DTensor's mesh order.
        side.order = Some("strided".into());
        apply_layout_text(&mut side, parse_layout_text("[Shard(0), Shard(0)]").unwrap());
        assert_eq!(side.order, None);
        // Three deep, with a replica between; a dim sharded once stays plain.
        let three =
            [Placement::Shard(0), Placement::Replicate, Placement::Shard(0), Placement::Shard(1), Placement::Shard(0)];
        let sizes = [Some(2), Some(3), Some(4), Some(5), Some(6)];
        assert_eq!(
            strided_explicitly(&three, &sizes),
            Some(vec![
                Placement::StridedShard { dim: 0, split_factor: 24 },
                Placement::Replicate,
                Placement::StridedShard { dim: 0, split_factor: 6 },
                Placement::Shard(1),
                Placement::Shard(0),
            ])
        );
        // A mesh size not typed as a number, or a _StridedShard already: written as the placements are.
        assert_eq!(strided_explicitly(&three, &[Some(2), Some(3), None, Some(5), Some(6)]), None);
        assert_eq!(strided_explicitly(&[Placement::StridedShard { dim: 0, split_factor: 2 }], &[Some(2)]), None);
    }

    proptest::proptest! {
        #[test]
        fn the_strided_spelling_holds_what_the_strided_order_does(
            picks in proptest::collection::vec((0usize..4, 1u64..5), 1..5),
            shape in proptest::collection::vec(1u64..40, 1..4),
            balanced in proptest::bool::ANY,
        ) {
            use crate::core::geometry::Dtype;
            use crate::core::model::{Mesh, SplitRule};
            use crate::core::region::device_regions;
            let rank = shape.len();
            let placements: Vec<Placement> = picks
                .iter()
                .map(|&(kind, _)| if kind < rank.min(2) { Placement::Shard(kind) } else { Placement::Replicate })
                .collect();
            let sizes: Vec<u64> = picks.iter().map(|&(_, n)| n).collect();
            let explicit = strided_explicitly(&placements, &sizes.iter().map(|&n| Some(n)).collect::<Vec<_>>())
                .expect("every size is known");
            let mesh = Mesh::contiguous(&sizes, 0);
            let rule = if balanced { SplitRule::Balanced } else { SplitRule::Chunk };
            let strided = Layout { placements, order: ShardOrder::Strided, dtype: Dtype::Bf16 };
            let spelt = Layout { placements: explicit, order: ShardOrder::Mesh, dtype: Dtype::Bf16 };
            // Spelt and in the strided order too: already strided, not reversed once more (review 40).
            let both = Layout { order: ShardOrder::Strided, ..spelt.clone() };
            let regions = device_regions(&strided, &mesh, &shape, rule);
            proptest::prop_assert_eq!(&regions, &device_regions(&spelt, &mesh, &shape, rule));
            proptest::prop_assert_eq!(&regions, &device_regions(&both, &mesh, &shape, rule));
        }
    }

    #[test]
    fn placements_per_mesh_dim_read_both_notations() {
        let names = vec!["dp".to_string(), "tp".to_string()];
        let read = placements_per_mesh_dim(&side_with("[R, S(1)]"), &names);
        assert_eq!(read.placements, vec![Some(Placement::Replicate), Some(Placement::Shard(1))]);
        let read = placements_per_mesh_dim(&side_with("P(None, 'tp')"), &names);
        assert_eq!(read.placements, vec![Some(Placement::Replicate), Some(Placement::Shard(1))]);
        assert!(!read.strided);
        let read = placements_per_mesh_dim(&side_with("P(('tp', 'dp'))"), &names);
        assert_eq!(read.placements, vec![Some(Placement::Shard(0)); 2]);
        assert!(read.strided, "axes in reverse mesh order are the strided order");
        let short = SideInput { placements: Some(vec!["S(0)".into()]), ..SideInput::default() };
        assert_eq!(placements_per_mesh_dim(&short, &names).placements, vec![Some(Placement::Shard(0)), None]);
        // A misspelt axis: which mesh dim it meant is unknown, so the dims no known name shards are unread.
        let typo = placements_per_mesh_dim(&side_with("P('xx', None)"), &names);
        assert_eq!(typo.placements, vec![None, None]);
        let typo = placements_per_mesh_dim(&side_with("P('xx', 'tp')"), &names);
        assert_eq!(typo.placements, vec![None, Some(Placement::Shard(1))]);
    }

    #[test]
    fn the_order_matters_only_where_two_splitting_mesh_dims_shard_one_tensor_dim() {
        let layout = |placements: Vec<Placement>| Layout {
            placements,
            dtype: crate::core::geometry::Dtype::Bf16,
            order: ShardOrder::Mesh,
        };
        let nested = layout(vec![Placement::Shard(0), Placement::Shard(0)]);
        assert!(order_matters(&nested, &[2, 4]));
        assert!(!order_matters(&nested, &[1, 4]), "a mesh dim of one device splits nothing");
        assert!(!order_matters(&layout(vec![Placement::Shard(0), Placement::Shard(1)]), &[2, 4]));
        assert!(!order_matters(&layout(vec![Placement::Shard(0), Placement::Replicate]), &[2, 4]));
        assert!(!strided_where_it_matters(&nested, &[2, 4]), "mesh order");
        assert!(strided_where_it_matters(&Layout { order: ShardOrder::Strided, ..nested }, &[2, 4]));
    }

    #[test]
    fn device_ids_read_and_print_as_ranges() {
        assert_eq!(parse_device_ids("[0, 1, 2]"), Ok(vec![0, 1, 2]));
        assert_eq!(parse_device_ids("0-3 8"), Ok(vec![0, 1, 2, 3, 8]));
        assert_eq!(parse_device_ids("-1, 2"), Ok(vec![-1, 2]), "negative ids are left for the spec check");
        assert!(parse_device_ids("0, x").unwrap_err().contains("`x` is not a device id"));
        assert!(parse_device_ids("5-2").unwrap_err().contains("low to high"));
        assert!(parse_device_ids(" ").unwrap_err().starts_with("empty"));
        assert!(parse_device_ids("0-99999999").is_err());
        // The widest range of i64 ids: its length overflowed an i64 subtraction (a panic in debug builds).
        assert!(parse_device_ids("-9223372036854775808-9223372036854775807").unwrap_err().contains("holds more than"));
        assert_eq!(format_device_ids(&[0, 1, 2, 3, 8, 10, 11]), "0-3, 8, 10, 11");
        assert_eq!(format_device_ids(&[]), "");
        assert_eq!(parse_device_ids(&format_device_ids(&[4, 5, 6, 9])), Ok(vec![4, 5, 6, 9]));
    }
}
