//! The teaching views: the guided tour's numbers, the model inventory's totals against the core, and the
//! constraint check's rules firing and passing.

use std::{cell::Cell, rc::Rc};

use leptos::{mount::mount_to, prelude::*, task::tick};
use reshard_lens::core::lint::{RULES, lint};
use reshard_lens::core::models::{Attention, inventory_spec};
use reshard_lens::core::plan::Strategy;
use reshard_lens::core::spec::{parse_input, parse_spec, validate};
use reshard_lens::core::traffic::{analyse, format_bytes, format_seconds};
use reshard_lens::explain::steps;
use reshard_lens::ui::{
    App, AppState, Page, constraints::ConstraintCheck, cycle::CycleState, inventory::InventoryState,
    inventory::InventoryView,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::HtmlElement;

use crate::dom::{click, find, forget_saved_state, next_paint, text_of, type_text, wrapper};

/// Waits `ms` milliseconds of browser time (the tour runs its check and outline on short timers).
async fn sleep(ms: i32) {
    let promise = web_sys::js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .expect("a window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .expect("a timer");
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.expect("the timer fired");
}

#[wasm_bindgen_test]
async fn every_tour_step_shows_the_numbers_the_core_computes_and_sets_the_state_it_talks_about() {
    forget_saved_state();
    let root = wrapper();
    let _mounted = mount_to(root.clone(), App);
    tick().await;
    let expected = steps().expect("the tour's steps compute");
    click(&root, "[data-testid=explain]");
    for (i, step) in expected.iter().enumerate() {
        sleep(120).await;
        assert_eq!(text_of(&root, "[data-testid=tour-progress]"), format!("Step {} of {}", i + 1, expected.len()));
        assert_eq!(text_of(&root, "[data-testid=tour-title]"), step.title);
        // Backticked names are shown as code, without the backticks.
        assert_eq!(text_of(&root, "[data-testid=tour-text]"), step.text.replace('`', ""), "step {}", i + 1);
        if i + 1 < expected.len() {
            click(&root, "[data-testid=tour-next]");
        }
    }
    // The article's numbers, as the steps computed them (not written in the text).
    let texts: Vec<&str> = expected.iter().map(|s| s.text.as_str()).collect();
    let joined = texts.join("\n");
    for number in ["moves 72 entries", "moves 144", "112.5 s", "1.067×", "122.5 s", "1.306×"] {
        assert!(joined.contains(number), "no step says {number}: {joined}");
    }
    root.remove();
}

#[wasm_bindgen_test]
async fn the_tour_step_on_intersections_leaves_the_page_showing_its_numbers() {
    // Step 2 talks about the toy's six intersections: the page it sets shows six pieces and 72 entries.
    forget_saved_state();
    let root = wrapper();
    let _mounted = mount_to(root.clone(), App);
    tick().await;
    click(&root, "[data-testid=explain]");
    sleep(50).await;
    click(&root, "[data-testid=tour-next]");
    sleep(120).await;
    // The piece table follows the step's state one paint later.
    next_paint().await;
    assert!(text_of(&root, "[data-testid=tour-text]").contains("6 intersections"));
    assert_eq!(text_of(&root, "[data-testid=piece-count]"), "6 pieces");
    assert!(text_of(&root, "[data-testid=total-unique-entries]").contains("72"));
    root.remove();
}

#[wasm_bindgen_test]
async fn explain_from_the_cycle_view_starts_at_the_first_cycle_step() {
    // It started at the layout's first step and took the reader away from the cycle they were reading.
    forget_saved_state();
    let root = wrapper();
    let _mounted = mount_to(root.clone(), App);
    tick().await;
    click(&root, "[data-testid=tab-cycle]");
    tick().await;
    click(&root, "[data-testid=explain]");
    sleep(120).await;
    let expected = steps().expect("the tour's steps compute");
    let first = reshard_lens::explain::FIRST_CYCLE_STEP;
    let progress = format!("Step {} of {}", first + 1, expected.len());
    assert_eq!(text_of(&root, "[data-testid=tour-progress]"), progress);
    assert_eq!(text_of(&root, "[data-testid=tour-title]"), expected[first].title);
    assert!(find(&root, "[data-testid=cycle-view]").is_connected(), "the cycle view stays");
    // Back still reaches the layout's steps.
    click(&root, "[data-testid=tour-back]");
    sleep(120).await;
    assert_eq!(text_of(&root, "[data-testid=tour-progress]"), format!("Step {first} of {}", expected.len()));
    click(&root, "[data-testid=tour-leave]");
    root.remove();
}

/// Mounts the inventory view with every context it reads, and hands back its state.
fn mount_inventory(root: &HtmlElement) -> (impl Sized, InventoryState) {
    let slot = Rc::new(Cell::new(None));
    let out = Rc::clone(&slot);
    let handle = mount_to(root.clone(), move || {
        provide_context(AppState::from_preset("toy"));
        provide_context(CycleState::from_preset("cycle-120"));
        let inventory = InventoryState::from_preset("llama-3-8b");
        out.set(Some(inventory));
        provide_context(inventory);
        let page = RwSignal::new(Page::Inventory);
        view! { <InventoryView page/> }
    });
    (handle, slot.get().expect("the inventory mounted"))
}

#[wasm_bindgen_test]
async fn the_inventory_estimates_are_for_the_cluster_its_fields_describe() {
    // Every inventory was costed on 8 GPUs per node, NVLink 450 and NIC 50 GB/s: a 4-GPU node or a rack
    // of 72 could not be modelled, and nothing on the page said which cluster the times were for.
    let root = wrapper();
    let (_mounted, inventory) = mount_inventory(&root);
    tick().await;
    let row = "[data-testid=inventory-strategy][data-strategy=intersection]";
    let estimate = || text_of(&root, &format!("{row} [data-testid=inventory-estimate]"));
    let on_eight = estimate();
    let units = || text_of(&root, "[data-testid=inventory-units]");
    assert!(units().contains("(8 GPUs per node, NVLink 450 GB/s, NIC 50 GB/s, 5 µs per message)"), "{}", units());

    type_text(&root, "[data-testid=field-topology-devices-per-node]", "2");
    tick().await;
    let (_, reshard) = inventory.validated().expect("a valid inventory");
    assert_eq!(reshard.topology.devices_per_node, 2);
    let planned = analyse(&reshard, Strategy::Intersection).expect("plans").estimate();
    assert_eq!(estimate(), format_seconds(planned.seconds));
    assert_ne!(estimate(), on_eight, "more of the traffic crosses NICs");
    assert!(units().contains("(2 GPUs per node, "), "{}", units());
    assert_eq!(inventory.choice().topology.devices_per_node, Some(2), "a link carries the cluster");

    // A bandwidth of 0 is refused under its field, and the last inventory that planned stays.
    type_text(&root, "[data-testid=field-inventory-nic-gbps]", "0");
    tick().await;
    let problem = text_of(&root, "[data-testid=problems-inventory-nic-gbps]");
    assert!(problem.contains("expected a bandwidth from 0.001"), "{problem}");
    assert_eq!(estimate(), format_seconds(planned.seconds));
    // Those tables are the last inventory that planned, faded as the other views fade theirs.
    let faded = || crate::dom::count(&root, ".inventory-result.is-stale");
    assert_eq!(faded(), 3, "the totals, the groups and the tensors");
    type_text(&root, "[data-testid=field-inventory-nic-gbps]", "25");
    tick().await;
    assert_eq!(faded(), 0);
    let (_, halved) = inventory.validated().expect("a valid inventory");
    assert_eq!(estimate(), format_seconds(analyse(&halved, Strategy::Intersection).expect("plans").estimate().seconds));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_generation_served_in_fp8_receives_half_the_bytes_of_bf16() {
    // The layouts had a dtype the form did not show: fp32 master weights, or fp8 serving, could not be had.
    let root = wrapper();
    let (_mounted, inventory) = mount_inventory(&root);
    tick().await;
    let received = || {
        text_of(
            &root,
            "[data-testid=inventory-strategy][data-strategy=intersection] [data-testid=inventory-bytes-received]",
        )
    };
    let select = find(&root, "[data-testid=generate-dtype]").unchecked_into::<web_sys::HtmlSelectElement>();
    assert_eq!(select.value(), "bf16");
    let (_, bf16) = inventory.validated().expect("a valid inventory");
    let bf16_bytes = analyse(&bf16, Strategy::Intersection).expect("plans").totals().bytes_received;
    select.set_value("fp8");
    select.dispatch_event(&web_sys::Event::new("change").expect("an event")).expect("dispatched");
    tick().await;
    let (_, fp8) = inventory.validated().expect("a valid inventory");
    let fp8_bytes = analyse(&fp8, Strategy::Intersection).expect("plans").totals().bytes_received;
    assert_eq!(fp8_bytes * 2, bf16_bytes);
    assert_eq!(received(), format_bytes(fp8_bytes));
    root.remove();
}

#[wasm_bindgen_test]
async fn inventory_totals_of_a_small_model_are_the_cores() {
    let root = wrapper();
    let (_mounted, inventory) = mount_inventory(&root);
    tick().await;
    // Over the totals, what they are of (a presented slide puts the form away): the preset's own words.
    let setup = text_of(&root, "[data-testid=inventory-setup]");
    let first = &reshard_lens::core::models::MODEL_PRESETS[0];
    assert!(setup.starts_with(first.title), "{setup}");
    assert!(setup.contains("Training: mesh "), "{setup}");
    // Its layouts changed, the title's layout part goes (it said "on the same GPUs" over separate ones).
    inventory.colocated.update(|c| *c = !*c);
    tick().await;
    let edited = text_of(&root, "[data-testid=inventory-setup]");
    let model = first.title.split_once(": ").expect("a model: layouts title").0;
    assert!(edited.starts_with(&format!("{model}. Training: mesh ")), "{edited}");
    assert!(!edited.contains(first.title), "{edited}");
    let title = text_of(&root, "[data-testid=model-title]");
    assert_eq!(title, format!("{model}, with layouts of your own"));
    inventory.colocated.update(|c| *c = !*c);
    tick().await;
    assert!(text_of(&root, "[data-testid=inventory-setup]").starts_with(first.title));
    // A small dense model: 2 layers, hidden 256, 4 heads of 64 with 2 KV heads; TP 2 × FSDP 2 → TP 2.
    inventory.model.update(|m| {
        m.hidden = 256;
        m.layers = 2;
        m.ffn = 512;
        m.vocab = 1000;
        m.attention = Attention::Grouped { heads: 4, kv_heads: 2, head_dim: 64, qk_norm: false };
    });
    inventory.train.update(|t| {
        t.tp = 2;
        t.dp = 2;
        t.pp = 1;
        t.ep = 1;
        t.hsdp_replicas = 1;
    });
    inventory.generate.update(|g| {
        g.tp = 2;
        g.ep = 1;
        g.dp_replicas = 1;
    });
    inventory.colocated.set(false);
    // As the form marks an edited model.
    inventory.preset.set("custom".into());
    tick().await;
    let setup = text_of(&root, "[data-testid=inventory-setup]");
    assert!(setup.starts_with("A custom model. Training: mesh 2\u{a0}×\u{a0}2"), "{setup}");
    assert!(setup.contains(", 4 GPUs → generation: mesh 2"), "{setup}");
    assert!(setup.ends_with(", 2 GPUs."), "separate GPUs: {setup}");
    // Colocated on 2 of the 4 training GPUs: said, not read as separate ones.
    inventory.colocated.set(true);
    tick().await;
    let setup = text_of(&root, "[data-testid=inventory-setup]");
    assert!(setup.ends_with(", 2 GPUs, on training GPUs."), "{setup}");
    inventory.colocated.set(false);
    tick().await;

    let spec = inventory_spec(
        &inventory.model.get_untracked(),
        &inventory.train.get_untracked(),
        &inventory.generate.get_untracked(),
        false,
    )
    .expect("a valid small model");
    let reshard = validate(&spec).expect("the inventory spec validates");
    for strategy in Strategy::ALL {
        let traffic = analyse(&reshard, strategy).expect("plans");
        let row = format!("[data-testid=inventory-strategy][data-strategy={}]", strategy.name());
        let shown = text_of(&root, &format!("{row} [data-testid=inventory-bytes-received]"));
        assert_eq!(shown, format_bytes(traffic.totals().bytes_received), "{}", strategy.name());
        let estimate = text_of(&root, &format!("{row} [data-testid=inventory-estimate]"));
        assert_eq!(estimate, format_seconds(traffic.estimate().seconds), "{}", strategy.name());
    }
    let unique = text_of(&root, "[data-testid=inventory-unique]");
    let entries: u64 = reshard.tensors.iter().map(|t| t.entries()).sum();
    assert!(unique.replace(',', "").starts_with(&entries.to_string()), "{unique} vs {entries}");
    root.remove();
}

#[wasm_bindgen_test]
async fn inventory_problems_appear_under_their_fields_and_typed_text_stays() {
    let root = wrapper();
    let (_mounted, inventory) = mount_inventory(&root);
    tick().await;
    inventory.train.update(|t| t.tp = 0);
    tick().await;
    let under = text_of(&root, "[data-testid=problems-train-tp]");
    assert!(under.contains("expected a whole number of devices"), "{under}");
    assert_eq!(text_of(&root, "[data-testid=problems-generate-tp]"), "");

    let hidden = find(&root, "[data-testid=field-model-hidden]").unchecked_into::<web_sys::HtmlInputElement>();
    hidden.set_value("40 96");
    hidden.dispatch_event(&web_sys::Event::new("input").expect("an event")).expect("dispatched");
    tick().await;
    assert_eq!(hidden.value(), "40 96", "what was typed stays");
    assert!(text_of(&root, "[data-testid=problems-model-hidden]").contains("not a whole number"));
    assert_eq!(inventory.model.get_untracked().hidden, 4096, "the model keeps its last good value");
    root.remove();
}

/// Mounts the constraint check on the toy, opened, and hands back the app state to change the layout.
fn mount_check(root: &HtmlElement) -> (impl Sized, AppState) {
    let slot = Rc::new(Cell::new(None));
    let out = Rc::clone(&slot);
    let handle = mount_to(root.clone(), move || {
        let state = AppState::from_preset("toy");
        out.set(Some(state));
        provide_context(state);
        view! { <ConstraintCheck/> }
    });
    (handle, slot.get().expect("the check mounted"))
}

/// Layouts that between them make every rule fire and every rule pass.
const LAYOUTS: &[&str] = &[
    r#"{"tensor": {"name": "w", "shape": [12, 6]}, "source": {"mesh": [3], "placements": ["S(0)"]},
        "destination": {"mesh": [2], "placements": ["S(1)"]}}"#,
    r#"{"tensor": {"name": "w", "shape": [4096, 4096]}, "source": {"mesh": [2], "placements": ["S(0)"]},
        "destination": {"mesh": [2], "placements": ["S(1)"]}}"#,
    r#"{"tensor": {"name": "w", "shape": [2, 2, 2, 2]}, "source": {"mesh": [2], "placements": ["S(0)"]},
        "destination": {"mesh": [2], "placements": ["S(1)"]}}"#,
    r#"{"tensor": {"name": "w", "shape": [6, 10]}, "source": {"mesh": [4], "placements": ["S(0)"]},
        "destination": {"mesh": [3], "placements": ["S(1)"]}}"#,
    r#"{"tensor": {"name": "out", "shape": [8, 8]}, "source": {"mesh": [4], "placements": ["P"]},
        "destination": {"mesh": [2], "placements": ["R"]}}"#,
    r#"{"tensor": {"name": "w", "shape": [8, 8]}, "source": {"mesh": [2, 2], "placements": ["S(0)", "S(0)"]},
        "destination": {"mesh": [2], "placements": ["S(1)"]}}"#,
    r#"{"tensor": {"name": "w", "shape": [8192, 8192]}, "source": {"mesh": [1024], "placements": ["S(0)"]},
        "destination": {"mesh": [256], "placements": ["S(1)"]}}"#,
    // 65 × 64 single-entry shards into one device: 4160 pieces on it.
    r#"{"tensor": {"name": "w", "shape": [65, 64]}, "source": {"mesh": [65, 64], "placements": ["S(0)", "S(1)"]},
        "destination": {"mesh": [1], "placements": ["S(0)"]}}"#,
];

#[wasm_bindgen_test]
async fn every_rule_fires_and_passes_as_the_core_says() {
    let root = wrapper();
    let (_mounted, state) = mount_check(&root);
    let details = find(&root, "[data-testid=constraint-check]").unchecked_into::<web_sys::HtmlDetailsElement>();
    details.set_open(true);
    details.dispatch_event(&web_sys::Event::new("toggle").expect("an event")).expect("dispatched");
    let mut fired = std::collections::HashSet::new();
    let mut passed = std::collections::HashSet::new();
    for json in LAYOUTS {
        state.input.set(parse_input(json).expect("test spec parses"));
        tick().await;
        // The check follows an edit one paint later, as the panels below the pictures do.
        next_paint().await;
        let findings = lint(&parse_spec(json).expect("test spec is valid")).expect("lints");
        for rule in RULES {
            let fires = findings.iter().any(|f| f.rule.id == rule.id);
            let shown = find(&root, &format!("[data-testid=lint-rule][data-rule='{}']", rule.id));
            assert_eq!(
                shown.get_attribute("data-passed").as_deref(),
                Some(if fires { "false" } else { "true" }),
                "{} on {json}",
                rule.id
            );
            let messages = shown.query_selector_all("[data-testid=lint-finding]").expect("a valid selector").length();
            assert_eq!(messages as usize, findings.iter().filter(|f| f.rule.id == rule.id).count(), "{}", rule.id);
            if fires {
                fired.insert(rule.id);
            } else {
                passed.insert(rule.id);
            }
        }
    }
    for rule in RULES {
        assert!(fired.contains(rule.id), "no layout makes {} fire", rule.id);
        assert!(passed.contains(rule.id), "no layout passes {}", rule.id);
    }
    root.remove();
}
