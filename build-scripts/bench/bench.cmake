# build-scripts/bench/bench.cmake — `apbench`: single-thread GFLOP/s of the packed GEMMs at the
# model's shapes (and the naive GEMM for scale). Natively `./apbench`; under Emscripten a single
# CommonJS file for `node apbench.js`. `--quick` for smoke tests.
add_executable(apbench ${CMAKE_CURRENT_LIST_DIR}/bench_kernels.cpp)
target_link_libraries(apbench PRIVATE apcore)
if(EMSCRIPTEN)
  target_link_options(apbench PRIVATE -sSINGLE_FILE=1 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1
                      -sEXIT_RUNTIME=1)
endif()

# `apbench-train`: tiny-ref training steps/s and achieved GFLOP/s (bench_train.cpp).
add_executable(apbench-train ${CMAKE_CURRENT_LIST_DIR}/bench_train.cpp)
target_link_libraries(apbench-train PRIVATE apcore)
if(EMSCRIPTEN)
  target_link_options(apbench-train PRIVATE -sSINGLE_FILE=1 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1
                      -sEXIT_RUNTIME=1)
endif()
