use std::error::Error;

use bytes::BytesMut;
use postgres_types::{to_sql_checked, FromSql, IsNull, ToSql, Type};

use crate::wire::{for_each_type, Wire};

type BoxError = Box<dyn Error + Sync + Send>;

/// Columns and parameters that carry the text form.
fn is_text(ty: &Type) -> bool {
    matches!(
        *ty,
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN
    )
}

fn accepts<T: Wire>(ty: &Type) -> bool {
    ty.name() == T::SQL_NAME || is_text(ty)
}

fn from_sql<T: Wire>(ty: &Type, raw: &[u8]) -> Result<T, BoxError>
where
    <T as std::str::FromStr>::Err: Error + Sync + Send + 'static,
{
    if is_text(ty) {
        Ok(std::str::from_utf8(raw)?.parse::<T>()?)
    } else {
        Ok(T::from_binary(raw)?)
    }
}

fn to_sql<T: Wire>(value: &T, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
    if is_text(ty) {
        out.extend_from_slice(value.to_string().as_bytes());
    } else {
        out.extend_from_slice(&value.to_binary());
    }
    Ok(IsNull::No)
}

macro_rules! postgres_impls {
    ($t:ty) => {
        impl<'a> FromSql<'a> for $t {
            fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
                from_sql(ty, raw)
            }
            fn accepts(ty: &Type) -> bool {
                accepts::<Self>(ty)
            }
        }

        impl ToSql for $t {
            fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
                to_sql(self, ty, out)
            }
            fn accepts(ty: &Type) -> bool {
                accepts::<Self>(ty)
            }
            to_sql_checked!();
        }
    };
}

for_each_type!(postgres_impls);
