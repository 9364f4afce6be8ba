# No Catch2 test case name holds a semicolon: catch_discover_tests would split it into two
# CTest tests that each match nothing (and so fail). Run as:
# cmake -DSOURCE_DIR=... -P check_test_names.cmake
file(GLOB_RECURSE sources ${SOURCE_DIR}/tests/*.cpp)
set(bad "")
foreach(source IN LISTS sources)
  file(STRINGS ${source} cases REGEX "TEST_CASE\\(\"[^\"]*;")
  foreach(line IN LISTS cases)
    file(RELATIVE_PATH relative ${SOURCE_DIR} ${source})
    list(APPEND bad "${relative}")
  endforeach()
endforeach()
if(bad)
  list(REMOVE_DUPLICATES bad)
  list(JOIN bad "\n  " listing)
  message(FATAL_ERROR "Test case names with a ';' (use a comma or 'and'):\n  ${listing}")
endif()
