//! Edits of a [`SpecInput`] as a form makes them, each keeping the rest of the spec as typed, and the map
//! from a problem's field path back to the part of the spec (the form field) it names.
//!
//! A side has *mesh fields* (mesh shape, dim names, devices), always in the top-level `source` /
//! `destination`, and *layout fields* (placements or partition spec, order, dtype). For one tensor the layout
//! fields live in the same top-level side; in an inventory each tensor keeps its own, so editing the layout
//! of tensor `i` writes `tensors[i].source` (created from the shared side on first edit).

use serde_json::Value;

use super::model::default_dim_names;
use super::notation::placements_per_mesh_dim;
use super::placement::Placement;
use super::spec::{MeshShapeInput, SideInput, SpecInput, TensorInput};

/// The most tensor dims (and mesh dims) the form offers.
pub const MAX_DIMS: usize = super::geometry::MAX_RANK;

/// Which side of the change an edit is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideName {
    Source,
    Destination,
}

impl SideName {
    pub const BOTH: [SideName; 2] = [SideName::Source, SideName::Destination];

    /// The spec's key and the first segment of its field paths.
    pub const fn key(self) -> &'static str {
        match self {
            SideName::Source => "source",
            SideName::Destination => "destination",
        }
    }
    pub const fn title(self) -> &'static str {
        match self {
            SideName::Source => "Source",
            SideName::Destination => "Destination",
        }
    }
}

/// A side's mesh fields.
pub fn side(input: &SpecInput, name: SideName) -> &SideInput {
    match name {
        SideName::Source => &input.source,
        SideName::Destination => &input.destination,
    }
}

fn side_mut(input: &mut SpecInput, name: SideName) -> &mut SideInput {
    match name {
        SideName::Source => &mut input.source,
        SideName::Destination => &mut input.destination,
    }
}

/// How many tensors the spec describes (one unless it is an inventory).
pub fn tensor_count(input: &SpecInput) -> usize {
    input.tensors.as_ref().map_or(1, Vec::len)
}

/// The tensor the form edits: tensor `index` of an inventory, else the one tensor (`index` ignored).
pub fn tensor(input: &SpecInput, index: usize) -> Option<&TensorInput> {
    match &input.tensors {
        Some(list) => list.get(index.min(list.len().saturating_sub(1))),
        None => input.tensor.as_ref(),
    }
}

/// The edited tensor, created empty when a spec has none (so a form can fill it in).
fn tensor_mut(input: &mut SpecInput, index: usize) -> Option<&mut TensorInput> {
    match &mut input.tensors {
        Some(list) => {
            let last = list.len().checked_sub(1)?;
            list.get_mut(index.min(last))
        }
        None => Some(input.tensor.get_or_insert_with(TensorInput::default)),
    }
}

/// The field path of the edited tensor: `tensor` or `tensors[3]`.
pub fn tensor_path(input: &SpecInput, index: usize) -> String {
    match &input.tensors {
        Some(list) => format!("tensors[{}]", index.min(list.len().saturating_sub(1))),
        None => "tensor".into(),
    }
}

fn own_side(tensor: &TensorInput, name: SideName) -> Option<&SideInput> {
    match name {
        SideName::Source => tensor.source.as_ref(),
        SideName::Destination => tensor.destination.as_ref(),
    }
}

fn own_side_slot(tensor: &mut TensorInput, name: SideName) -> &mut Option<SideInput> {
    match name {
        SideName::Source => &mut tensor.source,
        SideName::Destination => &mut tensor.destination,
    }
}

/// The field path of a side's layout fields for the edited tensor: `source` or `tensors[3].source`
/// (as the spec check names them).
pub fn layout_path(input: &SpecInput, index: usize, name: SideName) -> String {
    let own = tensor(input, index).and_then(|t| own_side(t, name)).is_some();
    if input.tensors.is_some() || own {
        format!("{}.{}", tensor_path(input, index), name.key())
    } else {
        name.key().into()
    }
}

/// The layout fields in effect for the edited tensor (a tensor's own settings over the shared side's).
pub fn layout(input: &SpecInput, index: usize, name: SideName) -> SideInput {
    let top = side(input, name);
    match tensor(input, index).and_then(|t| own_side(t, name)) {
        Some(own) => top.overlaid_by(own),
        None => top.clone(),
    }
}

/// Where the edited tensor's layout fields are written (see the module doc).
fn layout_mut(input: &mut SpecInput, index: usize, name: SideName) -> &mut SideInput {
    let inventory = input.tensors.is_some();
    let own_exists = tensor(input, index).and_then(|t| own_side(t, name)).is_some();
    if (!inventory && !own_exists) || tensor(input, index).is_none() {
        return side_mut(input, name);
    }
    let top = side(input, name).clone();
    let SpecInput { tensor, tensors, source, destination, .. } = input;
    let target = match tensors {
        Some(list) => {
            let last = list.len().saturating_sub(1);
            list.get_mut(index.min(last))
        }
        None => tensor.as_mut(),
    };
    match target {
        Some(tensor) => own_side_slot(tensor, name).get_or_insert_with(|| SideInput {
            placements: top.placements,
            partition_spec: top.partition_spec,
            ..SideInput::default()
        }),
        None => match name {
            SideName::Source => source,
            SideName::Destination => destination,
        },
    }
}

/// Every layout of a side in the spec: the shared side and each tensor's own.
fn every_layout_mut(input: &mut SpecInput, name: SideName) -> Vec<&mut SideInput> {
    let SpecInput { tensor, tensors, source, destination, .. } = input;
    let mut layouts = vec![match name {
        SideName::Source => source,
        SideName::Destination => destination,
    }];
    let own = tensor.iter_mut().chain(tensors.iter_mut().flatten());
    layouts.extend(own.filter_map(|t| own_side_slot(t, name).as_mut()));
    layouts
}

/// A side's mesh shape as typed (a bare number is a 1-D mesh; none is empty).
pub fn mesh_shape(side: &SideInput) -> Vec<i64> {
    match &side.mesh {
        Some(MeshShapeInput::Dims(dims)) => dims.clone(),
        Some(MeshShapeInput::Size(n)) => vec![*n],
        None => Vec::new(),
    }
}

/// A side's mesh dim names, one per mesh dim: the typed ones, defaults (`m0`, `m1`) for the rest.
pub fn dim_names(side: &SideInput) -> Vec<String> {
    let rank = mesh_shape(side).len();
    let mut names = side.dim_names.clone().unwrap_or_default();
    let defaults = default_dim_names(rank);
    names.truncate(rank);
    names.extend(defaults.into_iter().skip(names.len()));
    names
}

/// Sets the size of mesh dim `dim` (any number: the spec check says what is wrong with it).
pub fn set_mesh_size(input: &mut SpecInput, name: SideName, dim: usize, size: i64) {
    let side = side_mut(input, name);
    let mut shape = mesh_shape(side);
    if let Some(slot) = shape.get_mut(dim) {
        *slot = size;
        side.mesh = Some(MeshShapeInput::Dims(shape));
    }
}

/// A name for a new mesh dim that no other dim uses: the usual ones first (`dp`, `tp`, …), then `m3`, ….
fn fresh_dim_name(taken: &[String]) -> String {
    ["dp", "tp", "pp", "ep", "cp", "fsdp"]
        .into_iter()
        .map(String::from)
        .chain((0..).map(|i| format!("m{i}")))
        .find(|name| !taken.contains(name))
        .unwrap_or_default()
}

/// Turns a partition spec into placements (one per mesh dim), keeping its meaning: a spec in reverse mesh
/// order sets the strided order. Edits per mesh dim need placements to edit.
fn materialise(layout: &mut SideInput, names: &[String]) {
    if layout.partition_spec.is_none() || layout.placements.is_some() {
        return;
    }
    let read = placements_per_mesh_dim(layout, names);
    layout.placements = Some(read.placements.into_iter().map(|p| p.unwrap_or(Placement::Replicate).short()).collect());
    layout.partition_spec = None;
    if read.strided {
        layout.order = Some("strided".into());
    }
}

/// Adds a mesh dim of size 2 at the end; every layout of the side replicates over it.
pub fn add_mesh_dim(input: &mut SpecInput, name: SideName) {
    let side = side_mut(input, name);
    let mut shape = mesh_shape(side);
    if shape.len() >= MAX_DIMS {
        return;
    }
    shape.push(2);
    if let Some(names) = &mut side.dim_names {
        let fresh = fresh_dim_name(names);
        names.push(fresh);
    }
    let rank = shape.len();
    side.mesh = Some(MeshShapeInput::Dims(shape));
    // A layout typed for a larger mesh (`[Shard(0), Shard(1)]` on one dim, whose message says to add a mesh
    // dim) already holds the new dim's placement; only a layout short of one gets Replicate.
    for layout in every_layout_mut(input, name) {
        if let Some(placements) = &mut layout.placements
            && placements.len() < rank
        {
            placements.push("R".into());
        }
    }
}

/// Whether the card's "+ mesh dim" adds its dim in front ([`add_outer_mesh_dim`]): unless the mesh is full, or
/// some layout of the side was typed for a larger mesh (`[Shard(0), Shard(1)]` on one dim), whose
/// placements name dims by position from the first and so expect the new one at the end.
pub fn outer_mesh_dim_goes_first(input: &SpecInput, name: SideName) -> bool {
    let rank = mesh_shape(side(input, name)).len();
    let own = input.tensor.iter().chain(input.tensors.iter().flatten()).filter_map(|t| own_side(t, name));
    let typed_for_more = std::iter::once(side(input, name))
        .chain(own)
        .any(|layout| layout.placements.as_ref().is_some_and(|p| p.len() > rank));
    rank < MAX_DIMS && !typed_for_more
}

/// Adds a mesh dim of size 2 in front, as the outer dim, where replicas usually go: `tp` becomes `dp, tp`,
/// and each `tp` group keeps consecutive device ids, so stays on one node (appended, `tp, dp` spread every
/// `tp` group over every other device, and the new dim was named `dp` after `tp`). Every layout of the side
/// replicates over it. Where [`outer_mesh_dim_goes_first`] says no, it is [`add_mesh_dim`].
pub fn add_outer_mesh_dim(input: &mut SpecInput, name: SideName) {
    if !outer_mesh_dim_goes_first(input, name) {
        return add_mesh_dim(input, name);
    }
    let side = side_mut(input, name);
    let mut shape = mesh_shape(side);
    shape.insert(0, 2);
    if let Some(names) = &mut side.dim_names {
        let fresh = fresh_dim_name(names);
        names.insert(0, fresh);
    }
    side.mesh = Some(MeshShapeInput::Dims(shape));
    for layout in every_layout_mut(input, name) {
        if let Some(placements) = &mut layout.placements {
            placements.insert(0, "R".into());
        }
    }
}

/// Removes mesh dim `dim` with its name and its placement in every layout of the side; a mesh keeps at
/// least one dim.
pub fn remove_mesh_dim(input: &mut SpecInput, name: SideName, dim: usize) {
    let side = side_mut(input, name);
    let mut shape = mesh_shape(side);
    if shape.len() <= 1 || dim >= shape.len() {
        return;
    }
    let names = dim_names(side);
    shape.remove(dim);
    side.mesh = Some(MeshShapeInput::Dims(shape));
    if let Some(given) = &mut side.dim_names
        && dim < given.len()
    {
        given.remove(dim);
    }
    for layout in every_layout_mut(input, name) {
        // In JAX notation the removed dim's axis leaves the spec, which stays JAX (a name the mesh lacks goes
        // too, as turning the spec into placements drops it).
        if layout.placements.is_none()
            && let (Some(spec), Some(axis)) = (&mut layout.partition_spec, names.get(dim))
        {
            remove_axis(spec, axis, &names);
            continue;
        }
        materialise(layout, &names);
        if let Some(placements) = &mut layout.placements
            && dim < placements.len()
        {
            placements.remove(dim);
        }
    }
}

/// Renames mesh dim `dim`; partition specs that named it follow the new name.
pub fn rename_mesh_dim(input: &mut SpecInput, name: SideName, dim: usize, new_name: &str) {
    let side = side_mut(input, name);
    let mut names = dim_names(side);
    let Some(slot) = names.get_mut(dim) else { return };
    let old = std::mem::replace(slot, new_name.to_string());
    side.dim_names = Some(names);
    for layout in every_layout_mut(input, name) {
        for entry in layout.partition_spec.iter_mut().flatten() {
            rename_in(entry, &old, new_name);
        }
    }
}

/// The axis names of one partition spec entry (`None`, `'tp'` or `('dp', 'tp')`).
fn axes_of(entry: &Value) -> Vec<String> {
    match entry {
        Value::String(axis) => vec![axis.clone()],
        Value::Array(items) => items.iter().filter_map(|a| a.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}

/// One partition spec entry for these axis names, written as JAX writes it: `None`, `'tp'`, `('dp', 'tp')`.
fn entry_of(mut axes: Vec<String>) -> Value {
    match axes.len() {
        0 => Value::Null,
        1 => Value::String(axes.remove(0)),
        _ => Value::Array(axes.into_iter().map(Value::String).collect()),
    }
}

/// Takes mesh axis `axis` out of every entry of a partition spec (the mesh dim replicates), and with it any
/// name the mesh lacks (`names`). Entries that named neither are left as typed.
fn remove_axis(spec: &mut [Value], axis: &str, names: &[String]) {
    for entry in spec.iter_mut() {
        let axes = axes_of(entry);
        if axes.iter().any(|a| a == axis || !names.contains(a)) {
            *entry = entry_of(axes.into_iter().filter(|a| a != axis && names.contains(a)).collect());
        }
    }
}

/// Adds mesh axis `axis` to the entry of `tensor_dim` (padding the spec with `None`s to reach it), among the
/// axes already there in mesh order, or in reverse mesh order when the side is strided: the order that gives
/// the layout the placements would have (a tuple's order is the order its axes split the dim).
fn add_axis(spec: &mut Vec<Value>, tensor_dim: usize, axis: &str, names: &[String], strided: bool) {
    if spec.len() <= tensor_dim {
        spec.resize(tensor_dim + 1, Value::Null);
    }
    let mesh_dim = |a: &str| names.iter().position(|n| n == a);
    let mut axes = axes_of(&spec[tensor_dim]);
    let at = mesh_dim(axis).and_then(|m| {
        axes.iter().position(|a| mesh_dim(a).is_some_and(|other| if strided { other < m } else { other > m }))
    });
    axes.insert(at.unwrap_or(axes.len()), axis.to_string());
    spec[tensor_dim] = entry_of(axes);
}

fn rename_in(entry: &mut Value, old: &str, new_name: &str) {
    match entry {
        Value::String(s) if s == old => *s = new_name.to_string(),
        Value::Array(items) => items.iter_mut().for_each(|item| rename_in(item, old, new_name)),
        _ => {}
    }
}

/// Sets the placement of mesh dim `dim` for the edited tensor. A side written in JAX notation stays so when
/// JAX can say the result (a shard or a replica); a `Partial` turns its partition spec into placements.
pub fn set_placement(input: &mut SpecInput, index: usize, name: SideName, dim: usize, placement: Placement) {
    let names = dim_names(side(input, name));
    let layout = layout_mut(input, index, name);
    if layout.placements.is_none()
        && let Some(axis) = names.get(dim)
    {
        let strided = placements_per_mesh_dim(layout, &names).strided;
        if let Some(spec) = &mut layout.partition_spec
            && let Placement::Shard(_) | Placement::Replicate = placement
        {
            // A name the mesh lacks (a typo) leaves too, as turning the spec into placements drops it: the
            // card, which asked for that dim's placement to be picked, then shows what the spec says.
            remove_axis(spec, axis, &names);
            if let Placement::Shard(tensor_dim) = placement {
                add_axis(spec, tensor_dim, axis, &names, strided);
            }
            return;
        }
    }
    materialise(layout, &names);
    let placements = layout.placements.get_or_insert_with(Vec::new);
    if placements.len() < names.len() {
        placements.resize(names.len(), "R".into());
    }
    if let Some(slot) = placements.get_mut(dim) {
        *slot = placement.short();
    }
}

/// The layout fields of the edited tensor, to change in place (layout text, order, dtype).
pub fn edit_layout(input: &mut SpecInput, index: usize, name: SideName, edit: impl FnOnce(&mut SideInput)) {
    edit(layout_mut(input, index, name));
}

/// Whether the edited tensor's side applies nested shards right to left: its `order` says so, or its
/// placements do (`_StridedShard`, JAX axes in reverse mesh order).
pub fn is_strided(input: &SpecInput, index: usize, name: SideName) -> bool {
    let l = layout(input, index, name);
    let strided_shard = |text: &String| matches!(Placement::parse(text), Ok(Placement::StridedShard { .. }));
    l.order.as_deref() == Some("strided")
        || l.placements.as_ref().is_some_and(|p| p.iter().any(strided_shard))
        || placements_per_mesh_dim(&l, &dim_names(side(input, name))).strided
}

/// Sets the edited tensor's side to the strided order, or back to mesh order (DTensor's default). Back to
/// mesh order, a `_StridedShard` (typed, or pasted from PyTorch) becomes a plain `Shard`: left as it was, the
/// side stayed strided and the box could not be unticked.
pub fn set_strided(input: &mut SpecInput, index: usize, name: SideName, strided: bool) {
    let side = layout_mut(input, index, name);
    side.order = strided.then(|| "strided".to_string());
    if !strided && let Some(placements) = side.placements.as_mut() {
        for text in placements.iter_mut() {
            if let Ok(Placement::StridedShard { dim, .. }) = Placement::parse(text) {
                *text = Placement::Shard(dim).short();
            }
        }
    }
}

/// Whether the side is written in JAX notation, whose order is its axis tuples', not a flag.
pub fn from_jax(input: &SpecInput, index: usize, name: SideName) -> bool {
    layout(input, index, name).partition_spec.is_some()
}

/// Sets the size of tensor dim `dim` (any number: the spec check says what is wrong with it).
pub fn set_tensor_dim(input: &mut SpecInput, index: usize, dim: usize, size: i64) {
    if let Some(slot) = tensor_mut(input, index).and_then(|t| t.shape.get_mut(dim)) {
        *slot = size;
    }
}

/// Appends a tensor dim of size 4 (up to rank 8).
pub fn add_tensor_dim(input: &mut SpecInput, index: usize) {
    if let Some(tensor) = tensor_mut(input, index)
        && tensor.shape.len() < MAX_DIMS
    {
        tensor.shape.push(4);
    }
}

/// Removes tensor dim `dim` (a tensor keeps at least one): shards of it become replicas and shards of later
/// dims move down by one, in both layouts of the edited tensor. Returns a sentence for each layout whose
/// meaning changed that way: the layout text followed the cards with nothing to say that `[Shard(1)]` was
/// now `[Replicate()]` (review 48), a plan of two shards turned into one of two copies.
pub fn remove_tensor_dim(input: &mut SpecInput, index: usize, dim: usize) -> Vec<String> {
    match tensor_mut(input, index) {
        Some(tensor) if tensor.shape.len() > 1 && dim < tensor.shape.len() => {
            tensor.shape.remove(dim);
        }
        _ => return Vec::new(),
    }
    let mut said = Vec::new();
    for name in SideName::BOTH {
        let layout = layout_mut(input, index, name);
        let side = name.key();
        if let Some(spec) = &mut layout.partition_spec
            && dim < spec.len()
        {
            let axes = axes_of(&spec.remove(dim));
            if !axes.is_empty() {
                // Quoted as in the layout text: the note is plain text, and backticks showed as such.
                let axes = axes.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", ");
                said.push(format!("Tensor dim {dim} is gone: the {side}'s {axes} sharded it, and now replicates."));
            }
        }
        for text in layout.placements.iter_mut().flatten() {
            let before = Placement::parse(text);
            let moved = match before {
                Ok(Placement::Shard(d)) if d == dim => Some(Placement::Replicate),
                Ok(Placement::Shard(d)) if d > dim => Some(Placement::Shard(d - 1)),
                Ok(Placement::StridedShard { dim: d, .. }) if d == dim => Some(Placement::Replicate),
                Ok(Placement::StridedShard { dim: d, split_factor }) if d > dim => {
                    Some(Placement::StridedShard { dim: d - 1, split_factor })
                }
                _ => None,
            };
            if let (Ok(before), Some(Placement::Replicate)) = (before, moved) {
                // Once, however many mesh dims shard it (nested's two, said twice over).
                let line = format!("Tensor dim {dim} is gone: the {side}'s {} is a Replicate() now.", before.dtensor());
                if !said.contains(&line) {
                    said.push(line);
                }
            }
            if let Some(p) = moved {
                *text = p.short();
            }
        }
    }
    said
}

/// Sets the edited tensor's name.
pub fn set_tensor_name(input: &mut SpecInput, index: usize, name: &str) {
    if let Some(tensor) = tensor_mut(input, index) {
        tensor.name = Some(name.to_string());
    }
}

/// The part of the spec (and so the form field) a problem's path names, for the edited tensor `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecField {
    Split,
    ConvertAt,
    DevicesPerNode,
    NvlinkGbps,
    NicGbps,
    LatencyUs,
    /// The mesh as a whole (`source.mesh`).
    Mesh(SideName),
    MeshDim(SideName, usize),
    DimNames(SideName),
    DimName(SideName, usize),
    Devices(SideName),
    /// The layout as a whole: placements' count, the partition spec, both given, the shard order.
    Layout(SideName),
    Placement(SideName, usize),
    SideDtype(SideName),
    /// The tensor as a whole (`tensor`: missing, or both `tensor` and `tensors`).
    Tensor,
    TensorName,
    TensorShape,
    TensorDim(usize),
    TensorDtype,
}

/// What follows `prefix` in `path` when `path` is `prefix` itself or a field under it.
fn under<'a>(path: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = path.strip_prefix(prefix)?;
    (rest.is_empty() || rest.starts_with('.') || rest.starts_with('[')).then_some(rest)
}

/// `[3]` → 3.
fn index_of(rest: &str) -> Option<usize> {
    rest.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

/// A list field and its entries: `.mesh` → `whole`, `.mesh[2]` → `entry(2)`.
fn list_field(rest: &str, key: &str, whole: SpecField, entry: impl Fn(usize) -> SpecField) -> Option<SpecField> {
    let after = rest.strip_prefix('.')?.strip_prefix(key)?;
    if after.is_empty() {
        return Some(whole);
    }
    index_of(after).map(entry).or(Some(whole))
}

/// The form field a problem at `path` belongs to, or `None` when no field of the edited tensor shows it
/// (e.g. another tensor of an inventory).
pub fn field_of(path: &str, input: &SpecInput, index: usize) -> Option<SpecField> {
    match path {
        "split" => return Some(SpecField::Split),
        "convert_at" => return Some(SpecField::ConvertAt),
        "topology.devices_per_node" => return Some(SpecField::DevicesPerNode),
        "topology.nvlink_gbps" => return Some(SpecField::NvlinkGbps),
        "topology.nic_gbps" => return Some(SpecField::NicGbps),
        "topology.latency_us" => return Some(SpecField::LatencyUs),
        "tensor" | "tensors" => return Some(SpecField::Tensor),
        _ => {}
    }
    for name in SideName::BOTH {
        let layout = layout_path(input, index, name);
        let layout_field = under(path, &layout).and_then(|rest| match rest {
            "" | ".order" => Some(SpecField::Layout(name)),
            ".dtype" => Some(SpecField::SideDtype(name)),
            r if r.starts_with(".partition_spec") => Some(SpecField::Layout(name)),
            r => list_field(r, "placements", SpecField::Layout(name), |i| SpecField::Placement(name, i)),
        });
        if layout_field.is_some() {
            return layout_field;
        }
        if let Some(rest) = under(path, name.key()) {
            return list_field(rest, "mesh", SpecField::Mesh(name), |i| SpecField::MeshDim(name, i))
                .or_else(|| list_field(rest, "dim_names", SpecField::DimNames(name), |i| SpecField::DimName(name, i)))
                .or_else(|| list_field(rest, "devices", SpecField::Devices(name), |_| SpecField::Devices(name)));
        }
    }
    let rest = under(path, &tensor_path(input, index))?;
    match rest {
        "" => Some(SpecField::Tensor),
        ".name" => Some(SpecField::TensorName),
        ".dtype" => Some(SpecField::TensorDtype),
        r => list_field(r, "shape", SpecField::TensorShape, SpecField::TensorDim),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::spec::{parse_input, validate};

    const TOY: &str = r#"{"tensor": {"name": "w", "shape": [12, 6]},
        "source": {"mesh": [3], "dim_names": ["tp"], "placements": ["S(0)"]},
        "destination": {"mesh": [2], "dim_names": ["tp"], "placements": ["S(1)"]}}"#;

    fn toy() -> SpecInput {
        parse_input(TOY).unwrap()
    }

    #[test]
    fn the_strided_order_is_read_from_the_flag_or_the_placements_and_set_by_the_flag() {
        let mut input = parse_input(
            r#"{"tensor": {"name": "w", "shape": [16, 8]},
                "source": {"mesh": [2, 4], "dim_names": ["dp", "tp"], "placements": ["S(0)", "S(0)"]},
                "destination": {"mesh": [4], "partition_spec": [null, "x"], "dim_names": ["x"]}}"#,
        )
        .unwrap();
        assert!(!is_strided(&input, 0, SideName::Source));
        set_strided(&mut input, 0, SideName::Source, true);
        assert!(is_strided(&input, 0, SideName::Source));
        assert_eq!(validate(&input).unwrap().tensors[0].source.order, crate::core::model::ShardOrder::Strided);
        set_strided(&mut input, 0, SideName::Source, false);
        assert!(!is_strided(&input, 0, SideName::Source));
        // A _StridedShard (typed, or pasted from PyTorch) is the strided order too; unticked, a plain Shard.
        input.source.placements = Some(vec!["SS(0,4)".into(), "S(0)".into()]);
        assert!(is_strided(&input, 0, SideName::Source));
        set_strided(&mut input, 0, SideName::Source, false);
        assert!(!is_strided(&input, 0, SideName::Source));
        assert_eq!(input.source.placements, Some(vec!["S(0)".to_string(), "S(0)".to_string()]));
        assert!(!from_jax(&input, 0, SideName::Source));
        assert!(from_jax(&input, 0, SideName::Destination));
    }

    /// Every problem of `input`, with the field it is shown under.
    fn fields(input: &SpecInput) -> Vec<(String, Option<SpecField>)> {
        validate(input)
            .err()
            .map(|e| e.problems.iter().map(|p| (p.path.clone(), field_of(&p.path, input, 0))).collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_zero_mesh_size_is_shown_under_that_mesh_dim() {
        let mut input = toy();
        set_mesh_size(&mut input, SideName::Source, 0, 0);
        assert_eq!(fields(&input), vec![("source.mesh[0]".into(), Some(SpecField::MeshDim(SideName::Source, 0)))]);
        set_mesh_size(&mut input, SideName::Source, 0, 3);
        assert_eq!(input, toy(), "fixing the size restores the spec");
    }

    #[test]
    fn adding_and_removing_a_mesh_dim_keeps_one_placement_per_dim() {
        let mut input = toy();
        add_mesh_dim(&mut input, SideName::Destination);
        assert_eq!(mesh_shape(&input.destination), vec![2, 2]);
        assert_eq!(input.destination.dim_names, Some(vec!["tp".into(), "dp".into()]));
        assert_eq!(input.destination.placements, Some(vec!["S(1)".into(), "R".into()]));
        assert!(validate(&input).is_ok());
        remove_mesh_dim(&mut input, SideName::Destination, 0);
        assert_eq!(input.destination.placements, Some(vec!["R".into()]));
        assert_eq!(input.destination.dim_names, Some(vec!["dp".into()]));
        remove_mesh_dim(&mut input, SideName::Destination, 0);
        assert_eq!(mesh_shape(&input.destination), vec![2], "a mesh keeps one dim");
    }

    #[test]
    fn the_cards_mesh_dim_goes_in_front_as_the_outer_dim() {
        // TP-2 becomes two replicas of TP-2: `dp, tp`, each tp group on consecutive devices.
        let mut input = toy();
        assert!(outer_mesh_dim_goes_first(&input, SideName::Destination));
        add_outer_mesh_dim(&mut input, SideName::Destination);
        assert_eq!(mesh_shape(&input.destination), vec![2, 2]);
        assert_eq!(input.destination.dim_names, Some(vec!["dp".into(), "tp".into()]));
        assert_eq!(input.destination.placements, Some(vec!["R".into(), "S(1)".into()]));
        let reshard = validate(&input).expect("valid");
        // d3 and d4 (the first replica) still split the columns between them, as before the edit.
        let tensor = &reshard.tensors[0];
        let regions = crate::core::region::device_regions(
            &tensor.destination,
            &reshard.destination_mesh,
            &tensor.shape,
            reshard.split,
        )
        .expect("regions");
        let first: Vec<(u32, Vec<u64>)> =
            regions.iter().take(2).map(|r| (r.device, r.region.offset().to_vec())).collect();
        assert_eq!(first, vec![(3, vec![0, 0]), (4, vec![0, 3])]);
        // Again: the next usual name, in front.
        add_outer_mesh_dim(&mut input, SideName::Destination);
        assert_eq!(input.destination.dim_names, Some(vec!["pp".into(), "dp".into(), "tp".into()]));
        assert_eq!(input.destination.placements, Some(vec!["R".into(), "R".into(), "S(1)".into()]));
        // Unnamed dims keep their default names by position; the placements still shift.
        let mut input = toy();
        input.source.dim_names = None;
        add_outer_mesh_dim(&mut input, SideName::Source);
        assert_eq!(input.source.placements, Some(vec!["R".into(), "S(0)".into()]));
        assert_eq!(mesh_shape(&input.source), vec![2, 3]);
    }

    #[test]
    fn the_cards_mesh_dim_follows_a_layout_typed_for_a_larger_mesh_at_the_end() {
        let mut input = toy();
        input.source.placements = Some(vec!["S(0)".into(), "S(1)".into()]);
        assert!(!outer_mesh_dim_goes_first(&input, SideName::Source));
        add_outer_mesh_dim(&mut input, SideName::Source);
        assert_eq!(input.source.placements, Some(vec!["S(0)".into(), "S(1)".into()]));
        assert_eq!(mesh_shape(&input.source), vec![3, 2]);
        assert!(validate(&input).is_ok());
    }

    #[test]
    fn a_mesh_dim_added_after_typing_more_placements_than_dims_takes_the_next_one() {
        // The message for `[Shard(0), Shard(1)]` on a 1-dim mesh says to add a mesh dim; doing so appended
        // Replicate, and the message became "3 placements for a mesh of 2 dims".
        let mut input = toy();
        input.source.placements = Some(vec!["S(0)".into(), "S(1)".into()]);
        assert!(validate(&input).is_err());
        add_mesh_dim(&mut input, SideName::Source);
        assert_eq!(input.source.placements, Some(vec!["S(0)".into(), "S(1)".into()]));
        assert_eq!(mesh_shape(&input.source), vec![3, 2]);
        assert!(validate(&input).is_ok());
    }

    #[test]
    fn editing_a_placement_keeps_a_partition_spec_where_jax_can_say_it() {
        let mut input = toy();
        input.source.placements = None;
        input.source.partition_spec = Some(vec![Value::String("tp".into())]);
        set_placement(&mut input, 0, SideName::Source, 0, Placement::Shard(1));
        assert_eq!(input.source.partition_spec, Some(vec![Value::Null, Value::String("tp".into())]));
        assert_eq!(input.source.placements, None);
        set_placement(&mut input, 0, SideName::Source, 0, Placement::Replicate);
        assert_eq!(input.source.partition_spec, Some(vec![Value::Null, Value::Null]));
        assert!(validate(&input).is_ok());
        // JAX has no Partial: the side turns into placements.
        set_placement(&mut input, 0, SideName::Source, 0, Placement::Partial);
        assert_eq!(input.source.partition_spec, None);
        assert_eq!(input.source.placements, Some(vec![Placement::Partial.short()]));
    }

    #[test]
    fn a_second_axis_joins_a_tuple_in_the_sides_order_and_a_removed_mesh_dim_leaves_it() {
        let spec = |json: &str| serde_json::from_str::<Vec<Value>>(json).unwrap();
        let mut input = parse_input(
            r#"{"tensor": {"name": "w", "shape": [16, 8]},
                "source": {"mesh": [2, 2, 2], "dim_names": ["dp", "cp", "tp"], "partition_spec": [["tp", "dp"], null]},
                "destination": {"mesh": [2], "dim_names": ["x"], "placements": ["R"]}}"#,
        )
        .unwrap();
        // Reverse mesh order (strided): cp goes between tp and dp.
        set_placement(&mut input, 0, SideName::Source, 1, Placement::Shard(0));
        assert_eq!(input.source.partition_spec, Some(spec(r#"[["tp", "cp", "dp"], null]"#)));
        set_placement(&mut input, 0, SideName::Source, 2, Placement::Shard(1));
        assert_eq!(input.source.partition_spec, Some(spec(r#"[["cp", "dp"], "tp"]"#)));
        remove_mesh_dim(&mut input, SideName::Source, 0);
        assert_eq!(input.source.partition_spec, Some(spec(r#"["cp", "tp"]"#)));
        assert_eq!(input.source.placements, None);
        assert!(validate(&input).is_ok());
        // A misspelt axis goes when a dim's placement is picked, and the spec reads.
        input.source.partition_spec = Some(spec(r#"["cpp", null]"#));
        assert!(validate(&input).is_err());
        set_placement(&mut input, 0, SideName::Source, 0, Placement::Shard(0));
        assert_eq!(input.source.partition_spec, Some(spec(r#"["cp", null]"#)));
        assert!(validate(&input).is_ok());
    }

    proptest::proptest! {
        /// A card's edit of a side in JAX notation gives every device the region it gives the same side
        /// turned into placements first (the edit's older way, which rewrote the text as DTensor).
        #[test]
        fn a_jax_edit_means_what_the_placements_edit_means(
            mesh_rank in 1usize..=3,
            tensor_rank in 1usize..=3,
            shards in proptest::collection::vec(0usize..4, 3),
            strided: bool,
            dim in 0usize..3,
            to in 0usize..4,
        ) {
            let names = ["dp", "cp", "tp"];
            // Mesh dim m shards tensor dim shards[m] (or replicates, past the rank), its axes listed in mesh
            // order, or in reverse.
            let mut entries: Vec<Vec<&str>> = vec![Vec::new(); tensor_rank];
            for (m, &t) in shards.iter().take(mesh_rank).enumerate() {
                if t < tensor_rank {
                    entries[t].push(names[m]);
                }
            }
            if strided {
                entries.iter_mut().for_each(|e| e.reverse());
            }
            let json = format!(
                r#"{{"tensor": {{"name": "w", "shape": {shape:?}}},
                    "source": {{"mesh": {mesh:?}, "dim_names": {names:?}, "partition_spec": {spec}}},
                    "destination": {{"mesh": [2], "dim_names": ["x"], "placements": ["R"]}}}}"#,
                shape = vec![24; tensor_rank],
                mesh = vec![2; mesh_rank],
                names = &names[..mesh_rank],
                spec = serde_json::to_string(&entries).unwrap(),
            );
            let mut jax = parse_input(&json).unwrap();
            proptest::prop_assume!(validate(&jax).is_ok());
            let dim = dim % mesh_rank;
            let placement = if to < tensor_rank { Placement::Shard(to) } else { Placement::Replicate };
            let mut placements = jax.clone();
            let mesh_names = dim_names(&placements.source);
            materialise(&mut placements.source, &mesh_names);
            set_placement(&mut jax, 0, SideName::Source, dim, placement);
            set_placement(&mut placements, 0, SideName::Source, dim, placement);
            proptest::prop_assert!(jax.source.partition_spec.is_some() && jax.source.placements.is_none());
            let regions = |input: &SpecInput| {
                let reshard = validate(input).unwrap();
                let t = &reshard.tensors[0];
                crate::core::region::device_regions(&t.source, &reshard.source_mesh, &t.shape, reshard.split)
                    .unwrap()
                    .into_iter()
                    .map(|r| format!("{r:?}"))
                    .collect::<Vec<_>>()
            };
            proptest::prop_assert_eq!(regions(&jax), regions(&placements));
        }
    }

    #[test]
    fn renaming_a_mesh_dim_renames_it_in_partition_specs() {
        let mut input = toy();
        input.source.placements = None;
        input.source.partition_spec = Some(vec![Value::String("tp".into()), Value::Null]);
        rename_mesh_dim(&mut input, SideName::Source, 0, "fsdp");
        assert_eq!(input.source.dim_names, Some(vec!["fsdp".into()]));
        assert_eq!(input.source.partition_spec, Some(vec![Value::String("fsdp".into()), Value::Null]));
        assert!(validate(&input).is_ok());
    }

    #[test]
    fn removing_a_tensor_dim_moves_the_shards_that_name_later_dims() {
        let mut input = toy();
        let said = remove_tensor_dim(&mut input, 0, 0);
        assert_eq!(input.tensor.as_ref().unwrap().shape, vec![6]);
        assert_eq!(input.source.placements, Some(vec!["R".into()]));
        assert_eq!(input.destination.placements, Some(vec!["S(0)".into()]));
        assert!(validate(&input).is_ok());
        // The shard that became a replica is said; the one that moved down means the same and is not.
        assert_eq!(said, vec!["Tensor dim 0 is gone: the source's Shard(dim=0) is a Replicate() now.".to_string()]);
        let mut jax = toy();
        jax.destination.placements = None;
        jax.destination.partition_spec = Some(vec![Value::Null, Value::String("tp".into())]);
        let said = remove_tensor_dim(&mut jax, 0, 1);
        assert_eq!(jax.destination.partition_spec, Some(vec![Value::Null]));
        assert_eq!(
            said,
            vec!["Tensor dim 1 is gone: the destination's 'tp' sharded it, and now replicates.".to_string()]
        );
        // A dim two mesh dims shard (nested sharding) is said once.
        let mut nested = toy();
        nested.source.mesh = Some(crate::core::spec::MeshShapeInput::Dims(vec![2, 2]));
        nested.source.dim_names = None;
        nested.source.placements = Some(vec!["S(0)".into(), "S(0)".into()]);
        let said = remove_tensor_dim(&mut nested, 0, 0);
        assert_eq!(nested.source.placements, Some(vec!["R".into(), "R".into()]));
        assert_eq!(said, vec!["Tensor dim 0 is gone: the source's Shard(dim=0) is a Replicate() now.".to_string()]);
        assert!(remove_tensor_dim(&mut jax, 0, 0).is_empty(), "a rank-1 tensor keeps its dim");
        add_tensor_dim(&mut input, 0);
        assert_eq!(input.tensor.as_ref().unwrap().shape, vec![6, 4]);
    }

    #[test]
    fn every_problem_of_a_single_tensor_spec_has_a_field() {
        let mut input = toy();
        set_tensor_dim(&mut input, 0, 1, -2);
        input.tensor.as_mut().unwrap().dtype = Some("fp64".into());
        input.source.dim_names = Some(vec![String::new()]);
        input.source.devices = Some(crate::core::spec::DevicesInput::Ids(vec![0, 0, 1]));
        input.destination.placements = Some(vec!["S(1)".into(), "R".into()]);
        input.split = Some("odd".into());
        input.topology = Some(crate::core::spec::TopologyInput { nic_gbps: Some(0.0), ..Default::default() });
        for (path, field) in fields(&input) {
            assert!(field.is_some(), "{path} has no field");
        }
        assert_eq!(field_of("tensor.shape[1]", &input, 0), Some(SpecField::TensorDim(1)));
        assert_eq!(field_of("destination.placements", &input, 0), Some(SpecField::Layout(SideName::Destination)));
        assert_eq!(
            field_of("destination.placements[1]", &input, 0),
            Some(SpecField::Placement(SideName::Destination, 1))
        );
        assert_eq!(field_of("source.devices[1]", &input, 0), Some(SpecField::Devices(SideName::Source)));
        assert_eq!(field_of("tensors[0].shape", &input, 0), None, "not an inventory");
    }

    #[test]
    fn an_inventory_edits_the_viewed_tensors_own_layout() {
        let mut input = parse_input(
            r#"{"source": {"mesh": [2], "placements": ["S(0)"]}, "destination": {"mesh": [2], "placements": ["R"]},
            "tensors": [{"name": "a", "shape": [4, 4]}, {"name": "b", "shape": [8]}]}"#,
        )
        .unwrap();
        assert_eq!(layout_path(&input, 1, SideName::Destination), "tensors[1].destination");
        set_placement(&mut input, 1, SideName::Destination, 0, Placement::Shard(0));
        let b = &input.tensors.as_ref().unwrap()[1];
        assert_eq!(b.destination.as_ref().unwrap().placements, Some(vec!["S(0)".into()]));
        assert_eq!(input.destination.placements, Some(vec!["R".into()]), "the shared side is untouched");
        add_mesh_dim(&mut input, SideName::Destination);
        let b = &input.tensors.as_ref().unwrap()[1];
        assert_eq!(b.destination.as_ref().unwrap().placements, Some(vec!["S(0)".into(), "R".into()]));
        assert!(validate(&input).is_ok());
        assert_eq!(
            field_of("tensors[1].destination.placements[0]", &input, 1),
            Some(SpecField::Placement(SideName::Destination, 0))
        );
        assert_eq!(field_of("tensors[0].shape[0]", &input, 1), None, "another tensor's problem");
    }
}
