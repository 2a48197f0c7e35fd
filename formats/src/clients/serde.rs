use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::wire::{for_each_type, Wire};

struct TextVisitor<T>(PhantomData<T>);

impl<T: Wire> Visitor<'_> for TextVisitor<T>
where
    <T as std::str::FromStr>::Err: fmt::Display,
{
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the text form of a {}", T::SQL_NAME)
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        text.parse().map_err(E::custom)
    }
}

struct BinaryVisitor<T>(PhantomData<T>);

impl<'de, T: Wire> Visitor<'de> for BinaryVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the binary form of a {}", T::SQL_NAME)
    }
    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<T, E> {
        T::from_binary(bytes).map_err(E::custom)
    }
    // Formats that write bytes as a sequence of numbers.
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut bytes = Vec::new();
        while let Some(b) = seq.next_element::<u8>()? {
            bytes.push(b);
        }
        self.visit_bytes(&bytes)
    }
}

macro_rules! serde_impls {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                if s.is_human_readable() {
                    s.collect_str(self)
                } else {
                    s.serialize_bytes(&self.to_binary())
                }
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                if d.is_human_readable() {
                    d.deserialize_str(TextVisitor(PhantomData))
                } else {
                    d.deserialize_bytes(BinaryVisitor(PhantomData))
                }
            }
        }
    };
}

for_each_type!(serde_impls);

#[cfg(test)]
mod tests {
    use crate::nanoflake::Nanoflake;
    use crate::scru160::Scru160;

    #[test]
    fn json_is_the_text_form() {
        let id: Nanoflake = "3kgeoqm2h3".parse().unwrap();
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"3kgeoqm2h3\"");
        let s: Scru160 =
            serde_json::from_str("\"017c083c130732153679e83c4fc65664e6a964a1\"").unwrap();
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            "\"05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51\""
        );
        assert!(serde_json::from_str::<Nanoflake>("\"-1\"").is_err());
        assert!(serde_json::from_str::<Nanoflake>("12345").is_err());
    }
}
