#[pg_test]
fn scru160_round_trips_through_the_type() {
    let id = Spi::get_one::<SqlDatum<chronoid_formats::scru160::Scru160>>(
        "SELECT '017c083c130732153679e83c4fc65664e6a964a1'::scru160",
    )
    .unwrap()
    .unwrap();
    assert_eq!(id.to_string(), "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51");
    assert_eq!(id.counter(), 12821);
}

#[pg_test]
fn scru160_generated_in_one_backend_increase() {
    let ids: Vec<String> = Spi::get_one::<Vec<String>>(
        "SELECT array_agg(gen_scru160()::text ORDER BY g) FROM generate_series(1, 40000) g",
    )
    .unwrap()
    .unwrap();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "text order follows generation order");
}

#[pg_test(error = "invalid length for type scru160: a scru160 is exactly 20 bytes, got 2")]
fn scru160_from_short_bytea_is_rejected() {
    Spi::run("SELECT '\\x0102'::bytea::scru160").unwrap();
}

#[pg_test]
fn backend_local_state_refuses_reentry_and_recovers() {
    static STATE: crate::pg::backend_local::BackendLocal<u32> = crate::pg::backend_local::BackendLocal::new();
    // A nested `with` on the same state would alias its `&mut`: an ERROR.
    let nested = std::panic::catch_unwind(|| STATE.with(|| 1, |_| STATE.with(|| 2, |v| *v)));
    assert!(nested.is_err());
    // The outer call's unwinding released the state.
    assert_eq!(STATE.with(|| 3, |v| { *v += 1; *v }), 2);
}
