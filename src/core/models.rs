//! Layout inventories of whole models: real parameter shapes, a training and a generation layout, one spec.
//!
//! The article's "practical first step" is an inventory: for each parameter, its logical shape, who holds
//! what on the training side, who must hold what on the generation side, and the number format. This module
//! writes that inventory as a [`SpecInput`] from a few model dimensions ([`ModelDims`], with presets of real
//! models) and two parallel layouts ([`TrainingLayout`], [`GenerationLayout`]), so that the planner can
//! cost a whole refit.
//!
//! ## The layouts
//! - **Training** (PyTorch FSDP2 + TP + EP + PP, DTensor placements). Source mesh `[pp, hsdp, dp, ep, tp]`
//!   row-major, `tp` innermost so that a TP group shares a node; dims of size 1 are left out. When `ep > 1`
//!   the FSDP group of `dp` devices is the product of `edp = dp / ep` (named `edp`) and `ep`.
//!   - Column-parallel weights (q/k/v, gate/up, the embedding and the output head, MLA's `q_b`/`kv_b`)
//!     `Shard(0)` over `tp`; row-parallel weights (`o_proj`, `down_proj`) `Shard(1)`; norms, the MoE router
//!     and MLA's low-rank down-projections (`q_a_proj`, `kv_a_proj_with_mqa`) replicate over `tp`.
//!   - FSDP splits every parameter's first dim over `edp × ep` after TP has split it (the `_StridedShard`
//!     order FSDP2 produces on a TP mesh: the source side uses
//!     [`ShardOrder::Strided`](crate::core::model::ShardOrder::Strided)).
//!   - Routed experts are stacked per layer into one 3-D tensor per matrix, `[experts, expert_ffn, hidden]`
//!     for gate/up and `[experts, hidden, expert_ffn]` for down (as torchtitan's `GroupedExperts` and vLLM's
//!     `FusedMoE` store them), `Shard(0)` over `ep`, then FSDP over `edp` on the expert dim, or on the next
//!     dim when `dp > experts` (torchtitan's rule, which keeps every FSDP shard non-empty).
//!   - `hsdp` replicas and (for tensors outside the layers) `pp` stages `Replicate`.
//! - **Generation** (vLLM-style TP + EP with data-parallel replicas). Destination mesh `[dp, ep, tp]`: every
//!   replica holds the whole model; TP as on the training side; routed experts `Shard(0)` over `ep`, every
//!   other tensor replicated over `ep`.
//!
//! ## Approximations
//! - **Pipeline stages.** A spec has one source mesh for all tensors, and a placement can split a tensor
//!   dim across stages but cannot say "only stage `s` holds this tensor". A per-layer tensor therefore
//!   cannot be given to one stage, so `pp > 1` requires [`TrainingLayout::stacked_layers`]: each per-layer
//!   parameter becomes one tensor with a leading layer dim, `Shard(0)` over `pp`, and stage `s` holds
//!   layers `[s·c, (s+1)·c)` with `c = ceil(layers / pp)` (torch.chunk). That is exact for a model whose
//!   layers all have the same parameters. A kind that exists only in some layers (DeepSeek-V3's 3 dense
//!   MLPs, its 58 MoE layers) is stacked over its own layers and chunked over the stages on its own, which
//!   can differ from the model's stage boundaries by a few layers. The embedding (really on the first
//!   stage), the final norm and the output head (really on the last) replicate over `pp`: bytes received
//!   are unchanged, but the planner may take them from any stage.
//! - **Stacked layers change the message count.** A piece of a stacked tensor spans every layer of a
//!   stage, as one message would in a framework that stores stacked layers (JAX `scan`); with one tensor
//!   per layer each layer's piece is its own message. Bytes are the same; the latency term is not.
//! - **FSDP numbering with `ep > 1`.** The strided order applies `tp`, then `ep`, then `edp`, so a dense
//!   parameter's FSDP chunks are numbered `ep`-major within the `dp` group. Every device holds and sends the
//!   same bytes as with a flat `dp` numbering; only which chunk sits on which device of the group differs.
//! - **Experts use the dense `tp`** on both sides (expert TP = TP) on their `expert_ffn` dim; vLLM's expert
//!   parallel mode instead keeps each expert whole on one rank.
//! - **Receivers fuse matrices** (vLLM's `qkv_proj`, `gate_up_proj`, MLA's `fused_qkv_a_proj`, the absorbed
//!   MLA matrices derived from `kv_b_proj`): the inventory keeps the checkpoint's separate matrices. A TP
//!   shard holds the same entries either way; fusing is receiver preparation, not transfer.
//! - **Left out:** parameters under 0.01 % of the model (DeepSeek-V3's `e_score_correction_bias`, rotary
//!   buffers), DeepSeek-V3's multi-token-prediction module (not part of its 671 B), and Megatron's
//!   distributed optimizer, which shards a flat buffer rather than each tensor.

use serde::{Deserialize, Serialize};

use super::geometry::Dtype;
use super::model::Reshard;
use super::spec::{
    self, DevicesInput, MAX_MESH_DEVICES, MeshShapeInput, Problem, SideInput, SpecError, SpecInput, TensorInput,
};

/// The largest model dimension accepted (hidden size, vocabulary, experts, …): keeps every shape product
/// far from overflowing while allowing any real model.
pub const MAX_DIM: u64 = 1 << 20;
/// The most layers a model may have: twice the deepest real model (Llama 3.1 405B has 126). 1,024 layers
/// made a per-layer inventory of ~9,000 tensors that took over a second to plan on every edit.
pub const MAX_LAYERS: u64 = 256;

/// The attention block's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Attention {
    /// Grouped-query attention (multi-head when `kv_heads == heads`): `q_proj` `[heads·head_dim, hidden]`,
    /// `k_proj` and `v_proj` `[kv_heads·head_dim, hidden]`, `o_proj` `[hidden, heads·head_dim]`. The query
    /// width need not equal `hidden` (Qwen3-30B-A3B: 32 × 128 = 4096 against hidden 2048).
    Grouped {
        heads: u64,
        kv_heads: u64,
        head_dim: u64,
        /// Per-head RMS norms on queries and keys, `q_norm` and `k_norm` `[head_dim]` (Qwen3).
        #[serde(default)]
        qk_norm: bool,
    },
    /// Multi-head latent attention (DeepSeek-V2/V3), with the checkpoint's projection shapes:
    /// `q_a_proj` `[q_lora_rank, hidden]`, `q_b_proj` `[heads·(qk_nope + qk_rope), q_lora_rank]`,
    /// `kv_a_proj_with_mqa` `[kv_lora_rank + qk_rope, hidden]` (the latent plus one RoPE key shared by all
    /// heads), `kv_b_proj` `[heads·(qk_nope + v_head), kv_lora_rank]`, `o_proj` `[hidden, heads·v_head]`, and
    /// the norms `q_a_layernorm` `[q_lora_rank]`, `kv_a_layernorm` `[kv_lora_rank]`.
    ///
    /// Simplification: the two down-projections replicate over TP (vLLM's `ReplicatedLinear`, Megatron's
    /// "duplicated" mode) and the two up-projections split by head; vLLM's fusing of `q_a` with `kv_a` and
    /// its absorption of `kv_b_proj` into per-head matrices happen after the transfer and are not modelled.
    Latent {
        heads: u64,
        q_lora_rank: u64,
        kv_lora_rank: u64,
        qk_nope_head_dim: u64,
        qk_rope_head_dim: u64,
        v_head_dim: u64,
    },
}

impl Attention {
    /// Grouped-query attention whose KV heads do not divide its heads (each KV head serves the same number
    /// of query heads): a problem of both fields, reported under KV heads and marked on heads too.
    pub fn kv_heads_misfit(&self) -> bool {
        matches!(*self, Attention::Grouped { heads, kv_heads, .. }
            if heads >= 1 && kv_heads >= 1 && !heads.is_multiple_of(kv_heads))
    }
}

/// The dimensions of a decoder-only transformer, enough to list every parameter with its shape. Field names
/// follow Hugging Face configs where one exists (in the docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelDims {
    /// Width of the residual stream (`hidden_size`).
    pub hidden: u64,
    pub attention: Attention,
    /// Intermediate width of a dense MLP (`intermediate_size`); unused, and may be 0, when every layer is MoE.
    #[serde(default)]
    pub ffn: u64,
    /// Decoder layers (`num_hidden_layers`).
    pub layers: u64,
    /// Vocabulary size: rows of the embedding and of the output head.
    pub vocab: u64,
    /// Routed experts per MoE layer (`n_routed_experts`, `num_experts`); 0 means a dense model.
    #[serde(default)]
    pub experts: u64,
    /// Intermediate width of one expert (`moe_intermediate_size`), routed or shared.
    #[serde(default)]
    pub expert_ffn: u64,
    /// Shared experts per MoE layer, stored as one dense MLP of width `shared_experts × expert_ffn`
    /// (DeepSeek's `n_shared_experts`).
    #[serde(default)]
    pub shared_experts: u64,
    /// Leading layers that keep a dense MLP in an MoE model (DeepSeek-V3's `first_k_dense_replace` = 3);
    /// ignored when `experts` is 0, where every layer is dense.
    #[serde(default)]
    pub dense_layers: u64,
    /// The output head reuses the embedding matrix, so there is no separate `lm_head` to transfer.
    #[serde(default)]
    pub tie_embeddings: bool,
}

/// How the trainer holds the weights. Device count: `pp × hsdp_replicas × dp × tp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainingLayout {
    /// Tensor-parallel degree.
    pub tp: u64,
    /// Pipeline stages; more than 1 needs `stacked_layers` (see the module docs for why).
    pub pp: u64,
    /// FSDP shard degree: the devices of one replica that split every parameter.
    pub dp: u64,
    /// Expert-parallel degree, carved out of the FSDP group: must divide `dp`; needs a model with experts.
    pub ep: u64,
    /// HSDP: copies of the whole FSDP group, each holding the same shards.
    pub hsdp_replicas: u64,
    /// Number format of the trainer's copy (fp32 master weights, or bf16).
    pub dtype: Dtype,
    /// Store each per-layer parameter as one tensor with a leading layer dim (as JAX `scan` does) instead
    /// of one tensor per layer. Needed for `pp > 1`; also far fewer pieces to plan (one per stage's layers
    /// instead of one per layer).
    pub stacked_layers: bool,
}

impl Default for TrainingLayout {
    /// One device, bf16, one tensor per layer.
    fn default() -> Self {
        TrainingLayout { tp: 1, pp: 1, dp: 1, ep: 1, hsdp_replicas: 1, dtype: Dtype::Bf16, stacked_layers: false }
    }
}

impl TrainingLayout {
    /// Devices the trainer uses (saturating; validation refuses more than [`MAX_MESH_DEVICES`]).
    pub fn devices(&self) -> u64 {
        [self.pp, self.hsdp_replicas, self.dp, self.tp].iter().fold(1u64, |a, &n| a.saturating_mul(n))
    }
}

/// How the generation engine holds the weights. Device count: `dp_replicas × ep × tp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GenerationLayout {
    /// Tensor-parallel degree.
    pub tp: u64,
    /// Expert-parallel degree: routed experts split `ep` ways, everything else replicated; needs experts.
    pub ep: u64,
    /// Independent engine replicas, each holding the whole model.
    pub dp_replicas: u64,
    /// Number format the engine serves in.
    pub dtype: Dtype,
}

impl Default for GenerationLayout {
    /// One device, bf16.
    fn default() -> Self {
        GenerationLayout { tp: 1, ep: 1, dp_replicas: 1, dtype: Dtype::Bf16 }
    }
}

impl GenerationLayout {
    /// Devices the engine uses (saturating; validation refuses more than [`MAX_MESH_DEVICES`]).
    pub fn devices(&self) -> u64 {
        [self.dp_replicas, self.ep, self.tp].iter().fold(1u64, |a, &n| a.saturating_mul(n))
    }
}

/// What a parameter is for; the `group` of its tensor in the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamGroup {
    /// The token embedding and the output head.
    Embeddings,
    /// Attention projections (GQA or MLA).
    Attention,
    /// Dense MLPs, and the shared experts of an MoE layer (always active, laid out like a dense MLP).
    Mlp,
    /// Routed experts and their router.
    Experts,
    /// Every norm: per layer, inside attention, and the final one.
    Norms,
}

impl ParamGroup {
    pub const ALL: [ParamGroup; 5] =
        [ParamGroup::Embeddings, ParamGroup::Attention, ParamGroup::Mlp, ParamGroup::Experts, ParamGroup::Norms];

    pub fn name(self) -> &'static str {
        match self {
            ParamGroup::Embeddings => "embeddings",
            ParamGroup::Attention => "attention",
            ParamGroup::Mlp => "mlp",
            ParamGroup::Experts => "experts",
            ParamGroup::Norms => "norms",
        }
    }
}

/// How a parameter is split by tensor (and expert) parallelism.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// `[out, in]`, output dim split over TP.
    Column,
    /// `[out, in]`, input dim split over TP.
    Row,
    /// Whole on every TP rank: norms, the router, MLA's down-projections.
    Replicated,
    /// `[experts, out, in]`: experts over EP, `out` over TP.
    ExpertColumn,
    /// `[experts, out, in]`: experts over EP, `in` over TP.
    ExpertRow,
}

impl Role {
    fn is_expert(self) -> bool {
        matches!(self, Role::ExpertColumn | Role::ExpertRow)
    }
}

/// One tensor of the inventory: a parameter, or one kind of per-layer parameter stacked over layers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Param {
    name: String,
    shape: Vec<u64>,
    group: ParamGroup,
    role: Role,
    /// The shape starts with a layer dim (stacked layers).
    stacked: bool,
}

/// One kind of per-layer parameter: its name inside the layer and its shape without a layer dim.
struct LayerParam {
    suffix: &'static str,
    shape: Vec<u64>,
    group: ParamGroup,
    role: Role,
}

impl ModelDims {
    /// Whether layer `layer` has routed experts.
    fn is_moe_layer(&self, layer: u64) -> bool {
        self.experts > 0 && layer >= self.dense_layers
    }

    /// The parameters of layer `layer`, in checkpoint order.
    fn layer_params(&self, layer: u64) -> Vec<LayerParam> {
        use ParamGroup as G;
        use Role::{Column, ExpertColumn, ExpertRow, Replicated, Row};
        let h = self.hidden;
        let p = |suffix, shape: &[u64], group, role| LayerParam { suffix, shape: shape.to_vec(), group, role };
        let mut out = vec![p("input_layernorm", &[h], G::Norms, Replicated)];
        match self.attention {
            Attention::Grouped { heads, kv_heads, head_dim, qk_norm } => {
                out.push(p("self_attn.q_proj", &[heads * head_dim, h], G::Attention, Column));
                out.push(p("self_attn.k_proj", &[kv_heads * head_dim, h], G::Attention, Column));
                out.push(p("self_attn.v_proj", &[kv_heads * head_dim, h], G::Attention, Column));
                out.push(p("self_attn.o_proj", &[h, heads * head_dim], G::Attention, Row));
                if qk_norm {
                    out.push(p("self_attn.q_norm", &[head_dim], G::Norms, Replicated));
                    out.push(p("self_attn.k_norm", &[head_dim], G::Norms, Replicated));
                }
            }
            Attention::Latent { heads, q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim } => {
                out.push(p("self_attn.q_a_proj", &[q_lora_rank, h], G::Attention, Replicated));
                out.push(p("self_attn.q_a_layernorm", &[q_lora_rank], G::Norms, Replicated));
                out.push(p(
                    "self_attn.q_b_proj",
                    &[heads * (qk_nope_head_dim + qk_rope_head_dim), q_lora_rank],
                    G::Attention,
                    Column,
                ));
                out.push(p(
                    "self_attn.kv_a_proj_with_mqa",
                    &[kv_lora_rank + qk_rope_head_dim, h],
                    G::Attention,
                    Replicated,
                ));
                out.push(p("self_attn.kv_a_layernorm", &[kv_lora_rank], G::Norms, Replicated));
                out.push(p(
                    "self_attn.kv_b_proj",
                    &[heads * (qk_nope_head_dim + v_head_dim), kv_lora_rank],
                    G::Attention,
                    Column,
                ));
                out.push(p("self_attn.o_proj", &[h, heads * v_head_dim], G::Attention, Row));
            }
        }
        out.push(p("post_attention_layernorm", &[h], G::Norms, Replicated));
        if self.is_moe_layer(layer) {
            let (e, f) = (self.experts, self.expert_ffn);
            out.push(p("mlp.gate", &[e, h], G::Experts, Replicated));
            out.push(p("mlp.experts.gate_proj", &[e, f, h], G::Experts, ExpertColumn));
            out.push(p("mlp.experts.up_proj", &[e, f, h], G::Experts, ExpertColumn));
            out.push(p("mlp.experts.down_proj", &[e, h, f], G::Experts, ExpertRow));
            if self.shared_experts > 0 {
                let s = self.shared_experts * f;
                out.push(p("mlp.shared_experts.gate_proj", &[s, h], G::Mlp, Column));
                out.push(p("mlp.shared_experts.up_proj", &[s, h], G::Mlp, Column));
                out.push(p("mlp.shared_experts.down_proj", &[h, s], G::Mlp, Row));
            }
        } else {
            out.push(p("mlp.gate_proj", &[self.ffn, h], G::Mlp, Column));
            out.push(p("mlp.up_proj", &[self.ffn, h], G::Mlp, Column));
            out.push(p("mlp.down_proj", &[h, self.ffn], G::Mlp, Row));
        }
        out
    }

    /// Every tensor of the inventory, in checkpoint order. Stacked: one tensor per run of consecutive layers
    /// holding the same kind with the same shape, named `layers[start:end].suffix` (half-open).
    fn params(&self, stacked: bool) -> Vec<Param> {
        let top =
            |name: &str, shape: Vec<u64>, group, role| Param { name: name.into(), shape, group, role, stacked: false };
        let mut out = vec![top("embed_tokens", vec![self.vocab, self.hidden], ParamGroup::Embeddings, Role::Column)];
        if stacked {
            // (first layer, end layer, kind) of each run, in order of first appearance.
            let mut runs: Vec<(u64, u64, LayerParam)> = Vec::new();
            for layer in 0..self.layers {
                for kind in self.layer_params(layer) {
                    let open = runs
                        .iter_mut()
                        .rev()
                        .find(|(_, end, k)| *end == layer && k.suffix == kind.suffix && k.shape == kind.shape);
                    match open {
                        Some(run) => run.1 += 1,
                        None => runs.push((layer, layer + 1, kind)),
                    }
                }
            }
            out.extend(runs.into_iter().map(|(start, end, kind)| Param {
                name: format!("layers[{start}:{end}].{}", kind.suffix),
                shape: std::iter::once(end - start).chain(kind.shape).collect(),
                group: kind.group,
                role: kind.role,
                stacked: true,
            }));
        } else {
            for layer in 0..self.layers {
                out.extend(self.layer_params(layer).into_iter().map(|kind| Param {
                    name: format!("layers.{layer}.{}", kind.suffix),
                    shape: kind.shape,
                    group: kind.group,
                    role: kind.role,
                    stacked: false,
                }));
            }
        }
        out.push(top("norm", vec![self.hidden], ParamGroup::Norms, Role::Replicated));
        if !self.tie_embeddings {
            out.push(top("lm_head", vec![self.vocab, self.hidden], ParamGroup::Embeddings, Role::Column));
        }
        out
    }

    /// The number of parameters (entries of every tensor), counted from the generated shapes. For dimensions
    /// [`check`] accepts: the shapes' own products (`heads × head_dim`) are not guarded, only their sum.
    pub fn parameter_count(&self) -> u64 {
        self.params(true)
            .iter()
            .map(|p| p.shape.iter().fold(1u64, |a, &n| a.saturating_mul(n)))
            .fold(0, u64::saturating_add)
    }

    /// Problems with the dimensions themselves, each under `model.<field>`.
    fn problems(&self, out: &mut Vec<Problem>) {
        let has_dense_layer = self.experts == 0 || self.dense_layers > 0;
        // (field, value, least, most)
        let mut ranges = vec![
            ("hidden", self.hidden, 1, MAX_DIM),
            ("layers", self.layers, 1, MAX_LAYERS),
            ("vocab", self.vocab, 1, MAX_DIM),
            ("ffn", self.ffn, u64::from(has_dense_layer), MAX_DIM),
            ("experts", self.experts, 0, MAX_DIM),
        ];
        if self.experts > 0 {
            ranges.push(("expert_ffn", self.expert_ffn, 1, MAX_DIM));
            ranges.push(("shared_experts", self.shared_experts, 0, MAX_DIM));
        }
        match self.attention {
            Attention::Grouped { heads, kv_heads, head_dim, .. } => {
                ranges.extend([
                    ("attention.heads", heads, 1, MAX_DIM),
                    ("attention.kv_heads", kv_heads, 1, MAX_DIM),
                    ("attention.head_dim", head_dim, 1, MAX_DIM),
                ]);
                // Grouped-query attention: each KV head serves the same number of query heads.
                if self.attention.kv_heads_misfit() {
                    out.push(Problem {
                        path: "model.attention.kv_heads".into(),
                        message: format!(
                            "{kv_heads} does not divide the {heads} heads: in grouped-query attention each KV head \
                             serves the same number of query heads"
                        ),
                    });
                }
            }
            Attention::Latent { heads, q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim } => {
                ranges.extend([
                    ("attention.heads", heads, 1, MAX_DIM),
                    ("attention.q_lora_rank", q_lora_rank, 1, MAX_DIM),
                    ("attention.kv_lora_rank", kv_lora_rank, 1, MAX_DIM),
                    ("attention.qk_nope_head_dim", qk_nope_head_dim, 0, MAX_DIM),
                    ("attention.qk_rope_head_dim", qk_rope_head_dim, 0, MAX_DIM),
                    ("attention.v_head_dim", v_head_dim, 1, MAX_DIM),
                ]);
                if qk_nope_head_dim == 0 && qk_rope_head_dim == 0 {
                    out.push(Problem {
                        path: "model.attention.qk_nope_head_dim".into(),
                        message: "0 with qk_rope_head_dim 0: a query head needs at least one dim".into(),
                    });
                }
            }
        }
        for (field, value, least, most) in ranges {
            if field == "expert_ffn" && value == 0 {
                // Set when experts went from 0 to some: the width was never asked for until now.
                out.push(Problem {
                    path: format!("model.{field}"),
                    message: format!(
                        "0: a model with {} experts needs each expert's ffn width (1 to {most})",
                        self.experts
                    ),
                });
            } else if value < least || value > most {
                out.push(Problem {
                    path: format!("model.{field}"),
                    message: format!("{value}: expected a whole number from {least} to {most}"),
                });
            }
        }
        if self.experts > 0 && self.dense_layers > self.layers {
            out.push(Problem {
                path: "model.dense_layers".into(),
                message: format!("{} dense layers in a model of {} layers", self.dense_layers, self.layers),
            });
        }
        if self.experts == 0 && self.shared_experts > 0 {
            out.push(Problem {
                path: "model.shared_experts".into(),
                message: format!("{}: shared experts need routed experts (experts is 0)", self.shared_experts),
            });
        }
    }
}

/// A degree of parallelism: at least 1, at most [`MAX_MESH_DEVICES`].
fn degree(path: &str, value: u64, out: &mut Vec<Problem>) {
    if value == 0 || value > MAX_MESH_DEVICES {
        out.push(Problem {
            path: path.into(),
            message: format!("{value}: expected a whole number of devices from 1 to {MAX_MESH_DEVICES}"),
        });
    }
}

/// Checks a model and both layouts; every problem is reported at once, under `model.…`, `train.…`,
/// `generate.…` or `colocated`. Uneven splits (TP 3 over 8 KV heads, EP 3 over 128 experts) are allowed:
/// they are what resharding has to handle. Refused: zero or absurd sizes, meshes over
/// [`MAX_MESH_DEVICES`] devices, EP without experts or not dividing the FSDP degree, more stages than
/// layers, pipeline stages without stacked layers, and a colocated engine larger than the trainer.
pub fn check(
    model: &ModelDims,
    train: &TrainingLayout,
    generate: &GenerationLayout,
    colocated: bool,
) -> Result<(), SpecError> {
    let mut problems = Vec::new();
    model.problems(&mut problems);
    let before = problems.len();
    for (path, value) in [
        ("train.tp", train.tp),
        ("train.pp", train.pp),
        ("train.dp", train.dp),
        ("train.ep", train.ep),
        ("train.hsdp_replicas", train.hsdp_replicas),
        ("generate.tp", generate.tp),
        ("generate.ep", generate.ep),
        ("generate.dp_replicas", generate.dp_replicas),
    ] {
        degree(path, value, &mut problems);
    }
    // Device products are only meaningful (and only checked) when every degree is.
    let degrees_ok = problems.len() == before;
    let mut add = |path: &str, message: String| problems.push(Problem { path: path.into(), message });
    if train.ep > 1 {
        if model.experts == 0 {
            add("train.ep", format!("{}: expert parallelism needs a model with experts (experts is 0)", train.ep));
        } else if train.dp > 0 && !train.dp.is_multiple_of(train.ep) {
            add(
                "train.ep",
                format!(
                    "{} does not divide dp {}: expert parallelism is carved out of the FSDP group (dp = dp/ep × ep)",
                    train.ep, train.dp
                ),
            );
        }
    }
    if generate.ep > 1 && model.experts == 0 {
        add("generate.ep", format!("{}: expert parallelism needs a model with experts (experts is 0)", generate.ep));
    }
    if train.pp > 1 {
        if train.pp > model.layers {
            add("train.pp", format!("{} stages for {} layers: every stage needs a layer", train.pp, model.layers));
        }
        if !train.stacked_layers {
            add(
                "train.pp",
                format!(
                    "{} stages need stacked layers: a spec has one mesh for every tensor, so a per-layer tensor \
                     cannot be given to one stage; tick Layers stacked (stacked_layers)",
                    train.pp
                ),
            );
        }
    }
    if degrees_ok {
        if train.devices() > MAX_MESH_DEVICES {
            add(
                "train",
                format!(
                    "pp {} × hsdp {} × dp {} × tp {} = {} devices; at most {MAX_MESH_DEVICES}",
                    train.pp,
                    train.hsdp_replicas,
                    train.dp,
                    train.tp,
                    train.devices()
                ),
            );
        }
        if generate.devices() > MAX_MESH_DEVICES {
            add(
                "generate",
                format!(
                    "dp {} × ep {} × tp {} = {} devices; at most {MAX_MESH_DEVICES}",
                    generate.dp_replicas,
                    generate.ep,
                    generate.tp,
                    generate.devices()
                ),
            );
        }
        if colocated && generate.devices() > train.devices() {
            add(
                "colocated",
                format!(
                    "the engine's {} devices do not fit on the trainer's {}: a colocated engine uses the trainer's devices",
                    generate.devices(),
                    train.devices()
                ),
            );
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(SpecError { problems }) }
}

/// Layouts the inventory counts but engines would not run as drawn: a TP degree that splits attention heads
/// (Megatron, vLLM and SGLang want whole heads on each rank), or a generation TP above the KV heads (an
/// engine then keeps each KV head whole on several ranks, where these counts split `k_proj` and `v_proj`
/// TP ways). Not refused ([`check`] allows uneven splits: they are what resharding has to handle), but said
/// under the field, so that totals are not quoted for a layout no engine would load.
pub fn cautions(model: &ModelDims, train: &TrainingLayout, generate: &GenerationLayout) -> Vec<Problem> {
    let (heads, kv_heads) = match model.attention {
        Attention::Grouped { heads, kv_heads, .. } => (heads, Some(kv_heads)),
        Attention::Latent { heads, .. } => (heads, None),
    };
    let mut out = Vec::new();
    for (path, tp) in [("train.tp", train.tp), ("generate.tp", generate.tp)] {
        if tp <= 1 || heads == 0 {
            continue;
        }
        let mut add = |message: String| out.push(Problem { path: path.into(), message });
        if !heads.is_multiple_of(tp) {
            add(format!(
                "{tp} does not divide the {heads} attention heads: engines need whole heads on each rank; these \
                 totals split the heads unevenly"
            ));
        }
        let Some(kv) = kv_heads.filter(|&kv| kv >= 1 && !kv.is_multiple_of(tp)) else { continue };
        if tp.is_multiple_of(kv) && path == "generate.tp" {
            add(format!(
                "{tp} ranks over {kv} KV heads: an engine keeps each KV head whole on {} ranks; these totals \
                 split k_proj and v_proj {tp} ways instead, so they count those two low",
                tp / kv
            ));
        } else {
            add(format!(
                "{tp} does not divide the {kv} KV heads: engines need whole KV heads on each rank; these totals \
                 split them unevenly"
            ));
        }
    }
    // Experts split unevenly are counted as torch.chunk splits them; frameworks differ (some refuse the
    // layout, some spread the remainder), so the totals are one choice among them.
    for (path, ep) in [("train.ep", train.ep), ("generate.ep", generate.ep)] {
        let experts = model.experts;
        if ep > 1 && experts > 0 && !experts.is_multiple_of(ep) {
            let each = experts.div_ceil(ep);
            out.push(Problem {
                path: path.into(),
                message: format!(
                    "{ep} does not divide the {experts} experts: these totals give each rank {each} as torch.chunk \
                     does, the last ranks fewer; frameworks differ (some refuse the layout, some spread the rest)"
                ),
            });
        }
    }
    out
}

/// One mesh dim of either side and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    /// Pipeline stages (source).
    Pp,
    /// Copies of a whole layout: HSDP replicas (source), engine replicas (destination).
    Replicas,
    /// The FSDP dim (`dp`, or `edp` when EP takes part of the FSDP group).
    Fsdp,
    Ep,
    Tp,
}

/// The mesh dims of a side, size-1 dims left out (at least one dim remains).
fn mesh_axes(dims: &[(Axis, &'static str, u64)]) -> Vec<(Axis, &'static str, u64)> {
    let kept: Vec<_> = dims.iter().copied().filter(|d| d.2 > 1).collect();
    if kept.is_empty() { vec![dims[dims.len() - 1]] } else { kept }
}

/// `param`'s placement on one mesh dim. `expert_fsdp_dim` is the expert tensor dim FSDP splits (0 or 1).
fn placement(axis: Axis, param: &Param, source: bool, expert_fsdp_dim: usize) -> String {
    let o = usize::from(param.stacked);
    let dim = match (axis, param.role) {
        (Axis::Pp, _) if param.stacked => Some(0),
        (Axis::Pp | Axis::Replicas, _) => None,
        (Axis::Fsdp, role) if role.is_expert() => Some(o + expert_fsdp_dim),
        (Axis::Fsdp, _) => Some(o),
        (Axis::Ep, role) if role.is_expert() => Some(o),
        // Dense parameters: part of the FSDP group on the trainer, replicated across EP in the engine.
        (Axis::Ep, _) => source.then_some(o),
        (Axis::Tp, Role::Column) => Some(o),
        (Axis::Tp, Role::Row | Role::ExpertColumn) => Some(o + 1),
        (Axis::Tp, Role::ExpertRow) => Some(o + 2),
        (Axis::Tp, Role::Replicated) => None,
    };
    dim.map_or_else(|| "R".into(), |d| format!("S({d})"))
}

fn side(axes: &[(Axis, &'static str, u64)], dtype: Dtype) -> SideInput {
    SideInput {
        mesh: Some(MeshShapeInput::Dims(axes.iter().map(|a| a.2 as i64).collect())),
        dim_names: Some(axes.iter().map(|a| a.1.to_string()).collect()),
        dtype: Some(dtype.name().into()),
        ..SideInput::default()
    }
}

/// The layout inventory of a whole model as a spec: one tensor per parameter (routed experts stacked per
/// layer; every per-layer parameter stacked over layers with [`TrainingLayout::stacked_layers`]), each with
/// its `group` ([`ParamGroup::name`]) and its placements on both sides as the module docs describe.
/// Colocated: the engine runs on the trainer's devices (the first ones when it uses fewer).
///
/// Errors are [`check`]'s. The result passes [`spec::validate`] (the tests hold every preset to that).
pub fn inventory_spec(
    model: &ModelDims,
    train: &TrainingLayout,
    generate: &GenerationLayout,
    colocated: bool,
) -> Result<SpecInput, SpecError> {
    check(model, train, generate, colocated)?;
    let (fsdp_name, fsdp) = if train.ep > 1 { ("edp", train.dp / train.ep) } else { ("dp", train.dp) };
    let source_axes = mesh_axes(&[
        (Axis::Pp, "pp", train.pp),
        (Axis::Replicas, "hsdp", train.hsdp_replicas),
        (Axis::Fsdp, fsdp_name, fsdp),
        (Axis::Ep, "ep", train.ep),
        (Axis::Tp, "tp", train.tp),
    ]);
    let destination_axes = mesh_axes(&[
        (Axis::Replicas, "dp", generate.dp_replicas),
        (Axis::Ep, "ep", generate.ep),
        (Axis::Tp, "tp", generate.tp),
    ]);
    // torchtitan's rule: FSDP splits the expert dim unless that would leave some FSDP shards empty.
    let expert_fsdp_dim = usize::from(train.dp > model.experts);

    let tensors = model
        .params(train.stacked_layers)
        .into_iter()
        .map(|param| {
            let placements = |axes: &[(Axis, &str, u64)], source: bool| SideInput {
                placements: Some(axes.iter().map(|a| placement(a.0, &param, source, expert_fsdp_dim)).collect()),
                ..SideInput::default()
            };
            TensorInput {
                source: Some(placements(&source_axes, true)),
                destination: Some(placements(&destination_axes, false)),
                name: Some(param.name.clone()),
                shape: param.shape.iter().map(|&n| n as i64).collect(),
                dtype: None,
                group: Some(param.group.name().into()),
            }
        })
        .collect();

    let mut source = side(&source_axes, train.dtype);
    // FSDP2 on a TP mesh: TP splits first, then FSDP splits each TP shard (`_StridedShard`).
    source.order = Some("strided".into());
    let mut destination = side(&destination_axes, generate.dtype);
    if colocated {
        destination.devices = Some(if generate.devices() == train.devices() {
            DevicesInput::Named("colocated".into())
        } else {
            DevicesInput::Ids((0..generate.devices() as i64).collect())
        });
    }
    Ok(SpecInput { tensors: Some(tensors), source, destination, ..SpecInput::default() })
}

/// [`inventory_spec`] validated into a [`Reshard`] ready to plan.
pub fn inventory(
    model: &ModelDims,
    train: &TrainingLayout,
    generate: &GenerationLayout,
    colocated: bool,
) -> Result<Reshard, SpecError> {
    validate_inventory(&inventory_spec(model, train, generate, colocated)?, model.layers)
}

/// Validates an inventory's spec built by [`inventory_spec`] for a model of `layers` layers. Too many pieces,
/// which validation says under the destination mesh, and too many tensor-device pairs, said under the
/// tensors, are said under the layers, whose count multiplies the tensors (the form has neither field).
pub fn validate_inventory(spec: &SpecInput, layers: u64) -> Result<Reshard, SpecError> {
    spec::validate(spec).map_err(|mut error| {
        for problem in &mut error.problems {
            if problem.path == "destination.mesh" && problem.message.contains("pieces") {
                problem.path = "model.layers".into();
                problem.message = format!(
                    "{layers} layers: the inventory needs more than {} pieces, more than can be planned at once; \
                     tick Layers stacked (one tensor per kind, not per layer) or use fewer devices",
                    crate::core::traffic::format_count(crate::core::plan::MAX_PIECES)
                );
            } else if problem.path == "tensors" && problem.message.contains("tensor-device pairs") {
                problem.path = "model.layers".into();
                problem.message = format!(
                    "{layers} layers: {}; tick Layers stacked (one tensor per kind, not per layer) or use fewer \
                     devices",
                    problem.message.split(';').next().unwrap_or_default()
                );
            }
        }
        error
    })
}

/// A model the UI and the CLI can open by name, with a layout pair that suits it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelPreset {
    pub name: &'static str,
    pub title: &'static str,
    pub model: ModelDims,
    pub train: TrainingLayout,
    pub generate: GenerationLayout,
    pub colocated: bool,
}

const fn train(tp: u64, pp: u64, dp: u64, ep: u64, hsdp_replicas: u64, stacked_layers: bool) -> TrainingLayout {
    TrainingLayout { tp, pp, dp, ep, hsdp_replicas, dtype: Dtype::Bf16, stacked_layers }
}

const fn generate(tp: u64, ep: u64, dp_replicas: u64) -> GenerationLayout {
    GenerationLayout { tp, ep, dp_replicas, dtype: Dtype::Bf16 }
}

/// Real models' shapes from their published configs ("-like": the shapes, not the weights).
pub const MODEL_PRESETS: &[ModelPreset] = &[
    ModelPreset {
        name: "llama-3-8b",
        title: "Llama-3-8B-like: FSDP 8 on one node → 4 engines of TP 2 on the same GPUs",
        model: ModelDims {
            hidden: 4096,
            attention: Attention::Grouped { heads: 32, kv_heads: 8, head_dim: 128, qk_norm: false },
            ffn: 14336,
            layers: 32,
            vocab: 128256,
            experts: 0,
            expert_ffn: 0,
            shared_experts: 0,
            dense_layers: 0,
            tie_embeddings: false,
        },
        train: train(1, 1, 8, 1, 1, false),
        generate: generate(2, 1, 4),
        colocated: true,
    },
    ModelPreset {
        name: "llama-3-70b",
        title: "Llama-3-70B-like: HSDP 2 × FSDP 64 × TP 8 (1024 GPUs) → 32 engines of TP 8 (256 GPUs), layers stacked",
        model: ModelDims {
            hidden: 8192,
            attention: Attention::Grouped { heads: 64, kv_heads: 8, head_dim: 128, qk_norm: false },
            ffn: 28672,
            layers: 80,
            vocab: 128256,
            experts: 0,
            expert_ffn: 0,
            shared_experts: 0,
            dense_layers: 0,
            tie_embeddings: false,
        },
        // Stacked: one tensor per layer plans 11.8 M pieces (about 0.65 s natively at opt-level 3 and 3.4 s
        // with the web build's size optimisation); stacked, 197 k pieces in about 10 ms / 56 ms.
        train: train(8, 1, 64, 1, 2, true),
        generate: generate(8, 1, 32),
        colocated: false,
    },
    ModelPreset {
        name: "qwen3-30b-a3b",
        title: "Qwen3-30B-A3B-like (128 experts, 8 active): FSDP 32 with EP 8 → 4 engines of EP 4 × TP 2, colocated",
        model: ModelDims {
            hidden: 2048,
            attention: Attention::Grouped { heads: 32, kv_heads: 4, head_dim: 128, qk_norm: true },
            ffn: 6144,
            layers: 48,
            vocab: 151936,
            experts: 128,
            expert_ffn: 768,
            shared_experts: 0,
            dense_layers: 0,
            tie_embeddings: false,
        },
        train: train(1, 1, 32, 8, 1, false),
        generate: generate(2, 4, 4),
        colocated: true,
    },
    ModelPreset {
        name: "deepseek-v3",
        title: "DeepSeek-V3-like (MLA, 256 experts + 1 shared): PP 8 × FSDP 64 (EP 32) × TP 2 → 8 engines of EP 2 × TP 8",
        model: ModelDims {
            hidden: 7168,
            attention: Attention::Latent {
                heads: 128,
                q_lora_rank: 1536,
                kv_lora_rank: 512,
                qk_nope_head_dim: 128,
                qk_rope_head_dim: 64,
                v_head_dim: 128,
            },
            ffn: 18432,
            layers: 61,
            vocab: 129280,
            experts: 256,
            expert_ffn: 2048,
            shared_experts: 1,
            dense_layers: 3,
            tie_embeddings: false,
        },
        train: train(2, 8, 64, 32, 1, true),
        generate: generate(8, 2, 8),
        colocated: false,
    },
];

/// The model preset called `name`, in any case (`LLAMA-3-8B` typed into an address was no model).
pub fn find_model(name: &str) -> Option<&'static ModelPreset> {
    MODEL_PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

impl ModelPreset {
    /// The preset's title while its layouts are the ones chosen, else only the model's part of it
    /// ("Llama-3-8B-like"): a title names the layout pair too, and once colocation was unticked it still
    /// said "on the same GPUs" over separate ones.
    pub fn title_for(&self, train: &TrainingLayout, generate: &GenerationLayout, colocated: bool) -> &'static str {
        if self.train == *train && self.generate == *generate && self.colocated == colocated {
            self.title
        } else {
            self.title.split_once(": ").map_or(self.title, |(model, _)| model)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::{Strategy as PlanStrategy, plan};
    use crate::core::region::device_regions;
    use crate::core::traffic::analyse;
    use crate::core::verify::{VerifyOptions, verify};
    use proptest::prelude::*;

    #[test]
    fn a_title_names_the_layouts_only_while_they_are_the_presets() {
        for preset in MODEL_PRESETS {
            assert_eq!(preset.title_for(&preset.train, &preset.generate, preset.colocated), preset.title);
            let model = preset.title_for(&preset.train, &preset.generate, !preset.colocated);
            assert!(preset.title.starts_with(model) && !model.contains(':') && model.contains("-like"), "{model}");
            let wider = GenerationLayout { tp: preset.generate.tp * 2, ..preset.generate };
            assert_eq!(preset.title_for(&preset.train, &wider, preset.colocated), model);
        }
    }

    fn preset(name: &str) -> &'static ModelPreset {
        find_model(name).unwrap()
    }

    fn messages(err: SpecError) -> Vec<String> {
        err.problems.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn parameter_counts_match_the_published_sizes() {
        // Published totals: 8.03 B, 70.6 B, 30.5 B, 671 B (DeepSeek-V3 without its 14 B MTP module).
        for (name, billions) in
            [("llama-3-8b", 8.03), ("llama-3-70b", 70.55), ("qwen3-30b-a3b", 30.5), ("deepseek-v3", 671.0)]
        {
            let count = preset(name).model.parameter_count() as f64 / 1e9;
            assert!((count / billions - 1.0).abs() < 0.02, "{name}: {count:.2} B, published {billions} B");
        }
    }

    #[test]
    fn grouped_heads_must_divide_and_tp_splits_that_engines_refuse_are_cautioned() {
        let llama = preset("llama-3-8b");
        let with_kv = |kv_heads: u64| {
            let mut model = llama.model;
            if let Attention::Grouped { kv_heads: kv, .. } = &mut model.attention {
                *kv = kv_heads;
            }
            model
        };
        // 32 heads cannot form groups over 5 KV heads: refused, under the KV heads' field.
        let err = check(&with_kv(5), &llama.train, &llama.generate, true).expect_err("32 % 5 != 0");
        assert!(err.problems.iter().any(|p| p.path == "model.attention.kv_heads"), "{:?}", messages(err));
        // The presets' own layouts are ones engines run.
        for p in MODEL_PRESETS {
            assert_eq!(cautions(&p.model, &p.train, &p.generate), vec![], "{}", p.name);
        }
        let with_tp = |train_tp: u64, generate_tp: u64| {
            let (mut train, mut generate) = (llama.train, llama.generate);
            (train.tp, generate.tp) = (train_tp, generate_tp);
            cautions(&llama.model, &train, &generate)
        };
        // TP 3 splits 32 heads and 8 KV heads: both said, on each side's field.
        let three = with_tp(3, 3);
        assert_eq!(three.iter().filter(|c| c.path == "train.tp").count(), 2, "{three:?}");
        assert!(three.iter().any(|c| c.path == "generate.tp" && c.message.starts_with("3 does not divide the 32")));
        // Generation TP 16 over 8 KV heads: engines replicate each KV head on 2 ranks.
        let sixteen = with_tp(1, 16);
        assert_eq!(sixteen.len(), 1, "{sixteen:?}");
        assert!(sixteen[0].message.contains("each KV head whole on 2 ranks"), "{sixteen:?}");
        assert_eq!(with_tp(4, 8), vec![]);
        // 60 experts over EP 8, said on the generation side only.
        let qwen = preset("qwen3-30b-a3b");
        let mut model = qwen.model;
        model.experts = 60;
        let mut generate = qwen.generate;
        generate.ep = 8;
        let mut train = qwen.train;
        train.ep = 4;
        let uneven = cautions(&model, &train, &generate);
        assert_eq!(uneven.len(), 1, "{uneven:?}");
        assert_eq!(uneven[0].path, "generate.ep");
        assert!(uneven[0].message.starts_with("8 does not divide the 60 experts: these totals give each rank 8"));
    }

    #[test]
    fn stacking_layers_keeps_the_parameter_count() {
        for p in MODEL_PRESETS {
            let count = |stacked| p.model.params(stacked).iter().map(|t| t.shape.iter().product::<u64>()).sum::<u64>();
            assert_eq!(count(false), count(true), "{}", p.name);
            assert_eq!(count(true), p.model.parameter_count());
        }
    }

    #[test]
    fn every_preset_validates_and_plans_on_a_small_layout() {
        // A small layout touches every mesh dim kind the model can use, without planning millions of pieces.
        for p in MODEL_PRESETS {
            let moe = p.model.experts > 0;
            let small_train = TrainingLayout {
                tp: 2,
                pp: 2,
                dp: 4,
                ep: if moe { 2 } else { 1 },
                hsdp_replicas: 2,
                dtype: Dtype::Fp32,
                stacked_layers: true,
            };
            let small_generate =
                GenerationLayout { tp: 2, ep: if moe { 2 } else { 1 }, dp_replicas: 2, dtype: Dtype::Bf16 };
            let reshard = inventory(&p.model, &small_train, &small_generate, false).unwrap();
            let totals = analyse(&reshard, PlanStrategy::Intersection).unwrap().totals();
            assert_eq!(totals.unique_entries, p.model.parameter_count(), "{}", p.name);
            // Every engine device is new: each receives its whole share over links, in bf16.
            let per_replica_entries = totals.entries_moved / small_generate.dp_replicas;
            assert!(per_replica_entries >= p.model.parameter_count(), "{}", p.name);
            assert_eq!(totals.local_bytes, 0);
            // The preset's own suggested layout is valid too.
            inventory_spec(&p.model, &p.train, &p.generate, p.colocated).unwrap();
        }
    }

    #[test]
    fn per_layer_inventories_name_one_tensor_per_parameter() {
        let spec = inventory_spec(
            &preset("llama-3-8b").model,
            &TrainingLayout::default(),
            &GenerationLayout::default(),
            false,
        )
        .unwrap();
        let tensors = spec.tensors.as_ref().unwrap();
        // embed_tokens, 32 × (2 norms + 4 attention + 3 MLP), norm, lm_head.
        assert_eq!(tensors.len(), 2 + 32 * 9 + 1);
        assert_eq!(tensors[1].name.as_deref(), Some("layers.0.input_layernorm"));
        assert_eq!(tensors[2].name.as_deref(), Some("layers.0.self_attn.q_proj"));
        assert_eq!(tensors[3].shape, vec![1024, 4096], "k_proj: 8 KV heads of 128");
        // DeepSeek-V3: 61 × 9 attention and norm tensors, 3 dense MLPs of 3, 58 MoE layers of 7, plus 3.
        let ds = inventory_spec(
            &preset("deepseek-v3").model,
            &TrainingLayout::default(),
            &GenerationLayout::default(),
            false,
        )
        .unwrap();
        assert_eq!(ds.tensors.unwrap().len(), 61 * 9 + 3 * 3 + 58 * 7 + 3);
    }

    #[test]
    fn an_inventory_of_too_many_tensor_device_pairs_is_said_under_the_layers() {
        // Llama-3-8B per layer on 65,536 training GPUs: every tensor is planned on every device.
        let llama = preset("llama-3-8b");
        let unstacked = TrainingLayout { pp: 1, dp: 65536, stacked_layers: false, ..llama.train };
        let Err(err) = inventory(&llama.model, &unstacked, &llama.generate, llama.colocated) else {
            panic!("accepted")
        };
        let messages = messages(err);
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].starts_with("model.layers: 32 layers: 291 tensors on "), "{messages:?}");
        assert!(
            messages[0].ends_with("; tick Layers stacked (one tensor per kind, not per layer) or use fewer devices")
        );
    }

    #[test]
    fn an_inventory_too_large_to_plan_is_said_under_the_layers() {
        let ds = preset("deepseek-v3");
        let unstacked = TrainingLayout { pp: 1, stacked_layers: false, ..ds.train };
        let err =
            inventory(&ModelDims { layers: 256, ..ds.model }, &unstacked, &ds.generate, ds.colocated).unwrap_err();
        assert_eq!(
            messages(err),
            ["model.layers: 256 layers: the inventory needs more than 16,777,216 pieces, more than can be planned at \
              once; tick Layers stacked (one tensor per kind, not per layer) or use fewer devices"]
        );
        // Stacked, the same model plans.
        inventory(
            &ModelDims { layers: 256, ..ds.model },
            &TrainingLayout { pp: 1, ..ds.train },
            &ds.generate,
            ds.colocated,
        )
        .unwrap();
    }

    #[test]
    fn the_query_projection_is_heads_times_head_dim_wide() {
        let params = preset("qwen3-30b-a3b").model.params(false);
        let q = params.iter().find(|p| p.name == "layers.0.self_attn.q_proj").unwrap();
        assert_eq!(q.shape, vec![4096, 2048]);
        let o = params.iter().find(|p| p.name == "layers.0.self_attn.o_proj").unwrap();
        assert_eq!(o.shape, vec![2048, 4096]);
        let experts = params.iter().find(|p| p.name == "layers.47.mlp.experts.down_proj").unwrap();
        assert_eq!(experts.shape, vec![128, 2048, 768]);
        assert!(params.iter().any(|p| p.name == "layers.0.self_attn.k_norm" && p.shape == [128]));
    }

    #[test]
    fn latent_attention_has_the_checkpoint_shapes() {
        let params = preset("deepseek-v3").model.params(false);
        let shape =
            |name: &str| params.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("{name}")).shape.clone();
        assert_eq!(shape("layers.0.self_attn.q_a_proj"), [1536, 7168]);
        assert_eq!(shape("layers.0.self_attn.q_b_proj"), [24576, 1536]);
        assert_eq!(shape("layers.0.self_attn.kv_a_proj_with_mqa"), [576, 7168]);
        assert_eq!(shape("layers.0.self_attn.kv_b_proj"), [32768, 512]);
        assert_eq!(shape("layers.0.self_attn.o_proj"), [7168, 16384]);
        assert_eq!(shape("layers.2.mlp.down_proj"), [7168, 18432], "the first 3 layers are dense");
        assert_eq!(shape("layers.3.mlp.experts.gate_proj"), [256, 2048, 7168]);
        assert_eq!(shape("layers.3.mlp.shared_experts.gate_proj"), [2048, 7168]);
        assert_eq!(shape("layers.60.mlp.gate"), [256, 7168]);
        assert!(!params.iter().any(|p| p.name == "layers.3.mlp.gate_proj"));
    }

    #[test]
    fn stacked_kinds_run_over_the_layers_that_have_them() {
        let params = preset("deepseek-v3").model.params(true);
        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        assert!(names.contains(&"layers[0:61].self_attn.q_a_proj"));
        assert!(names.contains(&"layers[0:3].mlp.gate_proj"));
        assert!(names.contains(&"layers[3:61].mlp.experts.up_proj"));
        let experts = params.iter().find(|p| p.name == "layers[3:61].mlp.experts.up_proj").unwrap();
        assert_eq!(experts.shape, vec![58, 256, 2048, 7168]);
    }

    #[test]
    fn groups_follow_what_each_parameter_is_for() {
        let spec = inventory_spec(
            &preset("deepseek-v3").model,
            &TrainingLayout::default(),
            &GenerationLayout::default(),
            false,
        )
        .unwrap();
        let group = |name: &str| {
            let tensors = spec.tensors.as_ref().unwrap();
            tensors.iter().find(|t| t.name.as_deref() == Some(name)).unwrap().group.clone().unwrap()
        };
        assert_eq!(group("embed_tokens"), "embeddings");
        assert_eq!(group("lm_head"), "embeddings");
        assert_eq!(group("norm"), "norms");
        assert_eq!(group("layers.0.self_attn.kv_a_layernorm"), "norms");
        assert_eq!(group("layers.0.self_attn.kv_b_proj"), "attention");
        assert_eq!(group("layers.0.mlp.up_proj"), "mlp");
        assert_eq!(group("layers.5.mlp.shared_experts.down_proj"), "mlp");
        assert_eq!(group("layers.5.mlp.experts.down_proj"), "experts");
        assert_eq!(group("layers.5.mlp.gate"), "experts");
    }

    #[test]
    fn placements_follow_fsdp2_tp_and_ep() {
        // Mesh [hsdp 2, edp 2, ep 2, tp 2] → [dp 2, ep 2, tp 2].
        let layout = TrainingLayout { tp: 2, dp: 4, ep: 2, hsdp_replicas: 2, ..TrainingLayout::default() };
        let engine = GenerationLayout { tp: 2, ep: 2, dp_replicas: 2, ..GenerationLayout::default() };
        let spec = inventory_spec(&preset("qwen3-30b-a3b").model, &layout, &engine, false).unwrap();
        assert_eq!(spec.source.dim_names.as_deref(), Some(&["hsdp", "edp", "ep", "tp"].map(String::from)[..]));
        assert_eq!(spec.source.order.as_deref(), Some("strided"));
        assert_eq!(spec.destination.dim_names.as_deref(), Some(&["dp", "ep", "tp"].map(String::from)[..]));
        let sides = |name: &str| {
            let t = spec.tensors.as_ref().unwrap().iter().find(|t| t.name.as_deref() == Some(name)).unwrap();
            let p = |s: &Option<SideInput>| s.as_ref().unwrap().placements.clone().unwrap().join(" ");
            (p(&t.source), p(&t.destination))
        };
        assert_eq!(sides("layers.0.self_attn.q_proj"), ("R S(0) S(0) S(0)".into(), "R R S(0)".into()));
        assert_eq!(sides("layers.0.self_attn.o_proj"), ("R S(0) S(0) S(1)".into(), "R R S(1)".into()));
        assert_eq!(sides("layers.0.input_layernorm"), ("R S(0) S(0) R".into(), "R R R".into()));
        assert_eq!(sides("layers.0.mlp.experts.gate_proj"), ("R S(0) S(0) S(1)".into(), "R S(0) S(1)".into()));
        assert_eq!(sides("layers.0.mlp.experts.down_proj"), ("R S(0) S(0) S(2)".into(), "R S(0) S(2)".into()));
        assert_eq!(sides("embed_tokens"), ("R S(0) S(0) S(0)".into(), "R R S(0)".into()));
    }

    #[test]
    fn experts_shard_their_second_dim_when_fsdp_outnumbers_them() {
        let model = ModelDims { experts: 4, ..preset("qwen3-30b-a3b").model };
        let spec = inventory_spec(
            &model,
            &TrainingLayout { dp: 8, ..TrainingLayout::default() },
            &GenerationLayout::default(),
            false,
        )
        .unwrap();
        let t = spec
            .tensors
            .unwrap()
            .into_iter()
            .find(|t| t.name.as_deref() == Some("layers.0.mlp.experts.up_proj"))
            .unwrap();
        assert_eq!(t.source.unwrap().placements.unwrap(), vec!["S(1)"]);
    }

    #[test]
    fn pipeline_stages_hold_their_own_layers() {
        let layout = TrainingLayout { pp: 4, dp: 2, stacked_layers: true, ..TrainingLayout::default() };
        let reshard = inventory(&preset("llama-3-8b").model, &layout, &GenerationLayout::default(), false).unwrap();
        assert_eq!(reshard.source_mesh.shape, vec![4, 2]);
        let q = reshard.tensors.iter().find(|t| t.name == "layers[0:32].self_attn.q_proj").unwrap();
        let regions = device_regions(&q.source, &reshard.source_mesh, &q.shape, reshard.split).unwrap();
        // Stage s (devices 2s, 2s+1) holds layers [8s, 8s+8), each device half of the rows.
        for r in &regions {
            let stage = r.coord[0];
            assert_eq!(r.region.interval(0).start, 8 * stage);
            assert_eq!(r.region.shape(), [8, 2048, 4096]);
        }
        let embed = reshard.tensors.iter().find(|t| t.name == "embed_tokens").unwrap();
        assert_eq!(embed.source.placements[0], crate::core::placement::Placement::Replicate);
    }

    #[test]
    fn colocated_engines_reuse_the_trainers_devices() {
        let model = preset("llama-3-8b").model;
        let layout = TrainingLayout { dp: 8, ..TrainingLayout::default() };
        let same = inventory(&model, &layout, &GenerationLayout { tp: 2, dp_replicas: 4, ..Default::default() }, true)
            .unwrap();
        assert_eq!(same.destination_mesh.devices, same.source_mesh.devices);
        let fewer = inventory(&model, &layout, &GenerationLayout { tp: 2, ..Default::default() }, true).unwrap();
        assert_eq!(fewer.destination_mesh.devices, vec![0, 1]);
        let apart = inventory(&model, &layout, &GenerationLayout { tp: 2, ..Default::default() }, false).unwrap();
        assert_eq!(apart.destination_mesh.devices, vec![8, 9]);
    }

    #[test]
    fn uneven_splits_are_allowed_but_zero_and_absurd_sizes_are_not() {
        let model = preset("llama-3-8b").model;
        // TP 3 over 8 KV heads is uneven, and fine: resharding handles it.
        inventory(&model, &TrainingLayout { tp: 3, ..Default::default() }, &GenerationLayout::default(), false)
            .unwrap();
        let err = inventory_spec(
            &ModelDims { hidden: 0, layers: 257, ..model },
            &TrainingLayout { tp: 0, ep: 2, ..Default::default() },
            &GenerationLayout { dp_replicas: 70_000, ..Default::default() },
            false,
        )
        .unwrap_err();
        let got = messages(err);
        for want in [
            "model.hidden: 0: expected a whole number from 1 to 1048576",
            "model.layers: 257: expected a whole number from 1 to 256",
            "train.tp: 0: expected a whole number of devices from 1 to 65536",
            "train.ep: 2: expert parallelism needs a model with experts (experts is 0)",
            "generate.dp_replicas: 70000: expected a whole number of devices from 1 to 65536",
        ] {
            assert!(got.iter().any(|g| g == want), "missing `{want}` in {got:#?}");
        }
        let err = inventory_spec(
            &model,
            &TrainingLayout { dp: 256, tp: 16, hsdp_replicas: 32, ..Default::default() },
            &GenerationLayout::default(),
            false,
        )
        .unwrap_err();
        assert_eq!(messages(err), ["train: pp 1 × hsdp 32 × dp 256 × tp 16 = 131072 devices; at most 65536"]);
    }

    #[test]
    fn layouts_that_cannot_be_expressed_say_why() {
        let qwen = preset("qwen3-30b-a3b").model;
        let got = messages(
            inventory_spec(
                &qwen,
                &TrainingLayout { dp: 8, ep: 3, pp: 2, ..Default::default() },
                &GenerationLayout { tp: 4, ..Default::default() },
                true,
            )
            .unwrap_err(),
        );
        assert_eq!(
            got,
            [
                "train.ep: 3 does not divide dp 8: expert parallelism is carved out of the FSDP group (dp = dp/ep × ep)",
                "train.pp: 2 stages need stacked layers: a spec has one mesh for every tensor, so a per-layer tensor \
                 cannot be given to one stage; tick Layers stacked (stacked_layers)",
            ]
        );
        let got = messages(
            inventory_spec(&qwen, &TrainingLayout::default(), &GenerationLayout { tp: 4, ..Default::default() }, true)
                .unwrap_err(),
        );
        assert_eq!(
            got,
            [
                "colocated: the engine's 4 devices do not fit on the trainer's 1: a colocated engine uses the trainer's devices"
            ]
        );
        let got = messages(
            inventory_spec(
                &ModelDims { dense_layers: 49, expert_ffn: 0, ..qwen },
                &TrainingLayout { pp: 64, stacked_layers: true, ..Default::default() },
                &GenerationLayout::default(),
                false,
            )
            .unwrap_err(),
        );
        assert!(
            got.contains(
                &"model.expert_ffn: 0: a model with 128 experts needs each expert's ffn width (1 to 1048576)"
                    .to_string()
            ),
            "{got:?}"
        );
        assert!(got.contains(&"model.dense_layers: 49 dense layers in a model of 48 layers".to_string()), "{got:?}");
        assert!(got.contains(&"train.pp: 64 stages for 48 layers: every stage needs a layer".to_string()), "{got:?}");
    }

    #[test]
    fn group_totals_add_up_to_the_whole() {
        let p = preset("qwen3-30b-a3b");
        let spec = inventory_spec(&p.model, &p.train, &p.generate, p.colocated).unwrap();
        let reshard = spec::validate(&spec).unwrap();
        let traffic = analyse(&reshard, PlanStrategy::Intersection).unwrap();
        let groups = traffic.per_group(&reshard.tensors);
        let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["embeddings", "norms", "attention", "experts"]);
        let totals = traffic.totals();
        assert_eq!(groups.iter().map(|g| g.bytes_received).sum::<u64>(), totals.bytes_received);
        assert_eq!(groups.iter().map(|g| g.unique_entries).sum::<u64>(), p.model.parameter_count());
        let experts = &groups[3];
        assert!(experts.unique_entries * 10 > p.model.parameter_count() * 9, "experts are over 90 % of the model");
    }

    #[test]
    fn model_state_round_trips_through_json() {
        for p in MODEL_PRESETS {
            let text = serde_json::to_string(&(p.model, p.train, p.generate)).unwrap();
            let back: (ModelDims, TrainingLayout, GenerationLayout) = serde_json::from_str(&text).unwrap();
            assert_eq!(back, (p.model, p.train, p.generate));
        }
        // Layout fields left out take their defaults; so do a dense model's MoE fields.
        let layout: TrainingLayout = serde_json::from_str(r#"{"tp": 8, "dtype": "fp32"}"#).unwrap();
        assert_eq!(layout, TrainingLayout { tp: 8, dtype: Dtype::Fp32, ..TrainingLayout::default() });
        let model: ModelDims = serde_json::from_str(
            r#"{"hidden": 64, "attention": {"kind": "grouped", "heads": 4, "kv_heads": 2, "head_dim": 16},
                "ffn": 128, "layers": 2, "vocab": 100}"#,
        )
        .unwrap();
        assert_eq!(
            model.parameter_count(),
            2 * 100 * 64 + 64 + 2 * (2 * 64 + 2 * 64 * 64 + 2 * 32 * 64 + 3 * 64 * 128)
        );
    }

    /// A tiny model of either kind, small enough to execute plans on buffers.
    fn tiny_model() -> impl proptest::strategy::Strategy<Value = ModelDims> {
        (1u64..=6, 1u64..=3, 1u64..=3, 1u64..=4, 0u64..=4, 0u64..=2, 0u64..=1, any::<bool>(), any::<bool>()).prop_map(
            |(hidden, heads, head_dim, layers, experts, dense_layers, shared, latent, tie)| ModelDims {
                hidden,
                attention: if latent {
                    Attention::Latent {
                        heads,
                        q_lora_rank: 2,
                        kv_lora_rank: 2,
                        qk_nope_head_dim: head_dim,
                        qk_rope_head_dim: 1,
                        v_head_dim: head_dim,
                    }
                } else {
                    Attention::Grouped { heads, kv_heads: 1, head_dim, qk_norm: heads > 1 }
                },
                ffn: 3,
                layers,
                vocab: 7,
                experts,
                expert_ffn: 2,
                shared_experts: if experts > 0 { shared } else { 0 },
                dense_layers: dense_layers.min(layers),
                tie_embeddings: tie,
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Any small valid model and layout pair validates, every tensor's source and destination regions
        /// tile it exactly once per replica, and the planned refit delivers every entry (executed on buffers).
        #[test]
        fn small_layouts_validate_and_tile_exactly(
            model in tiny_model(),
            (tp, pp, edp, ep, hsdp) in (1u64..=3, 1u64..=2, 1u64..=2, 1u64..=2, 1u64..=2),
            (gen_tp, gen_ep, replicas) in (1u64..=3, 1u64..=2, 1u64..=2),
            (colocated, stacked) in (any::<bool>(), any::<bool>()),
        ) {
            let ep = if model.experts > 0 { ep } else { 1 };
            let gen_ep = if model.experts > 0 { gen_ep } else { 1 };
            let train = TrainingLayout {
                tp, pp: pp.min(model.layers), dp: edp * ep, ep, hsdp_replicas: hsdp, dtype: Dtype::Fp32,
                stacked_layers: stacked || pp > 1,
            };
            let generate = GenerationLayout { tp: gen_tp, ep: gen_ep, dp_replicas: replicas, dtype: Dtype::Bf16 };
            let colocated = colocated && generate.devices() <= train.devices();
            let reshard = inventory(&model, &train, &generate, colocated).unwrap();
            prop_assert_eq!(reshard.tensors.iter().map(|t| t.entries()).sum::<u64>(), model.parameter_count());
            for t in &reshard.tensors {
                for (layout, mesh) in [(&t.source, &reshard.source_mesh), (&t.destination, &reshard.destination_mesh)] {
                    let regions = device_regions(layout, mesh, &t.shape, reshard.split).unwrap();
                    let replicas = regions.iter().map(|r| r.replica).max().unwrap() + 1;
                    let held: u64 = regions.iter().map(|r| r.region.entries()).sum();
                    prop_assert_eq!(held, t.entries() * replicas as u64, "{}", t.name);
                    let first: Vec<_> = regions.iter().filter(|r| r.replica == 0 && !r.region.is_empty()).collect();
                    for (i, a) in first.iter().enumerate() {
                        for b in &first[i + 1..] {
                            prop_assert!(a.region.intersect(&b.region).is_none(), "{} overlaps", t.name);
                        }
                    }
                }
            }
            let refit = plan(&reshard, PlanStrategy::Intersection).unwrap();
            let outcome = verify(&reshard, &refit, VerifyOptions::default()).unwrap();
            prop_assert!(outcome.passed(), "{}", outcome.summary());
        }
    }
}
