//! The layout inventory of a whole model (the article's "practical first step"): pick a model and the
//! training and generation layouts, and see every parameter group's placements and bytes per strategy, the
//! whole-model totals that decide whether a transport switch is worth it, and hand the estimate to the
//! cycle calculator. The inventory itself comes from `core::models`; this file only draws it.

use std::sync::Arc;

use leptos::prelude::*;

use super::cycle::{CycleState, SpeedupSource};
use super::editor::field::{DecimalField, DraftStore, FieldDrafts, GroupProblem, IntegerField, UnreadFields, slug};
use super::{AppState, Fresh, Page, format_count, format_shape};
use crate::chart::readout::units_kept;
use crate::core::geometry::Dtype;
use crate::core::model::{Layout, Mesh, Reshard, ShardOrder, Topology};
use crate::core::models::{
    Attention, GenerationLayout, MODEL_PRESETS, ModelDims, TrainingLayout, cautions, check, find_model, inventory_spec,
    validate_inventory,
};
use crate::core::placement::Placement;
use crate::core::plan::Strategy;
use crate::core::spec::{Problem, SpecInput, TopologyInput, topology_problems};
use crate::core::traffic::{Estimate, LinkLoad, Totals, analyse, format_bytes, format_seconds, group_name};
use crate::share::fragment::InventoryChoice;
use crate::ui::ScrollRegion;

/// Tensor rows drawn at most (a per-layer inventory of a large model has hundreds).
const ROW_LIMIT: usize = 300;
/// Groups that together hold this share of the intersection bytes are marked as dominating.
const DOMINANT_SHARE: f64 = 0.8;

/// The model and the two layouts being inventoried.
#[derive(Clone, Copy)]
pub struct InventoryState {
    pub preset: RwSignal<String>,
    pub model: RwSignal<ModelDims>,
    pub train: RwSignal<TrainingLayout>,
    pub generate: RwSignal<GenerationLayout>,
    pub colocated: RwSignal<bool>,
    /// The cluster the estimates are for (devices per node, bandwidths, latency); unset values are the cost
    /// model's defaults. Inventories of 4-GPU nodes or an NVL72 rack had no way to be modelled.
    pub topology: RwSignal<TopologyInput>,
    /// The core's problems with the current choices, each under its field's path (`train.tp`, …).
    pub problems: Memo<Vec<Problem>>,
    /// Text typed into the form's number fields that is not a size, kept while the view is away (a tensor
    /// opened in the layout view, then Back), apart from the layout editors' drafts.
    drafts: FieldDrafts,
    /// Bumped when the choices are replaced (a preset, a link): the drafts typed before are stale.
    replaced: RwSignal<u64>,
    /// The tensor table's find text and order, kept in links ([`InventoryChoice`]).
    pub find: RwSignal<String>,
    pub largest_first: RwSignal<bool>,
}

impl InventoryState {
    /// Opens a model preset (the first when the name is unknown).
    pub fn from_preset(name: &str) -> InventoryState {
        let preset = find_model(name).unwrap_or(&MODEL_PRESETS[0]);
        let (model, train, generate, colocated) = (
            RwSignal::new(preset.model),
            RwSignal::new(preset.train),
            RwSignal::new(preset.generate),
            RwSignal::new(preset.colocated),
        );
        let topology = RwSignal::new(TopologyInput::default());
        let problems = Memo::new(move |_| {
            let mut problems = model
                .with(|m| train.with(|t| generate.with(|g| check(m, t, g, colocated.get()).err().map(|e| e.problems))))
                .unwrap_or_default();
            problems.extend(topology.with(topology_problems));
            problems
        });
        InventoryState {
            preset: RwSignal::new(preset.name.to_string()),
            model,
            train,
            generate,
            colocated,
            topology,
            problems,
            drafts: FieldDrafts::new(),
            replaced: RwSignal::new(0),
            find: RwSignal::new(String::new()),
            largest_first: RwSignal::new(true),
        }
    }

    fn open(&self, name: &str) {
        if let Some(preset) = find_model(name) {
            self.apply(&InventoryChoice::of_preset(preset));
        }
    }

    /// The current choices, as a link keeps them.
    pub fn choice(&self) -> InventoryChoice {
        InventoryChoice {
            preset: self.preset.get_untracked(),
            model: self.model.get_untracked(),
            train: self.train.get_untracked(),
            generate: self.generate.get_untracked(),
            colocated: self.colocated.get_untracked(),
            topology: self.topology.get_untracked(),
            find: self.find.get_untracked(),
            largest_first: self.largest_first.get_untracked(),
        }
    }

    /// Puts a link's (or a preset's) choices into the view, with a new draft generation.
    pub fn apply(&self, choice: &InventoryChoice) {
        self.apply_in(choice, None);
    }

    /// Puts a history step's choices into the view in a new draft generation, with the drafts of the one
    /// the step was shown in when known (its fields show the text typed there that was no size), as
    /// [`AppState::restore_input`] does.
    pub fn apply_in(&self, choice: &InventoryChoice, shown_in: Option<u64>) {
        self.preset.set(choice.preset.clone());
        self.model.set(choice.model);
        self.train.set(choice.train);
        self.generate.set(choice.generate);
        self.colocated.set(choice.colocated);
        self.topology.set(choice.topology.clone());
        self.find.set(choice.find.clone());
        self.largest_first.set(choice.largest_first);
        let generation = super::editor::field::fresh_generation();
        if let Some(shown_in) = shown_in {
            self.drafts.carry(shown_in, generation);
        }
        self.replaced.set(generation);
    }

    /// The draft generation in effect, for the history step shown.
    pub fn generation(&self) -> u64 {
        self.replaced.get_untracked()
    }

    /// The drafts of the generation in effect, copied under one of their own ([`FieldDrafts::frozen`]).
    pub fn frozen_generation(&self) -> u64 {
        self.drafts.frozen(self.generation())
    }

    /// The whole model's spec and its validated change, as the inventory page plans them (and exports them:
    /// the layout view holds something else until a tensor is opened).
    pub fn validated(&self) -> Result<(SpecInput, Reshard), Vec<String>> {
        let spec = self
            .model
            .with(|m| self.train.with(|t| self.generate.with(|g| inventory_spec(m, t, g, self.colocated.get()))));
        let said = |problems: &[Problem]| -> Vec<String> {
            problems.iter().map(|p| format!("{}: {}", field_title(&p.path), p.message)).collect()
        };
        let mut spec = spec.map_err(|e| said(&e.problems))?;
        let topology = self.topology.get();
        spec.topology = (topology != TopologyInput::default()).then_some(topology);
        let layers = self.model.with(|m| m.layers);
        let reshard = validate_inventory(&spec, layers).map_err(|e| said(&e.problems))?;
        Ok((spec, reshard))
    }

    /// The messages of the problems at exactly `path` (`train.tp`, `topology.nic_gbps`, `train` for a whole
    /// layout): what a field, or a part of the form, shows under it.
    fn messages_at(&self, path: &str) -> Vec<String> {
        self.problems.with(|p| p.iter().filter(|p| p.path == path).map(|p| p.message.clone()).collect())
    }

    /// Subscribes the calling reactive context to every choice (for the link and the autosave).
    pub fn track(&self) {
        self.preset.track();
        self.model.track();
        self.train.track();
        self.generate.track();
        self.colocated.track();
        self.topology.track();
        self.find.track();
        self.largest_first.track();
    }
}

/// One strategy's whole-model numbers.
#[derive(Clone, Debug, PartialEq)]
struct StrategyTotals {
    strategy: Strategy,
    totals: Totals,
    busiest: Option<LinkLoad>,
    estimate: Estimate,
}

/// One tensor of the inventory.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    index: usize,
    name: String,
    group: String,
    shape: Vec<u64>,
    source: String,
    destination: String,
    dtypes: String,
    replicas: u64,
    /// Bytes received by devices, per strategy in [`Strategy::ALL`] order.
    bytes: Vec<u64>,
}

/// One parameter group.
#[derive(Clone, Debug, PartialEq)]
struct Group {
    name: String,
    tensors: usize,
    bytes: Vec<u64>,
    dominant: bool,
}

/// The planned inventory.
#[derive(Clone, Debug, PartialEq)]
struct Inventory {
    /// What was inventoried: the preset's title (or "A custom model") and both meshes.
    setup: (String, String),
    spec: SpecInput,
    rows: Vec<Row>,
    groups: Vec<Group>,
    strategies: Vec<StrategyTotals>,
    /// The cluster the estimates are for.
    topology: Topology,
    /// The model's bytes as training holds them and as generation does (each entry once, in its dtype).
    weights: (u64, u64),
}

/// A side's placements on `mesh`, short. In the strided order they are written as PyTorch writes FSDP2 +
/// TP, with `SS(dim,split_factor)`: `[S(1), S(1)]` read as mesh order, where the note, the spec and the
/// layout view all said strided.
fn placements_text(layout: &Layout, mesh: &Mesh) -> String {
    let sizes: Vec<Option<u64>> = mesh.shape.iter().map(|&n| Some(n)).collect();
    let strided = (layout.order == ShardOrder::Strided)
        .then(|| crate::core::notation::strided_explicitly(&layout.placements, &sizes))
        .flatten();
    let placements = strided.as_deref().unwrap_or(&layout.placements);
    format!("[{}]", placements.iter().map(|p| p.short()).collect::<Vec<_>>().join(", "))
}

/// How many destination devices hold each entry: the product of the Replicate mesh dims.
fn replicas(layout: &Layout, mesh: &Mesh) -> u64 {
    layout.placements.iter().zip(&mesh.shape).filter(|(p, _)| **p == Placement::Replicate).map(|(_, n)| *n).product()
}

/// The model's weights in bytes, once each: `15 GiB of weights, once each`, or both sides' when the dtypes differ.
fn weights_text((training, generation): (u64, u64)) -> String {
    if training == generation {
        format!("{} of weights, once each", format_bytes(training))
    } else {
        format!(
            "{} of weights in training, {} in generation, once each",
            format_bytes(training),
            format_bytes(generation)
        )
    }
}

fn dtype_text(from: Dtype, to: Dtype) -> String {
    if from == to { from.name().to_string() } else { format!("{} → {}", from.name(), to.name()) }
}

/// Builds and plans the inventory for every strategy.
fn plan_inventory(state: InventoryState) -> Result<Inventory, Vec<String>> {
    let (spec, reshard) = state.validated()?;
    let mut strategies = Vec::new();
    let mut per_tensor: Vec<Vec<u64>> = vec![Vec::new(); reshard.tensors.len()];
    let mut per_group: Vec<(String, usize, Vec<u64>)> = Vec::new();
    for strategy in Strategy::ALL {
        let traffic = super::timing::measured("inventory plan", || analyse(&reshard, strategy)).map_err(|e| vec![e])?;
        for (bytes, t) in per_tensor.iter_mut().zip(&traffic.per_tensor) {
            bytes.push(t.bytes_received);
        }
        for group in traffic.per_group(&reshard.tensors) {
            match per_group.iter_mut().find(|(name, _, _)| *name == group.name) {
                Some(entry) => entry.2.push(group.bytes_received),
                None => {
                    // Counted once, with the first strategy.
                    let tensors = reshard.tensors.iter().filter(|t| group_name(t) == group.name).count();
                    per_group.push((group.name.clone(), tensors, vec![group.bytes_received]))
                }
            }
        }
        strategies.push(StrategyTotals {
            strategy,
            totals: traffic.totals(),
            busiest: traffic.max_link(),
            estimate: traffic.estimate(),
        });
    }
    let rows = reshard
        .tensors
        .iter()
        .enumerate()
        .map(|(index, t)| Row {
            index,
            name: t.name.clone(),
            group: t.group.clone().unwrap_or_default(),
            shape: t.shape.clone(),
            source: placements_text(&t.source, &reshard.source_mesh),
            destination: placements_text(&t.destination, &reshard.destination_mesh),
            dtypes: dtype_text(t.source.dtype, t.destination.dtype),
            replicas: replicas(&t.destination, &reshard.destination_mesh),
            bytes: per_tensor[index].clone(),
        })
        .collect();
    // Mark the largest groups that together carry most of the intersection bytes.
    per_group.sort_by_cached_key(|g| std::cmp::Reverse(g.2.first().copied()));
    let total: u64 = per_group.iter().filter_map(|g| g.2.first()).sum();
    let mut running = 0u64;
    let groups = per_group
        .into_iter()
        .map(|(name, tensors, bytes)| {
            let dominant = total > 0 && (running as f64) < DOMINANT_SHARE * total as f64;
            running += bytes.first().copied().unwrap_or(0);
            Group { name, tensors, bytes, dominant }
        })
        .collect();
    let title = find_model(&state.preset.get_untracked()).map(|p| {
        p.title_for(&state.train.get_untracked(), &state.generate.get_untracked(), state.colocated.get_untracked())
    });
    let setup = describe_setup(title, &reshard);
    let weights = reshard.tensors.iter().fold((0u64, 0u64), |(training, generation), t| {
        (
            training.saturating_add(t.entries().saturating_mul(t.source.dtype.bytes())),
            generation.saturating_add(t.entries().saturating_mul(t.destination.dtype.bytes())),
        )
    });
    Ok(Inventory { setup, spec, rows, groups, strategies, topology: reshard.topology, weights })
}

/// The model and both meshes in one line, over the totals: on a presented slide the form is put away, and
/// the totals named no model and no layout. A preset's title describes it, its layouts' part only while
/// they are the preset's ([`crate::core::models::ModelPreset::title_for`]); an edited model is "custom"
/// (`None`).
fn describe_setup(title: Option<&str>, reshard: &Reshard) -> (String, String) {
    let model = title.map_or_else(|| "A custom model.".to_string(), |title| format!("{title}."));
    let mesh = |mesh: &Mesh| {
        let names = if mesh.dim_names.is_empty() { String::new() } else { format!(" ({})", mesh.dim_names.join(", ")) };
        format!("mesh {}{names}, {} GPUs", format_shape(&mesh.shape), format_count(mesh.size() as u64))
    };
    // Generation on some of the training GPUs is colocated too: it read as separate GPUs.
    let on_training = || reshard.destination_mesh.devices.iter().all(|d| reshard.source_mesh.devices.contains(d));
    let place = if reshard.same_devices() {
        ", on the same GPUs"
    } else if on_training() {
        ", on training GPUs"
    } else {
        ""
    };
    let meshes =
        format!("Training: {} → generation: {}{place}.", mesh(&reshard.source_mesh), mesh(&reshard.destination_mesh));
    (model, meshes)
}

/// The inventory view: model and layouts on the left, totals, groups and tensors on the right.
#[component]
pub fn InventoryView(page: RwSignal<Page>) -> impl IntoView {
    let state = expect_context::<InventoryState>();
    let planned = Memo::new(move |_| Fresh(Arc::new(plan_inventory(state))));
    // The last inventory that planned stays on screen while the choices are impossible (with why, above it).
    let shown = Memo::new(move |previous: Option<&Option<Fresh<Inventory>>>| {
        planned.with(|p| match &*p.0 {
            Ok(inventory) => Some(Fresh(Arc::new(inventory.clone()))),
            Err(_) => previous.cloned().flatten(),
        })
    });
    let problems = move || planned.with(|p| p.0.as_ref().as_ref().err().cloned());
    // The tables below are then of the last inventory that planned: faded, as the other views fade theirs.
    let stale = move || planned.with(|p| p.0.is_err());
    // Fields whose text is not a size: the model keeps their last value, and the totals say so.
    let unread = UnreadFields(RwSignal::new(0));
    provide_context(unread);
    let unread_note = move || match unread.0.get() {
        0 => None,
        1 => Some("1 field does not hold a size: the totals below are for its last valid value.".to_string()),
        n => Some(format!("{n} fields do not hold a size: the totals below are for their last valid values.")),
    };
    view! {
        <main class="main inventory" data-testid="inventory-view">
            <div class="inventory-intro">
                <h2>"Layout inventory of a whole model"</h2>
                <p class="muted">
                    "Every parameter group of a model, its training and generation placements, and the bytes each \
                     refit strategy moves: the totals that decide whether a transport switch is worth it."
                </p>
            </div>
            <div class="inventory-grid">
                <aside class="panel inventory-controls sticky-column" aria-label="Model and layouts">
                    <ModelControls/>
                </aside>
                // Focused by the skip link only.
                <div class="inventory-results" id=super::header::RESULTS tabindex="-1">
                    <p class="inventory-unread" role="status" data-testid="inventory-unread" hidden=move || unread.0.get() == 0>
                        {unread_note}
                    </p>
                    <Cautions/>
                    {move || problems().map(|problems| {
                        let kept = shown.with(Option::is_some);
                        view! {
                            <div class="problem" role="alert" data-testid="inventory-problems">
                                <p>"This model and layout cannot be inventoried (each problem is also under its field):"</p>
                                <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                                {kept.then(|| view! { <p>"Below: the last inventory that planned."</p> })}
                            </div>
                        }
                    })}
                    {move || shown.get().map(|inventory| view! {
                        <section class="panel inventory-result" class:is-stale=stale aria-label="Whole-model totals">
                            <WholeModel inventory=(*inventory).clone() page/>
                        </section>
                        <section class="panel inventory-result" class:is-stale=stale aria-label="Parameter groups">
                            <Groups inventory=(*inventory).clone()/>
                        </section>
                    })}
                </div>
            </div>
            // The tensor table has the page's whole width: its layouts and three strategies' bytes did not fit
            // beside the model's form on a laptop.
            {move || shown.get().map(|inventory| view! {
                <section class="panel inventory-tensors inventory-result" class:is-stale=stale aria-label="Tensors">
                    <Tensors inventory=(*inventory).clone() page/>
                </section>
            })}
        </main>
    }
}

/// Layouts the totals count but engines would not load as drawn (the core's [`cautions`]), beside the totals
/// they qualify: the numbers stay, with why a design review should not quote them as they are.
#[component]
fn Cautions() -> impl IntoView {
    let s = expect_context::<InventoryState>();
    // Only of a layout that plans: a refused one's problems say what is wrong, and the totals shown are the
    // last valid layout's, which these would not be about.
    let found = Memo::new(move |_| {
        if !s.problems.with(Vec::is_empty) {
            return Vec::new();
        }
        s.model.with(|m| s.train.with(|t| s.generate.with(|g| cautions(m, t, g))))
    });
    let field = |path: &str| {
        match path {
            "train.tp" => "training TP",
            "generate.tp" => "generation TP",
            other => other,
        }
        .to_string()
    };
    move || {
        let found = found.get();
        (!found.is_empty()).then(|| view! {
            <div class="inventory-cautions" role="note" data-testid="inventory-cautions">
                <p>"Engines would not load this layout as drawn; the totals count it anyway:"</p>
                <ul>
                    {found.into_iter().map(|c| view! { <li><strong>{field(&c.path)}</strong> ": " {c.message}</li> }).collect_view()}
                </ul>
            </div>
        })
    }
}

/// Stepper bound of the inventory's number fields (typing may go beyond; the core then says why).
const FIELD_MAX: i64 = 1 << 40;

/// A whole-number field of the inventory form: a visible label over the editors' [`IntegerField`] (which
/// keeps what was typed and says when it is not a number), with the core's messages for `path` under it.
/// Not generic (a signal and a callback rather than closures): twenty fields, one copy of the code.
/// `group`: a problem of this field with another, reported under the other (heads that the KV heads do not
/// divide), which marks this one invalid too.
fn number_field(
    label: &'static str,
    path: &'static str,
    get: Signal<u64>,
    set: Callback<u64>,
    group: Option<GroupProblem>,
) -> AnyView {
    let s = expect_context::<InventoryState>();
    let problems = Signal::derive(move || s.messages_at(path));
    // A negative number parses but has no place in a size: the field says so, and the model keeps its value
    // (counted once with the field's other unread text: it was counted twice after `-5` then a clear).
    let on_set = Callback::new(move |value: i64| {
        if let Ok(value) = u64::try_from(value) {
            set.run(value);
        }
    });
    view! {
        <div class="inventory-field">
            <span class="inventory-field-label" aria-hidden="true">{label}</span>
            <IntegerField
                label=format!("{label} ({})", path.split('.').next().unwrap_or(path))
                value=Signal::derive(move || i64::try_from(get.get()).ok())
                on_set=on_set
                problems=problems
                min=0
                max=FIELD_MAX
                key=slug(path)
                refuse=Callback::new(|v: i64| (v < 0).then(|| format!("{v}: a size cannot be negative")))
                store=DraftStore { drafts: s.drafts, replaced: s.replaced.into() }
                group=group
            />
        </div>
    }
    .into_any()
}

/// A number field bound to one `u64` of the model or a layout, named by an accessor; editing a model
/// dimension (`edited` given) marks the inventory as custom.
fn bound_field<T: Copy + Send + Sync + 'static>(
    label: &'static str,
    path: &'static str,
    signal: RwSignal<T>,
    field: fn(&mut T) -> &mut u64,
    edited: Option<RwSignal<String>>,
) -> AnyView {
    let get = Signal::derive(move || {
        let mut value = signal.get();
        *field(&mut value)
    });
    let set = Callback::new(move |v| {
        signal.update(|t| *field(t) = v);
        if let Some(preset) = edited {
            preset.set("custom".into());
        }
    });
    number_field(label, path, get, set, None)
}

/// A decimal field of the cluster (a bandwidth, the latency) bound to one value of the inventory's topology,
/// `default` while it is unset.
fn cluster_field(
    label: &'static str,
    unit: &'static str,
    path: &'static str,
    key: &'static str,
    field: fn(&mut TopologyInput) -> &mut Option<f64>,
    default: f64,
) -> AnyView {
    let s = expect_context::<InventoryState>();
    let value = Signal::derive(move || {
        let mut topology = s.topology.get();
        field(&mut topology).unwrap_or(default)
    });
    let problems = Signal::derive(move || s.messages_at(path));
    view! {
        <DecimalField
            label=label
            unit=unit
            value=value
            on_set=Callback::new(move |v| s.topology.update(|t| *field(t) = Some(v)))
            problems=problems
            key=key
        />
    }
    .into_any()
}

/// A layout's dtype (fp32 master weights that generation serves in bf16, bf16 served in fp8): the bytes of
/// every strategy follow it.
fn dtype_select<T: Copy + Send + Sync + 'static>(
    label: &'static str,
    test_id: &'static str,
    signal: RwSignal<T>,
    field: fn(&mut T) -> &mut Dtype,
) -> AnyView {
    let current = move || {
        let mut value = signal.get();
        field(&mut value).name()
    };
    view! {
        <label class="inventory-field">
            <span class="inventory-field-label">{label}</span>
            <select
                class="inventory-preset"
                data-testid=test_id
                prop:value=current
                on:change=move |ev| {
                    if let Some(dtype) = Dtype::parse(&event_target_value(&ev)) {
                        signal.update(|t| *field(t) = dtype);
                    }
                }
            >
                {Dtype::ALL.iter().map(|d| view! { <option value=d.name()>{d.name()}</option> }).collect_view()}
            </select>
        </label>
    }
    .into_any()
}

/// A problem's field as the form labels it (`train.pp` → "training PP", `model.attention.kv_heads` → "KV
/// heads"): the list of problems beside the totals named the core's paths. A path the form has no field for
/// is kept as it is.
fn field_title(path: &str) -> String {
    let (part, key) = match path.split_once('.') {
        Some(("train", key)) => ("training ", key),
        Some(("generate", key)) => ("generation ", key),
        Some(("topology", key)) => ("the cluster's ", key),
        Some(("model", key)) => ("", key.trim_start_matches("attention.")),
        _ => {
            return match path {
                "train" => "training layout".into(),
                "generate" => "generation layout".into(),
                _ => path.into(),
            };
        }
    };
    let label = match key {
        "tp" => "TP",
        "pp" => "PP",
        "dp" => "DP / FSDP",
        "ep" => "EP",
        "hsdp_replicas" => "HSDP replicas",
        "dp_replicas" => "DP replicas",
        "kv_heads" => "KV heads",
        "head_dim" => "head dim",
        "expert_ffn" => "expert ffn",
        "devices_per_node" => "GPUs per node",
        "nvlink_gbps" => "NVLink",
        "nic_gbps" => "NIC",
        "latency_us" => "latency",
        other => other,
    };
    format!("{part}{label}")
}

/// A cluster in a few words: `8 GPUs per node, NVLink 450 GB/s, NIC 50 GB/s, 5 µs per message`.
fn cluster_text(topology: &Topology) -> String {
    format!(
        "{} GPUs per node, NVLink {} GB/s, NIC {} GB/s, {} µs per message",
        topology.devices_per_node, topology.nvlink_gbps, topology.nic_gbps, topology.latency_us
    )
}

/// Sets one number of the attention block, whichever kind it is (a field of the other kind is not shown).
fn set_attention(s: InventoryState, field: &'static str, value: u64) {
    s.model.update(|m| match (&mut m.attention, field) {
        (Attention::Grouped { heads, .. } | Attention::Latent { heads, .. }, "heads") => *heads = value,
        (Attention::Grouped { kv_heads, .. }, "kv_heads") => *kv_heads = value,
        (Attention::Grouped { head_dim, .. }, "head_dim") => *head_dim = value,
        (Attention::Latent { q_lora_rank, .. }, "q_lora_rank") => *q_lora_rank = value,
        (Attention::Latent { kv_lora_rank, .. }, "kv_lora_rank") => *kv_lora_rank = value,
        (Attention::Latent { qk_nope_head_dim, .. }, "qk_nope_head_dim") => *qk_nope_head_dim = value,
        (Attention::Latent { qk_rope_head_dim, .. }, "qk_rope_head_dim") => *qk_rope_head_dim = value,
        (Attention::Latent { v_head_dim, .. }, "v_head_dim") => *v_head_dim = value,
        _ => {}
    });
    s.preset.set("custom".into());
}

/// Reads one number of the attention block (0 for a field the current kind does not have).
fn attention_value(attention: &Attention, field: &str) -> u64 {
    match (attention, field) {
        (Attention::Grouped { heads, .. } | Attention::Latent { heads, .. }, "heads") => *heads,
        (Attention::Grouped { kv_heads, .. }, "kv_heads") => *kv_heads,
        (Attention::Grouped { head_dim, .. }, "head_dim") => *head_dim,
        (Attention::Latent { q_lora_rank, .. }, "q_lora_rank") => *q_lora_rank,
        (Attention::Latent { kv_lora_rank, .. }, "kv_lora_rank") => *kv_lora_rank,
        (Attention::Latent { qk_nope_head_dim, .. }, "qk_nope_head_dim") => *qk_nope_head_dim,
        (Attention::Latent { qk_rope_head_dim, .. }, "qk_rope_head_dim") => *qk_rope_head_dim,
        (Attention::Latent { v_head_dim, .. }, "v_head_dim") => *v_head_dim,
        _ => 0,
    }
}

/// The attention block's fields: heads, KV heads and head dim for grouped-query attention; the ranks and
/// head dims of multi-head latent attention (DeepSeek).
fn attention_fields(s: InventoryState) -> impl IntoView {
    // Rebuilt only when the kind changes, so that editing a field does not redraw (and reset) the others.
    let latent = Memo::new(move |_| s.model.with(|m| matches!(m.attention, Attention::Latent { .. })));
    let field_in = move |label: &'static str, name: &'static str, path: &'static str, group| {
        number_field(
            label,
            path,
            Signal::derive(move || s.model.with(|m| attention_value(&m.attention, name))),
            Callback::new(move |v| set_attention(s, name, v)),
            group,
        )
    };
    let field = move |label, name, path| field_in(label, name, path, None);
    // Heads that the KV heads do not divide: the message is under KV heads, and heads is marked too.
    let misfit = move || GroupProblem {
        invalid: Signal::derive(move || s.model.with(|m| m.attention.kv_heads_misfit())),
        problems_id: format!("problems-{}", slug("model.attention.kv_heads")),
    };
    move || {
        if latent.get() {
            view! {
                {field("heads", "heads", "model.attention.heads")}
                {field("q LoRA rank", "q_lora_rank", "model.attention.q_lora_rank")}
                {field("KV LoRA rank", "kv_lora_rank", "model.attention.kv_lora_rank")}
                {field("qk nope dim", "qk_nope_head_dim", "model.attention.qk_nope_head_dim")}
                {field("qk rope dim", "qk_rope_head_dim", "model.attention.qk_rope_head_dim")}
                {field("v head dim", "v_head_dim", "model.attention.v_head_dim")}
            }
            .into_any()
        } else {
            view! {
                {field_in("heads", "heads", "model.attention.heads", Some(misfit()))}
                {field("KV heads", "kv_heads", "model.attention.kv_heads")}
                {field("head dim", "head_dim", "model.attention.head_dim")}
            }
            .into_any()
        }
    }
}

/// The model preset, its dimensions, and both layouts.
#[component]
fn ModelControls() -> impl IntoView {
    let s = expect_context::<InventoryState>();
    let defaults = Topology::default();
    view! {
        <h3 class="card-title">"Model"</h3>
        <select
            class="inventory-preset"
            data-testid="model-preset"
            aria-label="Model preset"
            prop:value=move || s.preset.get()
            on:change=move |ev| s.open(&event_target_value(&ev))
        >
            {MODEL_PRESETS
                .iter()
                .map(|p| view! { <option value=p.name title=p.title>{p.name}</option> })
                .collect_view()}
            <option value="custom" disabled=true>"custom"</option>
        </select>
        <p class="muted inventory-title" data-testid="model-title">
            {move || {
                find_model(&s.preset.get()).map_or_else(
                    || "Edited: your own dimensions".to_string(),
                    |p| {
                        let title = p.title_for(&s.train.get(), &s.generate.get(), s.colocated.get());
                        if title == p.title { title.to_string() } else { format!("{title}, with layouts of your own") }
                    },
                )
            }}
        </p>
        <div class="inventory-fields">
            {bound_field("hidden", "model.hidden", s.model, |m| &mut m.hidden, Some(s.preset))}
            {bound_field("layers", "model.layers", s.model, |m| &mut m.layers, Some(s.preset))}
            {bound_field("ffn", "model.ffn", s.model, |m| &mut m.ffn, Some(s.preset))}
            {bound_field("vocab", "model.vocab", s.model, |m| &mut m.vocab, Some(s.preset))}
            {attention_fields(s)}
            {bound_field("experts", "model.experts", s.model, |m| &mut m.experts, Some(s.preset))}
            {bound_field("expert ffn", "model.expert_ffn", s.model, |m| &mut m.expert_ffn, Some(s.preset))}
        </div>
        <h3 class="card-title">"Training layout"</h3>
        <div class="inventory-fields">
            {bound_field("TP", "train.tp", s.train, |t| &mut t.tp, None)}
            {bound_field("PP", "train.pp", s.train, |t| &mut t.pp, None)}
            {bound_field("DP / FSDP", "train.dp", s.train, |t| &mut t.dp, None)}
            {bound_field("EP", "train.ep", s.train, |t| &mut t.ep, None)}
            {bound_field("HSDP replicas", "train.hsdp_replicas", s.train, |t| &mut t.hsdp_replicas, None)}
            {dtype_select("dtype", "train-dtype", s.train, |t| &mut t.dtype)}
        </div>
        <label class="toggle">
            <input
                type="checkbox"
                data-testid="train-stacked"
                prop:checked=move || s.train.with(|t| t.stacked_layers)
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    s.train.update(|t| t.stacked_layers = on);
                }
            />
            " Layers stacked (one tensor per kind of parameter, as PP needs; fewer, larger messages, so a \
             smaller latency part in the estimates)"
        </label>
        <WholeProblems path="train"/>
        <h3 class="card-title">"Generation layout"</h3>
        <div class="inventory-fields">
            {bound_field("TP", "generate.tp", s.generate, |g| &mut g.tp, None)}
            {bound_field("EP", "generate.ep", s.generate, |g| &mut g.ep, None)}
            {bound_field("DP replicas", "generate.dp_replicas", s.generate, |g| &mut g.dp_replicas, None)}
            {dtype_select("dtype", "generate-dtype", s.generate, |g| &mut g.dtype)}
        </div>
        <WholeProblems path="generate"/>
        <label class="toggle">
            <super::FlagCheckbox flag=s.colocated test_id="colocated"/>
            " Colocated (generation on the training GPUs)"
        </label>
        <WholeProblems path="colocated"/>
        <h3 class="card-title">"Cluster"</h3>
        <div class="inventory-fields inventory-cluster" data-testid="inventory-cluster">
            {number_field(
                "GPUs per node",
                "topology.devices_per_node",
                Signal::derive(move || {
                    s.topology.with(|t| t.devices_per_node.map_or(u64::from(defaults.devices_per_node), |n| n.max(0) as u64))
                }),
                Callback::new(move |n: u64| s.topology.update(|t| t.devices_per_node = Some(n.min(i64::MAX as u64) as i64))),
                None,
            )}
            {cluster_field("NVLink", "GB/s", "topology.nvlink_gbps", "inventory-nvlink-gbps", |t| &mut t.nvlink_gbps, defaults.nvlink_gbps)}
            {cluster_field("NIC", "GB/s", "topology.nic_gbps", "inventory-nic-gbps", |t| &mut t.nic_gbps, defaults.nic_gbps)}
            {cluster_field("Latency", "µs", "topology.latency_us", "inventory-latency-us", |t| &mut t.latency_us, defaults.latency_us)}
        </div>
        <p class="muted card-note">"Bandwidths per device, each way; GB = 10⁹ bytes. Latency per message. Devices are numbered from 0, node \
             by node."</p>
        <p class="muted inventory-devices" data-testid="inventory-devices">
            {move || {
                // Counted from refused values it said "34,359,738,360 training devices".
                let refused = s.problems.with(|p| p.iter().any(|p| p.path.starts_with("train.") || p.path.starts_with("generate.")));
                if refused {
                    "Devices: counted once the layouts above are valid.".to_string()
                } else {
                    format!(
                        "{} training devices → {} generation devices",
                        format_count(s.train.with(|t| t.devices())),
                        format_count(s.generate.with(|g| g.devices()))
                    )
                }
            }}
        </p>
    }
}

/// The problems of a whole layout (`train`, `generate`: its devices together) or of the colocated choice,
/// which no one field holds: under that part of the form, as the results' list promises (a layout
/// of too many devices was said only there).
#[component]
fn WholeProblems(path: &'static str) -> impl IntoView {
    let s = expect_context::<InventoryState>();
    let messages = move || s.messages_at(path);
    view! {
        <ul class="field-problems" data-testid=format!("problems-{path}") aria-live="polite">
            {move || messages().into_iter().map(|m| view! { <li class="field-problem">{m}</li> }).collect_view()}
        </ul>
    }
}

/// The whole-model totals per strategy, and the hand-off to the cycle calculator.
#[component]
fn WholeModel(inventory: Inventory, page: RwSignal<Page>) -> impl IntoView {
    let cycle = expect_context::<CycleState>();
    let app = expect_context::<AppState>();
    // The model goes over as the layout too, showing its largest tensor, as a row's click does: the cycle
    // view's exports (the decision note, the plan) and embeds were of the layout open before, the toy's
    // beside the model's s.
    let spec = StoredValue::new(inventory.spec.clone());
    let largest = inventory.rows.iter().max_by_key(|row| (row.bytes.first().copied(), std::cmp::Reverse(row.index)));
    let largest = largest.map_or(0, |row| row.index);
    let base = inventory.strategies.iter().find(|s| s.strategy == Strategy::Intersection).map(|s| s.estimate.seconds);
    let rows = inventory
        .strategies
        .iter()
        .map(|s| {
            // Written as Compare strategies writes its ratios (`1×`, `1.19×`), not `1.00×`.
            let ratio = base.map_or(String::new(), |b| crate::chart::bars::ratio_text(s.estimate.seconds, b));
            // The link that sets the time, where it is not the busiest (gather's root sends less over its NIC
            // than over NVLink, and the NIC is the slower): the busiest link alone read as the bottleneck.
            let bound_by = s.estimate.bounding_link.filter(|bound| Some(*bound) != s.busiest).map(|l| {
                view! { <span class="cell-note">{format!("set by {} of d{}", l.link.name(), l.device)}</span> }
            });
            // The link under its load, so the table fits a laptop's width without scrolling.
            let busiest = match &s.busiest {
                Some(l) => view! {
                    {format_bytes(l.bytes)}
                    <span class="cell-note">{format!("{} of d{}", l.link.name(), l.device)}</span>
                }
                .into_any(),
                None => "—".into_any(),
            };
            view! {
                <tr data-testid="inventory-strategy" data-strategy=s.strategy.name()>
                    <th scope="row">{s.strategy.label()}</th>
                    <td class="num" data-label="Bytes received" data-testid="inventory-bytes-received">{format_bytes(s.totals.bytes_received)}</td>
                    <td class="num" data-label="Bytes crossing the busiest link">{busiest}</td>
                    <td class="num" data-label="Estimated time">
                        <span data-testid="inventory-estimate">{format_seconds(s.estimate.seconds)}</span>
                        {bound_by}
                    </td>
                    <td class="num" data-label="Time vs intersection">{ratio}</td>
                </tr>
            }
        })
        .collect_view();
    let unique = inventory.strategies.first().map_or(0, |s| s.totals.unique_entries);
    let problems = use_context::<InventoryState>().map(|s| s.problems);
    let refused = move || problems.is_some_and(|p| !p.with(Vec::is_empty));
    // Only s goes over: the cycle's stages are the user's (a measured refit, its wait and preparation). The
    // model's estimates are lower bounds in milliseconds; taking one as the refit stage beside stages
    // measured in seconds made any transport look worthless, and wrote over what the user had typed. s is
    // taken from the layout, which the model becomes: it says where it came from, follows the model, and a
    // link carries both (a number handed over went stale, and a link lost its source).
    let hand_off = move |_| {
        app.replace_input(spec.get_value());
        app.view.update(|v| v.tensor = largest);
        cycle.speedup_source.set(SpeedupSource::Layout { from: Strategy::Gather, to: Strategy::Intersection });
        page.set(Page::Cycle);
        crate::ui::focus::focus_view_panel();
    };
    view! {
        <h3 class="card-title">"Whole model, per strategy"</h3>
        <p class="inventory-setup" data-testid="inventory-setup">
            <strong>{inventory.setup.0.clone()}</strong> " " {units_kept(&inventory.setup.1)}
        </p>
        <p class="inventory-unique" data-testid="inventory-unique">
            <strong>{format_count(unique)}</strong>
            " unique logical entries (parameters, each counted once; the same for every strategy)"
            // The model's size in bytes, to weigh the bytes received against (52.4 GiB is 3.5 copies of
            // Llama-3-8B's 15 GiB): it was left to multiply by hand (review 51).
            <span class="inventory-weights" data-testid="inventory-weights">{weights_text(inventory.weights)}</span>
        </p>
        <p class="muted" data-testid="inventory-units">
            "Bytes received are summed over generation devices, local copies (same device) excluded; the busiest link \
             carries the most bytes in one direction. Bytes in binary units (1 GiB = 2³⁰ bytes). Each time is the \
             cost model's lower bound for this cluster ("
            {cluster_text(&inventory.topology)}
            "): the slowest link's load over its bandwidth, plus the latency for the most messages one device \
             sends or receives."
        </p>
        <ScrollRegion label="The inventory's totals, scrollable">
            <table class="piece-table cards-on-phone" data-testid="inventory-totals">
                <thead>
                    <tr>
                        <th scope="col">"Strategy"</th>
                        <th scope="col" class="num">"Bytes received"</th>
                        <th scope="col" class="num">"Busiest link" <span class="cell-note">"bytes"</span></th>
                        <th scope="col" class="num">"Estimated time"</th>
                        <th scope="col" class="num">"Time vs intersection"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </ScrollRegion>
        <p class="muted">
            "What would switching from gather-then-broadcast to intersection do to a whole RL cycle? The cycle view \
             keeps its stages (put your measured refit there) and takes the ratio of the two estimates as s."
        </p>
        // Not from the last valid inventory while the choices are refused: s would be of another model.
        <button
            type="button"
            class="primary-button"
            data-testid="inventory-to-cycle"
            disabled=refused
            on:click=hand_off
        >
            "See the whole-cycle effect →"
        </button>
    }
}

/// The parameter groups, the dominating ones marked.
#[component]
fn Groups(inventory: Inventory) -> impl IntoView {
    let rows = inventory
        .groups
        .iter()
        .map(|g| {
            let cells = g
                .bytes
                .iter()
                .zip(Strategy::ALL)
                .map(|(b, s)| view! { <td class="num" data-label=s.label()>{format_bytes(*b)}</td> })
                .collect_view();
            view! {
                <tr data-testid="inventory-group" data-group=g.name.clone() class:dominant=g.dominant>
                    <th scope="row">
                        {g.name.clone()}
                        {g.dominant.then(|| view! { <span class="badge" title="among the groups that carry 80\u{a0}% of the bytes">"dominant"</span> })}
                    </th>
                    <td class="num" data-label="Tensors">{g.tensors}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <h3 class="card-title">"Parameter groups"</h3>
        <p class="muted">
            "Bytes received by devices under each strategy, largest group first. "
            <span class="badge">"dominant"</span>
            " marks the groups that together carry 80\u{a0}% of the bytes: where a faster transport pays."
        </p>
        <ScrollRegion label="Parameter groups, scrollable">
            <table class="piece-table cards-on-phone" data-testid="inventory-groups">
                <thead>
                    <tr>
                        <th scope="col">"Group"</th>
                        <th scope="col" class="num">"Tensors"</th>
                        {Strategy::ALL.map(|s| view! { <th scope="col" class="num">{s.label()} <BytesReceivedNote/></th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </ScrollRegion>
    }
}

/// Arrow keys between the tensor rows' buttons (one Tab stop): ↑ ↓ one row, Page Up / Page Down ten, Home
/// and End the first and last of the `count` rows drawn.
fn move_between_rows(ev: &web_sys::KeyboardEvent, count: usize) {
    use wasm_bindgen::JsCast;
    let Some(button) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let Some(at) = button.get_attribute("data-row").and_then(|r| r.parse::<usize>().ok()) else { return };
    let last = count.saturating_sub(1);
    let to = match ev.key().as_str() {
        "ArrowDown" => (at + 1).min(last),
        "ArrowUp" => at.saturating_sub(1),
        "PageDown" => (at + 10).min(last),
        "PageUp" => at.saturating_sub(10),
        "Home" => 0,
        "End" => last,
        _ => return,
    };
    ev.prevent_default();
    let target = button
        .closest("tbody")
        .ok()
        .flatten()
        .and_then(|body| body.query_selector(&format!("[data-row=\"{to}\"]")).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(target) = target {
        let _ = target.focus();
    }
}

/// Which quantity a strategy's column counts, under its name (the columns named a strategy alone).
#[component]
fn BytesReceivedNote() -> impl IntoView {
    view! { <span class="cell-note">"bytes received"</span> }
}

/// The tensors, largest first or by name; a click opens one in the visualizer.
#[component]
fn Tensors(inventory: Inventory, page: RwSignal<Page>) -> impl IntoView {
    let app = expect_context::<AppState>();
    let choices = expect_context::<InventoryState>();
    let by_bytes = choices.largest_first;
    // Shared by the rows' buttons, cloned only on a click: cloned into each row, the whole inventory's spec
    // was copied hundreds of times on every edit.
    let spec = Arc::new(inventory.spec.clone());
    let rows = Arc::new(inventory.rows.clone());
    let total = rows.len();
    // The rows' buttons are one Tab stop (there are hundreds: Tab took ~290 presses to pass the table): the
    // row focused last, moved by the arrow keys.
    let roving = RwSignal::new(0usize);
    // Part of a name or a group: a model of more than ROW_LIMIT tensors had rows no one could reach (layers
    // 25–47 of Qwen3's 48, review 51). ASCII case only: Unicode's case tables cost the bundle 8 KB.
    let filter = choices.find;
    // The rows that hold it, in model order: counted and listed from one pass (a whole model's rows were
    // filtered twice per key, each name lowered into a new string).
    let found = {
        let rows = rows.clone();
        Memo::new(move |_| {
            filter.with(|f| {
                let needle = f.trim().as_bytes();
                // (`windows(0)` would panic: an empty needle is every row, above.)
                let holds = |text: &str| {
                    !needle.is_empty() && text.as_bytes().windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
                };
                (0..rows.len())
                    .filter(|&i| {
                        needle.is_empty()
                            || holds(&rows[i].name)
                            || rows[i].group.as_bytes().eq_ignore_ascii_case(needle)
                    })
                    .collect::<Vec<usize>>()
            })
        })
    };
    let matching = move || found.with(Vec::len);
    // The row focused last is among the rows listed.
    Effect::new(move |_| {
        if roving.get_untracked() >= matching().min(ROW_LIMIT) {
            roving.set(0);
        }
    });
    let body = move || {
        let mut rows: Vec<Row> = found.with(|found| found.iter().map(|&i| rows[i].clone()).collect());
        if by_bytes.get() {
            rows.sort_unstable_by(|a, b| b.bytes.first().cmp(&a.bytes.first()).then(a.index.cmp(&b.index)));
        }
        let spec = spec.clone();
        rows.into_iter()
            .take(ROW_LIMIT)
            .enumerate()
            .map(|(at, row)| {
                let spec = spec.clone();
                let index = row.index;
                let open = move |_| {
                    app.replace_input((*spec).clone());
                    app.view.update(|v| v.tensor = index);
                    page.set(Page::Layout);
                    crate::ui::focus::focus_view_panel();
                };
                let cells = row
                    .bytes
                    .iter()
                    .zip(Strategy::ALL)
                    .map(|(b, s)| view! { <td class="num" data-label=crate::ui::strategies::short_name(s)>{format_bytes(*b)}</td> })
                    .collect_view();
                view! {
                    <tr data-testid="inventory-tensor" data-group=row.group.clone()>
                        <th scope="row">
                            <button
                                type="button"
                                class="link-button"
                                data-testid="inventory-open-tensor"
                                data-row=at.to_string()
                                tabindex=move || if roving.get() == at { "0" } else { "-1" }
                                on:focus=move |_| roving.set(at)
                                on:click=open
                            >
                                // A narrow box wraps a long name after a dot (inventory.css).
                                {row.name.split_inclusive('.').map(|part| view! { {part.to_string()} <wbr/> }).collect_view()}
                            </button>
                            <span class="cell-note">
                                {format!("{} · {} · {}", row.group, format_shape(&row.shape), row.dtypes)}
                            </span>
                        </th>
                        <td class="mono" data-label="Training → generation">
                            {row.source.clone()}
                            <span class="cell-note">{format!("→ {} · ×{}", row.destination, row.replicas)}</span>
                        </td>
                        {cells}
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <div class="inventory-tensors-head">
            <h3 class="card-title">{format!("Tensors ({total})")}</h3>
            <input
                type="search"
                class="inventory-filter"
                placeholder="Find: a name's part, or a group"
                aria-label="Find tensors: part of a name (layers.12.), or a group (attention)"
                autocomplete="off"
                spellcheck="false"
                data-testid="inventory-filter"
                prop:value=move || filter.get()
                on:input=move |ev| filter.set(event_target_value(&ev))
            />
            <label class="toggle">
                <super::FlagCheckbox flag=by_bytes test_id="inventory-sort-bytes"/>
                " Largest first (bytes received, intersection)"
            </label>
        </div>
        <p class="muted">
            "Bytes received by devices under each strategy. Click a tensor to open it in the layout view (↑ ↓ move \
             between tensors)."
        </p>
        // Hundreds of rows: the table scrolls in its own box, under a header that stays.
        <ScrollRegion label="Tensors, scrollable" class="tall-table">
            // On a phone each tensor is a card (inventory.css), as the summaries are: as columns, the bytes
            // stood 500 px to the right of the names, behind a sideways scroll.
            <table class="piece-table cards-on-phone" data-testid="inventory-tensors">
                <thead>
                    <tr>
                        // Ten columns did not fit a laptop: what a tensor is and how it is laid out go on two lines.
                        <th scope="col">"Tensor" <span class="cell-note">"group · shape · dtype"</span></th>
                        <th scope="col">"Training" <span class="cell-note">"→ generation · replicas"</span></th>
                        {Strategy::ALL
                            .map(|s| view! { <th scope="col" class="num">{crate::ui::strategies::short_name(s)} <BytesReceivedNote/></th> })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody on:keydown=move |ev| move_between_rows(&ev, found.with_untracked(Vec::len).min(ROW_LIMIT))>{body}</tbody>
            </table>
        </ScrollRegion>
        <p class="muted" data-testid="inventory-listed" role="status">
            {move || {
                let (shown, typed) = (matching(), filter.with(|f| f.trim().to_string()));
                match (shown, typed.is_empty()) {
                    (0, false) => format!("No tensor's name or group holds “{typed}”."),
                    (n, true) if n > ROW_LIMIT => {
                        format!("The first {ROW_LIMIT} of {n} tensors are listed: find the others by name above.")
                    }
                    (n, false) if n > ROW_LIMIT => format!(
                        "{n} of {total} tensors hold “{typed}”; the first {ROW_LIMIT} are listed: narrow it to see the others."
                    ),
                    (n, false) => format!("{n} of {total} tensors hold “{typed}”."),
                    (_, true) => String::new(),
                }
            }}
        </p>
    }
}
