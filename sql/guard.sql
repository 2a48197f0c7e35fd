-- complain if this script is run in psql rather than by CREATE EXTENSION
\echo Use "CREATE EXTENSION chronoid" to load this file. \quit
