# core/cli/cli.cmake — the native command-line tool `attnplay` (the same core as the wasm build).
# apsweep: the sweep's files, plans, emitted scripts and statistics (no processes), and the one
# error sentence (errors.cpp), shared with the Catch2 tests.
set(AP_SWEEP_SOURCES csv.cpp curves.cpp emit.cpp errors.cpp experiment.cpp files.cpp merge.cpp plan.cpp runs.cpp summary.cpp version.cpp)
list(TRANSFORM AP_SWEEP_SOURCES PREPEND ${CMAKE_SOURCE_DIR}/core/cli/)
add_library(apsweep STATIC ${AP_SWEEP_SOURCES})
target_link_libraries(apsweep PUBLIC apcore)
file(GLOB AP_CLI_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/core/cli/*.cpp)
list(REMOVE_ITEM AP_CLI_SOURCES ${AP_SWEEP_SOURCES})
add_executable(attnplay ${AP_CLI_SOURCES})
target_link_libraries(attnplay PRIVATE apsweep)
find_package(Threads REQUIRED)
target_link_libraries(attnplay PRIVATE Threads::Threads)
# The engine string of `attnplay --version` and of every sweep row: the package version and the
# sources' `git describe` when CMake configured the build ("unknown" outside a git checkout).
execute_process(COMMAND git describe --always --dirty WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE AP_GIT_DESCRIBE OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE ap_git_rc)
if(NOT ap_git_rc EQUAL 0 OR AP_GIT_DESCRIBE STREQUAL "")
  set(AP_GIT_DESCRIBE unknown)
endif()
set_source_files_properties(${CMAKE_SOURCE_DIR}/core/cli/version.cpp PROPERTIES COMPILE_DEFINITIONS
                            "AP_GIT_DESCRIBE=\"${AP_GIT_DESCRIBE}\"")
# The text task's bundled corpus (the page's: build-scripts/corpus.mjs, docs/corpus.md), which
# `train --set task=text` without --text-file trains on. Written with the build when node is there
# (about 1 s once, nothing after); without it the CLI refuses such a run, naming --text-file.
set(AP_BUNDLED_CORPUS ${CMAKE_SOURCE_DIR}/web/public/corpus/jargon.txt)
set_source_files_properties(${CMAKE_SOURCE_DIR}/core/cli/corpus.cpp PROPERTIES COMPILE_DEFINITIONS
                            "AP_BUNDLED_CORPUS=\"${AP_BUNDLED_CORPUS}\"")
find_program(AP_NODE node)
if(AP_NODE)
  add_custom_target(corpus ALL
    COMMAND sh -c "'${AP_NODE}' '${CMAKE_SOURCE_DIR}/build-scripts/corpus.mjs' '${AP_BUNDLED_CORPUS}' >/dev/null || echo 'corpus: not written; train --set task=text will need --text-file'"
    COMMENT "The text task's bundled corpus" VERBATIM)
endif()
