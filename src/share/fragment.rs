//! The URL fragment is the state: `#v1.<base64url(deflate(json))>`.
//!
//! JSON (not a binary format) so that an old link stays readable by a newer version with more fields
//! (unknown-field checks are the spec's own; new optional fields default). The version tag lets a future
//! format change say clearly that a link is from another version instead of misreading it. Decoding is
//! bounded (compressed and inflated sizes) so a hostile fragment cannot exhaust memory.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

use miniz_oxide::inflate::TINFLStatus;

use crate::chart::spread::SpreadScale;
use crate::core::cycle::{CycleSpec, MAX_STAGES};
use crate::core::models::{GenerationLayout, ModelDims, ModelPreset, TrainingLayout};
use crate::core::spec::{SpecInput, TopologyInput};
use crate::core::verify::Fault;

/// The format written by this version.
pub const FORMAT_VERSION: u32 = 1;
/// Fragments longer than this are refused before decoding: 2 MiB, the longest address Chromium keeps.
/// The largest state the app holds (an inventory opened from a file of up to
/// [`crate::share::import::MAX_IMPORT_BYTES`]) fits: at 64 KiB, a 12,288-tensor inventory was written
/// into the address and the autosave, and the reload that read them back refused them and lost it.
pub const MAX_FRAGMENT_CHARS: usize = 2 * 1024 * 1024;
/// Inflated JSON larger than this is refused (a deflate bomb would otherwise expand without limit); four
/// times the largest file the app opens, whose state is written compactly.
pub const MAX_JSON_BYTES: usize = 32 * 1024 * 1024;
/// Links longer than this are said to be long in the Share menu: chat tools and mail may cut them.
pub const LONG_LINK_CHARS: usize = 16 * 1024;

/// Everything a link reproduces: the layout change, the cycle, and what the sender was looking at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedState {
    pub spec: SpecInput,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycle: Option<CycleSpec>,
    #[serde(default)]
    pub view: ViewState,
    /// The model inventory's choices, when they differ from the view's default (older links have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inventory: Option<InventoryChoice>,
    /// The cycle view's measured cycles, when there are any (older links have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<SharedMeasured>,
    /// The last valid spec, when `spec` is not valid: the change the pictures showed. Opened on `spec`
    /// alone, a link made while the editor held a problem showed its fields over the toy's picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<SpecInput>,
}

/// Measured per-cycle stage times as pasted, and how many first cycles are startup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedMeasured {
    /// The text, or `None` when it is longer than [`MEASURED_IN_LINK`]: a link then leaves it out (the
    /// receiver's own measurements stay as they are; the sender's Share menu says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// For text left out: its digest, by which the tab that wrote the entry finds the text again when undo
    /// or Back comes to it (undo then redo emptied 100 KB of measurements for good).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    pub startup: usize,
    /// How the spreads are drawn, when not the default (older links have none).
    #[serde(default, skip_serializing_if = "is_default_scale")]
    pub scale: SpreadScale,
    /// The measured stage picked as the refit, when picked by hand (older links have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refit: Option<String>,
}

fn is_default_scale(scale: &SpreadScale) -> bool {
    *scale == SpreadScale::default()
}

/// The digest of measured text left out of a link ([`SharedMeasured::digest`]): stable within one build,
/// which is all a tab's own history needs.
pub fn measured_digest(text: &str) -> String {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    format!("{:016x}-{}", hasher.finish(), text.len())
}

/// Measured text longer than this (in bytes) stays out of links: a day of cycles compresses well, but a
/// link past [`MAX_FRAGMENT_CHARS`] does not open, and the address is rewritten after every edit.
pub const MEASURED_IN_LINK: usize = 48 * 1024;

/// What the model inventory shows: the preset it started from (or `custom` once its dimensions were
/// edited), the model's dimensions, both layouts and whether they share devices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InventoryChoice {
    pub preset: String,
    pub model: ModelDims,
    pub train: TrainingLayout,
    pub generate: GenerationLayout,
    pub colocated: bool,
    /// The cluster the estimates are for; what is not given is the cost model's default (a link made
    /// before the inventory had these fields has none).
    #[serde(default, skip_serializing_if = "is_default_topology")]
    pub topology: TopologyInput,
    /// The tensor table's find text (part of a name, or a group): a link to `layers.47.` of a model whose
    /// table lists 300 tensors of many more showed the first 300 (review 51).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub find: String,
    /// The tensor table's order: largest first (the default) or the model's.
    #[serde(default = "largest_first", skip_serializing_if = "is_largest_first")]
    pub largest_first: bool,
}

fn largest_first() -> bool {
    true
}

fn is_largest_first(largest: &bool) -> bool {
    *largest
}

fn is_default_topology(topology: &TopologyInput) -> bool {
    *topology == TopologyInput::default()
}

impl InventoryChoice {
    /// The choices of the model preset `preset` (one of [`crate::core::models::MODEL_PRESETS`]).
    pub fn of_preset(preset: &ModelPreset) -> InventoryChoice {
        InventoryChoice {
            preset: preset.name.to_string(),
            model: preset.model,
            train: preset.train,
            generate: preset.generate,
            colocated: preset.colocated,
            topology: TopologyInput::default(),
            find: String::new(),
            largest_first: true,
        }
    }
}

/// View choices that are part of what the sender saw.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewState {
    /// `layout` or `cycle`.
    pub page: String,
    /// `intersection`, `whole-shard` or `gather`.
    pub strategy: String,
    pub tensor: usize,
    pub row_dim: usize,
    pub col_dim: usize,
    pub slice: Vec<u64>,
    pub show_whole_shard: bool,
    /// `offset`, `swap`, `stale` or empty.
    pub fault: String,
    /// The sender had run the check on this plan and fault: the link runs it again, so its red cells show.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub verified: bool,
    /// Where the cycle's s is taken from when the layout gives it, `gather>intersection` (from, to); empty
    /// when s was set by hand. A link reopens the source with s (older links have none: s alone).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub speedup_from: String,
}

/// Why a fragment could not be opened, in words for the message shown over the default state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentError(pub String);

impl std::fmt::Display for FragmentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why the link's state is not base64url, in words (the crate's "Invalid symbol 33, offset 0." named a byte
/// value and an offset nobody could find in the address).
fn base64_problem(error: &base64::DecodeError) -> String {
    use base64::DecodeError;
    match error {
        // A letter can be wrong only as the last one: its bits run past the end (`v1.garbage`), as when a
        // link is cut. Said as a bad character, it read "has `e` … (only letters, …)".
        DecodeError::InvalidLastSymbol(..) => {
            "the link's state ends part-way through a character: the link was cut or changed; copy the whole \
             link again"
                .to_string()
        }
        DecodeError::InvalidByte(offset, byte) => {
            let shown =
                if byte.is_ascii_graphic() { format!("`{}`", char::from(*byte)) } else { format!("byte {byte}") };
            format!(
                "the link's state has {shown} at character {} after its version tag, which a link's state never holds \
                 (only letters, digits, - and _): the link was changed or cut",
                offset + 1
            )
        }
        DecodeError::InvalidLength(_) | DecodeError::InvalidPadding => {
            "the link's state is cut short: copy the whole link again".to_string()
        }
    }
}

/// Encodes a state as a fragment (without the leading `#`).
pub fn encode(state: &SharedState) -> String {
    let json = serde_json::to_vec(state).unwrap_or_default();
    let compressed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("v{FORMAT_VERSION}.{}", URL_SAFE_NO_PAD.encode(compressed))
}

/// Decodes a fragment (with or without the leading `#`). Never panics; every failure says what was wrong.
/// A part beside the layout that cannot be read is left out ([`decode_with_notes`]).
pub fn decode(fragment: &str) -> Result<SharedState, FragmentError> {
    decode_with_notes(fragment).map(|(state, _)| state)
}

/// The parts of a state beside its layout change, as a reader names them. One that cannot be read (a
/// damaged or forged link, or one from a newer version with a choice this one lacks) is left out and the
/// rest opens: one unknown spread scale threw the whole link away.
const OPTIONAL_PARTS: [(&str, &str); 5] = [
    ("view", "view settings"),
    ("cycle", "RL cycle"),
    ("inventory", "model inventory"),
    ("measured", "measured cycles"),
    ("shown", "last valid layout"),
];

/// [`decode`], with a note for each part left out because it could not be read.
pub fn decode_with_notes(fragment: &str) -> Result<(SharedState, Vec<String>), FragmentError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_FRAGMENT_CHARS {
        return Err(FragmentError(format!(
            "the link's state is {} characters long, more than the {MAX_FRAGMENT_CHARS} allowed",
            fragment.len()
        )));
    }
    let (version, body) = fragment
        .split_once('.')
        .ok_or_else(|| FragmentError("the link's state has no version tag (expected #v1.…)".into()))?;
    let version: u32 = version
        .strip_prefix('v')
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| FragmentError(format!("`{version}` is not a version tag (expected v1)")))?;
    if version > FORMAT_VERSION {
        return Err(FragmentError(format!(
            "the link was made by a newer Reshard Lens (state format v{version}; this one reads up to v{FORMAT_VERSION})"
        )));
    }
    if version == 0 {
        return Err(FragmentError("state format v0 does not exist".into()));
    }
    let compressed =
        URL_SAFE_NO_PAD.decode(body.trim_end_matches('=')).map_err(|e| FragmentError(base64_problem(&e)))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, MAX_JSON_BYTES).map_err(|e| {
        FragmentError(match e.status {
            TINFLStatus::HasMoreOutput => {
                format!(
                    "the link's state unpacks to more than {}, more than a link can hold",
                    crate::core::traffic::format_bytes(MAX_JSON_BYTES as u64)
                )
            }
            _ => "the link's state does not decompress: the link is damaged or cut short".to_string(),
        })
    })?;
    // Read as text, like the editors' JSON: one reader type means one copy of the spec's deserializers
    // in the bundle instead of two.
    let mut json = String::from_utf8(json).map_err(|_| FragmentError("the link's state is not UTF-8 text".into()))?;
    let mut notes = Vec::new();
    let mut state: SharedState = loop {
        let de = &mut serde_json::Deserializer::from_str(&json);
        let e = match serde_path_to_error::deserialize(&mut *de) {
            Ok(state) => {
                // Anything after the state's end is not the app's (a forged or spliced link): the state
                // opens, and the note says what was ignored.
                if de.end().is_err() {
                    notes.push("text after the state's end (ignored)".to_string());
                }
                break state;
            }
            Err(e) => e,
        };
        let path = e.path().to_string();
        let top = path.split(['.', '[']).next().unwrap_or_default();
        // Left out only where the rest is JSON: a damaged link has nothing else to trust.
        let without = OPTIONAL_PARTS.iter().find(|(key, _)| *key == top).and_then(|(key, name)| {
            let mut value: serde_json::Value = serde_json::from_str(&json).ok()?;
            value.as_object_mut()?.remove(*key)?;
            Some((serde_json::to_string(&value).ok()?, name))
        });
        match without {
            Some((rest, name)) => {
                notes.push(format!("its {name} ({path}: {})", e.into_inner()));
                json = rest;
            }
            None if top == "spec" => {
                return Err(FragmentError(format!(
                    "the link's layout change could not be read: {path}: {}",
                    e.into_inner()
                )));
            }
            None => {
                return Err(FragmentError(format!(
                    "the link's state does not describe a layout: {path}: {}",
                    e.into_inner()
                )));
            }
        }
    };
    notes.extend(unknown_view_choices(&mut state.view));
    // The app never writes a longer cycle; drawing one stage editor per stage of a forged link froze the
    // page for seconds.
    if let Some(cycle) = &state.cycle
        && cycle.stages.len() > MAX_STAGES
    {
        return Err(FragmentError(format!(
            "the link's cycle has {} stages; at most {MAX_STAGES} are allowed",
            cycle.stages.len()
        )));
    }
    Ok((state, notes))
}

/// The pages a link can open on, as [`ViewState::page`] names them (empty in the oldest links: the layout).
const PAGES: [&str; 3] = ["layout", "cycle", "inventory"];

/// Clears the view choices this version does not know (a forged link, or one from a newer version with a
/// strategy or fault this one lacks), with a note for each: they opened as the default without a word.
fn unknown_view_choices(view: &mut ViewState) -> Vec<String> {
    // By path: the tests' proptest prelude has a `Strategy` too.
    use crate::core::plan::Strategy;
    let known = [
        Strategy::parse(&view.strategy).is_some(),
        Fault::parse(&view.fault).is_some(),
        PAGES.contains(&view.page.as_str()),
        view.speedup_from
            .split_once('>')
            .is_some_and(|(from, to)| Strategy::parse(from).is_some() && Strategy::parse(to).is_some()),
    ];
    let choices = [
        ("strategy", &mut view.strategy, listed(Strategy::ALL.map(Strategy::name))),
        ("fault", &mut view.fault, listed(Fault::ALL.map(Fault::name))),
        ("page", &mut view.page, listed(PAGES)),
        ("source of s", &mut view.speedup_from, "two strategies, `from>to`, such as `gather>intersection`".into()),
    ];
    let mut notes = Vec::new();
    for ((what, value, expected), known) in choices.into_iter().zip(known) {
        if !value.is_empty() && !known {
            notes.push(format!("its view's {what} `{}` (expected {expected})", shown_value(value)));
            value.clear();
        }
    }
    notes
}

/// Names as a note lists them: `a`, `b`, `c`.
fn listed<const N: usize>(names: [&str; N]) -> String {
    names.map(|n| format!("`{n}`")).join(", ")
}

/// A value from a link as a note quotes it: at most 40 characters, on one line.
fn shown_value(value: &str) -> String {
    let mut shown: String = value.chars().take(40).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if value.chars().count() > 40 {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::models::MODEL_PRESETS;
    use crate::core::presets;
    use crate::core::spec::parse_input;
    use proptest::prelude::*;

    fn toy_state() -> SharedState {
        SharedState {
            spec: parse_input(presets::PRESETS[0].spec).unwrap(),
            cycle: Some(crate::core::cycle::parse_cycle(include_str!("../../examples/cycle-120.json")).unwrap()),
            view: ViewState { page: "layout".into(), strategy: "intersection".into(), ..Default::default() },
            inventory: None,
            measured: None,
            shown: None,
        }
    }

    #[test]
    fn measured_cycles_and_a_check_survive_the_round_trip_and_older_links_have_neither() {
        let measured = SharedMeasured {
            text: Some("cycle,stage,seconds\n1,refit,10\n".into()),
            digest: None,
            startup: 2,
            scale: SpreadScale::default(),
            refit: Some("update_actor".into()),
        };
        let mut state = SharedState { measured: Some(measured), ..toy_state() };
        state.view.verified = true;
        state.view.fault = "offset".into();
        assert_eq!(decode(&encode(&state)), Ok(state));
        let older = toy_state();
        let json = serde_json::to_string(&older).unwrap();
        assert!(!json.contains("measured") && !json.contains("verified"), "links without them stay as they were");
        // Too long for a link: the text stays out, k travels.
        let long = SharedMeasured {
            text: None,
            digest: Some(measured_digest("a long text")),
            startup: 3,
            scale: SpreadScale::default(),
            refit: None,
        };
        let state = SharedState { measured: Some(long.clone()), ..toy_state() };
        assert_eq!(decode(&encode(&state)), Ok(state));
        // The spreads' scale travels when it is not the default, and only then.
        let json = serde_json::to_string(&SharedState { measured: Some(long.clone()), ..toy_state() }).unwrap();
        assert!(!json.contains("scale"), "{json}");
        assert!(!serde_json::to_string(&long).unwrap().contains("refit"), "a refit picked by hand only");
        let seconds =
            SharedState { measured: Some(SharedMeasured { scale: SpreadScale::Seconds, ..long }), ..toy_state() };
        assert!(serde_json::to_string(&seconds).unwrap().contains(r#""scale":"seconds""#));
        assert_eq!(decode(&encode(&seconds)), Ok(seconds));
    }

    #[test]
    fn an_edited_inventory_survives_the_round_trip() {
        let mut choice = InventoryChoice::of_preset(&MODEL_PRESETS[1]);
        choice.preset = "custom".into();
        choice.model.hidden = 6144;
        choice.train.tp = 4;
        choice.colocated = !choice.colocated;
        choice.topology.devices_per_node = Some(4);
        choice.topology.nic_gbps = Some(25.0);
        choice.find = "layers.47.".into();
        choice.largest_first = false;
        let state = SharedState { inventory: Some(choice), ..toy_state() };
        assert_eq!(decode(&encode(&state)), Ok(state));
    }

    #[test]
    fn an_inventory_link_made_before_the_cluster_fields_opens_on_the_default_cluster() {
        // The cluster is left out of a link while it is the default, so older links and newer ones read alike.
        let choice = InventoryChoice::of_preset(&MODEL_PRESETS[0]);
        let json = serde_json::to_value(&choice).unwrap();
        assert!(json.get("topology").is_none(), "{json}");
        // The table's find and order too: older links had neither, and open on every tensor, largest first.
        assert!(json.get("find").is_none() && json.get("largest_first").is_none(), "{json}");
        let read: InventoryChoice = serde_json::from_value(json).unwrap();
        assert_eq!(read.topology, TopologyInput::default());
        assert_eq!((read.find.as_str(), read.largest_first), ("", true));
    }

    #[test]
    fn a_state_survives_the_round_trip() {
        let state = toy_state();
        let fragment = encode(&state);
        assert!(fragment.starts_with("v1."));
        assert!(fragment.len() < 600, "compact: {} chars", fragment.len());
        assert_eq!(decode(&format!("#{fragment}")), Ok(state));
    }

    #[test]
    fn bad_fragments_say_what_is_wrong() {
        let cases = [
            ("", "no version tag"),
            ("v9.AAAA", "newer Reshard Lens"),
            ("vx.AAAA", "not a version tag"),
            ("v1.!!!", "has `!` at character 1 after its version tag, which a link's state never holds"),
            ("v1.AB%20CD", "has `%` at character 3"),
            ("v1.A", "cut short: copy the whole link again"),
            ("v1.garbage", "ends part-way through a character: the link was cut or changed"),
            ("v1.AAAA", "does not decompress: the link is damaged or cut short"),
        ];
        for (fragment, want) in cases {
            let err = decode(fragment).unwrap_err().to_string();
            assert!(err.contains(want), "{fragment}: {err}");
        }
        let not_a_state =
            format!("v1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"x\":1}", 6)));
        assert!(decode(&not_a_state).unwrap_err().to_string().contains("does not describe a layout"));
        let not_text =
            format!("v1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"x\":\"\xff\"}", 6)));
        assert!(decode(&not_text).unwrap_err().to_string().contains("not UTF-8 text"));
    }

    #[test]
    fn a_part_beside_the_layout_that_cannot_be_read_is_left_out_and_the_rest_opens() {
        let pack = |json: &str| {
            format!("v1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6)))
        };
        let state = toy_state();
        let mut value = serde_json::to_value(&state).expect("JSON");
        value["measured"] = serde_json::json!({"text": "1,refit,10", "startup": 0, "scale": "zzz"});
        value["view"]["page"] = serde_json::json!(3);
        let (opened, notes) = decode_with_notes(&pack(&value.to_string())).expect("the rest opens");
        assert_eq!(opened.spec, state.spec);
        assert_eq!(opened.cycle, state.cycle);
        assert_eq!(opened.measured, None);
        assert_eq!(opened.view, ViewState::default());
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes.iter().any(|n| n.starts_with("its measured cycles (measured.scale: unknown variant `zzz`")),
            "{notes:?}"
        );
        assert!(notes.iter().any(|n| n.starts_with("its view settings (view.page: invalid type")), "{notes:?}");
        // The layout itself cannot be left out.
        value["spec"]["tensor"]["shape"] = serde_json::json!("12");
        let err = decode(&pack(&value.to_string())).unwrap_err().to_string();
        assert!(
            err.starts_with("the link's layout change could not be read: spec.tensor.shape: invalid type"),
            "{err}"
        );
    }

    #[test]
    fn view_choices_this_version_does_not_know_are_cleared_and_said() {
        let mut state = toy_state();
        state.view.strategy = "ring-allreduce".into();
        state.view.fault = "bitflip".into();
        state.view.page = "timeline".into();
        state.view.speedup_from = "gather>ring".into();
        let (opened, notes) = decode_with_notes(&encode(&state)).expect("the rest opens");
        assert_eq!(opened.spec, state.spec);
        assert_eq!(opened.view, ViewState::default(), "each unknown choice falls back to the default");
        assert_eq!(
            notes,
            [
                "its view's strategy `ring-allreduce` (expected `intersection`, `whole-shard`, `gather`)",
                "its view's fault `bitflip` (expected `offset`, `swap`, `stale`)",
                "its view's page `timeline` (expected `layout`, `cycle`, `inventory`)",
                "its view's source of s `gather>ring` (expected two strategies, `from>to`, such as `gather>intersection`)",
            ]
        );
        // Known choices, and the empty ones of older links, open without a note.
        let (_, notes) = decode_with_notes(&encode(&toy_state())).expect("opens");
        assert!(notes.is_empty(), "{notes:?}");
        // A long value is quoted cut short, on one line.
        state = toy_state();
        state.view.fault = format!("a\n{}", "b".repeat(60));
        let (_, notes) = decode_with_notes(&encode(&state)).expect("opens");
        assert_eq!(notes, [format!("its view's fault `a {}…` (expected `offset`, `swap`, `stale`)", "b".repeat(38))]);
    }

    #[test]
    fn text_after_the_state_is_ignored_and_said() {
        let json = serde_json::to_string(&toy_state()).expect("JSON");
        for tail in ["garbage", " {}", "}"] {
            let packed =
                URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(format!("{json}{tail}").as_bytes(), 6));
            let (opened, notes) = decode_with_notes(&format!("v1.{packed}")).expect("the state opens");
            assert_eq!(opened, toy_state());
            assert_eq!(notes, ["text after the state's end (ignored)"], "{tail:?}");
        }
        // Trailing white space is not text.
        let packed = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(format!("{json} \n").as_bytes(), 6));
        assert_eq!(decode_with_notes(&format!("v1.{packed}")), Ok((toy_state(), vec![])));
    }

    #[test]
    fn deflate_bombs_are_refused() {
        let huge = vec![b' '; MAX_JSON_BYTES + 1];
        let fragment = format!("v1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&huge, 9)));
        assert!(fragment.len() < MAX_FRAGMENT_CHARS);
        let err = decode(&fragment).unwrap_err().to_string();
        assert!(err.contains("unpacks to more than 32 MiB"), "{err}");
    }

    #[test]
    fn a_large_inventory_opened_from_a_file_comes_back_from_its_link() {
        // 32 layers × 256 experts × 3 matrices, one tensor each: written into the address and the autosave,
        // it was refused by the reload that read them back.
        let tensors: Vec<String> = (0..32 * 256 * 3)
            .map(|i| {
                format!(r#"{{"name": "layers.{}.experts.{}.w{}", "shape": [2048, 7168]}}"#, i / 768, i / 3 % 256, i % 3)
            })
            .collect();
        let json = format!(
            r#"{{"source": {{"mesh": [8], "placements": ["S(0)"]}}, "destination": {{"mesh": [2, 4], "placements": ["R", "S(0)"]}}, "tensors": [{}]}}"#,
            tensors.join(",")
        );
        let state = SharedState { spec: parse_input(&json).expect("an inventory"), ..toy_state() };
        let fragment = encode(&state);
        let unpacked = serde_json::to_vec(&state).expect("JSON").len();
        assert!(unpacked > 1024 * 1024, "more than links once unpacked: {unpacked}");
        assert!(fragment.len() <= MAX_FRAGMENT_CHARS);
        assert_eq!(decode(&fragment).expect("it opens"), state);
    }

    #[test]
    fn a_cycle_longer_than_the_app_allows_is_refused() {
        let mut state = toy_state();
        let stages = (0..=MAX_STAGES).map(|i| crate::core::cycle::Stage::new(format!("s{i}"), 1.0)).collect();
        state.cycle = Some(CycleSpec { stages, refit: None, speedup: 2.0 });
        let err = decode(&encode(&state)).unwrap_err().to_string();
        assert_eq!(err, "the link's cycle has 65 stages; at most 64 are allowed");
        if let Some(cycle) = &mut state.cycle {
            cycle.stages.pop();
        }
        assert_eq!(decode(&encode(&state)), Ok(state));
    }

    proptest! {
        #[test]
        fn fuzzed_fragments_never_panic(text in ".{0,300}") {
            let _ = decode(&text);
            let _ = decode(&format!("v1.{text}"));
        }

        #[test]
        fn any_preset_state_round_trips(index in 0usize..7, tensor in 0usize..3, whole in any::<bool>(), strategy in "|intersection|whole-shard|gather") {
            let mut state = toy_state();
            state.spec = parse_input(presets::PRESETS[index].spec).unwrap();
            state.view.tensor = tensor;
            state.view.show_whole_shard = whole;
            state.view.strategy = strategy;
            prop_assert_eq!(decode(&encode(&state)), Ok(state));
        }
    }

    /// Short decimals, which JSON carries exactly.
    fn decimal() -> impl Strategy<Value = f64> {
        (-100_000i64..100_000).prop_map(|n| n as f64 / 10.0)
    }

    fn side() -> impl Strategy<Value = crate::core::spec::SideInput> {
        use crate::core::spec::{DevicesInput, MeshShapeInput, SideInput};
        (
            prop::collection::vec(-3i64..40, 0..4),
            prop::option::of(prop::collection::vec("\\PC{0,8}", 0..4)),
            prop::option::of(prop::collection::vec(
                prop::sample::select(vec!["S(0)", "S(1)", "R", "P", "Shard(2)", "junk"]).prop_map(String::from),
                0..4,
            )),
            prop::option::of(prop::sample::select(vec!["bf16", "fp32", "fp8"]).prop_map(String::from)),
            prop::option::of(prop_oneof![
                prop::collection::vec(0i64..100, 0..5).prop_map(DevicesInput::Ids),
                Just(DevicesInput::Named("colocated".into())),
            ]),
            any::<bool>(),
        )
            .prop_map(|(mesh, dim_names, placements, dtype, devices, strided)| SideInput {
                mesh: Some(MeshShapeInput::Dims(mesh)),
                dim_names,
                placements,
                dtype,
                devices,
                order: strided.then(|| "strided".to_string()),
                ..Default::default()
            })
    }

    fn any_state() -> impl Strategy<Value = SharedState> {
        use crate::core::cycle::{CycleSpec, RefitSplit, Stage};
        use crate::core::spec::{SpecInput, TensorInput, TopologyInput};
        let tensor = ("\\PC{0,24}", prop::collection::vec(-5i64..100_000, 0..9)).prop_map(|(name, shape)| {
            TensorInput { name: Some(name), shape, dtype: Some("bf16".into()), ..Default::default() }
        });
        let stage = ("\\PC{0,12}", decimal(), decimal(), prop::option::of(any::<bool>()))
            .prop_map(|(name, seconds, overlap, refit)| Stage { name, seconds, overlap, refit });
        let cycle = (prop::collection::vec(stage, 0..6), decimal(), prop::option::of((decimal(), decimal()))).prop_map(
            |(stages, speedup, split)| CycleSpec {
                stages,
                speedup,
                refit: split.map(|(wait, preparation)| RefitSplit { wait, transfer: None, preparation }),
            },
        );
        let topology = prop::option::of((0i64..64, decimal(), decimal(), decimal())).prop_map(|t| {
            t.map(|(per_node, nvlink, nic, latency)| TopologyInput {
                devices_per_node: Some(per_node),
                nvlink_gbps: Some(nvlink),
                nic_gbps: Some(nic),
                latency_us: Some(latency),
            })
        });
        let view = (
            0usize..4,
            0usize..8,
            0usize..8,
            prop::collection::vec(0u64..50, 0..8),
            any::<bool>(),
            "|offset|swap|stale",
            any::<bool>(),
            "((intersection|whole-shard|gather)>(intersection|whole-shard|gather))?",
        )
            .prop_map(|(tensor, row_dim, col_dim, slice, show_whole_shard, fault, verified, speedup_from)| ViewState {
                page: "cycle".into(),
                strategy: "gather".into(),
                tensor,
                row_dim,
                col_dim,
                slice,
                show_whole_shard,
                fault,
                verified,
                speedup_from,
            });
        let measured = prop::option::of(
            (
                prop::option::of("[ -~\n]{0,200}"),
                prop::option::of("[0-9a-f]{16}-[0-9]{1,6}"),
                0usize..20,
                prop::sample::select(vec![SpreadScale::ChangeFromMedian, SpreadScale::Seconds]),
                prop::option::of("[ -~]{0,40}"),
            )
                .prop_map(|(text, digest, startup, scale, refit)| SharedMeasured {
                    text,
                    digest,
                    startup,
                    scale,
                    refit,
                }),
        );
        let inventory = prop::option::of(
            (0..MODEL_PRESETS.len(), 0u64..100, 0u64..100, any::<bool>(), ".{0,12}", any::<bool>()).prop_map(
                |(preset, tp, hidden, colocated, find, largest_first)| {
                    let mut choice = InventoryChoice::of_preset(&MODEL_PRESETS[preset]);
                    choice.train.tp = tp;
                    choice.model.hidden = hidden;
                    choice.colocated = colocated;
                    choice.find = find;
                    choice.largest_first = largest_first;
                    choice
                },
            ),
        );
        let shown = prop::option::of(0..presets::PRESETS.len())
            .prop_map(|preset| preset.map(|i| parse_input(presets::PRESETS[i].spec).expect("a preset parses")));
        (tensor, side(), side(), topology, prop::option::of(cycle), view, any::<bool>(), inventory, measured, shown)
            .prop_map(|(tensor, source, destination, topology, cycle, view, balanced, inventory, measured, shown)| {
                SharedState {
                    spec: SpecInput {
                        tensor: Some(tensor),
                        source,
                        destination,
                        topology,
                        split: balanced.then(|| "balanced".to_string()),
                        ..Default::default()
                    },
                    cycle,
                    view,
                    inventory,
                    measured,
                    shown,
                }
            })
    }

    proptest! {
        /// Any state the app can hold (valid or mid-edit, with any characters in its names) comes back
        /// identical from its link.
        #[test]
        fn any_state_round_trips(state in any_state()) {
            let fragment = encode(&state);
            prop_assert!(fragment.starts_with("v1."));
            prop_assert_eq!(decode(&fragment), Ok(state));
        }
    }
}
