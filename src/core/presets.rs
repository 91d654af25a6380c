//! Named example layouts: the article's toy and the cases a teacher or reviewer reaches for, plus a
//! Llama-70B-like inventory generator for benchmarks. Each is built from a spec so it passes validation.

use super::model::Reshard;
use super::spec::parse_spec;

/// A preset the UI and the CLI can open by name (`?preset=toy`).
pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    pub spec: &'static str,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "toy",
        title: "The article's toy: 12×6, rows over 3 → columns over 2",
        spec: r#"{"tensor": {"name": "w", "shape": [12, 6], "dtype": "bf16"},
            "source": {"mesh": [3], "dim_names": ["tp"], "placements": ["S(0)"]},
            "destination": {"mesh": [2], "dim_names": ["tp"], "placements": ["S(1)"]}}"#,
    },
    Preset {
        name: "uneven",
        title: "Uneven split: 6 rows over 4 devices leaves one empty",
        spec: r#"{"tensor": {"name": "w", "shape": [6, 10], "dtype": "bf16"},
            "source": {"mesh": [4], "dim_names": ["tp"], "placements": ["S(0)"]},
            "destination": {"mesh": [3], "dim_names": ["tp"], "placements": ["S(1)"]}}"#,
    },
    Preset {
        name: "nested",
        title: "Nested sharding: rows split by dp, then each chunk by tp",
        spec: r#"{"tensor": {"name": "w", "shape": [16, 8], "dtype": "bf16"},
            "source": {"mesh": [2, 4], "dim_names": ["dp", "tp"], "placements": ["S(0)", "S(0)"]},
            "destination": {"mesh": [4], "dim_names": ["tp"], "placements": ["S(1)"]}}"#,
    },
    Preset {
        name: "partial",
        title: "Row-parallel output: Partial sums on 4 devices → replicated on 2",
        spec: r#"{"tensor": {"name": "out", "shape": [8, 8], "dtype": "bf16"},
            "source": {"mesh": [4], "dim_names": ["tp"], "placements": ["P"]},
            "destination": {"mesh": [2], "dim_names": ["dp"], "placements": ["R"]}}"#,
    },
    Preset {
        name: "fsdp-tp",
        title: "FSDP-8 training → TP-4 inference with 2 replicas",
        spec: r#"{"tensor": {"name": "layers.0.attn.wq", "shape": [1024, 1024], "dtype": "bf16"},
            "source": {"mesh": [8], "dim_names": ["fsdp"], "placements": ["S(0)"], "dtype": "fp32"},
            "destination": {"mesh": [2, 4], "dim_names": ["dp", "tp"], "placements": ["R", "S(0)"]}}"#,
    },
    Preset {
        name: "colocated",
        title: "Colocated: the same 4 GPUs switch from rows to columns",
        spec: r#"{"tensor": {"name": "w", "shape": [8, 8], "dtype": "bf16"},
            "source": {"mesh": [4], "dim_names": ["tp"], "placements": ["S(0)"]},
            "destination": {"mesh": [4], "dim_names": ["tp"], "devices": "colocated", "placements": ["S(1)"]}}"#,
    },
    Preset {
        name: "large",
        title: "Large: 8192×8192 from 1024 devices by rows to 256 by columns",
        spec: r#"{"tensor": {"name": "w", "shape": [8192, 8192], "dtype": "bf16"},
            "source": {"mesh": [1024], "dim_names": ["fsdp"], "placements": ["S(0)"]},
            "destination": {"mesh": [256], "dim_names": ["tp"], "placements": ["S(1)"]}}"#,
    },
];

/// The preset called `name`, in any case (`?preset=Toy` typed into an address).
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

/// Builds a preset's change. Presets are fixed text, checked by the tests below.
pub fn build(preset: &Preset) -> Reshard {
    parse_spec(preset.spec).unwrap_or_else(|e| panic!("preset {} is invalid: {e}", preset.name))
}

fn named(name: &str) -> Reshard {
    build(find(name).unwrap_or_else(|| panic!("no preset {name}")))
}

pub fn toy() -> Reshard {
    named("toy")
}
pub fn uneven() -> Reshard {
    named("uneven")
}
pub fn nested() -> Reshard {
    named("nested")
}
pub fn partial() -> Reshard {
    named("partial")
}
pub fn fsdp_tp() -> Reshard {
    named("fsdp-tp")
}
pub fn colocated() -> Reshard {
    named("colocated")
}
pub fn large() -> Reshard {
    named("large")
}

/// A Llama-70B-like inventory as spec JSON: hidden 8192, kv 1024, ffn 28672, vocab 128256; embedding, head
/// and final norm, then per layer wq, wk, wv, wo, w1, w3, w2 and two norms. Source mesh `[2, 64, 8]`
/// (replicate × FSDP × TP: column-parallel `R, S(1), S(0)`, row-parallel `R, S(0), S(1)`, norms
/// `R, S(0), R`); destination mesh `[32, 8]` (replicas × TP: column `R, S(0)`, row `R, S(1)`, norms `R, R`).
///
/// Kept unchanged for the CLI (`reshard inventory llama`) and the benchmark history. Its FSDP splits the dim
/// TP leaves alone; [`super::models::inventory_spec`] writes inventories of real models with FSDP2's order
/// (TP first, then FSDP, on dim 0) and chosen layouts.
pub fn llama_inventory_json(layers: usize) -> String {
    const HIDDEN: u64 = 8192;
    const KV: u64 = 1024;
    const FFN: u64 = 28672;
    const VOCAB: u64 = 128256;
    let column = (r#"["R", "S(1)", "S(0)"]"#, r#"["R", "S(0)"]"#);
    let row = (r#"["R", "S(0)", "S(1)"]"#, r#"["R", "S(1)"]"#);
    let norm = (r#"["R", "S(0)", "R"]"#, r#"["R", "R"]"#);
    let mut tensors = Vec::new();
    let mut push = |name: String, shape: Vec<u64>, (source, destination): (&str, &str)| {
        tensors.push(format!(
            r#"{{"name": "{name}", "shape": {shape:?}, "source": {{"placements": {source}}}, "destination": {{"placements": {destination}}}}}"#
        ));
    };
    push("embed_tokens".into(), vec![VOCAB, HIDDEN], column);
    for layer in 0..layers {
        let p = format!("layers.{layer}");
        push(format!("{p}.attn.wq"), vec![HIDDEN, HIDDEN], column);
        push(format!("{p}.attn.wk"), vec![KV, HIDDEN], column);
        push(format!("{p}.attn.wv"), vec![KV, HIDDEN], column);
        push(format!("{p}.attn.wo"), vec![HIDDEN, HIDDEN], row);
        push(format!("{p}.mlp.w1"), vec![FFN, HIDDEN], column);
        push(format!("{p}.mlp.w3"), vec![FFN, HIDDEN], column);
        push(format!("{p}.mlp.w2"), vec![HIDDEN, FFN], row);
        push(format!("{p}.attn_norm"), vec![HIDDEN], norm);
        push(format!("{p}.mlp_norm"), vec![HIDDEN], norm);
    }
    push("norm".into(), vec![HIDDEN], norm);
    push("lm_head".into(), vec![VOCAB, HIDDEN], column);
    format!(
        r#"{{"source": {{"mesh": [2, 64, 8], "dim_names": ["rep", "fsdp", "tp"]}},
  "destination": {{"mesh": [32, 8], "dim_names": ["rep", "tp"]}},
  "tensors": [
    {}
  ]}}"#,
        tensors.join(",\n    ")
    )
}

/// The Llama-70B-like inventory with `layers` layers (55 layers give 498 tensors, ≈ 8.2 M pieces).
pub fn llama_inventory(layers: usize) -> Reshard {
    parse_spec(&llama_inventory_json(layers)).unwrap_or_else(|e| panic!("llama inventory is invalid: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_a_valid_spec() {
        for preset in PRESETS {
            assert!(parse_spec(preset.spec).is_ok(), "{}: {:?}", preset.name, parse_spec(preset.spec).err());
        }
    }

    #[test]
    fn a_preset_and_a_model_are_found_by_their_name_in_any_case() {
        assert_eq!(find(" Fsdp-TP").map(|p| p.name), Some("fsdp-tp"));
        assert!(find("fsdp").is_none());
        let model = crate::core::models::find_model("LLAMA-3-8B").map(|m| m.name);
        assert_eq!(model, Some("llama-3-8b"));
    }

    #[test]
    fn llama_inventory_has_nine_tensors_per_layer() {
        let inventory = llama_inventory(2);
        assert_eq!(inventory.tensors.len(), 3 + 2 * 9);
        assert_eq!(inventory.source_mesh.size(), 1024);
        assert_eq!(inventory.destination_mesh.devices[0], 1024, "destination devices follow the source's");
    }
}
