//! The validated description of a layout change: meshes, per-tensor placements, split rule, topology.
//!
//! Values of these types are only built by [`crate::core::spec`] validation (or by code that upholds the
//! same rules), so planning can rely on them: ranks match, shard dims exist, meshes hold their devices.

use serde::{Deserialize, Serialize};

use super::geometry::Dtype;
use super::placement::Placement;

/// An N-D array of device ids, row-major: coordinate `(i, j)` of a `[2, 4]` mesh is `devices[i * 4 + j]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mesh {
    pub shape: Vec<u64>,
    pub dim_names: Vec<String>,
    pub devices: Vec<u32>,
}

impl Mesh {
    /// A mesh over `first..first + product(shape)` with default dim names.
    pub fn contiguous(shape: &[u64], first: u32) -> Mesh {
        let size: u64 = shape.iter().product();
        Mesh {
            shape: shape.to_vec(),
            dim_names: default_dim_names(shape.len()),
            devices: (0..size as u32).map(|i| first + i).collect(),
        }
    }
    pub fn size(&self) -> usize {
        self.devices.len()
    }
    /// Row-major strides of the mesh dims (in devices).
    pub fn strides(&self) -> Vec<usize> {
        let mut strides = vec![1usize; self.shape.len()];
        for i in (0..self.shape.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * self.shape[i + 1] as usize;
        }
        strides
    }
    /// Mesh coordinates of the device at row-major index `flat`.
    pub fn coord(&self, flat: usize) -> Vec<u64> {
        let mut rest = flat as u64;
        let mut coord = vec![0; self.shape.len()];
        for i in (0..self.shape.len()).rev() {
            coord[i] = rest % self.shape[i];
            rest /= self.shape[i];
        }
        coord
    }
}

/// Default names for mesh dims: `m0`, `m1`, …
pub fn default_dim_names(rank: usize) -> Vec<String> {
    (0..rank).map(|i| format!("m{i}")).collect()
}

/// How an extent of `n` is cut into `k` chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SplitRule {
    /// `torch.chunk` (DTensor's rule): chunks of `ceil(n / k)`, trailing ones smaller or empty.
    #[default]
    Chunk,
    /// numpy's `array_split`: sizes differ by at most one, larger ones first.
    Balanced,
}

impl SplitRule {
    pub fn label(self) -> &'static str {
        match self {
            SplitRule::Chunk => "torch.chunk (DTensor)",
            SplitRule::Balanced => "balanced (numpy array_split)",
        }
    }
}

/// The order in which several mesh dims that shard the same tensor dim are applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShardOrder {
    /// Left to right in mesh-dim order, as DTensor applies plain `Shard` placements.
    #[default]
    Mesh,
    /// Right to left (`_StridedShard`), as FSDP2 + TP lay out parameters.
    Strided,
}

/// Where a dtype conversion happens, which decides whose bytes cross the links.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConvertAt {
    /// The sender converts, so destination-dtype bytes travel.
    #[default]
    Sender,
    /// The receiver converts, so source-dtype bytes travel.
    Receiver,
}

/// Devices, nodes and links: the cost model of domain.md §3.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Topology {
    /// Device `g` is on node `g / devices_per_node`.
    pub devices_per_node: u32,
    /// Per-device NVLink port bandwidth, each way, in GB/s (10^9 bytes per second).
    pub nvlink_gbps: f64,
    /// Per-device NIC bandwidth, each way, in GB/s.
    pub nic_gbps: f64,
    /// Fixed cost per message, in microseconds.
    pub latency_us: f64,
}

impl Default for Topology {
    fn default() -> Self {
        Topology { devices_per_node: 8, nvlink_gbps: 450.0, nic_gbps: 50.0, latency_us: 5.0 }
    }
}

impl Topology {
    #[inline(always)]
    pub fn node_of(&self, device: u32) -> u32 {
        device / self.devices_per_node.max(1)
    }
}

/// One side of one tensor's change: placements on that side's mesh, the order of nested shards, the dtype.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub placements: Vec<Placement>,
    pub order: ShardOrder,
    pub dtype: Dtype,
}

/// One logical tensor moving from its source layout to its destination layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorChange {
    pub name: String,
    /// The spec's label for adding up tensors (`attention`, `experts`); without one, the name's pattern
    /// ([`super::traffic::group_of`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub shape: Vec<u64>,
    pub source: Layout,
    pub destination: Layout,
}

impl TensorChange {
    pub fn entries(&self) -> u64 {
        self.shape.iter().product()
    }
}

/// A whole layout change: one or many tensors (an inventory) sharing a source and a destination mesh.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reshard {
    pub source_mesh: Mesh,
    pub destination_mesh: Mesh,
    pub tensors: Vec<TensorChange>,
    pub split: SplitRule,
    pub convert_at: ConvertAt,
    pub topology: Topology,
}

impl Reshard {
    /// Whether both sides are the same GPUs (colocated, in any order): then pieces that stay on a device are
    /// local copies, and the pages say "the same GPUs" instead of counting the devices twice.
    pub fn same_devices(&self) -> bool {
        let sorted = |mesh: &Mesh| {
            let mut devices = mesh.devices.clone();
            devices.sort_unstable();
            devices
        };
        sorted(&self.source_mesh) == sorted(&self.destination_mesh)
    }

    /// The dtype whose bytes cross a link for this tensor.
    pub fn wire_dtype(&self, tensor: &TensorChange) -> Dtype {
        match self.convert_at {
            ConvertAt::Sender => tensor.destination.dtype,
            ConvertAt::Receiver => tensor.source.dtype,
        }
    }

    /// This change with its tensor `index` alone (`None` past the last): planned, its pieces are that
    /// tensor's pieces of the whole change's plan, numbered as tensor 0.
    pub fn tensor_alone(&self, index: usize) -> Option<Reshard> {
        Some(self.with_tensors(vec![self.tensors.get(index)?.clone()]))
    }

    /// What planning reads of this change: the change without its tensors' names and groups, and without
    /// the cost model's bandwidths and latency (planning reads devices per node only, to class each link;
    /// the others price the plan afterwards, [`crate::core::traffic::Traffic::reprice`]). Two changes of
    /// one plan key plan alike, so a view may keep a plan across a rename (each key typed into the name of
    /// a 65,536-device change re-planned it: 0.4–0.85 s) or a new latency (each key re-planned the three
    /// strategies).
    pub fn plan_key(&self) -> Reshard {
        let topology = Topology { devices_per_node: self.topology.devices_per_node, ..Topology::default() };
        Reshard { topology, ..self.check_key() }
    }

    /// What the constraint check reads: the plan key with the cost model, whose latency × bandwidth is the
    /// size below which a message is tiny.
    pub fn check_key(&self) -> Reshard {
        self.with_tensors(
            self.tensors
                .iter()
                .map(|t| TensorChange {
                    name: String::new(),
                    group: None,
                    shape: t.shape.clone(),
                    source: t.source.clone(),
                    destination: t.destination.clone(),
                })
                .collect(),
        )
    }

    /// This change's meshes, split rule, conversion and topology, with `tensors`.
    fn with_tensors(&self, tensors: Vec<TensorChange>) -> Reshard {
        Reshard {
            tensors,
            source_mesh: self.source_mesh.clone(),
            destination_mesh: self.destination_mesh.clone(),
            ..*self
        }
    }
}
