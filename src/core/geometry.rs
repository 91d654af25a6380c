//! Hyper-rectangles in tensor coordinates: the boxes that regions and pieces are made of.

use serde::{Deserialize, Serialize};

/// The largest tensor rank the tool accepts (DTensor itself has no limit; eight covers every weight).
pub const MAX_RANK: usize = 8;

/// A half-open interval `[start, end)` along one tensor dim. `start == end` is an empty interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Interval {
    pub start: u64,
    pub end: u64,
}

impl Interval {
    pub const fn new(start: u64, end: u64) -> Self {
        Self { start, end }
    }
    #[inline(always)]
    pub const fn len(self) -> u64 {
        self.end.saturating_sub(self.start)
    }
    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }
    /// The common part of two intervals; `None` when they only touch or are disjoint (touching edges do not
    /// overlap, since intervals are half-open).
    pub fn intersect(self, other: Interval) -> Option<Interval> {
        let start = self.start.max(other.start);
        let end = self.end.min(other.end);
        (start < end).then_some(Interval { start, end })
    }
}

/// A box in tensor coordinates: an offset and an extent per tensor dim, rank at most [`MAX_RANK`].
///
/// `Copy` and allocation-free so that planning millions of pieces allocates nothing per piece. Dims past
/// `rank` are zero and never read.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    rank: u8,
    offset: [u64; MAX_RANK],
    shape: [u64; MAX_RANK],
}

impl Region {
    /// The box `[offset, offset + shape)`; `None` if the ranks differ or exceed [`MAX_RANK`].
    pub fn new(offset: &[u64], shape: &[u64]) -> Option<Region> {
        if offset.len() != shape.len() || shape.len() > MAX_RANK {
            return None;
        }
        let mut region = Region { rank: shape.len() as u8, offset: [0; MAX_RANK], shape: [0; MAX_RANK] };
        region.offset[..shape.len()].copy_from_slice(offset);
        region.shape[..shape.len()].copy_from_slice(shape);
        Some(region)
    }

    /// The whole tensor of this shape, at offset zero.
    pub fn whole(shape: &[u64]) -> Option<Region> {
        Region::new(&[0; MAX_RANK][..shape.len().min(MAX_RANK)], shape)
    }

    /// Builds a box from one interval per dim (at most [`MAX_RANK`]; extra dims are ignored).
    pub fn from_intervals(intervals: impl IntoIterator<Item = Interval>) -> Region {
        let mut region = Region { rank: 0, offset: [0; MAX_RANK], shape: [0; MAX_RANK] };
        for (dim, interval) in intervals.into_iter().take(MAX_RANK).enumerate() {
            region.offset[dim] = interval.start;
            region.shape[dim] = interval.len();
            region.rank = dim as u8 + 1;
        }
        region
    }

    pub fn rank(&self) -> usize {
        self.rank as usize
    }
    pub fn offset(&self) -> &[u64] {
        &self.offset[..self.rank()]
    }
    #[inline(always)]
    pub fn shape(&self) -> &[u64] {
        &self.shape[..self.rank()]
    }
    pub fn interval(&self, dim: usize) -> Interval {
        Interval::new(self.offset[dim], self.offset[dim] + self.shape[dim])
    }
    /// Sets dim `dim` to `interval`, so that a loop can reuse one box (dims past the rank are ignored).
    #[inline(always)]
    pub fn set_interval(&mut self, dim: usize, interval: Interval) {
        if dim < self.rank() {
            self.offset[dim] = interval.start;
            self.shape[dim] = interval.len();
        }
    }
    /// Number of entries; saturates rather than wrapping (validated specs never reach `u64::MAX`).
    ///
    /// Overflow is checked by leading zeros: the planner calls this for every piece, and the release build
    /// (optimised for size) would otherwise call a 128-bit multiply per dim.
    #[inline]
    pub fn entries(&self) -> u64 {
        let mut entries = 1u64;
        for &n in &self.shape[..usize::from(self.rank).min(MAX_RANK)] {
            entries = if entries.leading_zeros() + n.leading_zeros() >= u64::BITS {
                entries * n
            } else {
                entries.saturating_mul(n)
            };
        }
        entries
    }
    pub fn is_empty(&self) -> bool {
        self.shape().contains(&0)
    }
    /// The common box, or `None` when the boxes share no entry (touching faces share none).
    pub fn intersect(&self, other: &Region) -> Option<Region> {
        if self.rank != other.rank {
            return None;
        }
        let mut out = *self;
        for dim in 0..self.rank() {
            let common = self.interval(dim).intersect(other.interval(dim))?;
            out.offset[dim] = common.start;
            out.shape[dim] = common.len();
        }
        Some(out)
    }
    /// Whether every entry of `other` lies in `self` (an empty `other` is contained anywhere of its rank).
    pub fn contains(&self, other: &Region) -> bool {
        self.rank == other.rank
            && (other.is_empty()
                || (0..self.rank()).all(|d| {
                    let (a, b) = (self.interval(d), other.interval(d));
                    a.start <= b.start && b.end <= a.end
                }))
    }
    /// The same box with two dims exchanged (used by fault injection).
    pub fn swapped(&self, a: usize, b: usize) -> Region {
        let mut out = *self;
        out.offset.swap(a, b);
        out.shape.swap(a, b);
        out
    }
    /// The same box moved by `delta` along `dim` (saturating at zero).
    pub fn shifted(&self, dim: usize, delta: i64) -> Region {
        let mut out = *self;
        out.offset[dim] = out.offset[dim].saturating_add_signed(delta);
        out
    }
}

impl std::fmt::Debug for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Region{{offset: {:?}, shape: {:?}}}", self.offset(), self.shape())
    }
}

impl Serialize for Region {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Region", 2)?;
        s.serialize_field("offset", self.offset())?;
        s.serialize_field("shape", self.shape())?;
        s.end()
    }
}

/// Bytes per entry of each number format the tool knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dtype {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int32,
}

impl Dtype {
    pub const ALL: [Dtype; 6] = [Dtype::Fp32, Dtype::Bf16, Dtype::Fp16, Dtype::Fp8, Dtype::Int8, Dtype::Int32];

    pub const fn bytes(self) -> u64 {
        match self {
            Dtype::Fp32 | Dtype::Int32 => 4,
            Dtype::Bf16 | Dtype::Fp16 => 2,
            Dtype::Fp8 | Dtype::Int8 => 1,
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Fp16 => "fp16",
            Dtype::Fp8 => "fp8",
            Dtype::Int8 => "int8",
            Dtype::Int32 => "int32",
        }
    }
    /// Whether every number of `other` is a number of this format: converting to it loses nothing
    /// (bf16 → fp32, int8 → int32, fp8 → bf16).
    pub fn holds_every(self, other: Dtype) -> bool {
        use Dtype::*;
        self == other
            || matches!((self, other), (Fp32, Bf16 | Fp16 | Fp8 | Int8) | (Bf16 | Fp16, Fp8 | Int8) | (Int32, Int8))
    }
    /// The number this format stores for the whole number `value`: floats keep their significant bits
    /// (round to nearest, ties to even) and saturate to `u64::MAX` (infinity) beyond their largest finite
    /// number; integers keep their low bits (a cast wraps). Used by the correctness check to compare values
    /// after a declared conversion: distinct entries can become equal, which is why it also compares each
    /// entry's identity.
    pub fn represent(self, value: u64) -> u64 {
        let (bits, max) = match self {
            Dtype::Int8 => return value & 0xFF,
            Dtype::Int32 => return value & 0xFFFF_FFFF,
            Dtype::Fp32 => (24, u64::MAX),
            Dtype::Bf16 => (8, u64::MAX),
            Dtype::Fp16 => (11, 65_504),
            // e4m3, the common format for weights (e5m2, also read as fp8, moves the same bytes).
            Dtype::Fp8 => (4, 448),
        };
        let width = 64 - value.leading_zeros();
        let rounded = if width <= bits {
            value
        } else {
            let drop = width - bits;
            let (kept, rest, half) = (value >> drop, value & ((1u64 << drop) - 1), 1u64 << (drop - 1));
            let up = rest > half || (rest == half && kept & 1 == 1);
            // Rounding up may carry into a new top bit, and past u64 (then it is beyond every range).
            (kept + u64::from(up)).saturating_mul(1u64 << drop)
        };
        if rounded > max { u64::MAX } else { rounded }
    }
    /// Accepts the tool's names and PyTorch's (`torch.bfloat16`, `float32`, `float8_e4m3fn`, …).
    pub fn parse(text: &str) -> Option<Dtype> {
        let t = text.trim().trim_start_matches("torch.").to_ascii_lowercase();
        Some(match t.as_str() {
            "fp32" | "float32" | "float" | "f32" => Dtype::Fp32,
            "bf16" | "bfloat16" => Dtype::Bf16,
            "fp16" | "float16" | "half" | "f16" => Dtype::Fp16,
            "fp8" | "float8" | "float8_e4m3fn" | "float8_e5m2" | "e4m3" | "e5m2" => Dtype::Fp8,
            "int8" | "i8" => Dtype::Int8,
            "int32" | "i32" => Dtype::Int32,
            _ => return None,
        })
    }
}

impl std::fmt::Display for Dtype {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod represent_tests {
    use super::Dtype;

    /// `value` rounded to `bits` significant bits through f64 (exact below 2^53), ties to even.
    fn reference(value: u64, bits: i32) -> u64 {
        if value == 0 {
            return 0;
        }
        let x = value as f64;
        let ulp = 2f64.powi(x.log2().floor() as i32 - bits + 1);
        ((x / ulp).round_ties_even() * ulp) as u64
    }

    #[test]
    fn floats_keep_their_significant_bits_and_saturate_beyond_their_range() {
        // bf16 between 512 and 1024 holds multiples of 4: 1007 is stored as 1008.
        assert_eq!(Dtype::Bf16.represent(1007), 1008);
        assert_eq!(Dtype::Bf16.represent(1_024_007), 1_024_000);
        assert_eq!(Dtype::Fp32.represent(16_777_217), 16_777_216, "2^24 + 1 is a tie, to even");
        assert_eq!(Dtype::Fp16.represent(65_504), 65_504);
        assert_eq!(Dtype::Fp16.represent(65_520), u64::MAX, "rounds past fp16's largest finite number");
        assert_eq!(Dtype::Fp8.represent(7), 7);
        assert_eq!(Dtype::Fp8.represent(17), 16);
        assert_eq!(Dtype::Fp8.represent(1007), u64::MAX);
        assert_eq!(Dtype::Bf16.represent(u64::MAX), u64::MAX);
        assert_eq!(Dtype::Int8.represent(1007), 1007 & 0xFF);
        assert_eq!(Dtype::Int32.represent(1 << 40 | 5), 5);
    }

    #[test]
    fn a_format_holds_another_when_it_represents_every_number_of_it() {
        // Checked on the numbers this module can represent exactly: 0..=2^16 and the formats' extremes.
        for to in Dtype::ALL {
            for from in Dtype::ALL {
                if !to.holds_every(from) {
                    continue;
                }
                for v in (0..=65_536u64).chain([448, 65_504, 1 << 24]) {
                    let x = from.represent(v);
                    if x != u64::MAX {
                        assert_eq!(to.represent(x), x, "{to:?} holds {from:?}'s {x}");
                    }
                }
            }
        }
        assert!(Dtype::Fp32.holds_every(Dtype::Bf16) && !Dtype::Bf16.holds_every(Dtype::Fp32));
        assert!(!Dtype::Int8.holds_every(Dtype::Fp8) && !Dtype::Fp32.holds_every(Dtype::Int32));
    }

    proptest::proptest! {
        #[test]
        fn float_rounding_matches_f64_arithmetic(value in 0u64..(1 << 53)) {
            for (dtype, bits) in [(Dtype::Fp32, 24), (Dtype::Bf16, 8)] {
                proptest::prop_assert_eq!(dtype.represent(value), reference(value, bits), "{:?} {}", dtype, value);
            }
            let fp16 = reference(value, 11);
            proptest::prop_assert_eq!(Dtype::Fp16.represent(value), if fp16 > 65_504 { u64::MAX } else { fp16 });
        }

        #[test]
        fn fp32_rounding_matches_the_cast(value in proptest::prelude::any::<u64>()) {
            // Rust's u64 → f32 cast rounds to nearest, ties to even; back to u64 it saturates.
            proptest::prop_assert_eq!(Dtype::Fp32.represent(value), value as f32 as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_intervals_do_not_overlap() {
        assert_eq!(Interval::new(0, 4).intersect(Interval::new(4, 8)), None);
        assert_eq!(Interval::new(0, 5).intersect(Interval::new(4, 8)), Some(Interval::new(4, 5)));
    }

    #[test]
    fn region_intersection_is_per_dim() {
        let a = Region::new(&[0, 0], &[4, 6]).unwrap();
        let b = Region::new(&[0, 3], &[12, 3]).unwrap();
        let c = a.intersect(&b).unwrap();
        assert_eq!((c.offset(), c.shape(), c.entries()), (&[0, 3][..], &[4, 3][..], 12));
        assert!(a.contains(&c) && b.contains(&c));
        assert!(Region::new(&[4, 0], &[4, 6]).unwrap().intersect(&a).is_none());
    }

    #[test]
    fn regions_reject_mismatched_or_excessive_rank() {
        assert!(Region::new(&[0], &[1, 2]).is_none());
        assert!(Region::new(&[0; 9], &[1; 9]).is_none());
    }

    #[test]
    fn dtypes_parse_torch_names() {
        assert_eq!(Dtype::parse("torch.bfloat16"), Some(Dtype::Bf16));
        assert_eq!(Dtype::parse("FP32"), Some(Dtype::Fp32));
        assert_eq!(Dtype::parse("fp64"), None);
        assert_eq!(Dtype::Fp8.bytes(), 1);
    }
}
