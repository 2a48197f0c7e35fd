//! See tests/clients.rs.
