//! Shared form inputs of the editors: number fields with steppers that keep what the user typed, and the
//! list of the core's messages shown under a field.

use leptos::prelude::*;

use crate::core::spec::for_display;
use crate::core::typed::{read_decimal, read_whole_number, stepped};

/// A field path as an id fragment: `source.mesh[1]` → `source-mesh-1`.
pub fn slug(path: &str) -> String {
    path.chars()
        .filter_map(|c| match c {
            '.' | '[' | '_' | ' ' => Some('-'),
            ']' => None,
            c => Some(c.to_ascii_lowercase()),
        })
        .collect()
}

/// The messages about one field, under it. Always rendered (possibly empty) so that the field's
/// `aria-describedby` names a real element; announced politely when they change.
#[component]
pub fn FieldProblems(
    /// The element id the field points at with `aria-describedby` (it follows a row that moves).
    #[prop(into)]
    id: Signal<String>,
    /// The messages to show (the core's, or the field's own when the text does not parse).
    #[prop(into)]
    messages: Signal<Vec<String>>,
) -> impl IntoView {
    let test_id = move || id.with(|id| format!("problems-{}", id.trim_start_matches("problems-")));
    view! {
        <ul class="field-problems" id=id data-testid=test_id aria-live="polite">
            {move || messages.with(|list| {
                list.iter().map(|m| view! { <li class="field-problem">{for_display(m)}</li> }).collect_view()
            })}
        </ul>
    }
}

/// Text typed into a field that does not parse (or is refused) yet, by the field's key and the inventory
/// tensor the editors show, and by the draft generation it was typed in. A field is drawn anew when its
/// view comes back (another tab, then this one): its text went back to the spec's value ("12x" became 12,
/// its message gone). A new spec (a preset, a link) starts a new generation, with no drafts; undo starts
/// one with the drafts of the generation the step it restores was shown in, and its fields show what was
/// typed there again (a preset clicked over unread text lost that text for good). Another tensor of an inventory has drafts of its own
/// (its fields share the first one's keys).
#[derive(Clone, Copy)]
pub struct FieldDrafts {
    drafts: StoredValue<std::collections::HashMap<(String, u64), String>>,
    /// Bumped after the drafts were forgotten for a change of structure: the fields on screen keep theirs
    /// again, under the keys they have now ([`Draft::keep_through_restructuring`]).
    restructured: RwSignal<u64>,
}

impl Default for FieldDrafts {
    fn default() -> FieldDrafts {
        FieldDrafts::new()
    }
}

impl FieldDrafts {
    pub fn new() -> FieldDrafts {
        FieldDrafts { drafts: StoredValue::new(std::collections::HashMap::new()), restructured: RwSignal::new(0) }
    }

    /// A copy of generation `live`'s drafts under a new generation no field types in: what a history step
    /// showed when the next one was written (they shared `live`, and text typed after the step was left
    /// came back when undo restored it, review 46).
    pub fn frozen(self, live: u64) -> u64 {
        let copy = fresh_generation();
        self.carry(live, copy);
        copy
    }

    /// Copies the drafts of generation `from` into generation `to`: a history step restored in a new
    /// generation shows what was typed when it was shown. (Restored in its own generation, it was no
    /// replacement: unread layout text was then read into the restored spec when its rank differed.)
    pub fn carry(self, from: u64, to: u64) {
        self.drafts.update_value(|drafts| {
            let carried: Vec<_> = drafts
                .iter()
                .filter(|((_, g), _)| *g == from)
                .map(|((key, _), text)| (key.clone(), text.clone()))
                .collect();
            drafts.extend(carried.into_iter().map(|(key, text)| ((key, to), text)));
        });
    }

    /// Whether text typed under generation `generation` waits unread in some field (a view that reads the
    /// layout from elsewhere says it reads the last valid change).
    pub fn holds_any(self, generation: u64) -> bool {
        self.drafts.with_value(|drafts| drafts.keys().any(|(_, g)| *g == generation))
    }

    /// Forgets generation `generation`'s drafts: on a change of structure ([`FieldDrafts::follow_structure`]),
    /// and before a dim is added in front, whose new row takes the first dim's key and read the draft typed
    /// there for the row it pushed down ("3x" showed in both). The fields on screen keep theirs again under
    /// their new keys once the dims have changed.
    pub fn forget(self, generation: u64) {
        self.drafts.update_value(|drafts| drafts.retain(|(_, g), _| *g != generation));
    }

    /// Forgets the generation's drafts when an edit changes `input`'s dims in number (a dim added or
    /// removed): a field's key is its place, and removing dim 0 left dim 1's draft under a key the next dim
    /// took (its text came back in the wrong field, over a value in use). The fields on screen keep their
    /// text, and keep it again as their draft under their new keys (forgotten, it was lost at the next
    /// visit to another view). A new generation (`replaced`: a preset, undo) is no edit: its drafts were
    /// typed for its own dims.
    pub fn follow_structure(self, input: Signal<crate::core::spec::SpecInput>, replaced: Signal<u64>) {
        use crate::core::spec::MeshShapeInput;
        // The dims' counts, folded into one number (each below 2^16: ranks to 8, meshes to 65,536 dims).
        Effect::new(move |before: Option<(u64, u64)>| {
            let generation = replaced.get();
            let dims = input.with(|input| {
                let mesh = |side: &crate::core::spec::SideInput| match &side.mesh {
                    Some(MeshShapeInput::Dims(dims)) => dims.len(),
                    Some(MeshShapeInput::Size(_)) => 1,
                    None => 0,
                };
                let tensors = input.tensor.iter().chain(input.tensors.iter().flatten()).map(|t| t.shape.len());
                [mesh(&input.source), mesh(&input.destination)]
                    .into_iter()
                    .chain(tensors)
                    .fold(0u64, |sum, n| sum.wrapping_mul(65_537).wrapping_add(n as u64))
            });
            if before.is_some_and(|(before, g)| g == generation && before != dims) {
                self.forget(generation);
                self.restructured.update(|n| *n += 1);
            }
            (dims, generation)
        });
    }
}

/// The tensor the editors show, when a field is drawn among them (read when the field is drawn: a context
/// of editors that are gone may still be found, another view drawn in their place under the same owner,
/// and its signals are then disposed and read as none).
fn editors_tensor() -> Option<usize> {
    use_context::<super::EditorContext>().and_then(|editor| editor.index.try_get_untracked())
}

/// Where one field keeps its draft: its key, with the tensor the editors showed when it was drawn, under
/// the app's spec replacements (a draft typed under another spec is stale).
#[derive(Clone, Copy)]
pub(crate) struct Draft {
    drafts: Option<FieldDrafts>,
    key: Signal<String>,
    tensor: Option<usize>,
    replaced: Signal<u64>,
}

/// Drafts kept apart from the layout editors', with their own replacements: the model inventory's fields
/// (opening one of its tensors replaces the layout's spec, which made every inventory draft stale).
#[derive(Clone, Copy)]
pub struct DraftStore {
    pub drafts: FieldDrafts,
    /// Bumped when the inventory's choices are replaced (a preset, a link): drafts typed before are stale.
    pub replaced: Signal<u64>,
}

impl Draft {
    /// The draft place of the field `key` (it follows a row that moves), drawn now: in `store` when given,
    /// else in the layout editors' drafts.
    pub(crate) fn of(key: Signal<String>, store: Option<DraftStore>) -> Draft {
        match store {
            Some(DraftStore { drafts, replaced }) => Draft { drafts: Some(drafts), key, tensor: None, replaced },
            None => {
                Draft { drafts: use_context::<FieldDrafts>(), key, tensor: editors_tensor(), replaced: replacements() }
            }
        }
    }

    /// Where the draft is kept: the field's key (with the tensor shown) in the generation in effect.
    fn stored_key(self) -> (String, u64) {
        let key = self.key.get_untracked();
        let key = match self.tensor {
            Some(index) => format!("{key}@{index}"),
            None => key,
        };
        (key, self.replaced.get_untracked())
    }

    /// The draft kept for this field in the generation in effect, if one was typed there.
    pub(crate) fn kept(self) -> Option<String> {
        let drafts = self.drafts?.drafts;
        let place = self.stored_key();
        drafts.with_value(|d| d.get(&place).cloned())
    }

    /// Keeps `unread()` (the field's text while it does not parse) as its draft again each time the drafts
    /// are forgotten for a dim added or removed ([`FieldDrafts::follow_structure`]).
    pub(crate) fn keep_through_restructuring(self, unread: impl Fn() -> Option<String> + Send + Sync + 'static) {
        let Some(FieldDrafts { restructured, .. }) = self.drafts else { return };
        Effect::new(move |seen: Option<u64>| {
            let now = restructured.get();
            if seen.is_some_and(|seen| seen != now)
                && let Some(text) = unread()
            {
                self.keep(Some(text));
            }
            now
        });
    }

    /// Keeps `text` as the field's draft, or forgets it (`None`: the field shows the spec's value).
    pub(crate) fn keep(self, text: Option<String>) {
        let Some(FieldDrafts { drafts, .. }) = self.drafts else { return };
        let place = self.stored_key();
        drafts.update_value(|d| match text {
            Some(text) => {
                d.insert(place, text);
            }
            None => {
                d.remove(&place);
            }
        });
    }
}

/// How many fields hold text that does not parse: their own message, which the core never sees, so the
/// editors' status line counts them beside the core's problems.
#[derive(Clone, Copy)]
pub struct UnreadFields(pub RwSignal<usize>);

/// Keeps [`UnreadFields`] (when the editors provide it) in step with a field's own message.
///
/// Whether this field is counted is kept outside the reactive graph: a row removed with its field (a mesh
/// dim, when a preset has fewer) may have its signals disposed before its cleanup runs, and reading them
/// there lost the count's decrement ("1 problem" with none on screen, until reload).
pub(crate) fn count_unread(local: RwSignal<Option<String>>) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let Some(UnreadFields(unread)) = use_context::<UnreadFields>() else { return };
    let counted = Arc::new(AtomicBool::new(false));
    let in_effect = Arc::clone(&counted);
    Effect::new(move |_| {
        let now = local.with(Option::is_some);
        if in_effect.swap(now, Ordering::Relaxed) != now {
            unread.update(|n| if now { *n += 1 } else { *n = n.saturating_sub(1) });
        }
    });
    on_cleanup(move || {
        if counted.swap(false, Ordering::Relaxed) {
            unread.try_update(|n| *n = n.saturating_sub(1));
        }
    });
}

thread_local! {
    /// The last draft generation handed out, for every state of the page (each is unique: undo may bring
    /// an old one back, and a new one must never meet its drafts).
    static LAST_GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A draft generation no field has drafts in yet: for a whole new spec (a preset, a link, a file).
pub fn fresh_generation() -> u64 {
    LAST_GENERATION.with(|last| {
        last.set(last.get() + 1);
        last.get()
    })
}

/// The app's count of whole-spec replacements ([`AppState::replaced`]), or a constant where the fields are
/// mounted without the app (they then only follow their own value).
fn replacements() -> Signal<u64> {
    match use_context::<crate::ui::AppState>() {
        Some(state) => state.replaced.into(),
        None => Signal::stored(0),
    }
}

/// A problem of several fields together, shown once under them (the mesh's size, the product of its dims).
#[derive(Clone)]
pub struct GroupProblem {
    /// Whether the group has a problem now.
    pub invalid: Signal<bool>,
    /// The id of the element holding its messages.
    pub problems_id: String,
}

/// A whole-number field with − and + buttons. What the user types stays in the field even when it does
/// not parse (then a message says so and the spec keeps its value); anything that parses is written to
/// the spec at once, where the core checks its meaning.
#[component]
pub fn IntegerField(
    /// The accessible name, e.g. "source mesh dim 0 size" (it follows a row that moves).
    #[prop(into)]
    label: Signal<String>,
    /// The value in the spec (`None` when the spec leaves it out).
    #[prop(into)]
    value: Signal<Option<i64>>,
    /// Writes a parsed value into the spec.
    on_set: Callback<i64>,
    /// The core's messages for this field.
    #[prop(into)]
    problems: Signal<Vec<String>>,
    /// The stepper's bounds (typing may go outside them; the core then says why that is wrong).
    min: i64,
    max: i64,
    /// The id fragment of the input (`field-…`) and of its messages (`problems-…`).
    #[prop(into)]
    key: Signal<String>,
    /// A number that parses but has no place here (a negative size): why, kept as the field's own message
    /// like text that does not parse, and the spec keeps its value.
    #[prop(optional)]
    refuse: Option<Callback<i64, Option<String>>>,
    /// Where drafts are kept when not with the layout editors' (the inventory's own).
    #[prop(optional)]
    store: Option<DraftStore>,
    /// A problem of the whole the field is part of (a mesh of too many devices): it marks the field invalid
    /// too, and its messages describe the field after the field's own.
    #[prop(default = None)]
    group: Option<GroupProblem>,
) -> impl IntoView {
    let place = Draft::of(key, store);
    // The replacements that make its drafts stale also redraw its text from the value.
    let replaced = place.replaced;
    // What was typed here before the field was drawn anew, if it still stands, with its message.
    let draft = place.kept();
    let judge = move |text: &str| -> Result<i64, String> {
        let v = read_whole_number(text)?;
        match refuse.and_then(|why| why.run(v)) {
            Some(message) => Err(message),
            None => Ok(v),
        }
    };
    let raw = RwSignal::new(
        draft.clone().unwrap_or_else(|| value.get_untracked().map(|v| v.to_string()).unwrap_or_default()),
    );
    let local = RwSignal::new(draft.and_then(|text| judge(&text).err()));
    count_unread(local);
    place.keep_through_restructuring(move || local.with_untracked(Option::is_some).then(|| raw.get_untracked()));
    // This value changed elsewhere (a stepper, a preset, the layout text): show it, unless the text already
    // means it. Only when it changed: `value` is read from the whole spec, and an edit of another field
    // must not replace text typed here that does not parse yet.
    // Another draft generation (a preset, a link, undo) replaces the text whatever it was, with the draft
    // typed in that generation if there is one (undo brings it back).
    Effect::new(move |previous: Option<(Option<i64>, u64)>| {
        let (current, generation) = (value.get(), replaced.get());
        let reopened = previous.is_some_and(|(_, g)| g != generation);
        let changed = previous.is_some_and(|(p, _)| p != current);
        if reopened {
            // A draft that reads under the restored spec is no unread text there: the spec's value shows.
            let draft = place.kept().and_then(|text| judge(&text).err().map(|why| (text, why)));
            local.set(draft.as_ref().map(|(_, why)| why.clone()));
            raw.set(draft.map_or_else(|| current.map(|v| v.to_string()).unwrap_or_default(), |(text, _)| text));
        } else if changed && read_whole_number(&raw.get_untracked()).ok() != current {
            raw.set(current.map(|v| v.to_string()).unwrap_or_default());
            local.set(None);
            place.keep(None);
        }
        (current, generation)
    });
    let messages = Signal::derive(move || match local.get() {
        Some(message) => vec![message],
        None => problems.get(),
    });
    let group_invalid = group.as_ref().map(|g| g.invalid);
    let invalid = move || (!messages.with(Vec::is_empty) || group_invalid.is_some_and(|g| g.get())).to_string();
    let step = move |delta: i64| {
        // From the number typed, even one out of range; from the value in effect when the text is no number.
        let next = stepped(&raw.get_untracked(), delta, min, max)
            .unwrap_or_else(|| value.get_untracked().unwrap_or(min).saturating_add(delta).clamp(min, max));
        raw.set(next.to_string());
        local.set(None);
        place.keep(None);
        on_set.run(next);
    };
    let problems_id = Signal::derive(move || key.with(|key| format!("problems-{key}")));
    let group_problems_id = group.map(|g| g.problems_id);
    let described_by = Signal::derive(move || match &group_problems_id {
        Some(group) => format!("{} {group}", problems_id.get()),
        None => problems_id.get(),
    });
    let label_less = move || label.with(|label| format!("{label}: one less"));
    let label_more = move || label.with(|label| format!("{label}: one more"));
    let test_id = move |part: &'static str| move || key.with(|key| format!("{part}-{key}"));
    view! {
        <div class="number-field">
            <div class="stepper">
                // The buttons are for the pointer; the keyboard steps with the arrow keys in the field, as
                // a spin button does (WAI-ARIA's pattern), so they are not Tab stops of their own: three
                // stops per field made the editors 48 stops long.
                <button
                    type="button"
                    class="step"
                    tabindex="-1"
                    aria-label=label_less
                    data-testid=test_id("less")
                    disabled={move || value.get().is_some_and(|v| v <= min)}
                    on:click=move |_| step(-1)
                >
                    "−"
                </button>
                <input
                    type="text"
                    inputmode="numeric"
                    class="number"
                    role="spinbutton"
                    aria-valuemin=min.to_string()
                    aria-valuemax=max.to_string()
                    aria-valuenow=move || read_whole_number(&raw.get()).ok().map(|v| v.to_string())
                    aria-valuetext=move || raw.get()
                    aria-label=label
                    aria-invalid=invalid
                    aria-describedby=described_by
                    data-testid=test_id("field")
                    prop:value=move || raw.get()
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        let delta = match ev.key().as_str() {
                            "ArrowUp" => 1,
                            "ArrowDown" => -1,
                            _ => return,
                        };
                        ev.prevent_default();
                        step(delta);
                    }
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        raw.set(text.clone());
                        match judge(&text) {
                            Ok(v) => {
                                local.set(None);
                                place.keep(None);
                                on_set.run(v);
                            }
                            Err(message) => {
                                local.set(Some(message));
                                place.keep(Some(text));
                            }
                        }
                    }
                />
                <button
                    type="button"
                    class="step"
                    tabindex="-1"
                    aria-label=label_more
                    data-testid=test_id("more")
                    disabled={move || value.get().is_some_and(|v| v >= max)}
                    on:click=move |_| step(1)
                >
                    "+"
                </button>
            </div>
            <FieldProblems id=problems_id messages=messages/>
        </div>
    }
}

/// A decimal field (bandwidths, latency) with a visible label and unit; keeps what was typed like
/// [`IntegerField`].
#[component]
pub fn DecimalField(
    /// The visible label.
    label: &'static str,
    /// The unit after the number, e.g. "GB/s".
    unit: &'static str,
    /// The value in effect (the spec's, or the default it falls back to).
    #[prop(into)]
    value: Signal<f64>,
    /// Writes a parsed value into the spec.
    on_set: Callback<f64>,
    /// The core's messages for this field.
    #[prop(into)]
    problems: Signal<Vec<String>>,
    /// The id fragment of the input and its messages.
    key: &'static str,
) -> impl IntoView {
    let show = |v: f64| format!("{v}");
    let place = Draft::of(Signal::stored(key.to_string()), None);
    // The replacements that make its drafts stale also redraw its text from the value.
    let replaced = place.replaced;
    // As in `IntegerField`: what was typed before the field was drawn anew, with its message.
    let draft = place.kept();
    let raw = RwSignal::new(draft.clone().unwrap_or_else(|| show(value.get_untracked())));
    let local = RwSignal::new(draft.and_then(|text| read_decimal(&text).err()));
    count_unread(local);
    place.keep_through_restructuring(move || local.with_untracked(Option::is_some).then(|| raw.get_untracked()));
    // As in `IntegerField`: replaced only when this value changed, not on another field's edit, or by
    // another draft generation's text.
    Effect::new(move |previous: Option<(f64, u64)>| {
        let (current, generation) = (value.get(), replaced.get());
        let reopened = previous.is_some_and(|(_, g)| g != generation);
        let changed = previous.is_some_and(|(p, _)| p != current);
        if reopened {
            let draft = place.kept().and_then(|text| read_decimal(&text).err().map(|why| (text, why)));
            local.set(draft.as_ref().map(|(_, why)| why.clone()));
            raw.set(draft.map_or_else(|| show(current), |(text, _)| text));
        } else if changed && read_decimal(&raw.get_untracked()).ok() != Some(current) {
            raw.set(show(current));
            local.set(None);
            place.keep(None);
        }
        (current, generation)
    });
    let messages = Signal::derive(move || match local.get() {
        Some(message) => vec![message],
        None => problems.get(),
    });
    let input_id = format!("field-{key}");
    let problems_id = format!("problems-{key}");
    view! {
        <div class="labelled-field">
            <label class="field-label" for=input_id.clone()>{label}</label>
            <div class="unit-input">
                // The unit in the field's name: shown beside the box, it was not said with it (review 41).
                <input
                    id=input_id.clone()
                    aria-label=format!("{label}, in {unit}")
                    type="text"
                    inputmode="decimal"
                    class="number"
                    aria-invalid=move || (!messages.with(Vec::is_empty)).to_string()
                    aria-describedby=problems_id.clone()
                    data-testid=input_id
                    prop:value=move || raw.get()
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        raw.set(text.clone());
                        match read_decimal(&text) {
                            Ok(v) => {
                                local.set(None);
                                place.keep(None);
                                on_set.run(v);
                            }
                            Err(message) => {
                                local.set(Some(message));
                                place.keep(Some(text));
                            }
                        }
                    }
                />
                <span class="unit" aria-hidden="true">{unit}</span>
            </div>
            <FieldProblems id=problems_id messages=messages/>
        </div>
    }
}
