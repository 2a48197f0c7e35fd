-- chronoid 0.6.0 -> 0.7.0: no SQL object changes yet; each change to the
-- SQL surface after 0.6.0 goes here (tests/t/018_extension_upgrade.pl
-- updates every released version and compares the catalog with a fresh
-- install's).
\echo Use "ALTER EXTENSION chronoid UPDATE TO '0.7.0'" to load this file. \quit
