# libavfilter's signalstats and blurdetect run over a frame: the reference the quality tests
# check FrameMeasurer's sums against, and the quality benchmark's cost baseline. Test-only,
# so the product does not carry libavfilter graph code for it. Included by tests/quality and
# benchmarks/quality; whichever comes first defines it.
if(NOT TARGET lbm_test_filter_graph_probe)
  add_library(lbm_test_filter_graph_probe STATIC
    ${PROJECT_SOURCE_DIR}/tests/quality/filter_graph_probe.cpp)
  target_include_directories(lbm_test_filter_graph_probe PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(lbm_test_filter_graph_probe PUBLIC lbm_build_flags lbm_media Qt6::Core
                        PkgConfig::LIBAV)
endif()
