//! What a client sends and receives: each type's SQL name, its binary form
//! (PostgreSQL's `send`/`recv`) and its text form (`out`/`in`). The optional
//! client integrations (`serde`, `postgres-types`, `sqlx`) are written once
//! over this trait.
//!
//! ```
//! use chronoid_formats::nanoflake::Nanoflake;
//! use chronoid_formats::wire::Wire;
//!
//! let id: Nanoflake = "3kgeoqm2h3".parse().unwrap();
//! assert_eq!(id.to_binary(), 362_387_865_620_487i64.to_be_bytes());
//! assert_eq!(Nanoflake::from_binary(&id.to_binary()), Ok(id));
//! assert!(Nanoflake::from_binary(&(-1i64).to_be_bytes()).is_err()); // never negative
//! ```

use std::fmt;

use crate::caloriosa::Caloriosa;
use crate::codokey::Codokey;
use crate::nanoflake::Nanoflake;
use crate::scru160::{self, Scru160};
use crate::uid60::Uid60;

/// Bytes that are not the binary form of a value of the type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidBinary {
    pub type_name: &'static str,
}

impl fmt::Display for InvalidBinary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid binary {} value", self.type_name)
    }
}

impl std::error::Error for InvalidBinary {}

/// A chronoid value as it crosses the wire.
pub trait Wire: Sized + fmt::Display + std::str::FromStr {
    /// The SQL type name (the database resolves it to an OID).
    const SQL_NAME: &'static str;
    /// The SQL name of its array type.
    const SQL_ARRAY_NAME: &'static str;

    /// The binary form PostgreSQL's send function writes.
    fn to_binary(&self) -> Vec<u8>;
    /// The value of a binary form, checked as the receive function checks it.
    fn from_binary(bytes: &[u8]) -> Result<Self, InvalidBinary>;
}

fn invalid<T: Wire>() -> InvalidBinary {
    InvalidBinary {
        type_name: T::SQL_NAME,
    }
}

/// The 8-byte types: a big-endian int8, like bigint's binary form.
fn int8<T: Wire>(bytes: &[u8], make: impl FnOnce(i64) -> Option<T>) -> Result<T, InvalidBinary> {
    let bytes: [u8; 8] = bytes.try_into().map_err(|_| invalid::<T>())?;
    make(i64::from_be_bytes(bytes)).ok_or_else(invalid::<T>)
}

impl Wire for Nanoflake {
    const SQL_NAME: &'static str = "nanoflake";
    const SQL_ARRAY_NAME: &'static str = "_nanoflake";
    fn to_binary(&self) -> Vec<u8> {
        self.to_i64().to_be_bytes().to_vec()
    }
    fn from_binary(bytes: &[u8]) -> Result<Self, InvalidBinary> {
        int8(bytes, Nanoflake::from_i64)
    }
}

impl Wire for Caloriosa {
    const SQL_NAME: &'static str = "caloriosa";
    const SQL_ARRAY_NAME: &'static str = "_caloriosa";
    fn to_binary(&self) -> Vec<u8> {
        self.to_i64().to_be_bytes().to_vec()
    }
    fn from_binary(bytes: &[u8]) -> Result<Self, InvalidBinary> {
        int8(bytes, |v| Caloriosa::from_u64(v as u64))
    }
}

impl Wire for Uid60 {
    const SQL_NAME: &'static str = "uid60";
    const SQL_ARRAY_NAME: &'static str = "_uid60";
    fn to_binary(&self) -> Vec<u8> {
        self.to_i64().to_be_bytes().to_vec()
    }
    fn from_binary(bytes: &[u8]) -> Result<Self, InvalidBinary> {
        int8(bytes, |v| u64::try_from(v).ok().and_then(Uid60::from_u64))
    }
}

/// The 20 bytes, as the text forms and the order read them.
impl Wire for Scru160 {
    const SQL_NAME: &'static str = "scru160";
    const SQL_ARRAY_NAME: &'static str = "_scru160";
    fn to_binary(&self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }
    fn from_binary(bytes: &[u8]) -> Result<Self, InvalidBinary> {
        let bytes: [u8; scru160::LEN] = bytes.try_into().map_err(|_| invalid::<Self>())?;
        Ok(Scru160::from_bytes(bytes))
    }
}

/// One byte per base-36 digit, holding its value; any key some context
/// can make, as the receive function accepts.
impl Wire for Codokey {
    const SQL_NAME: &'static str = "codokey";
    const SQL_ARRAY_NAME: &'static str = "_codokey";
    fn to_binary(&self) -> Vec<u8> {
        self.to_storage()
    }
    fn from_binary(bytes: &[u8]) -> Result<Self, InvalidBinary> {
        Codokey::from_storage(bytes)
            .and_then(|key| Codokey::parse_any(key.as_bytes()).ok())
            .ok_or_else(invalid::<Self>)
    }
}

/// Runs `$body` once per value type, with `$t` naming it: the client
/// integrations implement foreign traits, so each needs one impl per type.
/// (Unused when no client feature is on.)
#[allow(unused_macros)]
macro_rules! for_each_type {
    ($m:ident) => {
        $m!($crate::nanoflake::Nanoflake);
        $m!($crate::scru160::Scru160);
        $m!($crate::codokey::Codokey);
        $m!($crate::caloriosa::Caloriosa);
        $m!($crate::uid60::Uid60);
    };
}
#[allow(unused_imports)]
pub(crate) use for_each_type;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_forms_round_trip_and_reject_what_recv_rejects() {
        let n: Nanoflake = "3kgeoqm2h3".parse().unwrap();
        let s: Scru160 = "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51".parse().unwrap();
        let c: Caloriosa = "b8MpZ6ZrkE9".parse().unwrap();
        let u: Uid60 = "xinaS8QBh".parse().unwrap();
        let k: Codokey = "yjbu".parse().unwrap();
        assert_eq!(Nanoflake::from_binary(&n.to_binary()), Ok(n));
        assert_eq!(Scru160::from_binary(&s.to_binary()), Ok(s));
        assert_eq!(Caloriosa::from_binary(&c.to_binary()), Ok(c));
        assert_eq!(Uid60::from_binary(&u.to_binary()), Ok(u));
        assert_eq!(Codokey::from_binary(&k.to_binary()), Ok(k.clone()));
        assert_eq!(k.to_binary(), vec![34, 19, 11, 30]);
        assert!(Nanoflake::from_binary(&[0; 7]).is_err());
        assert!(Caloriosa::from_binary(&1i64.to_be_bytes()).is_err());
        assert!(Uid60::from_binary(&(1i64 << 60).to_be_bytes()).is_err());
        assert!(Scru160::from_binary(&[0; 19]).is_err());
        assert!(Codokey::from_binary(&[36]).is_err());
        assert!(Codokey::from_binary(&[]).is_err());
    }
}
