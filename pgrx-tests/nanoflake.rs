#[pg_test]
fn text_round_trip_through_the_type() {
    let id = Spi::get_one::<SqlDatum<chronoid_formats::nanoflake::Nanoflake>>("SELECT '3kgeoqm2h3'::nanoflake").unwrap().unwrap();
    assert_eq!(id.to_i64(), 362_387_865_620_487);
    let text = Spi::get_one::<String>("SELECT '3KGEOQM2H3'::nanoflake::text").unwrap().unwrap();
    assert_eq!(text, "3kgeoqm2h3");
}

#[pg_test]
fn generated_ids_increase_and_carry_the_node_id() {
    // chronoid.node_id = 77 is the test server's (src/lib.rs, pg_test).
    let ids: Vec<i64> = Spi::get_one::<Vec<i64>>(
        "SELECT array_agg(gen_nanoflake()::bigint ORDER BY g) FROM generate_series(1, 10000) g",
    )
    .unwrap()
    .unwrap();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let gen = Spi::get_one::<i32>("SELECT nanoflake_generator(gen_nanoflake())").unwrap();
    assert_eq!(gen, Some(77));
}

#[pg_test(error = "invalid input syntax for type nanoflake: \"-1\"")]
fn negative_text_is_rejected() {
    Spi::run("SELECT '-1'::nanoflake").unwrap();
}
