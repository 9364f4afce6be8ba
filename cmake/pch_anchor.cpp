// The translation unit a shared precompiled header is built beside (cmake/LbmModule.cmake for
// the libraries, tests/CMakeLists.txt for the suites); it has no code of its own.
