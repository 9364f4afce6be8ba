// The translation unit the suites' shared precompiled header is built beside
// (tests/CMakeLists.txt); it has no code of its own.
