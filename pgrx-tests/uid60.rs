#[pg_test]
fn uid60_generator_fills_its_fields() {
    let seq = Spi::get_one::<i32>("SELECT uid60_sequence(gen_uid60())").unwrap().unwrap();
    assert!((0..=511).contains(&seq));
}

#[pg_test]
fn uid60_display_round_trips_the_seed_example() {
    let n = Spi::get_one::<i64>("SELECT 'xinaS8QBh'::uid60::bigint").unwrap().unwrap();
    assert_eq!(n, 11_093_174_944_930_914);
}

#[pg_test]
fn generated_ids_carry_the_node_id_in_their_free_bits() {
    // chronoid.node_id = 77 is the test server's (src/lib.rs, pg_test).
    let all = Spi::get_one::<bool>(
        "SELECT bool_and(uid60_random(gen_uid60()) = 77) FROM generate_series(1, 1000)",
    )
    .unwrap();
    assert_eq!(all, Some(true));
}
