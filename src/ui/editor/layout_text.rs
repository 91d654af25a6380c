//! A side's whole layout as one line of text, in DTensor notation (`[Shard(0), Replicate()]`) or JAX notation
//! (`P('tp', None)`). The text and the cards follow each other; text that does not parse stays as typed with
//! a message, and the spec keeps its last readable layout, which the field names and offers to put back.

use leptos::prelude::*;

use super::EditorContext;
use super::field::{Draft, FieldProblems, count_unread, slug};
use crate::core::notation::{apply_layout_text, layout_text};
use crate::core::placement::{parse_layout_text_for_rank, reading_note};
use crate::core::spec_edit::{
    MAX_DIMS, SideName, SpecField, add_mesh_dim, edit_layout, layout, mesh_shape, side as side_of, tensor,
};

/// The layout text field of one side.
#[component]
pub fn LayoutTextField(
    /// Which side's layout.
    side: SideName,
) -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let index = editor.index;
    let key = side.key();
    // The edited tensor's rank: `Shard(-1)` is its last dim, as DTensor reads it.
    let parse = move |text: &str| {
        let rank = state.input.with_untracked(|input| tensor(input, index.get_untracked()).map(|t| t.shape.len()));
        parse_layout_text_for_rank(text, rank)
    };
    // The text the cards imply.
    let implied = Memo::new(move |_| {
        state.input.with(|input| layout_text(&layout(input, index.get(), side)).unwrap_or_default())
    });
    // Text that did not parse when the field was last drawn (before a visit to another view) comes back.
    let place = Draft::of(Signal::stored(format!("layout-{key}")), None);
    let draft = place.kept();
    let local = RwSignal::new(draft.as_deref().and_then(|text| parse(text).err()));
    let raw = RwSignal::new(draft.unwrap_or_else(|| implied.get_untracked()));
    // Text that does not parse counts in the editors' status line, as a number field's does.
    count_unread(local);
    place.keep_through_restructuring(move || local.with_untracked(Option::is_some).then(|| raw.get_untracked()));
    let editing = RwSignal::new(false);
    // The cards changed the layout: show it, unless the user is typing here or left text that does not
    // parse (nothing typed is lost: the field offers the cards' layout instead, see below).
    Effect::new(move |_| {
        let text = implied.get();
        if !editing.get_untracked() && local.with_untracked(Option::is_none) {
            raw.set(text);
        }
    });
    // Another draft generation (a preset, a link, undo) replaces the text, even unread text, and even when
    // it implies the same layout: with the text typed in that generation, if any (undo brings it back).
    Effect::new(move |drawn: Option<()>| {
        state.replaced.track();
        if drawn.is_some() {
            // Text that reads under the restored spec is no unread text there: the cards' layout shows.
            let draft = place.kept().and_then(|text| parse(&text).err().map(|why| (text, why)));
            local.set(draft.as_ref().map(|(_, why)| why.clone()));
            raw.set(draft.map_or_else(|| implied.get_untracked(), |(text, _)| text));
        }
    });
    let core_messages =
        editor.messages(move |f| matches!(f, SpecField::Layout(s) | SpecField::Placement(s, _) if s == side));
    // The side's layout when the whole spec last checked out, and the layout this field wrote last. Text
    // that stops parsing while the cards hold a layout of this field's that the spec refuses
    // (`[Shard(0), Shard(0), Shard(0)]` on one mesh dim, then `[Shard(0)` on the way to another) puts the
    // cards back to the accepted one: they kept the abandoned layout, its problem counted a second time and
    // its "Add 2 mesh dims" offered for a layout no longer typed.
    let accepted = StoredValue::new(None::<LayoutFields>);
    let written = StoredValue::new(None::<LayoutFields>);
    // Opened on a spec whose layout here is refused (a reload, a link made while the editors held a
    // problem): that layout was typed into this field before, and the last valid spec's is the one to put
    // back, as in the session that typed it. After a reload, text that did not parse left the refused
    // layout in the cards, its problem said a second time and offered back as "the cards' layout".
    if state.checked.with_untracked(Result::is_err) {
        let at = index.get_untracked();
        let now = state.input.with_untracked(|input| LayoutFields::of(&layout(input, at, side)));
        let valid = state.valid_input.with_value(|input| LayoutFields::of(&layout(input, at, side)));
        if now != valid {
            accepted.set_value(Some(valid));
            written.set_value(Some(now));
        }
    }
    Effect::new(move |_| {
        index.track();
        if state.checked.with(Result::is_ok) {
            let now = state.input.with_untracked(|input| LayoutFields::of(&layout(input, index.get_untracked(), side)));
            accepted.set_value(Some(now));
        }
    });
    // Reads the text into the cards, or keeps it unread with its message.
    let read = move |text: String| match parse(&text) {
        Ok(parsed) => {
            local.set(None);
            place.keep(None);
            editor.edit(|input, index| edit_layout(input, index, side, |l| apply_layout_text(l, parsed)));
            let now = state.input.with_untracked(|input| LayoutFields::of(&layout(input, index.get_untracked(), side)));
            written.set_value(Some(now));
        }
        Err(message) => {
            local.set(Some(message));
            place.keep(Some(text));
            let now = state.input.with_untracked(|input| LayoutFields::of(&layout(input, index.get_untracked(), side)));
            let refused = !core_messages.with_untracked(Vec::is_empty);
            if let Some(back) = accepted
                .get_value()
                .filter(|back| refused && written.get_value().as_ref() == Some(&now) && *back != now)
            {
                editor.edit(|input, index| edit_layout(input, index, side, |l| back.put(l)));
            }
        }
    };
    // Unread text is read again when an edit changes the tensor's rank: `[Shard(-3)]` refused for a rank-2
    // tensor is the first dim of a rank-3 one (its message named the old rank). Not when a whole new spec
    // came (a preset, a link, undo): that drops the text (below), never writes it into the new spec.
    let rank = Memo::new(move |_| state.input.with(|input| tensor(input, index.get()).map(|t| t.shape.len())));
    Effect::new(move |previous: Option<(Option<usize>, u64)>| {
        let now = (rank.get(), state.replaced.get());
        if previous.is_some_and(|(rank, replaced)| rank != now.0 && replaced == now.1)
            && local.with_untracked(Option::is_some)
        {
            read(raw.get_untracked());
        }
        now
    });
    let use_implied = move |_| {
        raw.set(implied.get_untracked());
        local.set(None);
        place.keep(None);
    };
    // Unread text, and the cards' layout still has problems of its own (`[Shard(5)]`, then `[Foo()]`): both
    // are said, as the status line counts both and the cards' select is marked.
    let messages = Signal::derive(move || {
        let core = core_messages.get();
        match local.get() {
            Some(message) => {
                std::iter::once(message).chain(core.into_iter().map(|m| format!("The cards' layout: {m}"))).collect()
            }
            None => core,
        }
    });
    // A layout that places more mesh dims than the mesh has (`[Shard(0), Shard(1)]` on one dim): its message
    // says to give the mesh the dims, and here is the button for it, under the message rather than up at the
    // mesh's rows. The text cannot say a new dim's size; it gets the card's usual 2, and a stepper.
    let missing_dims = Memo::new(move |_| {
        state.input.with(|input| {
            let placed = layout(input, index.get(), side).placements.map_or(0, |p| p.len());
            let dims = mesh_shape(side_of(input, side)).len();
            (placed > dims && placed <= MAX_DIMS).then(|| placed - dims)
        })
    });
    let add_missing_dims = move |_| {
        let Some(missing) = missing_dims.get_untracked() else { return };
        state.input.update(|input| (0..missing).for_each(|_| add_mesh_dim(input, side)));
    };
    let id = format!("field-{key}-layout");
    let problems_id = format!("problems-{}", slug(&format!("{key}.layout")));
    let hint_id = format!("hint-{key}-layout");
    view! {
        <div class="labelled-field layout-text">
            <label class="field-label" for=id.clone()>"Layout"</label>
            // A textarea so that a long layout wraps in a narrow card instead of scrolling out of sight.
            <textarea
                id=id.clone()
                rows="2"
                class="text-input mono layout-input"
                spellcheck="false"
                autocomplete="off"
                placeholder="[Shard(0)] or P('tp')"
                aria-invalid=move || (!messages.with(Vec::is_empty)).to_string()
                aria-describedby=format!("{hint_id} {problems_id}")
                data-testid=format!("layout-text-{key}")
                prop:value=move || raw.get()
                on:focus=move |_| editing.set(true)
                on:blur=move |_| {
                    editing.set(false);
                    // Once the user leaves a readable text, show it as the cards read it.
                    if local.get_untracked().is_none() {
                        raw.set(implied.get_untracked());
                    }
                }
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    raw.set(text.clone());
                    read(text);
                }
            ></textarea>
            <p class="field-hint" id=hint_id>"Type it in DTensor notation, e.g. " <code>"[Shard(0), R]"</code> ", or JAX, e.g. " <code>"P('tp', None)"</code></p>
            <FieldProblems id=problems_id messages=messages/>
            {move || local.with(Option::is_none).then(|| raw.with(|text| reading_note(text))).flatten().map(|note| view! {
                <p class="field-hint layout-reading" data-testid=format!("layout-text-{key}-reading")>{note}</p>
            })}
            {move || missing_dims.get().map(|missing| view! {
                <p class="field-hint">
                    <button type="button" class="link-button" data-testid=format!("layout-text-{key}-add-dims")
                        on:click=add_missing_dims>
                        {if missing == 1 { "Add a mesh dim of size 2".to_string() } else { format!("Add {missing} mesh dims of size 2") }}
                    </button>
                </p>
            })}
            <Show when=move || local.with(Option::is_some)>
                <p class="field-hint layout-kept" data-testid=format!("layout-text-{key}-kept")>
                    // The cards' layout is the pictures' only while it is valid.
                    {move || if core_messages.with(Vec::is_empty) { "The pictures show " } else { "The cards hold " }}
                    <code>{move || implied.get()}</code> ". "
                    <button type="button" class="link-button" data-testid=format!("layout-text-{key}-use")
                        on:click=use_implied>"Replace my text with it"</button>
                </p>
            </Show>
        </div>
    }
}

/// The fields a layout text sets: what [`LayoutTextField`] puts back.
#[derive(Clone, PartialEq)]
struct LayoutFields {
    placements: Option<Vec<String>>,
    partition_spec: Option<Vec<serde_json::Value>>,
    order: Option<String>,
}

impl LayoutFields {
    fn of(layout: &crate::core::spec::SideInput) -> LayoutFields {
        LayoutFields {
            placements: layout.placements.clone(),
            partition_spec: layout.partition_spec.clone(),
            order: layout.order.clone(),
        }
    }

    fn put(self, layout: &mut crate::core::spec::SideInput) {
        layout.placements = self.placements;
        layout.partition_spec = self.partition_spec;
        layout.order = self.order;
    }
}
