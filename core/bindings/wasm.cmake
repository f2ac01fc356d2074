# core/bindings/wasm.cmake — the wasm module, two flavours from the same objects:
#   attnplay.mjs + attnplay.wasm         ES module for browsers and workers (Vite imports it)
#   attnplay.node.js + attnplay.node.wasm CommonJS for Node tests (given wasmBinary, see STYLE)
# The threaded build (AP_WASM_THREADS) adds attnplay.worker.js / attnplay.node.worker.js, the
# script of the Web Workers that run its pthreads; threads-pre.js sizes their pool.
set(AP_EMBIND_FLAGS --bind -sMODULARIZE=1 -sEXPORT_NAME=createAttnplay -sALLOW_MEMORY_GROWTH=1
    -sINITIAL_MEMORY=33554432 -sFILESYSTEM=0 -fwasm-exceptions)
if(AP_WASM_THREADS)
  # Workers are started with the module (PTHREAD_POOL_SIZE): a pthread created later would need
  # its Web Worker to load while the creating thread blocks, which never finishes.
  list(APPEND AP_EMBIND_FLAGS -sPTHREAD_POOL_SIZE=Module.pthreadPoolSize -sPTHREAD_POOL_SIZE_STRICT=2
       --pre-js ${CMAKE_SOURCE_DIR}/core/bindings/threads-pre.js)
endif()
add_library(apbind OBJECT ${CMAKE_SOURCE_DIR}/core/bindings/bindings.cpp)
target_link_libraries(apbind PUBLIC apcore)
# once per call from JS (JSON in and out): for size, like apcold (CMakeLists.txt)
target_compile_options(apbind PRIVATE -Oz)
if(AP_WASM_THREADS)
  # typed catch clauses work with -pthread only with this file's plain __wasm_lpad_context
  # (Debian's clang 14 vs the thread_local one of Emscripten 3.1.6's libunwind: see the file)
  target_sources(apbind PRIVATE ${CMAKE_SOURCE_DIR}/core/bindings/wasm_eh_threads.cpp)
endif()

# The browser's module says its refusals by code: its own copy of the table of codes without the
# English templates (core/refusal/codes.cpp, AP_NO_TEMPLATES; the worker renders them from
# web/src/common/messages/refusals.en.js). Linked before apcore, it stands in for the archive's
# codes object, which is then never pulled in. ap_node keeps the templates (the Node tests, the
# generated refusals.en.js).
add_library(apcodes_web OBJECT ${CMAKE_SOURCE_DIR}/core/refusal/codes.cpp)
target_compile_definitions(apcodes_web PRIVATE AP_NO_TEMPLATES)
target_link_libraries(apcodes_web PUBLIC apkernels)
target_compile_options(apcodes_web PRIVATE -Oz)
add_executable(ap_web $<TARGET_OBJECTS:apbind> $<TARGET_OBJECTS:apcodes_web>)
target_link_libraries(ap_web PRIVATE apcore)
set_target_properties(ap_web PROPERTIES OUTPUT_NAME attnplay SUFFIX .mjs)
target_link_options(ap_web PRIVATE ${AP_EMBIND_FLAGS} -sEXPORT_ES6=1 -sENVIRONMENT=web,worker)
if(NOT AP_WASM_THREADS)
  # The widget's modules (simd, scalar) are split in two: the link leaves attnplay.wasm.orig and an
  # instrumented attnplay.wasm, and build-scripts/wasm-split.mjs (run by build-wasm.sh) keeps in
  # attnplay.wasm what a first view runs and moves the rest to attnplay.deferred.wasm, which the
  # glue loads on the first call into it (web/src/worker/load-module.js supplies the loader).
  target_link_options(ap_web PRIVATE -sSPLIT_MODULE=1 -Wno-experimental)
  # build-scripts/wasm-split.mjs profiles the browser's module under Node: the objects of ap_web
  # (so its data layout, and the EM_ASM addresses the glue names) behind Node's glue.
  add_executable(ap_split $<TARGET_OBJECTS:apbind> $<TARGET_OBJECTS:apcodes_web>)
  target_link_libraries(ap_split PRIVATE apcore)
  set_target_properties(ap_split PROPERTIES OUTPUT_NAME attnplay.split SUFFIX .js)
  target_link_options(ap_split PRIVATE ${AP_EMBIND_FLAGS} -sENVIRONMENT=node)
endif()

add_executable(ap_node $<TARGET_OBJECTS:apbind>)
target_link_libraries(ap_node PRIVATE apcore)
set_target_properties(ap_node PROPERTIES OUTPUT_NAME attnplay.node SUFFIX .js)
target_link_options(ap_node PRIVATE ${AP_EMBIND_FLAGS} -sENVIRONMENT=node)
