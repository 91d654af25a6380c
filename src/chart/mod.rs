//! The maths of the pictures, with no UI types: scales and ticks, colours, the tensor view's projection,
//! and the mesh view's tile layout. Components only turn these numbers into SVG.

pub mod mesh;
pub mod palette;
pub mod scale;
pub mod tensor;
