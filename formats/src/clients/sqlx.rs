use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueRef, Postgres};
use sqlx::{Decode, Encode, Type, TypeInfo, ValueRef};

use crate::wire::{for_each_type, Wire};

fn decode<T: Wire>(value: PgValueRef<'_>) -> Result<T, BoxDynError>
where
    <T as std::str::FromStr>::Err: std::error::Error + Sync + Send + 'static,
{
    // A column of the chronoid type arrives in its binary form; a text
    // column (or a text-format result) as its text form.
    let ours = value.type_info().name() == T::SQL_NAME;
    match value.format() {
        sqlx::postgres::PgValueFormat::Binary if ours => Ok(T::from_binary(value.as_bytes()?)?),
        _ => Ok(value.as_str()?.parse::<T>()?),
    }
}

macro_rules! sqlx_impls {
    ($t:ty) => {
        impl Type<Postgres> for $t {
            fn type_info() -> PgTypeInfo {
                PgTypeInfo::with_name(<$t as Wire>::SQL_NAME)
            }
            fn compatible(ty: &PgTypeInfo) -> bool {
                *ty == Self::type_info() || <&str as Type<Postgres>>::compatible(ty)
            }
        }

        impl PgHasArrayType for $t {
            fn array_type_info() -> PgTypeInfo {
                PgTypeInfo::with_name(<$t as Wire>::SQL_ARRAY_NAME)
            }
        }

        impl Encode<'_, Postgres> for $t {
            fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
                buf.extend_from_slice(&self.to_binary());
                Ok(IsNull::No)
            }
        }

        impl Decode<'_, Postgres> for $t {
            fn decode(value: PgValueRef<'_>) -> Result<Self, BoxDynError> {
                decode(value)
            }
        }
    };
}

for_each_type!(sqlx_impls);
