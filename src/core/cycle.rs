//! Placeholder: the cycle maths module is being written.
