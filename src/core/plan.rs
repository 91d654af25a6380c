//! Pieces: which box each destination receives from which source device (domain.md §2, §4).
//!
//! Planning works per tensor dim: the source and destination class intervals are both sorted, so a merge
//! finds, for each destination class, the run of source classes that overlap it. A destination device's
//! pieces are then the product of those runs over the tensor dims. The cost grows with the number of pieces,
//! never with sources × destinations: a region with many replicas picks its sender from heaps by load
//! ([`ReplicaIndex`]) rather than by comparing every replica for every piece. Pieces stream to a visitor;
//! [`Plan`] collects them when wanted.

use std::collections::HashMap;

use serde::Serialize;

use super::geometry::{Interval, Region};
use super::model::{Reshard, TensorChange};
use super::region::SideRegions;

/// How the destination gets its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Each destination receives exactly the intersections it needs (the Reshard idea).
    Intersection,
    /// Each destination receives every overlapping source shard whole and discards the rest.
    WholeShard,
    /// One replica of each source region goes to a root (the first source device), which sends the whole
    /// tensor along a ring through the destinations; each keeps its slice.
    Gather,
}

impl Strategy {
    pub const ALL: [Strategy; 3] = [Strategy::Intersection, Strategy::WholeShard, Strategy::Gather];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Intersection => "intersection",
            Strategy::WholeShard => "whole-shard",
            Strategy::Gather => "gather",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Strategy::Intersection => "Send only the intersection",
            Strategy::WholeShard => "Send whole shard, discard",
            Strategy::Gather => "Gather then broadcast",
        }
    }
    pub fn parse(text: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == text || (text == "whole_shard" && *s == Strategy::WholeShard))
    }
}

/// Which links a piece crosses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkClass {
    /// Same device: a local copy, no link.
    Local,
    /// Same node: sender's `nvlink_out`, receiver's `nvlink_in`.
    Nvlink,
    /// Across nodes: sender's `nic_out`, receiver's `nic_in`.
    Nic,
}

impl LinkClass {
    pub fn name(self) -> &'static str {
        match self {
            LinkClass::Local => "local",
            LinkClass::Nvlink => "nvlink",
            LinkClass::Nic => "nic",
        }
    }
}

/// What part of a strategy a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PieceRole {
    /// Straight from a source to a destination.
    Direct,
    /// Gather: a source region going to the root.
    ToRoot,
    /// Broadcast: one hop of the ring carrying the whole tensor.
    RingHop,
}

impl PieceRole {
    /// As serialized (the CSV export's `role` column).
    pub fn name(self) -> &'static str {
        match self {
            PieceRole::Direct => "direct",
            PieceRole::ToRoot => "to-root",
            PieceRole::RingHop => "ring-hop",
        }
    }
}

/// One message: a box of one tensor sent from `src` to `dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Index of the tensor in [`Reshard::tensors`].
    pub tensor: usize,
    pub src: u32,
    pub dst: u32,
    /// Dense indices of `src` and `dst` in the plan's [`DeviceTable`].
    pub src_slot: u32,
    pub dst_slot: u32,
    /// The box that is sent, in global tensor coordinates.
    pub region: Region,
    /// The part of `region` the receiver keeps as its own (equal to `region` for intersection pieces; the
    /// rest is discarded or forwarded).
    pub keep: Region,
    /// Which Partial contributor this piece carries (0 when the source is not Partial).
    pub contributor: usize,
    pub link: LinkClass,
    pub role: PieceRole,
    /// Bytes on the wire (`region` entries × the dtype that crosses the link), also for local copies.
    pub bytes: u64,
}

impl Piece {
    /// A piece covering the whole tensor of `shape`, from and to device 0: the planner's reusable scratch,
    /// every field of which it sets before handing the piece on.
    fn blank(tensor: usize, shape: &[u64], role: PieceRole) -> Piece {
        let whole = Region::from_intervals(shape.iter().map(|&n| Interval::new(0, n)));
        Piece {
            tensor,
            src: 0,
            dst: 0,
            src_slot: 0,
            dst_slot: 0,
            region: whole,
            keep: whole,
            contributor: 0,
            link: LinkClass::Local,
            role,
            bytes: 0,
        }
    }

    pub fn is_local(&self) -> bool {
        self.link == LinkClass::Local
    }
}

/// Every device of a change (source mesh first, then destination-only devices) with a dense slot each.
#[derive(Clone, Debug)]
pub struct DeviceTable {
    pub devices: Vec<u32>,
    pub source_slots: Vec<u32>,
    pub destination_slots: Vec<u32>,
}

impl DeviceTable {
    pub fn new(reshard: &Reshard) -> DeviceTable {
        let mut slot_of: HashMap<u32, u32> = HashMap::new();
        let mut devices = Vec::new();
        let mut slot = |id: u32| {
            *slot_of.entry(id).or_insert_with(|| {
                devices.push(id);
                devices.len() as u32 - 1
            })
        };
        let source_slots = reshard.source_mesh.devices.iter().map(|&d| slot(d)).collect();
        let destination_slots = reshard.destination_mesh.devices.iter().map(|&d| slot(d)).collect();
        DeviceTable { devices, source_slots, destination_slots }
    }

    /// The device ids of a list of slots (e.g. `source_slots`: the source mesh's devices in mesh order).
    pub fn ids(&self, slots: &[u32]) -> Vec<u32> {
        slots.iter().filter_map(|&slot| self.devices.get(slot as usize).copied()).collect()
    }
}

/// Streams the pieces of a whole change, tensor by tensor, into `visit`.
///
/// Replica choice is deterministic: among the sources holding the data, prefer the destination itself, then
/// a device on its node, then the sender with the fewest bytes assigned so far (across all tensors), then
/// the lowest device id.
pub struct Planner<'a> {
    reshard: &'a Reshard,
    strategy: Strategy,
    pub table: DeviceTable,
    /// Per source-mesh device (row-major mesh index): its id, node and bytes assigned so far, packed
    /// together because replica choice reads all three for every candidate of every piece.
    senders: Vec<Sender>,
    /// The current tensor's indexed replica choice, when its regions have many replicas.
    index: Option<ReplicaIndex>,
    /// When to index replica choice (tests compare both ways).
    index_policy: IndexPolicy,
}

/// When [`Planner`] indexes replica choice rather than scanning the replicas.
#[derive(Clone, Copy, Debug, PartialEq)]
enum IndexPolicy {
    /// When the scan would cost more than building the index.
    Auto,
    #[cfg(test)]
    Always,
    #[cfg(test)]
    Never,
}

/// The replicas of one region (of one partial contributor): a heap of all of them, and one per node they are
/// on (sorted by node), each giving the least loaded, then lowest id, first.
struct ReplicaGroup {
    all: LoadHeap,
    by_node: Vec<(u32, LoadHeap)>,
}

/// Replica choice for one tensor whose regions have many replicas, giving the same sender as the scan of
/// [`Planner::choose_replica`]: the destination itself if it is a replica, else the least loaded (then lowest
/// id) replica on its node, else the least loaded of all. The scan compared every replica for every piece:
/// 65,536 devices replicated to 65,536 took four billion comparisons, over a minute in the browser.
struct ReplicaIndex {
    /// Per source mesh index: its group's place in `groups`.
    group_of: Vec<usize>,
    /// Per group: the mesh index of its first replica (the group's key in [`Planner::choose_replica`]).
    firsts: Vec<usize>,
    groups: Vec<ReplicaGroup>,
}

impl ReplicaIndex {
    fn new(senders: &[Sender], replica_offsets: &[usize]) -> ReplicaIndex {
        let mut group_of = vec![usize::MAX; senders.len()];
        let (mut firsts, mut groups) = (Vec::new(), Vec::new());
        for first in 0..senders.len() {
            if group_of[first] != usize::MAX {
                continue;
            }
            // The lowest unvisited index has no replica coordinate: it is its group's first replica.
            let mut group = ReplicaGroup { all: LoadHeap::default(), by_node: Vec::new() };
            for &offset in replica_offsets {
                let flat = first + offset;
                let Some(sender) = senders.get(flat) else { continue };
                group_of[flat] = groups.len();
                group.all.push(sender, flat);
                group.node_heap(sender.node).push(sender, flat);
            }
            firsts.push(first);
            groups.push(group);
        }
        ReplicaIndex { group_of, firsts, groups }
    }

    /// The sender for a destination on `node` among the group whose first replica is `first`; `dst_flat` is
    /// the destination's source mesh index when it is a source device too.
    fn choose(&mut self, senders: &[Sender], first: usize, dst_flat: Option<usize>, node: u32) -> Option<usize> {
        let group = *self.group_of.get(first)?;
        if self.firsts.get(group) != Some(&first) {
            return None;
        }
        if let Some(flat) = dst_flat
            && self.group_of.get(flat) == Some(&group)
        {
            return Some(flat);
        }
        let group = self.groups.get_mut(group)?;
        let on_node = match group.by_node.binary_search_by_key(&node, |(n, _)| *n) {
            Ok(at) => group.by_node[at].1.least(senders),
            Err(_) => None,
        };
        on_node.or_else(|| group.all.least(senders))
    }

    /// Files the sender at `flat` under its new load (the old entries go stale and are dropped when met).
    fn reload(&mut self, flat: usize, senders: &[Sender]) {
        let Some(group) = self.group_of.get(flat).and_then(|&g| self.groups.get_mut(g)) else { return };
        let Some(sender) = senders.get(flat) else { return };
        group.all.repush(sender, flat, senders);
        group.node_heap(sender.node).repush(sender, flat, senders);
    }
}

impl ReplicaGroup {
    fn node_heap(&mut self, node: u32) -> &mut LoadHeap {
        let at = match self.by_node.binary_search_by_key(&node, |(n, _)| *n) {
            Ok(at) => at,
            Err(at) => {
                self.by_node.insert(at, (node, LoadHeap::default()));
                at
            }
        };
        &mut self.by_node[at].1
    }
}

/// Senders by (load, id), least first, each entry packed in one integer: load (saturated as in
/// [`Planner::replica_key`]) above id above mesh index. A sender whose load grew is pushed again; its older
/// entries are stale and dropped when they come to the top.
#[derive(Default)]
struct LoadHeap {
    heap: std::collections::BinaryHeap<std::cmp::Reverse<u128>>,
    /// How many senders it holds (entries, stale ones included, are more).
    senders: usize,
}

impl LoadHeap {
    fn entry(sender: &Sender, flat: usize) -> std::cmp::Reverse<u128> {
        std::cmp::Reverse((u128::from(ranked_load(sender.load)) << 64) | (u128::from(sender.id) << 32) | flat as u128)
    }

    /// Whether an entry still holds its sender's load.
    fn current(key: u128, senders: &[Sender]) -> bool {
        let flat = (key & u128::from(u32::MAX)) as usize;
        senders.get(flat).is_some_and(|s| u128::from(ranked_load(s.load)) == key >> 64)
    }

    /// Adds a sender.
    fn push(&mut self, sender: &Sender, flat: usize) {
        self.heap.push(Self::entry(sender, flat));
        self.senders += 1;
    }

    /// Files a sender again under its new load. A heap never asked for its least (a node's, when no
    /// destination is on that node) would keep every stale entry, one per piece sent: past twice its
    /// senders, the stale ones go.
    fn repush(&mut self, sender: &Sender, flat: usize, senders: &[Sender]) {
        self.heap.push(Self::entry(sender, flat));
        if self.heap.len() > 2 * self.senders + 64 {
            self.heap.retain(|&std::cmp::Reverse(key)| Self::current(key, senders));
        }
    }

    /// The least loaded sender (lowest id among equals), its stale entries dropped on the way.
    fn least(&mut self, senders: &[Sender]) -> Option<usize> {
        while let Some(&std::cmp::Reverse(key)) = self.heap.peek() {
            if Self::current(key, senders) {
                return Some((key & u128::from(u32::MAX)) as usize);
            }
            self.heap.pop();
        }
        None
    }
}

/// A load as replica choice compares it: saturated below 2^62 bytes.
fn ranked_load(load: u64) -> u64 {
    load.min((1 << 62) - 1)
}

/// The link a piece from `src` (on node `src_node`) to `dst` (on `dst_node`) crosses: the one rule every
/// piece is classed by, whether its sender's node is looked up or kept.
#[inline(always)]
fn link_between(src: u32, src_node: u32, dst: u32, dst_node: u32) -> LinkClass {
    if src == dst {
        LinkClass::Local
    } else if src_node == dst_node {
        LinkClass::Nvlink
    } else {
        LinkClass::Nic
    }
}

/// What replica choice needs to know about one source device.
#[derive(Clone, Copy, Debug)]
struct Sender {
    id: u32,
    node: u32,
    load: u64,
}

impl<'a> Planner<'a> {
    pub fn new(reshard: &'a Reshard, strategy: Strategy) -> Planner<'a> {
        let senders = reshard
            .source_mesh
            .devices
            .iter()
            .map(|&id| Sender { id, node: reshard.topology.node_of(id), load: 0 })
            .collect();
        Planner {
            reshard,
            strategy,
            table: DeviceTable::new(reshard),
            senders,
            index: None,
            index_policy: IndexPolicy::Auto,
        }
    }

    /// Plans every tensor, in order.
    pub fn run(&mut self, mut visit: impl FnMut(&Piece)) -> Result<(), String> {
        for index in 0..self.reshard.tensors.len() {
            self.run_tensor(index, &mut visit)?;
        }
        Ok(())
    }

    /// Plans one tensor. The visitor is `dyn`: one copy of the planner's loops serves every caller, where a
    /// generic one was copied per closure (a dozen callers, ~12 KB of the gzipped wasm; an indirect call per
    /// piece costs nothing next to the piece's own work).
    pub fn run_tensor(&mut self, index: usize, visit: &mut dyn FnMut(&Piece)) -> Result<(), String> {
        let reshard = self.reshard;
        let tensor = reshard.tensors.get(index).ok_or_else(|| format!("no tensor {index}"))?;
        let source = SideRegions::new(&tensor.source, &reshard.source_mesh, &tensor.shape, reshard.split)?;
        let destination =
            SideRegions::new(&tensor.destination, &reshard.destination_mesh, &tensor.shape, reshard.split)?;
        let entry_bytes = reshard.wire_dtype(tensor).bytes();
        // Scanning costs replicas per piece; the index, a sort of the source mesh once per tensor.
        let replicas = source.replica_offsets.len();
        let receivers = reshard.destination_mesh.size().max(1) * source.partial_offsets.len();
        let indexed = match self.index_policy {
            IndexPolicy::Auto => replicas >= 64 && receivers.saturating_mul(replicas) >= 16 * self.senders.len(),
            #[cfg(test)]
            IndexPolicy::Always => replicas > 1,
            #[cfg(test)]
            IndexPolicy::Never => false,
        };
        self.index = indexed.then(|| ReplicaIndex::new(&self.senders, &source.replica_offsets));
        match self.strategy {
            Strategy::Intersection | Strategy::WholeShard => {
                self.direct(index, tensor, &source, &destination, entry_bytes, visit);
            }
            Strategy::Gather => self.gather(index, tensor, &source, &destination, entry_bytes, visit),
        }
        Ok(())
    }

    fn link(&self, src: u32, dst: u32) -> LinkClass {
        let topology = &self.reshard.topology;
        link_between(src, topology.node_of(src), dst, topology.node_of(dst))
    }

    /// The replica (source mesh index) that sends a region to `dst` (at slot `dst_slot` of the device table):
    /// same device, same node, least loaded, lowest id.
    #[inline(always)]
    fn choose_replica(&mut self, base: usize, replicas: &[usize], dst: u32, dst_slot: u32) -> usize {
        if replicas.len() == 1 {
            return base + replicas[0];
        }
        let node = self.reshard.topology.node_of(dst);
        if let Some(index) = &mut self.index {
            // The table gives the source devices the first slots, in mesh order: a destination that is a
            // source device too has its mesh index for a slot.
            let dst_flat = (dst_slot as usize) < self.senders.len();
            if let Some(flat) = index.choose(&self.senders, base, dst_flat.then_some(dst_slot as usize), node) {
                return flat;
            }
        }
        let mut best = base + replicas[0];
        let mut best_key = self.replica_key(best, dst, node);
        for &r in &replicas[1..] {
            let candidate = self.replica_key(base + r, dst, node);
            if candidate < best_key {
                best_key = candidate;
                best = base + r;
            }
        }
        best
    }

    /// One integer per candidate sender, so that replica choice compares once: (not the same device, not the
    /// same node, bytes assigned, id). Loads saturate below 2^62 bytes, far beyond any real plan.
    #[inline(always)]
    fn replica_key(&self, flat: usize, dst: u32, node: u32) -> u128 {
        let sender = self.senders[flat];
        (u128::from(sender.id != dst) << 127)
            | (u128::from(sender.node != node) << 126)
            | (u128::from(ranked_load(sender.load)) << 32)
            | u128::from(sender.id)
    }

    /// Completes `piece` (its boxes, destination and role already set) as sent by source device `src_flat`
    /// and hands it to `visit`. Callers reuse one `Piece` for all their pieces: zeroing and copying two boxes
    /// per piece was most of the planner's time in the size-optimised wasm build.
    #[inline(always)]
    fn emit(
        &mut self,
        piece: &mut Piece,
        src_flat: usize,
        contributor: usize,
        entry_bytes: u64,
        visit: &mut dyn FnMut(&Piece),
    ) {
        let src = self.reshard.source_mesh.devices[src_flat];
        let bytes = piece.region.entries().saturating_mul(entry_bytes);
        let link = link_between(src, self.senders[src_flat].node, piece.dst, self.reshard.topology.node_of(piece.dst));
        if link != LinkClass::Local {
            self.senders[src_flat].load = self.senders[src_flat].load.saturating_add(bytes);
            if let Some(index) = &mut self.index {
                index.reload(src_flat, &self.senders);
            }
        }
        piece.src = src;
        piece.src_slot = self.table.source_slots[src_flat];
        piece.contributor = contributor;
        piece.link = link;
        piece.bytes = bytes;
        visit(piece);
    }

    fn direct(
        &mut self,
        tensor_index: usize,
        tensor: &TensorChange,
        source: &SideRegions,
        destination: &SideRegions,
        entry_bytes: u64,
        visit: &mut dyn FnMut(&Piece),
    ) {
        let rank = tensor.shape.len();
        // Per tensor dim, per destination class: the overlapping source classes, from a merge.
        let overlaps: Vec<Vec<Vec<(usize, Interval)>>> =
            (0..rank).map(|d| merge_overlaps(&source.intervals[d], &destination.intervals[d])).collect();
        let whole_shard = self.strategy == Strategy::WholeShard;
        let mut runs: Vec<&[(usize, Interval)]> = Vec::with_capacity(rank);
        let mut cursor = vec![0usize; rank];
        let mut piece = Piece::blank(tensor_index, &tensor.shape, PieceRole::Direct);
        for dst_flat in 0..self.reshard.destination_mesh.size() {
            let dst = self.reshard.destination_mesh.devices[dst_flat];
            piece.dst = dst;
            piece.dst_slot = self.table.destination_slots[dst_flat];
            runs.clear();
            for (d, per_dim) in overlaps.iter().enumerate() {
                runs.push(&per_dim[destination.class_of(d, dst_flat)]);
            }
            if runs.iter().any(|r| r.is_empty()) {
                continue; // an empty destination region, or nothing to receive
            }
            cursor.iter_mut().for_each(|c| *c = 0);
            loop {
                let mut base = 0;
                for d in 0..rank {
                    let (class, overlap) = runs[d][cursor[d]];
                    piece.keep.set_interval(d, overlap);
                    piece.region.set_interval(d, if whole_shard { source.intervals[d][class] } else { overlap });
                    base += source.class_offsets[d][class];
                }
                for (contributor, &partial) in source.partial_offsets.iter().enumerate() {
                    let src_flat = self.choose_replica(base + partial, &source.replica_offsets, dst, piece.dst_slot);
                    self.emit(&mut piece, src_flat, contributor, entry_bytes, visit);
                }
                // Odometer over the runs, last tensor dim fastest.
                if !advance(&mut cursor, |d| runs[d].len()) {
                    break;
                }
            }
        }
    }

    fn gather(
        &mut self,
        tensor_index: usize,
        tensor: &TensorChange,
        source: &SideRegions,
        destination: &SideRegions,
        entry_bytes: u64,
        visit: &mut dyn FnMut(&Piece),
    ) {
        let rank = tensor.shape.len();
        let root_flat = 0usize;
        let root = self.reshard.source_mesh.devices[root_flat];
        let root_slot = self.table.source_slots[root_flat];
        let whole = Region::from_intervals(tensor.shape.iter().map(|&n| Interval::new(0, n)));
        // Every distinct non-empty source region, once per partial contributor, to the root.
        let classes: Vec<Vec<usize>> = (0..rank)
            .map(|d| (0..source.intervals[d].len()).filter(|&c| !source.intervals[d][c].is_empty()).collect())
            .collect();
        if classes.iter().all(|c| !c.is_empty()) {
            let mut cursor = vec![0usize; rank];
            let mut piece = Piece::blank(tensor_index, &tensor.shape, PieceRole::ToRoot);
            piece.dst = root;
            piece.dst_slot = root_slot;
            loop {
                let mut base = 0;
                for d in 0..rank {
                    let class = classes[d][cursor[d]];
                    piece.region.set_interval(d, source.intervals[d][class]);
                    base += source.class_offsets[d][class];
                }
                piece.keep = piece.region;
                for (contributor, &partial) in source.partial_offsets.iter().enumerate() {
                    let src_flat = self.choose_replica(base + partial, &source.replica_offsets, root, root_slot);
                    self.emit(&mut piece, src_flat, contributor, entry_bytes, visit);
                }
                if !advance(&mut cursor, |d| classes[d].len()) {
                    break;
                }
            }
        }
        // The ring: root → d0 → d1 → …, each hop the whole tensor. A root that is also a destination (shared
        // devices) holds the whole tensor already: it copies its slice locally and the ring passes it by,
        // rather than carrying the tensor back to it at the end.
        let (mut prev, mut prev_slot) = (root, root_slot);
        for dst_flat in 0..self.reshard.destination_mesh.size() {
            let dst = self.reshard.destination_mesh.devices[dst_flat];
            let dst_slot = self.table.destination_slots[dst_flat];
            let keep = destination.region_of(dst_flat);
            let bytes = whole.entries().saturating_mul(entry_bytes);
            let from_root = dst == root;
            let (src, src_slot) = if from_root { (root, root_slot) } else { (prev, prev_slot) };
            let piece = Piece {
                tensor: tensor_index,
                src,
                dst,
                src_slot,
                dst_slot,
                region: whole,
                keep,
                contributor: 0,
                link: self.link(src, dst),
                role: PieceRole::RingHop,
                bytes,
            };
            visit(&piece);
            if !from_root {
                (prev, prev_slot) = (dst, dst_slot);
            }
        }
    }
}

/// Steps a mixed-radix counter (last digit fastest); `false` once it wraps around to all zeros.
#[inline(always)]
fn advance(cursor: &mut [usize], radix: impl Fn(usize) -> usize) -> bool {
    for d in (0..cursor.len()).rev() {
        cursor[d] += 1;
        if cursor[d] < radix(d) {
            return true;
        }
        cursor[d] = 0;
    }
    false
}

/// For each destination interval, the source intervals overlapping it (with the overlap), by a merge of the
/// two sorted lists. Empty intervals overlap nothing.
pub fn merge_overlaps(source: &[Interval], destination: &[Interval]) -> Vec<Vec<(usize, Interval)>> {
    let mut src_order: Vec<usize> = (0..source.len()).filter(|&i| !source[i].is_empty()).collect();
    src_order.sort_unstable_by_key(|&i| (source[i].start, i));
    let mut dst_order: Vec<usize> = (0..destination.len()).filter(|&i| !destination[i].is_empty()).collect();
    dst_order.sort_unstable_by_key(|&i| (destination[i].start, i));
    let mut out = vec![Vec::new(); destination.len()];
    let (mut i, mut j) = (0, 0);
    while i < src_order.len() && j < dst_order.len() {
        let (s, d) = (source[src_order[i]], destination[dst_order[j]]);
        if let Some(common) = s.intersect(d) {
            out[dst_order[j]].push((src_order[i], common));
        }
        if s.end <= d.end {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// At most this many pieces are planned for one change (every tensor, one strategy): about a second of
/// planning in the browser. Rows sharded over 16,384 devices to columns over 16,384 more make 268 million
/// pieces, which froze the page for minutes.
pub const MAX_PIECES: u64 = 1 << 24;

/// The number of pieces of the intersection plan (the whole-shard plan has as many), counted from the
/// overlaps without planning: per destination device, the product of its overlapping source classes per
/// dim, times the partial contributors. Counting stops once past `limit` (the count is then above it but
/// not exact). A tensor whose regions cannot be built counts nothing: planning reports it.
pub fn count_pieces(reshard: &Reshard, limit: u64) -> u64 {
    let mut total: u64 = 0;
    for tensor in &reshard.tensors {
        let regions = |layout, mesh| SideRegions::new(layout, mesh, &tensor.shape, reshard.split);
        let (Ok(source), Ok(destination)) =
            (regions(&tensor.source, &reshard.source_mesh), regions(&tensor.destination, &reshard.destination_mesh))
        else {
            continue;
        };
        let overlaps: Vec<Vec<Vec<(usize, Interval)>>> =
            (0..tensor.shape.len()).map(|d| merge_overlaps(&source.intervals[d], &destination.intervals[d])).collect();
        let contributors = source.partial_offsets.len() as u64;
        for dst_flat in 0..reshard.destination_mesh.size() {
            let pieces = overlaps.iter().enumerate().fold(contributors, |n, (d, per_dim)| {
                n.saturating_mul(per_dim[destination.class_of(d, dst_flat)].len() as u64)
            });
            total = total.saturating_add(pieces);
            if total > limit {
                return total;
            }
        }
    }
    total
}

/// A materialised plan of one strategy: every piece, in planning order.
#[derive(Clone, Debug)]
pub struct Plan {
    pub strategy: Strategy,
    pub pieces: Vec<Piece>,
    pub table: DeviceTable,
}

/// Plans a whole change and keeps every piece (for drawing and verification; inventories should stream
/// through [`Planner`] or [`crate::core::traffic::analyse`] instead).
pub fn plan(reshard: &Reshard, strategy: Strategy) -> Result<Plan, String> {
    let mut planner = Planner::new(reshard, strategy);
    let mut pieces = Vec::new();
    planner.run(|p| pieces.push(*p))?;
    Ok(Plan { strategy, pieces, table: planner.table })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::presets;
    use proptest::prelude::{Just, ProptestConfig, any, prop, prop_assert_eq, prop_oneof, proptest};
    use proptest::strategy::Strategy as _;

    /// Every piece of `reshard` planned with `strategy`, replica choice indexed or scanned.
    fn pieces_with(reshard: &Reshard, strategy: Strategy, policy: IndexPolicy) -> Vec<Piece> {
        let mut planner = Planner::new(reshard, strategy);
        planner.index_policy = policy;
        let mut pieces = Vec::new();
        planner.run(|p| pieces.push(*p)).expect("plans");
        pieces
    }

    /// Layouts with replicas on both sides, small nodes (so that "same node" decides), colocated or not,
    /// and two tensors (loads carry over from one to the next).
    fn replicated_spec() -> impl proptest::strategy::Strategy<Value = String> {
        let placement = prop_oneof![Just("R"), Just("R"), Just("S(0)"), Just("S(1)"), Just("P")];
        let dst_placement = prop_oneof![Just("R"), Just("S(0)"), Just("S(1)")];
        (
            prop::collection::vec(1u64..=5, 1..=3),
            prop::collection::vec(1u64..=5, 1..=2),
            prop::collection::vec(placement, 3),
            prop::collection::vec(dst_placement, 2),
            1u32..=4,
            any::<bool>(),
            (1u64..=7, 1u64..=7),
        )
            .prop_map(|(src_mesh, dst_mesh, src_p, dst_p, per_node, colocated, (rows, cols))| {
                let src_p = &src_p[..src_mesh.len()];
                let (dst_mesh, devices) = if colocated {
                    (vec![src_mesh.iter().product::<u64>()], r#", "devices": "colocated""#)
                } else {
                    (dst_mesh, "")
                };
                let dst_p = &dst_p[..dst_mesh.len()];
                let tensor = |name: &str, shape: [u64; 2]| {
                    format!(
                        r#"{{"name": "{name}", "shape": {shape:?}, "source": {{"placements": {src_p:?}}},
                            "destination": {{"placements": {dst_p:?}}}}}"#
                    )
                };
                format!(
                    r#"{{"source": {{"mesh": {src_mesh:?}}}, "destination": {{"mesh": {dst_mesh:?}{devices}}},
                        "tensors": [{}, {}], "topology": {{"devices_per_node": {per_node}}}}}"#,
                    tensor("a", [rows, cols]),
                    tensor("b", [cols, rows])
                )
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn indexed_replica_choice_picks_the_senders_the_scan_picks(spec in replicated_spec()) {
            let reshard = match crate::core::spec::parse_spec(&spec) {
                Ok(reshard) => reshard,
                // A generated layout the core refuses (e.g. a placement naming a dim twice) is not a case.
                Err(_) => return Ok(()),
            };
            for strategy in [Strategy::Intersection, Strategy::WholeShard, Strategy::Gather] {
                let scanned = pieces_with(&reshard, strategy, IndexPolicy::Never);
                let indexed = pieces_with(&reshard, strategy, IndexPolicy::Always);
                prop_assert_eq!(scanned, indexed, "{:?}\n{}", strategy, spec);
            }
        }
    }

    #[test]
    fn the_index_keeps_no_more_than_twice_its_senders_however_many_pieces_go() {
        // 128 replicas on nodes of their own, 4,096 receivers on other nodes: the node heaps are never asked
        // for their least, and each piece sent files its sender again.
        let spec = r#"{"tensor": {"shape": [4096, 4]},
            "source": {"mesh": [128], "placements": ["R"]},
            "destination": {"mesh": [4096], "placements": ["S(0)"]},
            "topology": {"devices_per_node": 8}}"#;
        let reshard = crate::core::spec::parse_spec(spec).expect("valid");
        let mut planner = Planner::new(&reshard, Strategy::Intersection);
        let mut pieces = 0;
        planner.run(|_| pieces += 1).expect("plans");
        assert_eq!(pieces, 4096);
        let index = planner.index.as_ref().expect("indexed");
        for group in &index.groups {
            assert!(group.all.heap.len() <= 2 * group.all.senders + 64 + 1);
            for (_, heap) in &group.by_node {
                assert!(heap.heap.len() <= 2 * heap.senders + 64 + 1, "{} entries", heap.heap.len());
            }
        }
    }

    #[test]
    fn many_replicas_are_indexed_and_choose_as_the_scan_does() {
        // 512 replicas to 512 receivers: the automatic policy indexes it (the scan: 262,144 comparisons).
        let spec = r#"{"tensor": {"shape": [64, 8]},
            "source": {"mesh": [512], "placements": ["R"]},
            "destination": {"mesh": [8, 64], "placements": ["S(0)", "S(1)"]},
            "topology": {"devices_per_node": 8}}"#;
        let reshard = crate::core::spec::parse_spec(spec).expect("valid");
        let mut planner = Planner::new(&reshard, Strategy::Intersection);
        planner.run(|_| {}).expect("plans");
        assert!(planner.index.is_some(), "the automatic policy indexes 512 replicas");
        let auto = pieces_with(&reshard, Strategy::Intersection, IndexPolicy::Auto);
        assert_eq!(auto, pieces_with(&reshard, Strategy::Intersection, IndexPolicy::Never));
        // Spread over the senders: no sender carries two pieces while another carries none.
        let mut sent = vec![0u32; 512];
        for piece in &auto {
            sent[piece.src as usize] += 1;
        }
        assert_eq!(sent.iter().max(), Some(&1), "{sent:?}");
    }

    #[test]
    fn a_device_table_gives_back_each_mesh_in_order() {
        let reshard = crate::core::presets::colocated();
        let table = DeviceTable::new(&reshard);
        assert_eq!(table.ids(&table.source_slots), reshard.source_mesh.devices);
        assert_eq!(table.ids(&table.destination_slots), reshard.destination_mesh.devices);
    }

    #[test]
    fn the_article_toy_has_six_pieces_of_four_by_three() {
        let toy = presets::toy();
        let plan = plan(&toy, Strategy::Intersection).unwrap();
        assert_eq!(plan.pieces.len(), 6);
        assert!(plan.pieces.iter().all(|p| p.region.shape() == [4, 3] && p.region.entries() == 12));
        assert_eq!(plan.pieces.iter().map(|p| p.region.entries()).sum::<u64>(), 72);
        // Each destination gets one piece from each source.
        for dst in [3, 4] {
            let mut srcs: Vec<u32> = plan.pieces.iter().filter(|p| p.dst == dst).map(|p| p.src).collect();
            srcs.sort();
            assert_eq!(srcs, [0, 1, 2]);
        }
    }

    #[test]
    fn whole_shard_moves_twice_the_entries_on_the_toy() {
        let plan = plan(&presets::toy(), Strategy::WholeShard).unwrap();
        assert_eq!(plan.pieces.iter().map(|p| p.region.entries()).sum::<u64>(), 144);
        assert!(plan.pieces.iter().all(|p| p.region.shape() == [4, 6] && p.keep.shape() == [4, 3]));
    }

    #[test]
    fn merge_pairs_only_overlapping_intervals() {
        let s = [Interval::new(0, 4), Interval::new(4, 8), Interval::new(8, 12)];
        let d = [Interval::new(0, 6), Interval::new(6, 12), Interval::new(12, 12)];
        let m = merge_overlaps(&s, &d);
        assert_eq!(m[0], vec![(0, Interval::new(0, 4)), (1, Interval::new(4, 6))]);
        assert_eq!(m[1], vec![(1, Interval::new(6, 8)), (2, Interval::new(8, 12))]);
        assert!(m[2].is_empty());
    }

    #[test]
    fn replicas_prefer_the_same_device_then_spread_load() {
        // Source replicated on 4 devices, destination = the same 4 devices sharded: all local copies.
        let colocated = crate::core::spec::parse_spec(
            r#"{"tensor": {"shape": [8]}, "source": {"mesh": [4], "placements": ["R"]},
               "destination": {"mesh": [4], "devices": "colocated", "placements": ["S(0)"]}}"#,
        )
        .unwrap();
        let plan = plan(&colocated, Strategy::Intersection).unwrap();
        assert!(plan.pieces.iter().all(|p| p.is_local()), "{:?}", plan.pieces);
        // The colocated preset keeps the diagonal local: one local piece per device.
        let preset = super::plan(&presets::colocated(), Strategy::Intersection).unwrap();
        assert_eq!(preset.pieces.iter().filter(|p| p.is_local()).count(), 4);
        // Two replicas on one node, destinations on another: senders alternate by load.
        let r = crate::core::spec::parse_spec(
            r#"{"tensor": {"shape": [8]}, "source": {"mesh": [2], "devices": [0, 1], "placements": ["R"]},
               "destination": {"mesh": [4], "devices": [16, 17, 18, 19], "placements": ["S(0)"]}}"#,
        )
        .unwrap();
        let senders: Vec<u32> = super::plan(&r, Strategy::Intersection).unwrap().pieces.iter().map(|p| p.src).collect();
        assert_eq!(senders, [0, 1, 0, 1]);
    }

    #[test]
    fn partial_sources_send_one_piece_per_contributor() {
        let plan = plan(&presets::partial(), Strategy::Intersection).unwrap();
        let tensor = &presets::partial().tensors[0];
        let contributors = 4;
        let entries: u64 = plan.pieces.iter().map(|p| p.region.entries()).sum();
        assert_eq!(entries, tensor.entries() * contributors * 2 /* two replicated destinations */);
    }

    #[test]
    fn gather_sends_each_region_once_then_rings_the_whole_tensor() {
        let plan = plan(&presets::toy(), Strategy::Gather).unwrap();
        let to_root: Vec<&Piece> = plan.pieces.iter().filter(|p| p.role == PieceRole::ToRoot).collect();
        assert_eq!(to_root.len(), 3);
        assert!(to_root.iter().all(|p| p.dst == 0));
        let hops: Vec<(u32, u32)> =
            plan.pieces.iter().filter(|p| p.role == PieceRole::RingHop).map(|p| (p.src, p.dst)).collect();
        assert_eq!(hops, [(0, 3), (3, 4)]);
    }

    #[test]
    fn a_root_that_is_also_a_destination_is_passed_by_the_ring() {
        // Colocated: the root (the first source device) is a destination too. The ring does not carry the
        // whole tensor back to it; it copies its slice locally.
        let mut reshard = presets::colocated();
        let root = reshard.source_mesh.devices[0];
        reshard.destination_mesh.devices.rotate_left(1);
        let plan = plan(&reshard, Strategy::Gather).unwrap();
        let hops: Vec<&Piece> = plan.pieces.iter().filter(|p| p.role == PieceRole::RingHop).collect();
        assert_eq!(hops.len(), reshard.destination_mesh.size());
        let into_root: Vec<&&Piece> = hops.iter().filter(|p| p.dst == root).collect();
        assert_eq!(into_root.len(), 1);
        assert_eq!((into_root[0].src, into_root[0].link), (root, LinkClass::Local));
        // Every other destination is reached once, from a device that already holds the tensor.
        let mut holders = vec![root];
        for hop in hops.iter().filter(|p| p.dst != root) {
            assert!(holders.contains(&hop.src), "{hop:?}");
            holders.push(hop.dst);
        }
    }

    #[test]
    fn large_plans_scale_with_pieces() {
        let large = presets::large();
        let mut count = 0u64;
        Planner::new(&large, Strategy::Intersection).run(|_| count += 1).unwrap();
        assert_eq!(count, 1024 * 256);
    }
}
