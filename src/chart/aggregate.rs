//! What the tensor view draws when a plan is large: the piece budget, boundary lines instead of boxes,
//! stacks of pieces that carry the same box, the whole-shard transfer of one receiver, and empty shards.

use std::collections::HashMap;

use super::boxes::PixelRect;
use super::tensor::{Cells, Slice};
use crate::core::geometry::{Interval, Region};
use crate::core::region::DeviceRegion;

/// At most this many pieces are drawn one by one; beyond it the view draws region boundaries and a note.
pub const PIECE_BUDGET: usize = 2_000;

/// The interior boundary positions of some boxes, per axis: `(rows, cols)`, sorted, without duplicates and
/// without the frame's own edges at 0 and `extent`.
///
/// Regions of one side are a product of per-dim partitions (each tensor dim is cut into chunks, and every
/// combination of chunks is some device's region), so every such boundary runs across the whole view:
/// drawing full lines is exact, and far cheaper than one outline per device.
pub fn boundary_positions(boxes: impl IntoIterator<Item = Cells>, rows: u64, cols: u64) -> (Vec<u64>, Vec<u64>) {
    let (mut row_lines, mut col_lines) = (Vec::new(), Vec::new());
    for c in boxes {
        row_lines.extend([c.row0, c.row1].into_iter().filter(|&r| r > 0 && r < rows));
        col_lines.extend([c.col0, c.col1].into_iter().filter(|&x| x > 0 && x < cols));
    }
    for lines in [&mut row_lines, &mut col_lines] {
        lines.sort_unstable();
        lines.dedup();
    }
    (row_lines, col_lines)
}

/// The boxes of a side's outer groups in the viewed slice: the devices that share their coordinate on the
/// mesh's first dim (one `dp` index's devices on a `dp × tp` mesh), each group's regions together. Nested
/// sharding (`[Shard(0), Shard(0)]`) cuts the tensor in eight equal bands, drawn as Shard(0) over eight
/// devices would be; the groups' boundaries tell the two apart. Empty when there is nothing to tell: a
/// one-dim mesh, groups that all cover the same box (the first dim replicates), or a group whose regions
/// are not one box (a strided order interleaves the groups' rows).
pub fn outer_group_boxes(side: &[DeviceRegion], slice: &Slice) -> Vec<Cells> {
    if side.iter().any(|device| device.coord.len() < 2) {
        return Vec::new();
    }
    // Sorted by group, each distinct box once (replicas and partial contributors share one): a mesh of
    // 65,536 devices takes a sort, not a search per device.
    let mut boxes: Vec<(u64, u64, u64, u64, u64)> = side
        .iter()
        .filter_map(|device| slice.project(&device.region).map(|c| (device.coord[0], c.row0, c.row1, c.col0, c.col1)))
        .collect();
    boxes.sort_unstable();
    boxes.dedup();
    let area = |c: &Cells| (c.row1 - c.row0) * (c.col1 - c.col0);
    let mut unions: Vec<Cells> = Vec::new();
    for group in boxes.chunk_by(|a, b| a.0 == b.0) {
        let cells = group.iter().map(|&(_, row0, row1, col0, col1)| Cells { row0, row1, col0, col1 });
        let union = cells.clone().reduce(|u, c| Cells {
            row0: u.row0.min(c.row0),
            row1: u.row1.max(c.row1),
            col0: u.col0.min(c.col0),
            col1: u.col1.max(c.col1),
        });
        let Some(union) = union else { continue };
        // Distinct boxes of one group are disjoint (its inner dims split it), so they fill their union
        // exactly when their areas add up to it.
        if cells.map(|c| area(&c)).sum::<u64>() != area(&union) {
            return Vec::new();
        }
        unions.push(union);
    }
    let all_same = unions.windows(2).all(|w| w[0] == w[1]);
    if all_same { Vec::new() } else { unions }
}

/// An aggregated picture tints the source regions of at most this many devices (drawn as one path per fill,
/// but each region is a subpath to build and hash on every edit); beyond it the picture keeps its
/// boundaries alone.
pub const TINT_REGIONS_MAX: usize = 4_096;

/// The source regions tinted as the mesh view fills their devices' tiles: by `fill_of` the device on a mesh
/// drawn tile by tile, by where the region starts on one drawn as paths ([`super::mesh::shades_by_start`]);
/// nothing beyond [`TINT_REGIONS_MAX`] regions. One path per fill, so that a thousand regions are a handful
/// of elements; each region a quarter pixel larger on every side, so that neighbours of different fills
/// overlap rather than leave a seam of background between their anti-aliased edges. Shared by the tensor
/// view and the CLI's benchmark, which times it on every edit's worth of regions.
pub fn region_tint(
    source: &[DeviceRegion],
    slice: &Slice,
    fill_of: impl Fn(u32) -> &'static str,
    rect: impl Fn(Cells) -> PixelRect,
) -> Vec<(&'static str, String)> {
    use super::mesh::{TILE_ELEMENTS_MAX, paths_by_fill, shades_by_start};
    if source.len() > TINT_REGIONS_MAX {
        return Vec::new();
    }
    let fills: Vec<Option<&'static str>> = if source.len() > TILE_ELEMENTS_MAX {
        let starts: Vec<Option<&[u64]>> =
            source.iter().map(|r| (!r.region.is_empty()).then(|| r.region.offset())).collect();
        shades_by_start(&starts)
    } else {
        source.iter().map(|r| Some(fill_of(r.device))).collect()
    };
    let held = source.iter().zip(fills).filter_map(|(r, fill)| Some((slice.project(&r.region)?, fill?)));
    let grown = |r: PixelRect| PixelRect::new(r.x - 0.25, r.y - 0.25, r.width + 0.5, r.height + 0.5);
    paths_by_fill(tint_boxes(held).into_iter().map(|(cells, fill)| (grown(rect(cells)), fill)))
}

/// The source regions' boxes to tint on an aggregated picture, each once, with the fill of the device that
/// holds it (as its tile in the mesh view is filled), in the order first held. A box held by devices of
/// different fills (partial contributors, or replicas of different colours) is left untinted: no one
/// colour is right for it. Without a tint the large presets' pictures were a bare grid of lines beside
/// their coloured meshes.
pub fn tint_boxes(held: impl IntoIterator<Item = (Cells, &'static str)>) -> Vec<(Cells, &'static str)> {
    let key = |c: &Cells| (c.row0, c.row1, c.col0, c.col1);
    let mut boxes: Vec<(Cells, Option<&'static str>)> = Vec::new();
    let mut seen: HashMap<(u64, u64, u64, u64), usize> = HashMap::new();
    for (cells, fill) in held {
        match seen.get(&key(&cells)) {
            Some(&i) => {
                if boxes[i].1 != Some(fill) {
                    boxes[i].1 = None;
                }
            }
            None => {
                seen.insert(key(&cells), boxes.len());
                boxes.push((cells, Some(fill)));
            }
        }
    }
    boxes.into_iter().filter_map(|(cells, fill)| Some((cells, fill?))).collect()
}

/// For each box in order, its place in the stack of equal boxes and the stack's size: `(place, size)`.
/// Boxes equal to an earlier one are stacked on it (replicas of a destination, or partial contributors,
/// receive the same box).
pub fn stacks(boxes: &[Cells]) -> Vec<(usize, usize)> {
    let key = |c: &Cells| (c.row0, c.row1, c.col0, c.col1);
    let mut count: HashMap<(u64, u64, u64, u64), usize> = HashMap::with_capacity(boxes.len());
    let place: Vec<usize> = boxes
        .iter()
        .map(|c| {
            let n = count.entry(key(c)).or_insert(0);
            *n += 1;
            *n - 1
        })
        .collect();
    boxes.iter().zip(place).map(|(c, l)| (l, count.get(&key(c)).copied().unwrap_or(1))).collect()
}

/// A piece's name, as its label and its tooltip say it: `d0 → d3`, or `d0 (local)` for a copy a device
/// makes to itself (an arrow to itself read as a transfer).
pub fn piece_name(src: u32, dst: u32, local: bool) -> String {
    if local { format!("d{src} (local)") } else { format!("d{src} → d{dst}") }
}

/// The label of a stack of pieces on one box, from its `(sender, receiver, partial contributor)` triples:
/// who sends to whom, e.g. `d0 → d8, d12` (one sender, two replicas). Partial sums that the receivers add
/// up say so: `d0 + d1 → d4` (two contributors), `4 partial sums → d4, d5` (four, to two replicas); as "4
/// devices" the picture of a Partial change did not say that its box is a sum. A side with more than three
/// devices is counted rather than listed.
pub fn stack_label(members: &[(u32, u32, usize)]) -> String {
    fn sorted(mut ids: Vec<u32>) -> Vec<u32> {
        ids.sort_unstable();
        ids.dedup();
        ids
    }
    fn listed(ids: &[u32], separator: &str) -> String {
        ids.iter().map(|d| format!("d{d}")).collect::<Vec<_>>().join(separator)
    }
    let mut contributors: Vec<usize> = members.iter().map(|m| m.2).collect();
    contributors.sort_unstable();
    contributors.dedup();
    let summed = contributors.len() > 1;
    let senders = sorted(members.iter().map(|m| m.0).collect());
    // A sum is written out when each of its terms has one sender: replicas of one contributor sending to
    // different receivers would read as more terms than the sum has.
    let senders = match (senders.len() <= 3, summed) {
        (true, true) if senders.len() == contributors.len() => listed(&senders, " + "),
        (_, true) => format!("{} partial sums", contributors.len()),
        (true, false) => listed(&senders, ", "),
        (false, false) => format!("{} devices", senders.len()),
    };
    let receivers = sorted(members.iter().map(|m| m.1).collect());
    let receivers =
        if receivers.len() <= 3 { listed(&receivers, ", ") } else { format!("{} devices", receivers.len()) };
    format!("{senders} → {receivers}")
}

/// The whole source shards one receiver gets under the whole-shard strategy: every distinct source region
/// (per partial contributor) that overlaps `destination`, each from one replica, chosen as the planner
/// does when loads are equal (the receiver itself, then a device on its node, then the lowest id).
pub fn whole_shard_sources<'a>(
    destination: &Region,
    receiver: u32,
    sources: &'a [DeviceRegion],
    node_of: impl Fn(u32) -> u32,
) -> Vec<&'a DeviceRegion> {
    let node = node_of(receiver);
    let preference = |d: &DeviceRegion| (d.device != receiver, node_of(d.device) != node, d.device);
    let mut chosen: Vec<&DeviceRegion> = Vec::new();
    let mut slot: HashMap<(Region, usize), usize> = HashMap::new();
    for source in sources.iter().filter(|s| !s.region.is_empty() && s.region.intersect(destination).is_some()) {
        match slot.get(&(source.region, source.contributor)) {
            Some(&i) if preference(source) < preference(chosen[i]) => chosen[i] = source,
            Some(_) => {}
            None => {
                slot.insert((source.region, source.contributor), chosen.len());
                chosen.push(source);
            }
        }
    }
    chosen
}

/// A device whose region has no entries, and the first dim that is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyShard {
    pub device: u32,
    pub dim: usize,
    pub interval: Interval,
}

/// Every device holding an empty region (an uneven split leaves trailing chunks empty), in mesh order.
pub fn empty_shards(regions: &[DeviceRegion]) -> Vec<EmptyShard> {
    regions
        .iter()
        .filter_map(|r| {
            let dim = (0..r.region.rank()).find(|&d| r.region.interval(d).is_empty())?;
            Some(EmptyShard { device: r.device, dim, interval: r.region.interval(dim) })
        })
        .collect()
}

/// How a tensor dim reads in the view: `rows`, `columns`, `entries` (rank 1) or `dim 2`.
pub fn dim_word(dim: usize, row_dim: usize, col_dim: usize, rank: usize) -> String {
    match dim {
        _ if rank <= 1 => "entries".to_string(),
        d if d == row_dim => "rows".to_string(),
        d if d == col_dim => "columns".to_string(),
        d => format!("dim {d}"),
    }
}

/// `d3 holds an empty shard (no rows, offset 6)`: where its chunk would start, and that it holds nothing
/// (not `rows 6–6`, which reads as one row).
pub fn describe_empty(shard: &EmptyShard, dim_word: &str) -> String {
    format!("d{} holds an empty shard (no {dim_word}, offset {})", shard.device, shard.interval.start)
}

/// At most this many lines list one side's empty shards: 12 rows over 65,536 devices leave 65,524 of them,
/// and a line each froze the page for seconds.
pub const EMPTY_LINES: usize = 6;

/// One side's empty shards as lines for the note under the picture (`side` is "Source" or "Destination";
/// `word` names a dim as the view reads it): one line per shard, or the first few and a count of the rest.
pub fn empty_lines(side: &str, shards: &[EmptyShard], word: impl Fn(usize) -> String) -> Vec<String> {
    let line = |shard: &EmptyShard| format!("{side} {}", describe_empty(shard, &word(shard.dim)));
    if shards.len() <= EMPTY_LINES {
        return shards.iter().map(line).collect();
    }
    let (shown, rest) = shards.split_at(EMPTY_LINES - 1);
    let mut lines: Vec<String> = shown.iter().map(line).collect();
    let (first, last) = (rest[0].device, rest[rest.len() - 1].device);
    lines.push(format!(
        "{side}: {} more devices hold empty shards (d{first} … d{last})",
        crate::chart::scale::group_thousands(rest.len() as u64)
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{placement::Placement, presets, region::device_regions};

    #[test]
    fn a_piece_is_named_by_its_devices_and_a_local_copy_without_an_arrow() {
        assert_eq!(piece_name(0, 3, false), "d0 → d3");
        assert_eq!(piece_name(2, 2, true), "d2 (local)");
    }

    #[test]
    fn each_box_is_tinted_once_and_a_box_of_several_colours_not_at_all() {
        let c = |row0, row1| Cells { row0, row1, col0: 0, col1: 4 };
        let tint = tint_boxes([(c(0, 2), "a"), (c(2, 4), "b"), (c(0, 2), "a"), (c(4, 6), "c"), (c(4, 6), "d")]);
        // Replicas of one colour: once. Two colours on one box (partial contributors): untinted.
        assert_eq!(tint, [(c(0, 2), "a"), (c(2, 4), "b")]);
        assert!(tint_boxes([]).is_empty());
    }

    #[test]
    fn many_empty_shards_are_listed_a_few_then_counted() {
        let shards: Vec<EmptyShard> =
            (0..65_524).map(|i| EmptyShard { device: 12 + i, dim: 0, interval: Interval::new(12, 12) }).collect();
        let lines = empty_lines("Source", &shards, |_| "rows".to_string());
        assert_eq!(lines.len(), EMPTY_LINES);
        assert_eq!(lines[0], "Source d12 holds an empty shard (no rows, offset 12)");
        assert_eq!(lines[5], "Source: 65,519 more devices hold empty shards (d17 … d65535)");
        // A few are each listed.
        assert_eq!(empty_lines("Destination", &shards[..EMPTY_LINES], |_| "rows".to_string()).len(), EMPTY_LINES);
    }

    fn cells(row0: u64, row1: u64, col0: u64, col1: u64) -> Cells {
        Cells { row0, row1, col0, col1 }
    }

    fn side_regions(reshard: &crate::core::model::Reshard, source: bool) -> Vec<DeviceRegion> {
        let t = &reshard.tensors[0];
        let (layout, mesh) =
            if source { (&t.source, &reshard.source_mesh) } else { (&t.destination, &reshard.destination_mesh) };
        device_regions(layout, mesh, &t.shape, reshard.split).unwrap()
    }

    #[test]
    fn boundaries_are_interior_and_deduplicated() {
        let toy_sources = [cells(0, 4, 0, 6), cells(4, 8, 0, 6), cells(8, 12, 0, 6)];
        assert_eq!(boundary_positions(toy_sources, 12, 6), (vec![4, 8], vec![]));
    }

    #[test]
    fn nested_sharding_is_told_from_a_flat_one_by_its_outer_groups() {
        let nested = presets::nested();
        let t = &nested.tensors[0];
        let slice = Slice { row_dim: 0, col_dim: 1, index: vec![0; t.shape.len()] };
        let sources = side_regions(&nested, true);
        // [Shard(0), Shard(0)] on dp = 2 × tp = 4 over 16 rows: two groups of eight rows, four bands each.
        assert_eq!(nested.source_mesh.shape, vec![2, 4]);
        let groups = outer_group_boxes(&sources, &slice);
        assert_eq!(groups, vec![cells(0, 8, 0, 8), cells(8, 16, 0, 8)]);
        assert_eq!(boundary_positions(groups, 16, 8), (vec![8], vec![]));
        // In strided order the groups interleave: no group is one box, so nothing is drawn.
        let mut strided = nested.clone();
        strided.tensors[0].source.order = crate::core::model::ShardOrder::Strided;
        assert_eq!(outer_group_boxes(&side_regions(&strided, true), &slice), vec![]);
        // A one-dim mesh has no groups; a first dim that replicates gives every group the same box.
        assert_eq!(outer_group_boxes(&side_regions(&presets::toy(), true), &slice), vec![]);
        let fsdp = presets::fsdp_tp();
        let fsdp_slice = Slice { row_dim: 0, col_dim: 1, index: vec![0; fsdp.tensors[0].shape.len()] };
        assert_eq!(fsdp.destination_mesh.shape, vec![2, 4]);
        assert_eq!(outer_group_boxes(&side_regions(&fsdp, false), &fsdp_slice), vec![], "(Replicate, Shard(0))");
        // A nested destination has groups too: columns by dp, then each half's rows by tp.
        let mut nested_destination = fsdp.clone();
        nested_destination.tensors[0].destination.placements = vec![Placement::Shard(1), Placement::Shard(0)];
        assert_eq!(
            outer_group_boxes(&side_regions(&nested_destination, false), &fsdp_slice),
            vec![cells(0, 1024, 0, 512), cells(0, 1024, 512, 1024)]
        );
    }

    #[test]
    fn a_stack_is_labelled_by_its_senders_and_receivers() {
        assert_eq!(stack_label(&[(0, 8, 0), (0, 12, 0)]), "d0 → d8, d12");
        let partial: Vec<(u32, u32, usize)> = (0..4).flat_map(|s| [(s, 4, s as usize), (s, 5, s as usize)]).collect();
        assert_eq!(stack_label(&partial), "4 partial sums → d4, d5");
        assert_eq!(stack_label(&[(1, 4, 1), (0, 4, 0)]), "d0 + d1 → d4", "a sum of few is written out");
        assert_eq!(stack_label(&[(3, 1, 0), (2, 1, 0), (3, 1, 0)]), "d2, d3 → d1", "sorted, each device once");
        let replicas: Vec<(u32, u32, usize)> = (0..4).map(|s| (s, 9, 0)).collect();
        assert_eq!(stack_label(&replicas), "4 devices → d9", "replicas of one region are not a sum");
        // Two contributors, each held by two replicas (d0, d2 and d1, d3), sent to two receivers.
        let replicated = [(0, 4, 0), (1, 4, 1), (2, 5, 0), (3, 5, 1)];
        assert_eq!(stack_label(&replicated), "2 partial sums → d4, d5", "a term per contributor, not per sender");
        let replicated = [(0, 4, 0), (1, 4, 1), (2, 5, 0), (1, 5, 1)];
        assert_eq!(stack_label(&replicated), "2 partial sums → d4, d5");
        let wide: Vec<(u32, u32, usize)> = (4..8).map(|d| (0, d, 0)).collect();
        assert_eq!(stack_label(&wide), "d0 → 4 devices");
    }

    #[test]
    fn equal_boxes_stack_in_order() {
        let a = cells(0, 8, 0, 8);
        let b = cells(0, 4, 0, 8);
        assert_eq!(stacks(&[a, b, a, a]), vec![(0, 3), (0, 1), (1, 3), (2, 3)]);
    }

    #[test]
    fn a_toy_receiver_gets_all_three_row_shards_whole() {
        // The article: whole-shard sending moves every 4 × 6 source shard to both destinations.
        let toy = presets::toy();
        let (sources, destinations) = (side_regions(&toy, true), side_regions(&toy, false));
        let sent = whole_shard_sources(&destinations[0].region, destinations[0].device, &sources, |d| d / 8);
        assert_eq!(sent.iter().map(|s| s.device).collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    #[test]
    fn replicas_send_once_and_partial_contributors_each_send() {
        let fsdp = presets::fsdp_tp();
        let destinations = side_regions(&fsdp, false);
        // The source is FSDP-8 by rows: a destination of 256 rows overlaps two 128-row shards.
        let sources = side_regions(&fsdp, true);
        let sent = whole_shard_sources(&destinations[0].region, destinations[0].device, &sources, |d| d / 8);
        assert_eq!(sent.len(), 2);
        let partial = presets::partial();
        let sources = side_regions(&partial, true);
        let sent = whole_shard_sources(&side_regions(&partial, false)[0].region, 4, &sources, |d| d / 8);
        assert_eq!(sent.len(), 4, "each of the four partial sums is sent");
    }

    #[test]
    fn the_uneven_preset_lists_its_empty_shard() {
        let empty = empty_shards(&side_regions(&presets::uneven(), true));
        assert_eq!(empty, vec![EmptyShard { device: 3, dim: 0, interval: Interval::new(6, 6) }]);
        assert_eq!(describe_empty(&empty[0], &dim_word(0, 0, 1, 2)), "d3 holds an empty shard (no rows, offset 6)");
        assert_eq!(dim_word(2, 0, 1, 3), "dim 2");
        assert_eq!(dim_word(0, 0, 0, 1), "entries");
    }
}
