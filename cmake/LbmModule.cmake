# Layers enforced by the compiler: every library's headers are reachable only through an
# include root of its own, which holds exactly the headers it exports (symbolic links in the
# build tree, so sources keep their "app/session/..." paths). A target sees the headers of
# what it links PUBLIC (transitively) and nothing else, so `ui` including a `sim` header, or
# `session` including `report`, fails to compile instead of relying on review.
#
# lbm_module(TARGET DIR [INTERNAL header...])
#   DIR is the folder relative to the source root ("app/session", "metrics").
#   INTERNAL headers are left out of TARGET's root and exported through TARGET_internal, an
#   INTERFACE target for the few that wire the parts (the session engine, the layer's tests).
#
# Every module compiles with LBM_STRICT_WARNINGS too (-Wshadow -Wconversion, GCC: clang's
# -Wconversion also means -Wsign-conversion, which the fuzz preset's -Werror would fail on).
# PRIVATE: the flags cover the module's own sources, not the tests and benchmarks that link it.
# Qt, FFmpeg and Catch2 headers come in through imported targets, which CMake passes as
# -isystem, so warnings inside them do not count. -Wsign-conversion is not on: qsizetype
# against std::size_t would make it noise on every container index.
set(LBM_INCLUDE_STAGE ${PROJECT_BINARY_DIR}/include)

# lbm_precompile_headers(TARGET): cmake/lbm_pch.h, precompiled for TARGET with its own flags
# (LBM_PRECOMPILED_HEADERS, on by default; off to check every file includes what it uses).
function(lbm_precompile_headers target)
  if(LBM_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/lbm_pch.h)
  endif()
endfunction()

# The libraries share two precompiled headers instead of one each (each took about 6 s of a
# cold build): lbm_lib_pch_core holds std and QtCore, lbm_lib_pch_gui adds QtGui. A library
# reuses the one that matches the Qt modules it names itself, so the header never hands it a
# module it does not link (protocol gets no QImage); a library that sees more (through what it
# links) parses those headers per file. The Qt module defines differ between libraries, which
# GCC accepts because the shared headers never read them; -Winvalid-pch (an error under the
# release and fuzz presets' -Werror) would refuse the header if they did. Widgets and Charts
# (ui) and a library without Qt (metrics, standard C++ only) keep a header of their own. So
# does every library under the fuzz preset, which instruments only the libraries it fuzzes
# (tests/fuzz/CMakeLists.txt), and clang refuses a header built without the same sanitizers.
set(LBM_LIB_PCH_QT_core Qt6::Core)
set(LBM_LIB_PCH_QT_gui Qt6::Core Qt6::Gui)
if(LBM_PRECOMPILED_HEADERS AND NOT LBM_BUILD_FUZZERS)
  foreach(family core gui)
    add_library(lbm_lib_pch_${family} OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cpp)
    target_link_libraries(lbm_lib_pch_${family} PRIVATE lbm_build_flags ${LBM_LIB_PCH_QT_${family}})
    target_compile_options(lbm_lib_pch_${family} PRIVATE ${LBM_STRICT_WARNINGS})
    set_target_properties(lbm_lib_pch_${family} PROPERTIES AUTOMOC OFF)
    lbm_precompile_headers(lbm_lib_pch_${family})
  endforeach()
endif()

# The precompiled header for library TARGET: a shared one when the Qt modules it links
# directly allow (see above), else its own.
function(lbm_library_precompiled_header target)
  if(NOT LBM_PRECOMPILED_HEADERS)
    return()
  endif()
  get_target_property(links ${target} LINK_LIBRARIES)
  if(NOT links)
    set(links "")
  endif()
  if(LBM_BUILD_FUZZERS OR "Qt6::Widgets" IN_LIST links OR "Qt6::Charts" IN_LIST links
     OR NOT links MATCHES "Qt6::")
    lbm_precompile_headers(${target})
  elseif("Qt6::Gui" IN_LIST links)
    target_precompile_headers(${target} REUSE_FROM lbm_lib_pch_gui)
  else()
    target_precompile_headers(${target} REUSE_FROM lbm_lib_pch_core)
  endif()
endfunction()

function(lbm_module target dir)
  cmake_parse_arguments(ARG "" "" "INTERNAL" ${ARGN})
  set(public_root ${LBM_INCLUDE_STAGE}/${target})
  file(REMOVE_RECURSE ${public_root})
  file(MAKE_DIRECTORY ${public_root}/${dir})
  file(GLOB headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/${dir}
       ${PROJECT_SOURCE_DIR}/${dir}/*.h)
  foreach(header IN LISTS headers)
    if(NOT header IN_LIST ARG_INTERNAL)
      file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${dir}/${header} ${public_root}/${dir}/${header}
           SYMBOLIC)
    endif()
  endforeach()
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${public_root}>)
  target_compile_options(${target} PRIVATE ${LBM_STRICT_WARNINGS})
  lbm_library_precompiled_header(${target})
  if(ARG_INTERNAL)
    set(internal_root ${LBM_INCLUDE_STAGE}/${target}_internal)
    file(REMOVE_RECURSE ${internal_root})
    get_filename_component(parent ${internal_root}/${dir} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${dir} ${internal_root}/${dir} SYMBOLIC)
    add_library(${target}_internal INTERFACE)
    target_include_directories(${target}_internal INTERFACE ${internal_root})
    target_link_libraries(${target}_internal INTERFACE ${target})
    target_link_libraries(${target} PRIVATE ${target}_internal)
  endif()
endfunction()
