//! A Source or Destination card: the mesh (dims with names and sizes), one placement per mesh dim, the
//! layout as text, the dtype, which devices, and the order of nested shards.

use leptos::prelude::*;

use super::EditorContext;
use super::dim_rows::{DimRows, RemoveDimButton};
use super::field::{Draft, FieldDrafts, FieldProblems, GroupProblem, IntegerField, count_unread, slug};
use super::layout_text::LayoutTextField;
use crate::core::geometry::Dtype;
use crate::core::model::{Mesh, Reshard};
use crate::core::notation::{format_device_ids, parse_device_ids, placements_per_mesh_dim};
use crate::core::placement::Placement;
use crate::core::spec::{DevicesInput, MAX_MESH_DEVICES};
use crate::core::spec_edit::{
    MAX_DIMS, SideName, SpecField, add_outer_mesh_dim, dim_names, edit_layout, from_jax, is_strided, layout,
    mesh_shape, outer_mesh_dim_goes_first, remove_mesh_dim, rename_mesh_dim, set_mesh_size, set_placement, set_strided,
    side, tensor,
};

/// One side of the change.
#[component]
pub fn SideCard(
    /// Which side this card edits.
    side: SideName,
) -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let key = side.key();
    let mesh_rank = Memo::new(move |_| state.input.with(|input| mesh_shape(self::side(input, side)).len()));
    let rows = DimRows::new(mesh_rank);
    let drafts = use_context::<FieldDrafts>();
    // The devices of the change the pictures show: while the input has problems, the last valid one's, and
    // said so (a blank line left a gap and said nothing).
    let devices_note = move || {
        let note = state.reshard.with(|r| {
            let mesh = if side == SideName::Source { &r.source_mesh } else { &r.destination_mesh };
            let n = mesh.size();
            // Non-breaking hyphens: "ids 1024-1279" broke after its hyphen in a narrow card.
            let ids = format_device_ids(&mesh.devices).replace('-', "\u{2011}");
            format!("{n} device{} · ids {ids} · {}", if n == 1 { "" } else { "s" }, nodes_text(&nodes_of(r, mesh)))
        });
        if state.checked.with(Result::is_err) { format!("{note} (last valid)") } else { note }
    };
    let title_id = format!("{key}-card-title");
    let labelled_by = title_id.clone();
    let mesh_messages = editor.messages(move |f| f == SpecField::Mesh(side) || f == SpecField::DimNames(side));

    view! {
        <section class=format!("editor-card side-card side-{key}") aria-labelledby=labelled_by data-testid=format!("side-{key}")>
            <h2 class="card-title" id=title_id>{side.title()}</h2>
            <p class="card-note" data-testid=format!("devices-note-{key}")>{devices_note}</p>
            <fieldset class="dims">
                <legend class="field-label">"Mesh " <span class="muted">"dims · placement"</span></legend>
                <For each=move || rows.ids() key=|id| *id let(id)>
                    <MeshDimBlock side=side dim=rows.dim(id) rows=rows/>
                </For>
                <button
                    type="button"
                    class="add"
                    data-testid=format!("add-mesh-dim-{key}")
                    disabled={move || mesh_rank.get() >= MAX_DIMS}
                    title={move || {
                        if mesh_rank.get() >= MAX_DIMS {
                            format!("A mesh has at most {MAX_DIMS} dims")
                        } else {
                            "Adds an outer mesh dim of size 2, in front (replicas, as dp in dp × tp)".to_string()
                        }
                    }}
                    on:click=move |_| {
                        if state.input.with_untracked(|input| outer_mesh_dim_goes_first(input, side)) {
                            rows.add_in_front();
                            if let Some(drafts) = drafts {
                                drafts.forget(state.replaced.get_untracked());
                            }
                        }
                        state.input.update(|input| add_outer_mesh_dim(input, side));
                    }
                >
                    "+ mesh dim"
                </button>
                <FieldProblems id=format!("problems-{key}-mesh") messages=mesh_messages/>
            </fieldset>
            <LayoutTextField side=side/>
            <DtypeSelect side=side/>
            // Beside the dtype it converts to (it was in the Tensor card, far from both dtypes).
            {(side == SideName::Destination).then(|| view! { <super::tensor_card::ConversionPoint/> })}
            <DevicesField side=side/>
            {(side == SideName::Destination).then(|| view! { <MovedNote/> })}
            <OrderToggle side=side/>
        </section>
    }
}

/// One mesh dim: its name, its size (a stepper) and its placement. `dim` follows the row when a dim before it
/// is removed.
#[component]
fn MeshDimBlock(side: SideName, dim: Signal<usize>, rows: DimRows) -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let key = side.key();
    let name = Memo::new(move |_| {
        let dim = dim.get();
        state.input.with(|input| dim_names(self::side(input, side)).get(dim).cloned())
    });
    let size = Signal::derive(move || {
        let dim = dim.get();
        state.input.with(|input| mesh_shape(self::side(input, side)).get(dim).copied())
    });
    let mesh_rank = Memo::new(move |_| state.input.with(|input| mesh_shape(self::side(input, side)).len()));
    let name_problems_id = Signal::derive(move || format!("problems-{key}-dim-name-{}", dim.get()));
    let name_messages = editor.messages(move |f| f == SpecField::DimName(side, dim.get()));
    // The mesh's own problems (more devices than a mesh may hold) are about every size in it: each size field
    // is marked, and read out with them.
    let mesh_messages = editor.messages(move |f| f == SpecField::Mesh(side));
    let mesh_invalid = Signal::derive(move || !mesh_messages.with(Vec::is_empty));
    view! {
        <div class="dim-block mesh-dim" data-testid=move || format!("mesh-dim-{key}-{}", dim.get())>
            <div class="dim-head">
                <input
                    type="text"
                    class="text-input mono dim-name"
                    spellcheck="false"
                    aria-label=move || format!("{key} mesh dim {} name", dim.get())
                    aria-invalid=move || (!name_messages.with(Vec::is_empty)).to_string()
                    aria-describedby=name_problems_id
                    data-testid=move || format!("field-{key}-dim-name-{}", dim.get())
                    prop:value=move || name.get().unwrap_or_default()
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        let dim = dim.get_untracked();
                        state.input.update(|input| rename_mesh_dim(input, side, dim, &text));
                    }
                />
                <RemoveDimButton
                    dim=dim
                    rows=rows
                    name=format!("{key} mesh dim")
                    test_id=format!("remove-mesh-dim-{key}")
                    add_test_id=format!("add-mesh-dim-{key}")
                    title="Remove this mesh dim"
                    disabled=Signal::derive(move || mesh_rank.get() <= 1)
                    remove=Callback::new(move |dim| state.input.update(|input| remove_mesh_dim(input, side, dim)))
                />
            </div>
            <FieldProblems id=name_problems_id messages=name_messages/>
            <IntegerField
                label=Signal::derive(move || format!("{key} mesh dim {} size", dim.get()))
                value=size
                on_set=Callback::new(move |n| {
                    let dim = dim.get_untracked();
                    state.input.update(|input| set_mesh_size(input, side, dim, n))
                })
                problems=editor.messages(move |f| f == SpecField::MeshDim(side, dim.get()))
                min=1
                max=MAX_MESH_DEVICES as i64
                key=Signal::derive(move || format!("{key}-mesh-{}", dim.get()))
                group=Some(GroupProblem { invalid: mesh_invalid, problems_id: format!("problems-{key}-mesh") })
            />
            <PlacementSelect side=side dim=dim/>
        </div>
    }
}

/// The placement of one mesh dim: Shard(dim d) for each tensor dim, Replicate, and (source only) Partial.
#[component]
fn PlacementSelect(side: SideName, dim: Signal<usize>) -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let index = editor.index;
    let key = side.key();
    let current = Memo::new(move |_| {
        let dim = dim.get();
        state.input.with(|input| {
            let names = dim_names(self::side(input, side));
            placements_per_mesh_dim(&layout(input, index.get(), side), &names).placements.get(dim).copied().flatten()
        })
    });
    let rank =
        Memo::new(move |_| state.input.with(|input| tensor(input, index.get()).map_or(1, |t| t.shape.len().max(1))));
    let choices = move || {
        let mut list: Vec<(String, String)> =
            (0..rank.get()).map(|d| (Placement::Shard(d).short(), format!("Shard(dim {d})"))).collect();
        list.push(("R".into(), "Replicate".into()));
        if side == SideName::Source {
            list.push(("P".into(), "Partial (sum)".into()));
        }
        match current.get() {
            // Short, as the others are ("Shard(dim 0)"): `_StridedShard(dim=0, split_factor=2)` was cut to
            // "_StridedShard(di" in the narrow select.
            Some(p) if !list.iter().any(|(value, _)| *value == p.short()) => {
                let label = match p {
                    Placement::StridedShard { dim, split_factor } => format!("Strided({dim}, ×{split_factor})"),
                    // A dim the tensor does not have (its problem is said under the field), named as the
                    // others are: it read "Shard(dim=5)" beside "Shard(dim 0)".
                    Placement::Shard(dim) => format!("Shard(dim {dim})"),
                    other => other.dtensor(),
                };
                list.push((p.short(), label));
            }
            // Short: "— pick a placement" was cut to "— pick a placeme…" in the narrow select (review 48).
            None => list.insert(0, (String::new(), "— pick one".into())),
            _ => {}
        }
        list
    };
    let selected = move || current.get().map(Placement::short).unwrap_or_default();
    let invalid = editor.messages(move |f| f == SpecField::Placement(side, dim.get()));
    view! {
        <select
            class="select placement"
            aria-label=move || format!("{key} placement on mesh dim {}", dim.get())
            aria-invalid=move || (!invalid.with(Vec::is_empty)).to_string()
            aria-describedby=format!("problems-{}", slug(&format!("{key}.layout")))
            data-testid=move || format!("field-{key}-placement-{}", dim.get())
            prop:value=selected
            on:change=move |ev| {
                if let Ok(placement) = Placement::parse(&event_target_value(&ev)) {
                    let dim = dim.get_untracked();
                    editor.edit(|input, index| set_placement(input, index, side, dim, placement));
                }
            }
        >
            {move || {
                let chosen = selected();
                choices()
                    .into_iter()
                    .map(|(value, label)| {
                        let is_chosen = value == chosen;
                        view! { <option value=value selected=is_chosen>{label}</option> }
                    })
                    .collect_view()
            }}
        </select>
    }
}

/// The side's dtype (defaults to the tensor's).
#[component]
fn DtypeSelect(side: SideName) -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let index = editor.index;
    let key = side.key();
    let current = Memo::new(move |_| {
        state.input.with(|input| {
            let i = index.get();
            layout(input, i, side)
                .dtype
                .or_else(|| tensor(input, i).and_then(|t| t.dtype.clone()))
                .map(|t| Dtype::parse(&t).map_or(t, |d| d.name().to_string()))
                .unwrap_or_else(|| Dtype::Bf16.name().to_string())
        })
    });
    let input_id = format!("field-{key}-dtype");
    let problems_id = format!("problems-{key}-dtype");
    view! {
        <div class="labelled-field inline-field">
            <label class="field-label" for=input_id.clone()>"dtype"</label>
            <select
                id=input_id.clone()
                class="select"
                aria-describedby=problems_id.clone()
                data-testid=input_id
                prop:value=move || current.get()
                on:change=move |ev| {
                    let value = event_target_value(&ev);
                    editor.edit(|input, index| edit_layout(input, index, side, |l| l.dtype = Some(value)));
                }
            >
                {move || {
                    let chosen = current.get();
                    let mut names: Vec<String> = Dtype::ALL.iter().map(|d| d.name().to_string()).collect();
                    if !names.contains(&chosen) {
                        names.push(chosen.clone());
                    }
                    names
                        .into_iter()
                        .map(|name| {
                            let is_chosen = name == chosen;
                            view! { <option value=name.clone() selected=is_chosen>{name.clone()}</option> }
                        })
                        .collect_view()
                }}
            </select>
            <FieldProblems id=problems_id messages=editor.messages_for(SpecField::SideDtype(side))/>
        </div>
    }
}

/// The nodes a mesh's devices are on, ascending, each once.
fn nodes_of(reshard: &Reshard, mesh: &Mesh) -> Vec<u32> {
    let mut nodes: Vec<u32> = mesh.devices.iter().map(|&d| reshard.topology.node_of(d)).collect();
    nodes.sort_unstable();
    nodes.dedup();
    nodes
}

/// "node 1", "nodes 0‑3", kept on one line (non-breaking space and hyphens, as the ids).
fn nodes_text(nodes: &[u32]) -> String {
    let listed = format_device_ids(nodes).replace('-', "\u{2011}");
    if nodes.len() == 1 { format!("node\u{a0}{listed}") } else { format!("nodes\u{a0}{listed}") }
}

/// What the destination's placement on nodes depends on, to tell why it moved.
#[derive(Clone, PartialEq)]
struct Whereabouts {
    generation: u64,
    disjoint: bool,
    source_devices: usize,
    destination_devices: usize,
    devices_per_node: u32,
    ids: Vec<u32>,
    nodes: Vec<u32>,
}

/// Disjoint destination ids come after the source's, so a larger source moves them, maybe onto another node,
/// which changes the class of every link they use. Said where the ids are chosen when an edit of the source
/// alone did it, from where to where (review 39: the traffic went across nodes without a word); gone when
/// they are back on their nodes, or when the destination's devices are edited themselves.
#[component]
fn MovedNote() -> impl IntoView {
    let state = expect_context::<EditorContext>().state;
    let moved = RwSignal::new(None::<String>);
    // Where the ids were before the source moved them: (ids, nodes).
    let origin = StoredValue::new(None::<(Vec<u32>, Vec<u32>)>);
    let whereabouts = Memo::new(move |_| {
        let disjoint = state.input.with(|input| input.destination.devices.is_none());
        state.reshard.with(|r| Whereabouts {
            generation: state.replaced.get(),
            disjoint,
            source_devices: r.source_mesh.size(),
            destination_devices: r.destination_mesh.size(),
            devices_per_node: r.topology.devices_per_node,
            ids: r.destination_mesh.devices.clone(),
            nodes: nodes_of(r, &r.destination_mesh),
        })
    });
    Effect::new(move |previous: Option<Whereabouts>| {
        let now = whereabouts.get();
        if let Some(before) = previous {
            let source_alone = now.generation == before.generation
                && now.disjoint
                && before.disjoint
                && now.source_devices != before.source_devices
                && now.destination_devices == before.destination_devices
                && now.devices_per_node == before.devices_per_node;
            if !source_alone {
                origin.set_value(None);
                moved.set(None);
            } else if now.nodes != before.nodes || origin.with_value(Option::is_some) {
                let (from_ids, from_nodes) =
                    origin.with_value(|o| o.clone()).unwrap_or_else(|| (before.ids.clone(), before.nodes.clone()));
                // Back on the nodes they were on: nothing changed that the note is about.
                if from_nodes == now.nodes {
                    origin.set_value(None);
                    moved.set(None);
                } else {
                    let count = now.source_devices;
                    moved.set(Some(format!(
                        "Destination ids moved from {} ({}) to {} ({}): disjoint ids follow the source's {count} \
                         device{}. Choose \u{201c}id list\u{201d} to pin them.",
                        format_device_ids(&from_ids),
                        nodes_text(&from_nodes),
                        format_device_ids(&now.ids),
                        nodes_text(&now.nodes),
                        if count == 1 { "" } else { "s" },
                    )));
                    origin.set_value(Some((from_ids, from_nodes)));
                }
            }
        }
        now
    });
    view! {
        <p class="moved-note" role="status" data-testid="moved-note" hidden=move || moved.with(Option::is_none)>
            {move || moved.get()}
        </p>
    }
}

/// How the side's devices are chosen, as the select shows it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DevicesMode {
    /// The ids after the source's (the destination) or from 0 (the source).
    Disjoint,
    /// The destination reuses the source's devices.
    Colocated,
    /// An explicit id list.
    List,
}

/// Which devices the side uses: disjoint ids, colocated with the source (destination only), or a list.
#[component]
fn DevicesField(side: SideName) -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let key = side.key();
    let mode = Memo::new(move |_| {
        state.input.with(|input| match &self::side(input, side).devices {
            None => DevicesMode::Disjoint,
            Some(DevicesInput::Named(n)) if n == "colocated" || n == "source" => DevicesMode::Colocated,
            Some(_) => DevicesMode::List,
        })
    });
    let listed = move || {
        state.input.with_untracked(|input| match &self::side(input, side).devices {
            Some(DevicesInput::Ids(ids)) => ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", "),
            Some(DevicesInput::Named(n)) if mode.get_untracked() == DevicesMode::List => n.clone(),
            _ => String::new(),
        })
    };
    // A list that did not parse when the field was last drawn (before a visit to another view) comes back.
    let place = Draft::of(Signal::stored(format!("devices-{key}")), None);
    let draft = place.kept();
    let local = RwSignal::new(draft.as_deref().and_then(|text| parse_device_ids(text).err()));
    let raw = RwSignal::new(draft.unwrap_or_else(listed));
    // A list that does not parse is a problem the status line counts, like any field's.
    count_unread(local);
    place.keep_through_restructuring(move || local.with_untracked(Option::is_some).then(|| raw.get_untracked()));
    // A preset or another edit replaced the list: show it, unless the text already means it, or is text that
    // does not parse (an edit elsewhere keeps it, as every field keeps its draft). Without a list any more,
    // the list's own message goes with it.
    Effect::new(move |previous: Option<u64>| {
        let generation = state.replaced.get();
        let reopened = previous.is_some_and(|g| g != generation);
        let ids = state.input.with(|input| match &self::side(input, side).devices {
            Some(DevicesInput::Ids(ids)) => Some(ids.clone()),
            _ => None,
        });
        if ids.is_none() {
            local.set(None);
            place.keep(None);
        } else if reopened {
            // Another draft generation (a preset, undo): its list as typed there, if it did not parse.
            let draft = place.kept().and_then(|text| parse_device_ids(&text).err().map(|why| (text, why)));
            local.set(draft.as_ref().map(|(_, why)| why.clone()));
            raw.set(draft.map_or_else(listed, |(text, _)| text));
        } else if local.with_untracked(Option::is_none) && parse_device_ids(&raw.get_untracked()).ok() != ids {
            raw.set(listed());
            local.set(None);
            place.keep(None);
        }
        generation
    });
    let choose = move |value: String| {
        let devices = match value.as_str() {
            "colocated" => Some(DevicesInput::Named("colocated".into())),
            "list" => {
                // Start from the devices the side has now, so switching to a list changes nothing yet.
                let ids: Vec<i64> = state.reshard.with_untracked(|r| {
                    let mesh = if side == SideName::Source { &r.source_mesh } else { &r.destination_mesh };
                    mesh.devices.iter().map(|&d| i64::from(d)).collect()
                });
                raw.set(format_device_ids(&ids.iter().map(|&d| d as u32).collect::<Vec<_>>()));
                Some(DevicesInput::Ids(ids))
            }
            _ => None,
        };
        local.set(None);
        place.keep(None);
        state.input.update(|input| match side {
            SideName::Source => input.source.devices = devices,
            SideName::Destination => input.destination.devices = devices,
        });
    };
    let core_messages = editor.messages_for(SpecField::Devices(side));
    let messages = Signal::derive(move || match local.get() {
        Some(message) => vec![message],
        None => core_messages.get(),
    });
    let select_id = format!("field-{key}-devices");
    let problems_id = format!("problems-{key}-devices");
    let mode_value = move || match mode.get() {
        DevicesMode::Disjoint => "disjoint",
        DevicesMode::Colocated => "colocated",
        DevicesMode::List => "list",
    };
    view! {
        <div class="labelled-field inline-field">
            <label class="field-label" for=select_id.clone()>"Devices"</label>
            <select
                id=select_id.clone()
                class="select"
                aria-describedby=problems_id.clone()
                data-testid=select_id
                prop:value=mode_value
                on:change=move |ev| choose(event_target_value(&ev))
            >
                <option value="disjoint" selected=move || mode.get() == DevicesMode::Disjoint>
                    {if side == SideName::Source { "from 0" } else { "disjoint" }}
                </option>
                {(side == SideName::Destination).then(|| view! {
                    <option value="colocated" selected=move || mode.get() == DevicesMode::Colocated>"colocated"</option>
                })}
                <option value="list" selected=move || mode.get() == DevicesMode::List>"id list"</option>
            </select>
        </div>
        <Show when=move || mode.get() == DevicesMode::List>
            <input
                type="text"
                class="text-input mono"
                spellcheck="false"
                placeholder="0-3, 8"
                aria-label=format!("{key} device ids, in mesh order")
                aria-invalid=move || (!messages.with(Vec::is_empty)).to_string()
                aria-describedby=format!("problems-{key}-devices")
                data-testid=format!("field-{key}-device-ids")
                prop:value=move || raw.get()
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    raw.set(text.clone());
                    match parse_device_ids(&text) {
                        Ok(ids) => {
                            local.set(None);
                            place.keep(None);
                            state.input.update(|input| match side {
                                SideName::Source => input.source.devices = Some(DevicesInput::Ids(ids)),
                                SideName::Destination => input.destination.devices = Some(DevicesInput::Ids(ids)),
                            });
                        }
                        Err(message) => {
                            local.set(Some(message));
                            place.keep(Some(text));
                        }
                    }
                }
            />
        </Show>
        <FieldProblems id=problems_id messages=messages/>
    }
}

/// Nested shards in mesh order (DTensor's default) or strided (right to left, as FSDP2 + TP lay out).
/// Shown when the mesh has several dims, the only case where the order can matter.
#[component]
fn OrderToggle(side: SideName) -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let index = editor.index;
    let key = side.key();
    let shown = Memo::new(move |_| state.input.with(|input| mesh_shape(self::side(input, side)).len() > 1));
    let strided = Memo::new(move |_| state.input.with(|input| is_strided(input, index.get(), side)));
    let jax = Memo::new(move |_| state.input.with(|input| from_jax(input, index.get(), side)));
    move || {
        shown.get().then(|| {
            let id = format!("field-{key}-order");
            let (label_for, test_id) = (id.clone(), id.clone());
            view! {
                <label class="check" for=label_for title="_StridedShard: nested shards of one tensor dim applied right to left">
                    <input
                        id=id
                        type="checkbox"
                        data-testid=test_id
                        prop:checked=move || strided.get()
                        disabled=move || jax.get()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            editor.edit(|input, index| set_strided(input, index, side, on));
                        }
                    />
                    " strided order"
                </label>
            }
        })
    }
}
