//! Constraint checks: a layout change linted against documented limits of real transports, each rule naming
//! where its limit is written down, plus a side-by-side of the split rules (torch.chunk, balanced, JAX).
//!
//! The NCCL M2N rules come from NVIDIA's experimental `nccl_m2n` library (github.com/NVIDIA/nccl-extensions,
//! directory `nccl_m2n/`, API version 2): its README's preconditions, its RELEASE.md known limitations and
//! the compile-time caps in `src/reshard_limits.h`. M2N counts *shards* (distinct regions of its one Shard
//! axis), never devices: replicas of a shard share one entry of its fan-in and fan-out arrays, so the
//! fan-in and fan-out rules count distinct source and destination regions here too.
//!
//! [`lint`] plans the change once with the intersection strategy, streaming pieces (nothing is kept per
//! piece), so it costs about what [`crate::core::traffic::analyse`] costs. For an inventory, every rule's
//! findings are aggregated: one summary that counts the tensors per kind of problem, then at most
//! [`DETAIL_PER_RULE`] per-tensor findings.

use serde::Serialize;

use super::geometry::{Interval, MAX_RANK, Region};
use super::model::{Layout, Mesh, Reshard, SplitRule, TensorChange};
use super::placement::Placement;
use super::plan::{LinkClass, Piece, Planner, Strategy};
use super::region::{SideRegions, device_regions};
use super::traffic::{format_bytes, format_count, format_seconds};

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; nothing refuses it.
    Info,
    /// Works, but costs more than it should.
    Warning,
    /// The named transport refuses this change as it stands.
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One check, with the limit it enforces and where that limit is documented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// Stable identifier, e.g. `m2n-fan-in`.
    pub id: &'static str,
    pub title: &'static str,
    /// What the rule is about: a transport (`NCCL M2N`), the plan's size, or the split rule.
    pub scope: &'static str,
    /// The severity of every finding of this rule.
    pub severity: Severity,
    /// The limit in one sentence, with its number.
    pub limit: &'static str,
    /// Where the limit is documented (a document and section; a repository path where that is exact).
    pub source: &'static str,
}

/// One thing a rule found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub rule: &'static Rule,
    pub severity: Severity,
    /// Index into [`Reshard::tensors`] when the finding is about one tensor; `None` for a summary over an
    /// inventory or a finding about the whole plan.
    pub tensor: Option<usize>,
    /// Specific: names the tensor, the side, the dim and the numbers.
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}] {}: {}", self.severity.name(), self.rule.id, self.message)
    }
}

/// The most tensor dims M2N handles (`NCCL_RESHARD_MAX_TENSOR_DIMS` in `nccl_m2n.h`).
pub const M2N_MAX_TENSOR_DIMS: usize = 3;
/// The most source shards that may feed one destination shard on M2N's ring and copy/staging paths
/// (`MAX_SOURCES` in `src/reshard_limits.h`; the DIRECT path allows 32).
pub const M2N_MAX_SOURCE_SHARDS: u64 = 16;
/// The most destination shards one source shard may feed (`MAX_TARGETS` in `src/reshard_limits.h`).
pub const M2N_MAX_DESTINATION_SHARDS: u64 = 64;
/// Pieces one device may send or receive (local copies included) before the plan-size warning fires.
///
/// Not a transport's limit but the traffic model's: at the default 5 µs per message, 4096 messages are
/// ≈ 20 ms of fixed cost on one device, as long as moving 1 GB through a 50 GB/s NIC. Past that, per-message
/// cost rivals the data for all but the largest refits, and every piece is one send/receive (or one copy)
/// some transport must post. A power of two so the number reads as the threshold it is, not a measurement.
pub const MAX_PIECES_PER_DEVICE: u64 = 4096;
/// The most per-tensor findings one rule reports after its summary (the summary counts them all).
pub const DETAIL_PER_RULE: usize = 5;

const M2N_SCOPE: &str = "NCCL M2N";

pub const M2N_RANK: Rule = Rule {
    id: "m2n-rank",
    title: "At most 3 tensor dims",
    scope: M2N_SCOPE,
    severity: Severity::Error,
    limit: "A tensor has 1 to 3 dims (NCCL_RESHARD_MAX_TENSOR_DIMS = 3).",
    source: "NCCL M2N README, Preconditions (ndims in 1..NCCL_RESHARD_MAX_TENSOR_DIMS, currently 3) and \
             RELEASE.md, Known Limitations (Tensor rank ≤ 3); github.com/NVIDIA/nccl-extensions, nccl_m2n/",
};

pub const M2N_ONE_SHARD_AXIS: Rule = Rule {
    id: "m2n-one-shard-axis",
    title: "Exactly one Shard axis per side",
    scope: M2N_SCOPE,
    severity: Severity::Error,
    limit: "Each side's mesh has exactly one Shard placement; the other mesh axes Replicate.",
    source: "NCCL M2N README, Concepts (exactly one axis per side should be a SHARD, the other a REPLICATE) \
             and RELEASE.md, Known Limitations (both-REPLICATE meshes unsupported); \
             github.com/NVIDIA/nccl-extensions, nccl_m2n/",
};

pub const M2N_NO_PARTIAL: Rule = Rule {
    id: "m2n-no-partial",
    title: "No Partial placement",
    scope: M2N_SCOPE,
    severity: Severity::Error,
    limit: "A placement is REPLICATE or SHARD(d); partial sums must be reduced before the reshard.",
    source: "NCCL M2N README, Concepts (each placement is NCCL_RESHARD_REPLICATE or NCCL_RESHARD_SHARD(d)); \
             github.com/NVIDIA/nccl-extensions, nccl_m2n/",
};

pub const M2N_EVEN: Rule = Rule {
    id: "m2n-even",
    title: "Sharded dims divide evenly",
    scope: M2N_SCOPE,
    severity: Severity::Error,
    limit: "On each side, the sharded tensor dim is divisible by that side's number of shards.",
    source: "NCCL M2N README, Preconditions (each localShape[shard_dim] × shard count divides cleanly into \
             the global tensor dim); github.com/NVIDIA/nccl-extensions, nccl_m2n/",
};

pub const M2N_FAN_IN: Rule = Rule {
    id: "m2n-fan-in",
    title: "At most 16 source shards per destination shard",
    scope: M2N_SCOPE,
    severity: Severity::Error,
    limit: "No destination shard overlaps more than 16 distinct source shards (MAX_SOURCES; 32 on the DIRECT \
            path). Replicas of a shard count once.",
    source: "NCCL M2N RELEASE.md, Known Limitations (static mesh-size caps: MAX_SOURCES = 16 on the ring and \
             copy/staging paths, MAX_DIRECT_SOURCES = 32), set in src/reshard_limits.h and checked per \
             destination shard by validateReshardPlanLimits (src/reshard_prepare.cc); \
             github.com/NVIDIA/nccl-extensions, nccl_m2n/",
};

pub const M2N_FAN_OUT: Rule = Rule {
    id: "m2n-fan-out",
    title: "At most 64 destination shards per source shard",
    scope: M2N_SCOPE,
    severity: Severity::Error,
    limit: "No source shard overlaps more than 64 distinct destination shards (MAX_TARGETS). Replicas of a \
            shard count once.",
    source: "NCCL M2N RELEASE.md, Known Limitations (static mesh-size caps: MAX_TARGETS = 64), set in \
             src/reshard_limits.h and checked per source shard by validateReshardPlanLimits \
             (src/reshard_prepare.cc); github.com/NVIDIA/nccl-extensions, nccl_m2n/",
};

pub const PLAN_PIECES_PER_DEVICE: Rule = Rule {
    id: "plan-pieces-per-device",
    title: "Pieces per device",
    scope: "Plan size",
    severity: Severity::Warning,
    limit: "No device sends or receives more than 4096 pieces (local copies included) in the whole change.",
    source: "Reshard Lens traffic model (src/core/traffic.rs, Estimate: latency × the largest message count \
             of any device); the threshold is this tool's choice, not a transport's documented limit",
};

pub const PLAN_TINY_MESSAGES: Rule = Rule {
    id: "plan-tiny-messages",
    title: "Messages large enough to amortise latency",
    scope: "Plan size",
    severity: Severity::Warning,
    limit: "A message's bytes are at least latency × the bandwidth of its link, so its fixed cost does not \
            exceed its transfer time.",
    source: "Reshard Lens traffic model (src/core/traffic.rs: each message costs the topology's latency plus \
             bytes / link bandwidth)",
};

pub const SPLIT_EMPTY_SHARDS: Rule = Rule {
    id: "split-empty-shards",
    title: "No device holds an empty shard",
    scope: "Split rule",
    severity: Severity::Warning,
    limit: "Under the change's split rule, every device of a side holds at least one entry.",
    source: "PyTorch DTensor Shard placement docs (torch.distributed.tensor.placement_types.Shard: \
             torch.chunk semantics, the last shards may be empty) and torch.chunk docs (may return fewer \
             chunks than requested)",
};

pub const SPLIT_UNEVEN: Rule = Rule {
    id: "split-uneven",
    title: "Shards of equal size",
    scope: "Split rule",
    severity: Severity::Info,
    limit: "Every sharded dim splits into shards of one size; otherwise torch.chunk, array_split and JAX \
            disagree (see the semantics diff).",
    source: "PyTorch torch.chunk and numpy array_split docs (how an uneven extent is cut); JAX refuses uneven \
             shardings (jax/_src/pjit.py, pjit_check_aval_sharding: the dim should be divisible by the \
             number of shards)",
};

/// Every rule, in the order findings are reported (M2N errors, then plan size, then the split rule).
pub const RULES: &[Rule] = &[
    M2N_RANK,
    M2N_ONE_SHARD_AXIS,
    M2N_NO_PARTIAL,
    M2N_EVEN,
    M2N_FAN_IN,
    M2N_FAN_OUT,
    PLAN_PIECES_PER_DEVICE,
    PLAN_TINY_MESSAGES,
    SPLIT_EMPTY_SHARDS,
    SPLIT_UNEVEN,
];

/// Whether one rule passed, for a checklist that shows every rule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleStatus {
    pub rule: &'static Rule,
    /// Findings of this rule (summaries and details); zero means the rule passed.
    pub findings: usize,
    /// The gravest of those findings; `None` when the rule passed. It can be milder than the rule's own
    /// severity: a tiny-messages warning is a note when the whole change is too small for any layout to help.
    pub gravest: Option<Severity>,
}

impl RuleStatus {
    pub fn passed(&self) -> bool {
        self.findings == 0
    }
}

/// Every rule of [`RULES`] with the number of findings it produced; a rule with none passed.
pub fn rule_statuses(findings: &[Finding]) -> Vec<RuleStatus> {
    RULES
        .iter()
        .map(|rule| {
            let own = || findings.iter().filter(|f| f.rule.id == rule.id);
            RuleStatus { rule, findings: own().count(), gravest: own().map(|f| f.severity).max() }
        })
        .collect()
}

/// Lints a whole change: every rule of [`RULES`] over every tensor, with one intersection plan.
///
/// Errors only when the change cannot be planned (a layout that validation would have refused).
pub fn lint(reshard: &Reshard) -> Result<Vec<Finding>, String> {
    let mut report = Report::new(reshard);
    for (index, tensor) in reshard.tensors.iter().enumerate() {
        for side in [Side::Source, Side::Destination] {
            let (layout, mesh) = side.of(reshard, tensor);
            check_layout_shape(&tensor.shape, layout, mesh)
                .map_err(|e| format!("tensors[{index}].{}: {e}", side.name()))?;
        }
        check_rank(&mut report, index, tensor);
        for side in [Side::Source, Side::Destination] {
            check_side(&mut report, reshard, index, tensor, side)?;
        }
    }
    check_plan(&mut report, reshard)?;
    Ok(report.finish())
}

/// One side of a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Source,
    Destination,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Source => "source",
            Side::Destination => "destination",
        }
    }
    fn of<'a>(self, reshard: &'a Reshard, tensor: &'a TensorChange) -> (&'a Layout, &'a Mesh) {
        match self {
            Side::Source => (&tensor.source, &reshard.source_mesh),
            Side::Destination => (&tensor.destination, &reshard.destination_mesh),
        }
    }
}

/// One tensor breaking one rule: `kind` groups it in an inventory summary ("2 Shard axes on the source");
/// `message` is the specific per-tensor text.
struct Occurrence {
    tensor: usize,
    kind: String,
    message: String,
}

/// Findings being gathered, per rule of [`RULES`] (same index).
struct Report<'a> {
    reshard: &'a Reshard,
    occurrences: Vec<Vec<Occurrence>>,
    /// Findings about the whole plan, emitted as they are.
    whole: Vec<Vec<Finding>>,
}

impl<'a> Report<'a> {
    fn new(reshard: &'a Reshard) -> Report<'a> {
        Report {
            reshard,
            occurrences: RULES.iter().map(|_| Vec::new()).collect(),
            whole: RULES.iter().map(|_| Vec::new()).collect(),
        }
    }

    fn slot(rule: &Rule) -> usize {
        RULES.iter().position(|r| r.id == rule.id).unwrap_or(0)
    }

    fn add(&mut self, rule: &Rule, tensor: usize, kind: impl Into<String>, message: String) {
        self.occurrences[Self::slot(rule)].push(Occurrence { tensor, kind: kind.into(), message });
    }

    /// A finding about the whole plan; tied to the tensor when the change has only one.
    fn add_whole(&mut self, rule: &'static Rule, message: String) {
        self.add_whole_as(rule, rule.severity, message);
    }

    /// A whole-plan finding milder than its rule, for a breach no layout of this change could avoid.
    fn add_whole_as(&mut self, rule: &'static Rule, severity: Severity, message: String) {
        let tensor = (self.reshard.tensors.len() == 1).then_some(0);
        self.whole[Self::slot(rule)].push(Finding { rule, severity, tensor, message });
    }

    fn finish(self) -> Vec<Finding> {
        let mut findings = Vec::new();
        for ((rule, occurrences), whole) in RULES.iter().zip(self.occurrences).zip(self.whole) {
            if !occurrences.is_empty() {
                findings.extend(aggregate(self.reshard, rule, occurrences));
            }
            findings.extend(whole);
        }
        findings
    }
}

/// One rule's occurrences as findings: a summary when several tensors are involved, then per-tensor detail,
/// capped at [`DETAIL_PER_RULE`] and chosen so that every kind of problem shows at least once if it can.
fn aggregate(reshard: &Reshard, rule: &'static Rule, occurrences: Vec<Occurrence>) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut tensors: Vec<usize> = occurrences.iter().map(|o| o.tensor).collect();
    tensors.sort_unstable();
    tensors.dedup();
    if tensors.len() > 1 {
        // Kinds in first-seen order, each with its distinct tensors and first example.
        let mut kinds: Vec<(&str, Vec<usize>)> = Vec::new();
        for o in &occurrences {
            match kinds.iter_mut().find(|(k, _)| *k == o.kind) {
                Some((_, list)) => {
                    if list.last() != Some(&o.tensor) {
                        list.push(o.tensor)
                    }
                }
                None => kinds.push((&o.kind, vec![o.tensor])),
            }
        }
        let total = reshard.tensors.len();
        let name = |i: usize| reshard.tensors.get(i).map_or("?", |t| t.name.as_str());
        let verb = |n: usize| if n == 1 { "has" } else { "have" };
        let mut message = if let [(kind, list)] = kinds.as_slice() {
            format!("{} of {total} tensors {} {kind}, e.g. `{}`", list.len(), verb(list.len()), name(list[0]))
        } else {
            let parts: Vec<String> = kinds
                .iter()
                .map(|(kind, list)| format!("{} {} {kind} (e.g. `{}`)", list.len(), verb(list.len()), name(list[0])))
                .collect();
            format!("{} of {total} tensors break this rule: {}", tensors.len(), parts.join("; "))
        };
        if occurrences.len() > DETAIL_PER_RULE {
            message.push_str(&format!(" ({DETAIL_PER_RULE} of {} shown below)", occurrences.len()));
        }
        findings.push(Finding { rule, severity: rule.severity, tensor: None, message });
    }
    // Detail: the first occurrence of each kind, then the rest in order, up to the cap; shown in order.
    let mut chosen: Vec<usize> = Vec::new();
    for (i, o) in occurrences.iter().enumerate() {
        if chosen.len() < DETAIL_PER_RULE && !chosen.iter().any(|&c| occurrences[c].kind == o.kind) {
            chosen.push(i);
        }
    }
    for i in 0..occurrences.len() {
        if chosen.len() >= DETAIL_PER_RULE {
            break;
        }
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    chosen.sort_unstable();
    let mut occurrences: Vec<Option<Occurrence>> = occurrences.into_iter().map(Some).collect();
    for i in chosen {
        if let Some(o) = occurrences[i].take() {
            findings.push(Finding { rule, severity: rule.severity, tensor: Some(o.tensor), message: o.message });
        }
    }
    findings
}

/// Refuses a side that does not fit its mesh or its tensor (what validation guarantees for a [`Reshard`]),
/// so that nothing below indexes out of bounds.
fn check_layout_shape(shape: &[u64], layout: &Layout, mesh: &Mesh) -> Result<(), String> {
    if shape.is_empty() || shape.len() > MAX_RANK {
        return Err(format!("rank {} is outside 1..={MAX_RANK}", shape.len()));
    }
    if layout.placements.len() != mesh.shape.len() {
        return Err(format!(
            "{} placements for a mesh of {} dims; expected one per mesh dim",
            layout.placements.len(),
            mesh.shape.len()
        ));
    }
    let size = mesh.shape.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n));
    if size != Some(mesh.devices.len() as u64) {
        return Err(format!("mesh {:?} does not hold its {} devices", mesh.shape, mesh.devices.len()));
    }
    for (i, p) in layout.placements.iter().enumerate() {
        if let Some(d) = p.shard_dim()
            && d >= shape.len()
        {
            return Err(format!("placements[{i}] is {p} but the tensor has rank {}", shape.len()));
        }
    }
    Ok(())
}

fn check_rank(report: &mut Report, index: usize, tensor: &TensorChange) {
    let rank = tensor.shape.len();
    if rank > M2N_MAX_TENSOR_DIMS {
        report.add(
            &M2N_RANK,
            index,
            format!("rank {rank}"),
            format!(
                "`{}` has rank {rank} (shape {:?}); M2N moves tensors of at most {M2N_MAX_TENSOR_DIMS} dims: \
                 view it as {M2N_MAX_TENSOR_DIMS} dims (merge adjacent dims the layouts do not split) first",
                tensor.name, tensor.shape
            ),
        );
    }
}

/// `tp=4`, or `dp=2 × tp=4` for several mesh dims.
fn mesh_dims_label(mesh: &Mesh, mesh_dims: &[usize]) -> String {
    let label = |m: usize| {
        let name = mesh.dim_names.get(m).cloned().unwrap_or_else(|| format!("m{m}"));
        format!("{name}={}", mesh.shape[m])
    };
    mesh_dims.iter().map(|&m| label(m)).collect::<Vec<_>>().join(" × ")
}

/// `[R, S(1), S(0)]`.
fn placements_text(layout: &Layout) -> String {
    format!("[{}]", layout.placements.iter().map(|p| p.short()).collect::<Vec<_>>().join(", "))
}

/// Sizes as a list, run-length encoded when long: `2, 2, 2, 0` or `8 (×1023), 3`.
fn sizes_text(sizes: &[u64]) -> String {
    if sizes.len() <= 8 {
        return sizes.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    }
    let mut runs: Vec<(u64, usize)> = Vec::new();
    for &s in sizes {
        match runs.last_mut() {
            Some((value, count)) if *value == s => *count += 1,
            _ => runs.push((s, 1)),
        }
    }
    runs.iter()
        .map(|&(value, count)| if count == 1 { value.to_string() } else { format!("{value} (×{count})") })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `[0, 4) × [0, 6)`: a region as half-open intervals.
fn region_text(region: &Region) -> String {
    (0..region.rank())
        .map(|d| {
            let i = region.interval(d);
            format!("[{}, {})", i.start, i.end)
        })
        .collect::<Vec<_>>()
        .join(" × ")
}

/// The layout rules of one side of one tensor: shard axes, Partial, even division, empty and uneven shards.
fn check_side(
    report: &mut Report,
    reshard: &Reshard,
    index: usize,
    tensor: &TensorChange,
    side: Side,
) -> Result<(), String> {
    let (layout, mesh) = side.of(reshard, tensor);
    let name = &tensor.name;
    let side_name = side.name();

    // Exactly one Shard axis.
    let shard_axes: Vec<usize> =
        (0..layout.placements.len()).filter(|&m| layout.placements[m].shard_dim().is_some()).collect();
    if shard_axes.is_empty() {
        report.add(
            &M2N_ONE_SHARD_AXIS,
            index,
            format!("no Shard axis on the {side_name}"),
            format!(
                "`{name}`: the {side_name} has no Shard axis ({} on mesh {:?}); M2N needs exactly one \
                 (encode full replication as a Shard over a mesh axis of size 1)",
                placements_text(layout),
                mesh.shape
            ),
        );
    } else if shard_axes.len() > 1 {
        let listed: Vec<String> =
            shard_axes.iter().map(|&m| format!("{}: {}", mesh_dims_label(mesh, &[m]), layout.placements[m])).collect();
        let dims: Vec<usize> = shard_axes.iter().filter_map(|&m| layout.placements[m].shard_dim()).collect();
        let shards: u64 = shard_axes.iter().fold(1u64, |acc, &m| acc.saturating_mul(mesh.shape[m]));
        let plain = shard_axes.iter().all(|&m| matches!(layout.placements[m], Placement::Shard(_)));
        // One axis over the same devices holds what the nested shards hold only when they split in mesh
        // order over neighbouring axes: in the strided order (FSDP2 + TP) a device holds another chunk (the
        // hint told a 64-device FSDP2 + TP side so, review 37).
        let mergeable = plain
            && shard_axes.windows(2).all(|pair| pair[1] == pair[0] + 1)
            && !crate::core::notation::strided_where_it_matters(layout, &mesh.shape);
        let hint = if mergeable && dims.iter().all(|&d| d == dims[0]) && tensor.shape[dims[0]].is_multiple_of(shards) {
            format!(
                " (they all split dim {}: merging those mesh axes into one axis of {shards} would express the same \
                 layout)",
                dims[0]
            )
        } else {
            String::new()
        };
        report.add(
            &M2N_ONE_SHARD_AXIS,
            index,
            format!("{} Shard axes on the {side_name}", shard_axes.len()),
            format!(
                "`{name}`: the {side_name} has {} Shard axes ({}); M2N needs exactly one, the other mesh axes \
                 Replicate{hint}",
                shard_axes.len(),
                listed.join(", ")
            ),
        );
    }

    // No Partial.
    let partial: Vec<usize> =
        (0..layout.placements.len()).filter(|&m| layout.placements[m] == Placement::Partial).collect();
    if !partial.is_empty() {
        let contributors: u64 = partial.iter().fold(1u64, |acc, &m| acc.saturating_mul(mesh.shape[m]));
        report.add(
            &M2N_NO_PARTIAL,
            index,
            format!("a Partial {side_name}"),
            format!(
                "`{name}`: the {side_name} is Partial on {} ({contributors} partial sums per entry); M2N moves \
                 only Shard and Replicate data: reduce first (e.g. a reduce-scatter) and reshard the result",
                mesh_dims_label(mesh, &partial)
            ),
        );
    }

    // Even division of every sharded tensor dim, and the split rule's empty and uneven shards.
    let regions = SideRegions::new(layout, mesh, &tensor.shape, reshard.split)
        .map_err(|e| format!("tensor `{name}` {side_name}: {e}"))?;
    let mut uneven_m2n = Vec::new();
    let mut uneven_split = Vec::new();
    let mut empty_dims = Vec::new();
    for (dim, &size) in tensor.shape.iter().enumerate() {
        let order = &regions.orders[dim];
        if order.is_empty() {
            continue;
        }
        let shards: u64 = order.iter().fold(1u64, |acc, &m| acc.saturating_mul(mesh.shape[m]));
        let over = format!("{shards} shards ({})", mesh_dims_label(mesh, order));
        if !size.is_multiple_of(shards) {
            uneven_m2n.push(format!("dim {dim} has size {size}, which its {over} do not divide evenly"));
        }
        let sizes: Vec<u64> = regions.intervals[dim].iter().map(|i| i.len()).collect();
        let described =
            format!("dim {dim} (size {size}) over {over} by {} gives {}", reshard.split.label(), sizes_text(&sizes));
        if sizes.iter().min() != sizes.iter().max() {
            uneven_split.push(described.clone());
        }
        if sizes.contains(&0) {
            empty_dims.push(described);
        }
    }
    if !uneven_m2n.is_empty() {
        report.add(
            &M2N_EVEN,
            index,
            format!("a sharded dim that does not divide evenly on the {side_name}"),
            format!(
                "`{name}`: on the {side_name}, {}; M2N requires every sharded dim to divide evenly",
                uneven_m2n.join("; ")
            ),
        );
    }
    if !empty_dims.is_empty() {
        let size = mesh.size();
        let empty: Vec<usize> = (0..size).filter(|&flat| regions.region_of(flat).is_empty()).collect();
        let example = empty.first().map_or(String::new(), |&flat| format!(" (e.g. device {})", mesh.devices[flat]));
        let verb = if empty.len() == 1 { "holds" } else { "hold" };
        report.add(
            &SPLIT_EMPTY_SHARDS,
            index,
            format!("empty shards on the {side_name}"),
            format!(
                "`{name}`: {} of {size} {side_name} devices {verb} nothing{example}: {}",
                empty.len(),
                empty_dims.join("; ")
            ),
        );
    }
    if !uneven_split.is_empty() {
        report.add(
            &SPLIT_UNEVEN,
            index,
            format!("uneven shards on the {side_name}"),
            format!("`{name}`: on the {side_name}, {}", uneven_split.join("; ")),
        );
    }
    Ok(())
}

/// Per device of a side's mesh (row-major index): the id of its region, a mixed-radix number over the
/// class of each tensor dim. Devices share an id exactly when they are replicas (or partial contributors).
fn region_ids(regions: &SideRegions, size: usize) -> (Vec<u32>, usize) {
    let radix: Vec<usize> = regions.intervals.iter().map(Vec::len).collect();
    let count = radix.iter().product::<usize>().max(1);
    let ids = (0..size)
        .map(|flat| (0..radix.len()).fold(0usize, |id, d| id * radix[d] + regions.class_of(d, flat)) as u32)
        .collect();
    (ids, count)
}

/// The smallest message below its link's latency × bandwidth.
#[derive(Clone, Copy)]
struct SmallMessage {
    bytes: u64,
    tensor: usize,
    src: u32,
    dst: u32,
    link: LinkClass,
}

/// The plan rules, from one intersection plan: M2N's fan-in and fan-out, pieces per device, tiny messages.
fn check_plan(report: &mut Report, reshard: &Reshard) -> Result<(), String> {
    let topology = reshard.topology;
    // Bytes below which a message's latency exceeds its transfer time: latency × bandwidth.
    let nvlink_threshold = topology.latency_us * topology.nvlink_gbps * 1e3;
    let nic_threshold = topology.latency_us * topology.nic_gbps * 1e3;

    let mut planner = Planner::new(reshard, Strategy::Intersection);
    let slots = planner.table.devices.len();
    // Slot → row-major index on each side (`usize::MAX` when the device is not on that side).
    let mut source_flat = vec![usize::MAX; slots];
    for (flat, &slot) in planner.table.source_slots.iter().enumerate() {
        source_flat[slot as usize] = flat;
    }
    let mut destination_flat = vec![usize::MAX; slots];
    for (flat, &slot) in planner.table.destination_slots.iter().enumerate() {
        destination_flat[slot as usize] = flat;
    }
    let mut sent = vec![0u64; slots];
    let mut received = vec![0u64; slots];
    let (mut messages, mut tiny_nvlink, mut tiny_nic, mut tiny_tensors) = (0u64, 0u64, 0u64, 0usize);
    let mut smallest: Option<SmallMessage> = None;

    for (index, tensor) in reshard.tensors.iter().enumerate() {
        let source = SideRegions::new(&tensor.source, &reshard.source_mesh, &tensor.shape, reshard.split)?;
        let destination =
            SideRegions::new(&tensor.destination, &reshard.destination_mesh, &tensor.shape, reshard.split)?;
        let (source_region, source_regions) = region_ids(&source, reshard.source_mesh.size());
        let (destination_region, destination_regions) = region_ids(&destination, reshard.destination_mesh.size());
        // One representative device per destination region: pieces to it count each (source region,
        // destination region) pair exactly once, whatever the replicas.
        let mut seen = vec![false; destination_regions];
        let representative: Vec<bool> =
            destination_region.iter().map(|&r| !std::mem::replace(&mut seen[r as usize], true)).collect();
        // Distinct source regions feeding each destination device, and destination regions fed by each source
        // region. The intersection plan sends one piece per overlapping source region (per partial
        // contributor) to every destination device, so counting contributor-0 pieces counts regions.
        let mut fan_in = vec![0u64; reshard.destination_mesh.size()];
        let mut fan_out = vec![0u64; source_regions];
        let mut tiny_here = false;
        let mut visit = |piece: &Piece| {
            let (src_slot, dst_slot) = (piece.src_slot as usize, piece.dst_slot as usize);
            sent[src_slot] += 1;
            received[dst_slot] += 1;
            if piece.link != LinkClass::Local {
                messages += 1;
                let (threshold, counter) = match piece.link {
                    LinkClass::Nvlink => (nvlink_threshold, &mut tiny_nvlink),
                    _ => (nic_threshold, &mut tiny_nic),
                };
                if (piece.bytes as f64) < threshold {
                    *counter += 1;
                    tiny_here = true;
                    if smallest.is_none_or(|s| piece.bytes < s.bytes) {
                        smallest = Some(SmallMessage {
                            bytes: piece.bytes,
                            tensor: piece.tensor,
                            src: piece.src,
                            dst: piece.dst,
                            link: piece.link,
                        });
                    }
                }
            }
            if piece.contributor == 0 {
                let dst_flat = destination_flat[dst_slot];
                fan_in[dst_flat] += 1;
                if representative[dst_flat] {
                    fan_out[source_region[source_flat[src_slot]] as usize] += 1;
                }
            }
        };
        planner.run_tensor(index, &mut visit)?;
        tiny_tensors += usize::from(tiny_here);

        // Fan-in: over destination shards (representatives of non-empty regions).
        let shards: Vec<usize> =
            (0..fan_in.len()).filter(|&flat| representative[flat] && !destination.region_of(flat).is_empty()).collect();
        let over: Vec<usize> = shards.iter().copied().filter(|&f| fan_in[f] > M2N_MAX_SOURCE_SHARDS).collect();
        if let Some(&worst) = over.iter().max_by_key(|&&f| (fan_in[f], std::cmp::Reverse(f))) {
            report.add(
                &M2N_FAN_IN,
                index,
                format!("a destination shard fed by more than {M2N_MAX_SOURCE_SHARDS} source shards"),
                format!(
                    "`{}`: the destination shard {} (device {}) is fed by {} source shards, above M2N's \
                     {M2N_MAX_SOURCE_SHARDS} (MAX_SOURCES; 32 on the DIRECT path); {} of {} destination shards \
                     exceed it",
                    tensor.name,
                    region_text(&destination.region_of(worst)),
                    reshard.destination_mesh.devices[worst],
                    fan_in[worst],
                    over.len(),
                    shards.len()
                ),
            );
        }
        // Fan-out: over source shards (regions that send anything).
        let sending = fan_out.iter().filter(|&&n| n > 0).count();
        let over = fan_out.iter().filter(|&&n| n > M2N_MAX_DESTINATION_SHARDS).count();
        let worst = (0..fan_out.len()).max_by_key(|&r| (fan_out[r], std::cmp::Reverse(r)));
        if let Some(worst) = worst.filter(|&r| fan_out[r] > M2N_MAX_DESTINATION_SHARDS)
            && let Some(flat) = source_region.iter().position(|&r| r as usize == worst)
        {
            report.add(
                &M2N_FAN_OUT,
                index,
                format!("a source shard feeding more than {M2N_MAX_DESTINATION_SHARDS} destination shards"),
                format!(
                    "`{}`: the source shard {} (device {}) feeds {} destination shards, above M2N's \
                     {M2N_MAX_DESTINATION_SHARDS} (MAX_TARGETS); {over} of {sending} source shards exceed it",
                    tensor.name,
                    region_text(&source.region_of(flat)),
                    reshard.source_mesh.devices[flat],
                    fan_out[worst],
                ),
            );
        }
    }

    // Pieces per device, over the whole change.
    let load = |slot: usize| sent[slot].max(received[slot]);
    if let Some(worst) = (0..slots).max_by_key(|&s| (load(s), std::cmp::Reverse(s)))
        && load(worst) > MAX_PIECES_PER_DEVICE
    {
        let over = (0..slots).filter(|&s| load(s) > MAX_PIECES_PER_DEVICE).count();
        let (verb, count) =
            if received[worst] >= sent[worst] { ("receives", received[worst]) } else { ("sends", sent[worst]) };
        let fixed = topology.latency_us * 1e-6 * count as f64;
        report.add_whole(
            &PLAN_PIECES_PER_DEVICE,
            format!(
                "device {} {verb} {count} pieces (local copies included), above {MAX_PIECES_PER_DEVICE}: at {} µs \
                 each that is {} of fixed cost before any byte moves; {over} device{} above the threshold. \
                 Fewer, larger pieces (coarser layouts, or tensors packed into one buffer) cut it",
                planner.table.devices[worst],
                topology.latency_us,
                format_seconds(fixed),
                if over == 1 { " is" } else { "s are" }
            ),
        );
    }

    // Messages whose latency exceeds their transfer time.
    let tiny = tiny_nvlink + tiny_nic;
    if let Some(small) = smallest
        && tiny > 0
    {
        // Each link class with tiny messages, with its threshold: "2,250,000 B (5 µs × 450 GB/s)".
        let classes: Vec<(u64, &str, f64, String)> = [
            (tiny_nvlink, "NVLink", nvlink_threshold, topology.nvlink_gbps),
            (tiny_nic, "the NIC", nic_threshold, topology.nic_gbps),
        ]
        .into_iter()
        .filter(|&(count, ..)| count > 0)
        .map(|(count, link, threshold, gbps)| {
            let limit =
                format!("{} B ({} µs × {gbps} GB/s)", format_count(threshold.round() as u64), topology.latency_us);
            (count, link, threshold, limit)
        })
        .collect();
        // No message can carry more than the whole change. When even that is below every threshold crossed
        // (the article's 144-byte toy), no layout could meet the rule: a note that says what the times mean.
        let whole: u64 = reshard.tensors.iter().map(|t| t.entries() * reshard.wire_dtype(t).bytes()).sum();
        if classes.iter().all(|&(_, _, threshold, _)| (whole as f64) < threshold) {
            let limits: Vec<String> =
                classes.iter().map(|(_, link, _, limit)| format!("{limit} over {link}")).collect();
            report.add_whole_as(
                &PLAN_TINY_MESSAGES,
                Severity::Info,
                format!(
                    "the whole change is {}, below latency × bandwidth of every link it crosses ({}), so no layout \
                     can amortise latency at this size: all {messages} messages are latency-bound, and estimated \
                     times compare message counts, not bytes. Right for showing the geometry; compare strategies' \
                     times at real sizes",
                    format_bytes(whole),
                    limits.join("; ")
                ),
            );
            return Ok(());
        }
        let parts: Vec<String> =
            classes.iter().map(|(count, link, _, limit)| format!("{count} over {link} below {limit}")).collect();
        let in_tensors = if reshard.tensors.len() > 1 {
            format!(" in {tiny_tensors} of {} tensors", reshard.tensors.len())
        } else {
            String::new()
        };
        let tensor_name = reshard.tensors.get(small.tensor).map_or("?", |t| t.name.as_str());
        report.add_whole(
            &PLAN_TINY_MESSAGES,
            format!(
                "{tiny} of {messages} messages{in_tensors} are smaller than latency × bandwidth of their link, so \
                 their fixed cost exceeds their transfer time: {}; the smallest is {} (`{tensor_name}`, device {} → \
                 {} over {})",
                parts.join(", "),
                format_bytes(small.bytes),
                small.src,
                small.dst,
                if small.link == LinkClass::Nvlink { "NVLink" } else { "the NIC" }
            ),
        );
    }
    Ok(())
}

/// A split semantics whose regions the diff compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Semantics {
    /// `torch.chunk` (DTensor's rule): chunks of `ceil(n / k)`, trailing ones smaller or empty.
    Chunk,
    /// numpy's `array_split`: sizes differ by at most one.
    Balanced,
    /// JAX: only even splits are allowed; otherwise the sharding is refused.
    Jax,
}

impl Semantics {
    pub const ALL: [Semantics; 3] = [Semantics::Chunk, Semantics::Balanced, Semantics::Jax];

    pub fn label(self) -> &'static str {
        match self {
            Semantics::Chunk => "torch.chunk (DTensor)",
            Semantics::Balanced => "balanced (numpy array_split)",
            Semantics::Jax => "JAX (even only)",
        }
    }
}

/// How one tensor dim is split under each semantics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DimSplit {
    pub dim: usize,
    pub size: u64,
    /// The mesh dims that split this tensor dim, in the order they are applied (empty: not split).
    pub mesh_dims: Vec<usize>,
    /// The number of shards: the product of those mesh dims' sizes (1 when not split).
    pub shards: u64,
    /// Shard sizes under `torch.chunk`, in shard order (for nested splits, the final shards).
    pub chunk: Vec<u64>,
    /// Shard sizes under `array_split`, in the same order.
    pub balanced: Vec<u64>,
    /// Whether JAX accepts this dim: `size` divisible by `shards`.
    pub jax_allowed: bool,
}

/// One device's region under each semantics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeviceSemantics {
    pub device: u32,
    pub coord: Vec<u64>,
    pub chunk: Region,
    pub balanced: Region,
    /// `None` when JAX refuses the layout. When JAX accepts it, every sharded dim divides evenly and all
    /// three semantics give this same region.
    pub jax: Option<Region>,
}

impl DeviceSemantics {
    /// The region under `semantics`; `None` for JAX when it refuses the layout.
    pub fn region(&self, semantics: Semantics) -> Option<Region> {
        match semantics {
            Semantics::Chunk => Some(self.chunk),
            Semantics::Balanced => Some(self.balanced),
            Semantics::Jax => self.jax,
        }
    }
}

/// The regions of one side under `torch.chunk`, `array_split` and JAX, per device, and where they differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SemanticsDiff {
    pub dims: Vec<DimSplit>,
    /// Why JAX refuses the layout (`JAX: not allowed, dim 0 size 6 is not divisible by 4`); `None` when it
    /// accepts it.
    pub jax_refusal: Option<String>,
    /// Every device of the mesh, in row-major mesh order.
    pub devices: Vec<DeviceSemantics>,
    /// Devices whose region is not the same under every semantics that allows the layout, in mesh order.
    pub differing: Vec<u32>,
}

impl SemanticsDiff {
    pub fn jax_allowed(&self) -> bool {
        self.jax_refusal.is_none()
    }

    /// One line per split tensor dim, then JAX's verdict: `dim 0 (size 6 over 4 shards: tp=4): torch.chunk
    /// 2, 2, 2, 0; balanced 2, 2, 1, 1`.
    pub fn lines(&self, mesh: &Mesh) -> Vec<String> {
        let mut lines: Vec<String> = self
            .dims
            .iter()
            .filter(|d| !d.mesh_dims.is_empty())
            .map(|d| {
                format!(
                    "dim {} (size {} over {} shards: {}): torch.chunk {}; balanced {}",
                    d.dim,
                    d.size,
                    d.shards,
                    mesh_dims_label(mesh, &d.mesh_dims),
                    sizes_text(&d.chunk),
                    sizes_text(&d.balanced)
                )
            })
            .collect();
        lines
            .push(self.jax_refusal.clone().unwrap_or_else(|| "JAX: allowed (every sharded dim divides evenly)".into()));
        lines
    }
}

/// Regions of one side of a tensor of `shape` under `torch.chunk`, balanced (`array_split`) and JAX's
/// even-only rule, per device, with the devices whose regions differ. Nested (multi-axis) and strided
/// shards follow the layout's order; Replicate and Partial mesh dims do not change a region under any rule.
///
/// JAX accepts a layout only when every sharded dim is divisible by its number of shards (for a dim split
/// over several mesh axes, their product); then all three rules agree. Errors when the layout does not fit
/// the mesh or the shape (see [`check_layout_shape`]) or its strided shards are inconsistent.
pub fn semantics_diff(shape: &[u64], side: &Layout, mesh: &Mesh) -> Result<SemanticsDiff, String> {
    check_layout_shape(shape, side, mesh)?;
    let chunk_tables = SideRegions::new(side, mesh, shape, SplitRule::Chunk)?;
    let balanced_tables = SideRegions::new(side, mesh, shape, SplitRule::Balanced)?;
    let lengths = |intervals: &[Interval]| intervals.iter().map(|i| i.len()).collect::<Vec<u64>>();
    let dims: Vec<DimSplit> = shape
        .iter()
        .enumerate()
        .map(|(dim, &size)| {
            let mesh_dims = chunk_tables.orders[dim].clone();
            let shards = mesh_dims.iter().fold(1u64, |acc, &m| acc.saturating_mul(mesh.shape[m]));
            DimSplit {
                dim,
                size,
                shards,
                chunk: lengths(&chunk_tables.intervals[dim]),
                balanced: lengths(&balanced_tables.intervals[dim]),
                jax_allowed: size.is_multiple_of(shards),
                mesh_dims,
            }
        })
        .collect();
    let reasons: Vec<String> = dims
        .iter()
        .filter(|d| !d.jax_allowed)
        .map(|d| format!("dim {} size {} is not divisible by {}", d.dim, d.size, d.shards))
        .collect();
    let jax_refusal = (!reasons.is_empty()).then(|| format!("JAX: not allowed, {}", reasons.join("; ")));
    let chunk = device_regions(side, mesh, shape, SplitRule::Chunk)?;
    let balanced = device_regions(side, mesh, shape, SplitRule::Balanced)?;
    let devices: Vec<DeviceSemantics> = chunk
        .into_iter()
        .zip(balanced)
        .map(|(c, b)| DeviceSemantics {
            device: c.device,
            coord: c.coord,
            jax: jax_refusal.is_none().then_some(c.region),
            chunk: c.region,
            balanced: b.region,
        })
        .collect();
    let differing = devices
        .iter()
        .filter(|d| d.chunk != d.balanced || d.jax.is_some_and(|j| j != d.chunk))
        .map(|d| d.device)
        .collect();
    Ok(SemanticsDiff { dims, jax_refusal, devices, differing })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan;
    use crate::core::presets;
    use crate::core::spec::parse_spec;

    fn spec(json: &str) -> Reshard {
        parse_spec(json).unwrap_or_else(|e| panic!("test spec is invalid: {e}\n{json}"))
    }

    #[test]
    fn the_rules_fire_alike_without_the_tensors_names() {
        // The web app counts what fires from the check key (names left out); only the messages name tensors.
        let statuses = |findings: &[Finding]| {
            rule_statuses(findings).iter().map(|s| (s.rule.id, s.findings, s.gravest)).collect::<Vec<_>>()
        };
        let inventory = crate::core::spec::parse_spec(&presets::llama_inventory_json(1)).expect("the inventory");
        for reshard in presets::PRESETS.iter().filter(|p| p.name != "large").map(presets::build).chain([inventory]) {
            let (named, keyed) = (lint(&reshard).expect("lints"), lint(&reshard.check_key()).expect("lints"));
            assert_eq!(statuses(&named), statuses(&keyed));
        }
    }

    /// A one-tensor change from short pieces of spec JSON.
    fn change(shape: &str, source: &str, destination: &str) -> Reshard {
        spec(&format!(
            r#"{{"tensor": {{"name": "w", "shape": {shape}}}, "source": {source}, "destination": {destination}}}"#
        ))
    }

    fn fired<'a>(findings: &'a [Finding], rule: &Rule) -> Vec<&'a Finding> {
        findings.iter().filter(|f| f.rule.id == rule.id).collect()
    }

    fn only(findings: &[Finding], rule: &Rule) -> String {
        let hits = fired(findings, rule);
        assert_eq!(hits.len(), 1, "expected one {} finding, got {hits:#?}", rule.id);
        hits[0].message.clone()
    }

    #[test]
    fn merging_shard_axes_is_hinted_only_where_one_axis_holds_the_same_chunks() {
        let hint = "merging those mesh axes into one axis of 8 would express the same layout";
        let message = |source: &str| {
            only(
                &lint(&change("[16, 4]", source, r#"{"mesh": [8], "placements": ["S(0)"]}"#)).unwrap(),
                &M2N_ONE_SHARD_AXIS,
            )
        };
        assert!(message(r#"{"mesh": [2, 4], "placements": ["S(0)", "S(0)"]}"#).contains(hint));
        // The strided order: device (i, j) holds chunk j × 2 + i, not i × 4 + j.
        let strided = message(r#"{"mesh": [2, 4], "placements": ["S(0)", "S(0)"], "order": "strided"}"#);
        assert!(strided.contains("2 Shard axes") && !strided.contains("merging"), "{strided}");
        // Axes apart: one axis over these devices in mesh order would need them reordered.
        let apart = message(r#"{"mesh": [2, 3, 4], "placements": ["S(0)", "R", "S(0)"]}"#);
        assert!(apart.contains("2 Shard axes") && !apart.contains("merging"), "{apart}");
    }

    #[test]
    fn every_rule_has_a_unique_id_and_a_source() {
        for (i, rule) in RULES.iter().enumerate() {
            assert!(!rule.source.is_empty() && !rule.limit.is_empty() && !rule.title.is_empty(), "{}", rule.id);
            assert!(RULES[i + 1..].iter().all(|r| r.id != rule.id), "{} twice", rule.id);
        }
    }

    #[test]
    fn the_toy_only_notes_that_it_is_too_small_to_time() {
        // Pins the article's toy: M2N could move it; its 144 bytes are below any link's latency × bandwidth,
        // so its 24-byte pieces are latency-bound whatever the layout: a note, not a warning.
        let findings = lint(&presets::toy()).unwrap();
        assert_eq!(findings.len(), 1, "{findings:#?}");
        let message = only(&findings, &PLAN_TINY_MESSAGES);
        assert!(message.contains("the whole change is 144 B"), "{message}");
        assert!(message.contains("all 6 messages are latency-bound"), "{message}");
        assert_eq!(findings[0].severity, Severity::Info);
        assert_eq!(findings[0].tensor, Some(0));
        let statuses = rule_statuses(&findings);
        assert_eq!(statuses.len(), RULES.len());
        assert!(statuses.iter().all(|s| s.passed() == (s.rule.id != PLAN_TINY_MESSAGES.id)));
        let tiny = statuses.iter().find(|s| s.rule.id == PLAN_TINY_MESSAGES.id).unwrap();
        assert_eq!(tiny.gravest, Some(Severity::Info), "milder than the rule's {:?}", tiny.rule.severity);
    }

    #[test]
    fn tiny_messages_warn_once_a_layout_could_avoid_them() {
        // The toy's thresholds: 2,250,000 B over NVLink (5 µs × 450 GB/s), 250,000 B over the NIC.
        let sized = |rows: u64, destination: &str| {
            spec(&format!(
                r#"{{"tensor": {{"name": "w", "shape": [{rows}, 1024], "dtype": "fp32"}},
                    "source": {{"mesh": [2], "placements": ["S(0)"]}},
                    "destination": {{"mesh": [2], "devices": {destination}, "placements": ["S(1)"]}}}}"#
            ))
        };
        // 549 × 1024 × 4 = 2,248,704 B, just below NVLink's threshold: a note.
        let just_below = lint(&sized(549, "[2, 3]")).unwrap();
        let note = fired(&just_below, &PLAN_TINY_MESSAGES);
        assert_eq!(note.len(), 1);
        assert_eq!(note[0].severity, Severity::Info);
        assert!(note[0].message.contains("2,250,000 B (5 µs × 450 GB/s) over NVLink"), "{}", note[0].message);
        // 550 rows are 2,252,800 B: one message could carry them, so the layout's tiny pieces warn.
        let just_above = lint(&sized(550, "[2, 3]")).unwrap();
        let warning = fired(&just_above, &PLAN_TINY_MESSAGES);
        assert_eq!(warning[0].severity, Severity::Warning);
        assert!(warning[0].message.contains("4 of 4 messages"), "{}", warning[0].message);
        // Over the NIC the threshold is 250,000 B; 61 rows (249,856 B) notes, 62 rows warn.
        assert_eq!(fired(&lint(&sized(61, "[8, 9]")).unwrap(), &PLAN_TINY_MESSAGES)[0].severity, Severity::Info);
        assert_eq!(fired(&lint(&sized(62, "[8, 9]")).unwrap(), &PLAN_TINY_MESSAGES)[0].severity, Severity::Warning);
    }

    #[test]
    fn rank_above_three_is_refused() {
        let four = change(
            r#"[2, 2, 2, 2]"#,
            r#"{"mesh": [2], "placements": ["S(0)"]}"#,
            r#"{"mesh": [2], "placements": ["S(1)"]}"#,
        );
        let message = only(&lint(&four).unwrap(), &M2N_RANK);
        assert!(message.contains("`w` has rank 4") && message.contains("[2, 2, 2, 2]"), "{message}");
        let three = change(
            r#"[2, 2, 2]"#,
            r#"{"mesh": [2], "placements": ["S(0)"]}"#,
            r#"{"mesh": [2], "placements": ["S(1)"]}"#,
        );
        assert!(fired(&lint(&three).unwrap(), &M2N_RANK).is_empty());
    }

    #[test]
    fn shard_axes_must_be_exactly_one_per_side_and_the_side_is_named() {
        let several = change(
            "[8, 8]",
            r#"{"mesh": [2, 4], "dim_names": ["dp", "tp"], "placements": ["S(0)", "S(1)"]}"#,
            r#"{"mesh": [2], "placements": ["R"]}"#,
        );
        let findings = lint(&several).unwrap();
        let hits = fired(&findings, &M2N_ONE_SHARD_AXIS);
        assert_eq!(hits.len(), 2, "{hits:#?}");
        assert!(hits[0].message.contains("the source has 2 Shard axes (dp=2: S(0), tp=4: S(1))"), "{}", hits[0]);
        assert!(hits[1].message.contains("the destination has no Shard axis ([R] on mesh [2])"), "{}", hits[1]);
        // Nested shards of one dim get the hint that one merged axis would do.
        let nested = lint(&presets::nested()).unwrap();
        assert!(only(&nested, &M2N_ONE_SHARD_AXIS).contains("they all split dim 0"), "{nested:#?}");
        // A Replicate axis beside the one Shard axis is fine.
        let fine = change(
            "[8, 8]",
            r#"{"mesh": [2, 4], "placements": ["R", "S(0)"]}"#,
            r#"{"mesh": [2], "placements": ["S(1)"]}"#,
        );
        assert!(fired(&lint(&fine).unwrap(), &M2N_ONE_SHARD_AXIS).is_empty());
    }

    #[test]
    fn partial_sources_are_refused() {
        let findings = lint(&presets::partial()).unwrap();
        let message = fired(&findings, &M2N_NO_PARTIAL)[0].message.clone();
        assert!(message.contains("`out`: the source is Partial on tp=4 (4 partial sums per entry)"), "{message}");
        assert!(fired(&lint(&presets::toy()).unwrap(), &M2N_NO_PARTIAL).is_empty());
    }

    #[test]
    fn uneven_dims_are_refused_with_the_dim_and_numbers() {
        // 6 rows over 4, 10 columns over 3.
        let findings = lint(&presets::uneven()).unwrap();
        let hits = fired(&findings, &M2N_EVEN);
        assert_eq!(hits.len(), 2);
        assert!(hits[0].message.contains("on the source, dim 0 has size 6, which its 4 shards (tp=4)"), "{}", hits[0]);
        assert!(hits[1].message.contains("on the destination, dim 1 has size 10, which its 3 shards"), "{}", hits[1]);
        assert!(fired(&lint(&presets::toy()).unwrap(), &M2N_EVEN).is_empty());
    }

    #[test]
    fn empty_and_uneven_shards_name_the_split() {
        let findings = lint(&presets::uneven()).unwrap();
        let empty = only(&findings, &SPLIT_EMPTY_SHARDS);
        assert!(empty.contains("1 of 4 source devices holds nothing (e.g. device 3)"), "{empty}");
        assert!(
            empty.contains("dim 0 (size 6) over 4 shards (tp=4) by torch.chunk (DTensor) gives 2, 2, 2, 0"),
            "{empty}"
        );
        let uneven = fired(&findings, &SPLIT_UNEVEN);
        assert_eq!(uneven.len(), 2);
        assert!(
            uneven[1].message.contains("dim 1 (size 10) over 3 shards (tp=3) by torch.chunk (DTensor) gives 4, 4, 2")
        );
        assert!(uneven.iter().all(|f| f.severity == Severity::Info));
        // Balanced leaves no device empty here, but is still uneven.
        let mut balanced = presets::uneven();
        balanced.split = SplitRule::Balanced;
        let findings = lint(&balanced).unwrap();
        assert!(fired(&findings, &SPLIT_EMPTY_SHARDS).is_empty());
        assert!(fired(&findings, &SPLIT_UNEVEN)[0].message.contains("gives 2, 2, 1, 1"));
        let toy = lint(&presets::toy()).unwrap();
        assert!(fired(&toy, &SPLIT_EMPTY_SHARDS).is_empty() && fired(&toy, &SPLIT_UNEVEN).is_empty());
    }

    #[test]
    fn fan_in_counts_source_shards_per_destination_shard() {
        // 32 row shards into one device: 32 sources feed it.
        let many =
            change("[32, 4]", r#"{"mesh": [32], "placements": ["S(0)"]}"#, r#"{"mesh": [1], "placements": ["S(0)"]}"#);
        let message = only(&lint(&many).unwrap(), &M2N_FAN_IN);
        assert!(
            message.contains("[0, 32) × [0, 4) (device 32) is fed by 32 source shards, above M2N's 16"),
            "{message}"
        );
        assert!(message.contains("1 of 1 destination shards"), "{message}");
        // 16 is allowed; rows to columns (an all-to-all) with 17 on each side is not.
        let sixteen =
            change("[16, 4]", r#"{"mesh": [16], "placements": ["S(0)"]}"#, r#"{"mesh": [1], "placements": ["S(0)"]}"#);
        assert!(fired(&lint(&sixteen).unwrap(), &M2N_FAN_IN).is_empty());
        let cross = change(
            "[17, 17]",
            r#"{"mesh": [17], "placements": ["S(0)"]}"#,
            r#"{"mesh": [17], "placements": ["S(1)"]}"#,
        );
        let findings = lint(&cross).unwrap();
        assert!(only(&findings, &M2N_FAN_IN).contains("fed by 17 source shards"));
        assert!(fired(&findings, &M2N_FAN_OUT).is_empty(), "each source shard feeds 17 ≤ 64");
        // Replicas are one shard: 16 shards on 32 devices still pass.
        let replicated = change(
            "[16, 4]",
            r#"{"mesh": [2, 16], "placements": ["R", "S(0)"]}"#,
            r#"{"mesh": [1], "placements": ["S(0)"]}"#,
        );
        assert!(fired(&lint(&replicated).unwrap(), &M2N_FAN_IN).is_empty());
    }

    #[test]
    fn fan_out_counts_destination_shards_per_source_shard_not_devices() {
        let wide =
            change("[65, 2]", r#"{"mesh": [1], "placements": ["S(0)"]}"#, r#"{"mesh": [65], "placements": ["S(0)"]}"#);
        let message = only(&lint(&wide).unwrap(), &M2N_FAN_OUT);
        assert!(
            message.contains("the source shard [0, 65) × [0, 2) (device 0) feeds 65 destination shards"),
            "{message}"
        );
        let sixty_four =
            change("[64, 2]", r#"{"mesh": [1], "placements": ["S(0)"]}"#, r#"{"mesh": [64], "placements": ["S(0)"]}"#);
        assert!(fired(&lint(&sixty_four).unwrap(), &M2N_FAN_OUT).is_empty());
        // One source shard on two replicas feeding 128 shards: the plan splits the sends between the
        // replicas (64 each), but M2N sees one source shard with 128 targets.
        let replicated_source = change(
            "[128, 2]",
            r#"{"mesh": [2, 1], "placements": ["R", "S(0)"]}"#,
            r#"{"mesh": [128], "placements": ["S(0)"]}"#,
        );
        let pieces = plan(&replicated_source, Strategy::Intersection).unwrap().pieces;
        for device in [0, 1] {
            assert_eq!(pieces.iter().filter(|p| p.src == device).count(), 64);
        }
        assert!(only(&lint(&replicated_source).unwrap(), &M2N_FAN_OUT).contains("feeds 128 destination shards"));
        // 64 destination shards on 128 devices: replicas of a destination shard count once.
        let replicated_destination = change(
            "[64, 2]",
            r#"{"mesh": [1], "placements": ["S(0)"]}"#,
            r#"{"mesh": [2, 64], "placements": ["R", "S(0)"]}"#,
        );
        assert!(fired(&lint(&replicated_destination).unwrap(), &M2N_FAN_OUT).is_empty());
    }

    #[test]
    fn too_many_pieces_on_one_device_warn_with_the_device_and_count() {
        // 65 × 64 single-entry shards all go to one device: 4160 pieces.
        let crowded = change(
            "[65, 64]",
            r#"{"mesh": [65, 64], "placements": ["S(0)", "S(1)"]}"#,
            r#"{"mesh": [1], "placements": ["S(0)"]}"#,
        );
        let message = only(&lint(&crowded).unwrap(), &PLAN_PIECES_PER_DEVICE);
        assert!(message.contains("device 4160 receives 4160 pieces"), "{message}");
        assert!(message.contains("20.8 ms of fixed cost"), "{message}");
        let fine = change(
            "[64, 64]",
            r#"{"mesh": [64, 64], "placements": ["S(0)", "S(1)"]}"#,
            r#"{"mesh": [1], "placements": ["S(0)"]}"#,
        );
        assert!(fired(&lint(&fine).unwrap(), &PLAN_PIECES_PER_DEVICE).is_empty());
    }

    #[test]
    fn tiny_messages_depend_on_latency_and_bandwidth() {
        let mut toy = presets::toy();
        toy.topology.latency_us = 0.0;
        assert!(fired(&lint(&toy).unwrap(), &PLAN_TINY_MESSAGES).is_empty());
        // 2 MiB fp32 pieces over the NIC (250 KB threshold) are fine; NVLink's threshold is 2.25 MB.
        let large = spec(
            r#"{"tensor": {"name": "w", "shape": [1024, 1024], "dtype": "fp32"},
                "source": {"mesh": [2], "placements": ["S(0)"]},
                "destination": {"mesh": [2], "devices": [8, 9], "placements": ["S(0)"]}}"#,
        );
        assert!(fired(&lint(&large).unwrap(), &PLAN_TINY_MESSAGES).is_empty());
        let mut near = large.clone();
        near.destination_mesh.devices = vec![2, 3];
        let message = only(&lint(&near).unwrap(), &PLAN_TINY_MESSAGES);
        assert!(
            message.contains("2 of 2 messages")
                && message.contains("2 over NVLink below 2,250,000 B (5 µs × 450 GB/s)"),
            "{message}"
        );
    }

    #[test]
    fn an_inventory_is_summarised_per_rule_with_examples() {
        // llama_inventory(2): 16 weights with [R, S(1), S(0)] or [R, S(0), S(1)] sources, 5 norms with [R, R]
        // destinations.
        let inventory = presets::llama_inventory(2);
        let findings = lint(&inventory).unwrap();
        let axes = fired(&findings, &M2N_ONE_SHARD_AXIS);
        assert_eq!(axes[0].tensor, None);
        assert_eq!(
            axes[0].message,
            "21 of 21 tensors break this rule: 16 have 2 Shard axes on the source (e.g. `embed_tokens`); \
             5 have no Shard axis on the destination (e.g. `layers.0.attn_norm`) (5 of 21 shown below)"
        );
        assert_eq!(axes.len(), 1 + DETAIL_PER_RULE);
        assert!(axes[1..].iter().all(|f| f.tensor.is_some()));
        assert!(axes[1..].iter().any(|f| f.message.contains("no Shard axis")), "every kind shows in the detail");
        for f in &findings {
            assert!(fired(&findings, f.rule).len() <= 1 + DETAIL_PER_RULE, "{}", f.rule.id);
        }
    }

    #[test]
    fn semantics_diff_of_six_over_four() {
        // Pins the three rules on the smallest disagreeing case: 2,2,2,0 vs 2,2,1,1 vs refused.
        let mesh = Mesh::contiguous(&[4], 0);
        let layout = change("[6]", r#"{"mesh": [4], "placements": ["S(0)"]}"#, r#"{"mesh": [1], "placements": ["R"]}"#)
            .tensors[0]
            .source
            .clone();
        let diff = semantics_diff(&[6], &layout, &mesh).unwrap();
        let sizes =
            |f: fn(&DeviceSemantics) -> Region| diff.devices.iter().map(|d| f(d).shape()[0]).collect::<Vec<_>>();
        assert_eq!(sizes(|d| d.chunk), [2, 2, 2, 0]);
        assert_eq!(sizes(|d| d.balanced), [2, 2, 1, 1]);
        assert_eq!(diff.dims[0].chunk, [2, 2, 2, 0]);
        assert_eq!(diff.dims[0].balanced, [2, 2, 1, 1]);
        assert_eq!(diff.jax_refusal.as_deref(), Some("JAX: not allowed, dim 0 size 6 is not divisible by 4"));
        assert!(diff.devices.iter().all(|d| d.region(Semantics::Jax).is_none()));
        assert_eq!(diff.differing, [2, 3]);
        assert_eq!(
            diff.lines(&mesh)[0],
            "dim 0 (size 6 over 4 shards: m0=4): torch.chunk 2, 2, 2, 0; balanced 2, 2, 1, 1"
        );
    }

    #[test]
    fn semantics_diff_of_an_even_shape_has_no_differences() {
        let reshard = presets::fsdp_tp();
        let tensor = &reshard.tensors[0];
        let diff = semantics_diff(&tensor.shape, &tensor.destination, &reshard.destination_mesh).unwrap();
        assert!(diff.jax_allowed());
        assert!(diff.differing.is_empty());
        assert_eq!(diff.devices.len(), 8);
        assert!(diff.devices.iter().all(|d| d.jax == Some(d.chunk) && d.balanced == d.chunk));
    }

    #[test]
    fn semantics_diff_follows_nested_shards() {
        // [8] over mesh [2, 3] (S(0), S(0)): halves of 4, then 4 over 3: chunk 2,2,0, balanced 2,1,1.
        let mesh = Mesh::contiguous(&[2, 3], 10);
        let layout = change(
            "[8]",
            r#"{"mesh": [2, 3], "placements": ["S(0)", "S(0)"]}"#,
            r#"{"mesh": [1], "placements": ["R"]}"#,
        )
        .tensors[0]
            .source
            .clone();
        let diff = semantics_diff(&[8], &layout, &mesh).unwrap();
        let offsets = |f: fn(&DeviceSemantics) -> Region| {
            diff.devices.iter().map(|d| (f(d).offset()[0], f(d).shape()[0])).collect::<Vec<_>>()
        };
        assert_eq!(offsets(|d| d.chunk), [(0, 2), (2, 2), (4, 0), (4, 2), (6, 2), (8, 0)]);
        assert_eq!(offsets(|d| d.balanced), [(0, 2), (2, 1), (3, 1), (4, 2), (6, 1), (7, 1)]);
        assert_eq!(diff.dims[0].mesh_dims, [0, 1]);
        assert_eq!(diff.dims[0].shards, 6);
        assert_eq!(diff.differing, [11, 12, 14, 15]);
        assert_eq!(diff.jax_refusal.as_deref(), Some("JAX: not allowed, dim 0 size 8 is not divisible by 6"));
    }

    #[test]
    fn semantics_diff_refuses_a_layout_that_does_not_fit_its_mesh() {
        let layout = presets::toy().tensors[0].source.clone();
        assert!(semantics_diff(&[12, 6], &layout, &Mesh::contiguous(&[3, 1], 0)).unwrap_err().contains("placements"));
        assert!(semantics_diff(&[], &layout, &Mesh::contiguous(&[3], 0)).is_err());
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        // Explicit, so that proptest's trait wins over the planner's `Strategy` that `super::*` brings in.
        use proptest::strategy::Strategy;

        /// A small side as spec JSON: a mesh of 1–3 dims of 1–3 devices, one placement each.
        fn side(rank: usize, destination: bool) -> impl Strategy<Value = String> {
            prop::collection::vec((1u64..=3, 0usize..5), 1..=3).prop_flat_map(move |dims| {
                let mesh: Vec<u64> = dims.iter().map(|d| d.0).collect();
                let placements: Vec<String> = dims
                    .iter()
                    .map(|&(_, pick)| match pick {
                        0 => "\"R\"".to_string(),
                        1 if !destination => "\"P\"".to_string(),
                        p => format!("\"S({})\"", p % rank),
                    })
                    .collect();
                any::<bool>().prop_map(move |strided| {
                    format!(
                        r#"{{"mesh": {mesh:?}, "placements": [{}], "order": "{}"}}"#,
                        placements.join(", "),
                        if strided { "strided" } else { "mesh" }
                    )
                })
            })
        }

        fn small_change() -> impl Strategy<Value = String> {
            (1usize..=4).prop_flat_map(|rank| {
                (
                    prop::collection::vec(1u64..=7, rank),
                    side(rank, false),
                    side(rank, true),
                    any::<bool>(),
                    prop_oneof![Just(0.0), Just(5.0)],
                    any::<bool>(),
                )
                    .prop_map(|(shape, source, destination, balanced, latency, colocated)| {
                        let destination = if colocated {
                            destination.replacen('{', r#"{"devices": "colocated", "#, 1)
                        } else {
                            destination
                        };
                        format!(
                            r#"{{"tensors": [{{"name": "a", "shape": {shape:?}}}, {{"name": "b", "shape": {shape:?}}}],
                                "source": {source}, "destination": {destination},
                                "split": "{}", "topology": {{"latency_us": {latency}, "devices_per_node": 2}}}}"#,
                            if balanced { "balanced" } else { "chunk" }
                        )
                    })
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

            /// Any small valid change lints without panicking, every rule reports a status, and the semantics
            /// diff of each side covers every device once, in mesh order.
            #[test]
            fn lint_never_panics_and_the_diff_covers_every_device(json in small_change()) {
                // Colocation needs equal device counts; without them the draw falls back to disjoint devices.
                let reshard = parse_spec(&json)
                    .or_else(|_| parse_spec(&json.replace(r#""devices": "colocated", "#, "")))
                    .map_err(|e| TestCaseError::fail(format!("generated an invalid spec: {e}\n{json}")))?;
                let findings = lint(&reshard).unwrap();
                prop_assert_eq!(rule_statuses(&findings).len(), RULES.len());
                for f in &findings {
                    prop_assert!(f.tensor.is_none_or(|t| t < reshard.tensors.len()));
                    // Only a tiny-messages finding is ever milder than its rule.
                    prop_assert!(
                        f.severity == f.rule.severity
                            || (f.rule.id == PLAN_TINY_MESSAGES.id && f.severity == Severity::Info)
                    );
                }
                let tensor = &reshard.tensors[0];
                for (layout, mesh) in [(&tensor.source, &reshard.source_mesh), (&tensor.destination, &reshard.destination_mesh)] {
                    let diff = semantics_diff(&tensor.shape, layout, mesh).unwrap();
                    let devices: Vec<u32> = diff.devices.iter().map(|d| d.device).collect();
                    prop_assert_eq!(&devices, &mesh.devices);
                    prop_assert!(diff.differing.iter().all(|d| mesh.devices.contains(d)));
                    let even = diff.dims.iter().all(|d| d.size.is_multiple_of(d.shards));
                    prop_assert_eq!(diff.jax_allowed(), even);
                    if even {
                        prop_assert!(diff.differing.is_empty());
                    }
                }
            }
        }
    }
}
