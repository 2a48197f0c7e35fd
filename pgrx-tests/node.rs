#[pg_test]
fn an_asker_is_read_from_its_application_name() {
    use crate::node::{answering::asker, instance};
    let k = asker("chronoid:7:3f:a:east_1", 5).unwrap();
    assert_eq!(
        (k.node_id, k.system, k.since, k.name.as_str(), k.seen_ms),
        (7, 3 * 36 + 15, 10, "east_1", 5)
    );
    assert_eq!(asker("chronoid:-1:9:0", 0).unwrap().name, "system 9");
    assert!(asker("psql", 0).is_none());
    assert!(asker("chronoid:x:1:1:a", 0).is_none());
    assert!(asker("chronoid:1:1", 0).is_none());
    let mine = instance::appname(1023);
    assert!(mine.len() <= 63, "{mine}");
    let read = asker(&mine, 0).unwrap();
    assert_eq!((read.system, read.since), (instance::own_system(), instance::own_since()));
    assert_eq!(instance::base36(u64::MAX), "3w5e11264sgsf");
}
