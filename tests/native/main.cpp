// tests/native/main.cpp — Catch2 v2 entry point for every native/Node test file.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
