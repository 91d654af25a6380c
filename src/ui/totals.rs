//! The three traffic quantities that must never be confused, each with its own label.

use leptos::prelude::*;

use super::AppState;
use crate::core::traffic::format_bytes;
pub use crate::core::traffic::format_count;

/// What the unique entries are of: "the logical tensor", or "all 291 tensors" of a model opened from the
/// inventory (its cards summed the whole model beside one tensor's picture, and said "the logical tensor").
pub fn entries_of(tensors: usize) -> String {
    if tensors > 1 { format!("all {} tensors", format_count(tensors as u64)) } else { "the logical tensor".to_string() }
}

/// Unique logical entries, bytes received by devices, and the largest load of one link.
#[component]
pub fn TrafficTotals() -> impl IntoView {
    let state = expect_context::<AppState>();
    let tensors = Memo::new(move |_| state.reshard.with(|r| r.tensors.len()));
    // One tensor's bytes are its received entries times one dtype: said beside the bytes, so that a
    // reader comparing with entries (the article's toy: 72 entries, 144 B of bf16) sees where 144 comes from.
    let wire = Memo::new(move |_| {
        state.reshard.with(|r| match r.tensors.as_slice() {
            [tensor] => Some(r.wire_dtype(tensor)),
            _ => None,
        })
    });
    let bytes_note = move |bytes: u64| match wire.get() {
        Some(dtype) if bytes > 0 => format!(
            "= {} entries × {} B ({}), local copies (same device) excluded",
            format_count(bytes / dtype.bytes()),
            dtype.bytes(),
            dtype.name()
        ),
        // An inventory's: said of all its tensors, as the entries are (beside one tensor's picture).
        _ => match tensors.get() {
            n if n > 1 => format!("{}, summed over destinations, local copies (same device) excluded", entries_of(n)),
            _ => "summed over destinations, local copies (same device) excluded".to_string(),
        },
    };

    // Said after an edit changes them (a screen reader heard only the heatmap's readout, and
    // nothing after "+ mesh dim"); a Memo, so that an edit that leaves them alone says nothing.
    let spoken = Memo::new(move |_| {
        state.totals.with(|t| {
            t.as_ref().map_or_else(Clone::clone, |t| {
                format!(
                    "{} unique logical entries, {} received by devices, {} crossing the busiest link",
                    format_count(t.unique_entries),
                    format_bytes(t.bytes_received),
                    format_bytes(t.max_link_bytes)
                )
            })
        })
    });
    // Which link: the number alone read as any link's (colocated's 24 B beside pieces of 8 B is d0's
    // nvlink_out, which sends three), and a presented slide has no room for the traffic panel that named it.
    let busiest = Memo::new(move |_| {
        state
            .summary
            .with(|s| (**s).as_ref().ok().and_then(|s| s.traffic.max_link()).map(|l| super::traffic::link_name(&l)))
    });
    let busiest_note = move || {
        let named = if busiest.with(Option::is_some) { ": " } else { "" };
        match tensors.get() {
            n if n > 1 => format!("{named}the link that carries the most, one direction, {}", entries_of(n)),
            _ => format!("{named}the link that carries the most, one direction"),
        }
    };
    let figures = move || match state.totals.get() {
        Ok(totals) => view! {
            <dl class="totals" data-testid="totals">
                <Total
                    test_id="total-unique-entries"
                    label="Unique logical entries"
                    value=format_count(totals.unique_entries)
                    note=format!("entries of {}, each counted once", entries_of(tensors.get()))
                />
                <Total
                    test_id="total-bytes-received"
                    label="Bytes received by devices"
                    value=format_bytes(totals.bytes_received)
                    note=bytes_note(totals.bytes_received)
                />
                <Total
                    test_id="total-max-link-bytes"
                    label="Bytes crossing the busiest link"
                    value=format_bytes(totals.max_link_bytes)
                    place=busiest.get().map(|link| format!("on {link}"))
                    note=busiest_note()
                />
            </dl>
        }
        .into_any(),
        Err(message) => view! { <p class="problem" role="alert" data-testid="totals-error">{message}</p> }.into_any(),
    };
    view! {
        {figures}
        <super::announce::Announcer text=spoken.into() test_id="totals-announce" settle_ms=super::announce::AFTER_TYPING_MS/>
    }
}

/// One labelled figure of [`TrafficTotals`].
#[component]
fn Total(
    /// The `data-testid` of the figure's container.
    test_id: &'static str,
    /// What is counted, in words.
    label: &'static str,
    /// The formatted number.
    value: String,
    /// How it is counted, in a few words.
    #[prop(into)]
    note: String,
    /// Where it was counted (the busiest link's name), before the note. (A slide too short for the notes
    /// has no room for it either: kept there, fsdp-tp's destination mesh ran 15 px off a 1280 × 720 slide.)
    #[prop(default = None)]
    place: Option<String>,
) -> impl IntoView {
    // Smaller when long (main.css): a whole model's "8,030,261,248" broke before its last digit.
    // Smaller again past 14 (a 10^12-row tensor's "6,000,000,000,000" broke as "6,000,000,000,0 / 00").
    let chars = value.chars().count();
    let (long, longer) = (chars > 10, chars > 14);
    view! {
        <div class="total" data-testid=test_id>
            <dt class="total-label">{label}</dt>
            <dd class="total-value" class:is-long=long class:is-longer=longer>{value}</dd>
            <dd class="total-note">
                {place.map(|place| view! { <span class="total-place" data-testid="total-place">{place}</span> })}
                {note}
            </dd>
        </div>
    }
}
