# core/cli/cli.cmake — the native command-line tool `attnplay` (the same core as the wasm build).
file(GLOB AP_CLI_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/core/cli/*.cpp)
add_executable(attnplay ${AP_CLI_SOURCES})
target_link_libraries(attnplay PRIVATE apcore)
find_package(Threads REQUIRED)
target_link_libraries(attnplay PRIVATE Threads::Threads)
