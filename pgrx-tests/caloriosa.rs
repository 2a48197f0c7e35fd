#[pg_test]
fn caloriosa_generator_fills_its_fields() {
    let row = Spi::get_two::<i32, bool>(
        "SELECT caloriosa_increment(c), caloriosa_timestamp(c) > now() - interval '1 minute' \
         FROM (SELECT gen_caloriosa() c) s",
    )
    .unwrap();
    assert!(matches!(row, (Some(0..=1023), Some(true))));
}

#[pg_test(error = "invalid input syntax for type caloriosa: \"katjjMQN\"")]
fn caloriosa_refuses_the_old_layout() {
    Spi::run("SELECT 'katjjMQN'::caloriosa").unwrap();
}

#[pg_test]
fn generated_names_carry_the_node_id_in_their_salt() {
    // chronoid.node_id = 77 is the test server's (src/lib.rs, pg_test): the
    // salt's low 10 bits; its top 2 stay random.
    let (all, kinds) = Spi::get_two::<bool, i64>(
        "SELECT bool_and(caloriosa_random(c) & 1023 = 77), count(DISTINCT caloriosa_random(c) >> 10) \
         FROM (SELECT gen_caloriosa() AS c FROM generate_series(1, 1000)) s",
    )
    .unwrap();
    assert_eq!(all, Some(true));
    assert!(kinds.unwrap() > 1);
}
