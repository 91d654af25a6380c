//! Which box of the tensor each device of a mesh holds (domain.md §1), as per-tensor-dim interval tables.
//!
//! A device's region is a product of one interval per tensor dim. Along tensor dim `t` the interval depends
//! only on the device's coordinates on the mesh dims that shard `t`, so each side is described by a small
//! table per tensor dim (its *classes*) rather than a box per device. Planning merges these tables.

use super::geometry::{Interval, Region};
use super::model::{Layout, Mesh, ShardOrder, SplitRule};
use super::placement::Placement;

/// Chunk `index` of `count` when an extent `[start, end)` is split by `rule`.
///
/// `Chunk` is `torch.chunk`: size `ceil(n / count)`, trailing chunks smaller or empty (an empty chunk sits
/// at the end of the extent). `Balanced` is numpy's `array_split`: the first `n % count` chunks get one more.
pub fn split(extent: Interval, count: u64, index: u64, rule: SplitRule) -> Interval {
    let n = extent.len();
    let count = count.max(1);
    let (lo, hi) = match rule {
        SplitRule::Chunk => {
            let size = n.div_ceil(count);
            (index.saturating_mul(size).min(n), (index + 1).saturating_mul(size).min(n))
        }
        SplitRule::Balanced => {
            let (q, rem) = (n / count, n % count);
            let lo = index * q + index.min(rem);
            (lo, lo + q + u64::from(index < rem))
        }
    };
    Interval::new(extent.start + lo, extent.start + hi)
}

/// For each tensor dim, the mesh dims that shard it, in the order they are applied.
///
/// Plain `Shard`s apply in mesh-dim order (or reversed with [`ShardOrder::Strided`]). A `_StridedShard`
/// follows PyTorch's rule: it is deferred until the next plain `Shard` of the same dim, whose mesh-dim sizes
/// (together with deferred ones applied so far) must equal its `split_factor`; anything else is refused.
pub fn shard_orders(layout: &Layout, mesh_shape: &[u64], rank: usize) -> Result<Vec<Vec<usize>>, String> {
    let mut orders = vec![Vec::new(); rank];
    let mut deferred: Vec<Vec<(usize, u64)>> = vec![Vec::new(); rank];
    let mut ended = vec![false; rank];
    for (mesh_dim, placement) in layout.placements.iter().enumerate() {
        match *placement {
            Placement::StridedShard { dim, split_factor } if dim < rank => deferred[dim].push((mesh_dim, split_factor)),
            Placement::Shard(dim) if dim < rank => {
                if ended[dim] {
                    return Err(format!("Shard({dim}) after a strided group of the same dim is not supported"));
                }
                orders[dim].push(mesh_dim);
                if !deferred[dim].is_empty() {
                    let mut aggregate = mesh_shape[mesh_dim];
                    while let Some((strided_mesh_dim, split_factor)) = deferred[dim].pop() {
                        if split_factor != aggregate {
                            return Err(format!(
                                "_StridedShard(dim={dim}) on mesh dim {strided_mesh_dim} has split_factor {split_factor}, \
                                 but the later shards of dim {dim} split it {aggregate} ways"
                            ));
                        }
                        aggregate = aggregate.saturating_mul(mesh_shape[strided_mesh_dim]);
                        orders[dim].push(strided_mesh_dim);
                    }
                    ended[dim] = true;
                }
            }
            _ => {}
        }
    }
    if let Some(dim) = deferred.iter().position(|d| !d.is_empty()) {
        // Alone, each device would hold split_factor interleaved slices of the dim: not one box, which is
        // what every view and count here is built on.
        return Err(format!(
            "_StridedShard(dim={dim}) has no later Shard({dim}) to follow: alone it leaves each device several \
             interleaved slices, which this tool does not model; it reads _StridedShard as FSDP2 + TP write it, \
             before the Shard({dim}) of a later mesh dim"
        ));
    }
    // The strided order reverses plain `Shard`s only: a dim a `_StridedShard` shards is already in it, and
    // reversed once more it was back in mesh order, with other regions and no word (review 40).
    if layout.order == ShardOrder::Strided {
        for (order, strided) in orders.iter_mut().zip(&ended) {
            if !strided {
                order.reverse();
            }
        }
    }
    Ok(orders)
}

/// Where every device of one side's mesh sits in the tensor, for one tensor.
#[derive(Clone, Debug)]
pub struct SideRegions {
    /// Per tensor dim: the intervals of its classes, sorted by start (class index = mixed-radix coordinate
    /// over the sharding mesh dims, first-applied most significant).
    pub intervals: Vec<Vec<Interval>>,
    /// Per tensor dim, per class: that class's contribution to a device's row-major mesh index.
    pub class_offsets: Vec<Vec<usize>>,
    /// Per tensor dim: the sharding mesh dims in application order.
    pub orders: Vec<Vec<usize>>,
    /// Mesh-index offsets of the replicas of one region (all combinations of `Replicate` mesh dims).
    pub replica_offsets: Vec<usize>,
    /// Mesh-index offsets of the partial contributors (all combinations of `Partial` mesh dims).
    pub partial_offsets: Vec<usize>,
    mesh_shape: Vec<u64>,
    strides: Vec<usize>,
}

impl SideRegions {
    /// Builds the tables for a validated layout. Errors only on a layout validation would have refused.
    pub fn new(layout: &Layout, mesh: &Mesh, shape: &[u64], rule: SplitRule) -> Result<SideRegions, String> {
        let orders = shard_orders(layout, &mesh.shape, shape.len())?;
        let strides = mesh.strides();
        let mut intervals = Vec::with_capacity(shape.len());
        let mut class_offsets = Vec::with_capacity(shape.len());
        for (dim, order) in orders.iter().enumerate() {
            let mut current = vec![(Interval::new(0, shape[dim]), 0usize)];
            for &mesh_dim in order {
                let k = mesh.shape[mesh_dim];
                let mut next = Vec::with_capacity(current.len() * k as usize);
                for &(extent, offset) in &current {
                    for r in 0..k {
                        next.push((split(extent, k, r, rule), offset + r as usize * strides[mesh_dim]));
                    }
                }
                current = next;
            }
            intervals.push(current.iter().map(|c| c.0).collect());
            class_offsets.push(current.iter().map(|c| c.1).collect());
        }
        let combos = |kind: Placement| {
            let mut offsets = vec![0usize];
            for (mesh_dim, p) in layout.placements.iter().enumerate() {
                if *p == kind {
                    let (size, stride) = (mesh.shape[mesh_dim] as usize, strides[mesh_dim]);
                    offsets = offsets.iter().flat_map(|&o| (0..size).map(move |r| o + r * stride)).collect();
                }
            }
            offsets
        };
        Ok(SideRegions {
            intervals,
            class_offsets,
            orders,
            replica_offsets: combos(Placement::Replicate),
            partial_offsets: combos(Placement::Partial),
            mesh_shape: mesh.shape.clone(),
            strides,
        })
    }

    /// The class along tensor dim `dim` of the device at row-major mesh index `flat`.
    #[inline(always)]
    pub fn class_of(&self, dim: usize, flat: usize) -> usize {
        let mut class = 0;
        for &mesh_dim in &self.orders[dim] {
            let coord = (flat / self.strides[mesh_dim]) % self.mesh_shape[mesh_dim] as usize;
            class = class * self.mesh_shape[mesh_dim] as usize + coord;
        }
        class
    }

    /// The region of the device at row-major mesh index `flat`.
    pub fn region_of(&self, flat: usize) -> Region {
        Region::from_intervals((0..self.intervals.len()).map(|d| self.intervals[d][self.class_of(d, flat)]))
    }

    /// Number of partial contributors for each entry (1 when the side has no `Partial`).
    pub fn contributors(&self) -> usize {
        self.partial_offsets.len()
    }
}

/// One device's place in a layout, for display: its region and which group it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceRegion {
    pub device: u32,
    pub coord: Vec<u64>,
    pub region: Region,
    /// Index of this device among the replicas of its region (0 for the first).
    pub replica: usize,
    /// Index of this device among the partial contributors of its region (0 when not Partial).
    pub contributor: usize,
}

/// The region of every device of a side, in row-major mesh order.
pub fn device_regions(
    layout: &Layout,
    mesh: &Mesh,
    shape: &[u64],
    rule: SplitRule,
) -> Result<Vec<DeviceRegion>, String> {
    let side = SideRegions::new(layout, mesh, shape, rule)?;
    Ok((0..mesh.size())
        .map(|flat| {
            let coord = mesh.coord(flat);
            let index_over = |kind: Placement| {
                let mut index = 0usize;
                for (m, p) in layout.placements.iter().enumerate() {
                    if *p == kind {
                        index = index * mesh.shape[m] as usize + coord[m] as usize;
                    }
                }
                index
            };
            DeviceRegion {
                device: mesh.devices[flat],
                region: side.region_of(flat),
                replica: index_over(Placement::Replicate),
                contributor: index_over(Placement::Partial),
                coord,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::Dtype;

    fn sizes(n: u64, k: u64, rule: SplitRule) -> Vec<u64> {
        (0..k).map(|r| split(Interval::new(0, n), k, r, rule).len()).collect()
    }

    #[test]
    fn chunk_rule_matches_torch_chunk() {
        assert_eq!(sizes(10, 4, SplitRule::Chunk), [3, 3, 3, 1]);
        assert_eq!(sizes(6, 4, SplitRule::Chunk), [2, 2, 2, 0]);
        assert_eq!(sizes(12, 5, SplitRule::Chunk), [3, 3, 3, 3, 0]);
    }

    #[test]
    fn balanced_rule_matches_array_split() {
        assert_eq!(sizes(12, 5, SplitRule::Balanced), [3, 3, 2, 2, 2]);
        assert_eq!(sizes(3, 5, SplitRule::Balanced), [1, 1, 1, 0, 0]);
    }

    #[test]
    fn empty_chunks_sit_at_the_end_of_their_extent() {
        assert_eq!(split(Interval::new(0, 6), 4, 3, SplitRule::Chunk), Interval::new(6, 6));
    }

    fn layout(placements: &[&str], order: ShardOrder) -> Layout {
        Layout {
            placements: placements.iter().map(|p| Placement::parse(p).unwrap()).collect(),
            order,
            dtype: Dtype::Bf16,
        }
    }

    #[test]
    fn nested_shards_apply_in_mesh_order() {
        // Dim 10 on a 2×2 mesh [S(0), S(0)]: 3, 2, 3, 2 at offsets 0, 3, 5, 8.
        let mesh = Mesh::contiguous(&[2, 2], 0);
        let regions =
            device_regions(&layout(&["S(0)", "S(0)"], ShardOrder::Mesh), &mesh, &[10], SplitRule::Chunk).unwrap();
        let got: Vec<(u64, u64)> = regions.iter().map(|d| (d.region.offset()[0], d.region.shape()[0])).collect();
        assert_eq!(got, [(0, 3), (3, 2), (5, 3), (8, 2)]);
    }

    #[test]
    fn strided_order_applies_right_to_left() {
        // [16] on [2, 4]: the 4-way dim splits first, so mesh coordinate (i, j) holds chunk j*2 + i.
        let mesh = Mesh::contiguous(&[2, 4], 0);
        let strided =
            device_regions(&layout(&["S(0)", "S(0)"], ShardOrder::Strided), &mesh, &[16], SplitRule::Chunk).unwrap();
        let explicit =
            device_regions(&layout(&["SS0x4", "S(0)"], ShardOrder::Mesh), &mesh, &[16], SplitRule::Chunk).unwrap();
        let offsets: Vec<u64> = strided.iter().map(|d| d.region.offset()[0]).collect();
        assert_eq!(offsets, [0, 4, 8, 12, 2, 6, 10, 14]);
        assert_eq!(strided, explicit);
        // The strided order does not reverse a `_StridedShard`'s dim once more: it is in that order already
        // (reversed twice, it read as mesh order: other regions, no word; review 40).
        let both =
            device_regions(&layout(&["SS0x4", "S(0)"], ShardOrder::Strided), &mesh, &[16], SplitRule::Chunk).unwrap();
        assert_eq!(both, explicit);
        // A dim of each kind: the plain `Shard`s of dim 1 are reversed, the `_StridedShard`'s dim 0 is not.
        let mesh = Mesh::contiguous(&[2, 2, 2, 2], 0);
        let placements = ["SS0x2", "S(0)", "S(1)", "S(1)"];
        let mixed = device_regions(&layout(&placements, ShardOrder::Strided), &mesh, &[8, 8], SplitRule::Chunk);
        let spelt = ["SS0x2", "S(0)", "SS1x2", "S(1)"];
        let explicit = device_regions(&layout(&spelt, ShardOrder::Mesh), &mesh, &[8, 8], SplitRule::Chunk);
        assert_eq!(mixed.unwrap(), explicit.unwrap());
    }

    #[test]
    fn replicas_and_contributors_are_numbered() {
        let mesh = Mesh::contiguous(&[2, 3], 0);
        let regions = device_regions(&layout(&["P", "R"], ShardOrder::Mesh), &mesh, &[4], SplitRule::Chunk).unwrap();
        let got: Vec<(usize, usize)> = regions.iter().map(|d| (d.contributor, d.replica)).collect();
        assert_eq!(got, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]);
        assert!(regions.iter().all(|d| d.region == Region::whole(&[4]).unwrap()));
    }
}
