# Writes a CTest file with one test per source file of a Catch2 suite: every case SPEC selects
# in that file, run by one process (lbm_discover_files in tests/CMakeLists.txt). Run after the
# suite is built, as:
# cmake -DTEST_EXECUTABLE=... -DTEST_WORKING_DIR=... -DTEST_SPEC=... -DTEST_PREFIX=...
#       -DTEST_SUFFIX=... -DTEST_EXTRA_ARGS=... -DTEST_PROPERTIES=... -DCTEST_FILE=...
#       -P discover_file_groups.cmake
#
# Catch2's -# (--filenames-as-tags) tags each case with its file's name ("[#widget_tests]");
# --list-tags with the spec names the files that hold a selected case, and the spec with the
# file's tag added selects that file's cases again when the test runs.

# One command of the CTest file, every argument quoted as a bracket argument (test specs hold
# [ ] ~ and #, names hold spaces and commas).
function(append_command command)
  set(line "${command}(")
  foreach(argument IN LISTS ARGN)
    string(APPEND line " [==[${argument}]==]")
  endforeach()
  string(APPEND script_text "${line})\n")
  set(script_text "${script_text}" PARENT_SCOPE)
endfunction()

if(NOT EXISTS "${TEST_EXECUTABLE}")
  message(FATAL_ERROR "discover_file_groups: ${TEST_EXECUTABLE} does not exist")
endif()
execute_process(
  COMMAND "${TEST_EXECUTABLE}" --filenames-as-tags --list-tags "${TEST_SPEC}"
  OUTPUT_VARIABLE listing
  RESULT_VARIABLE result
  WORKING_DIRECTORY "${TEST_WORKING_DIR}")
# Catch2 2.13 exits with the number of tags listed; only a crash or a signal is an error here.
if(NOT result MATCHES "^[0-9]+$")
  message(FATAL_ERROR "discover_file_groups: listing the tags of ${TEST_EXECUTABLE} failed: "
                      "${result}\n${listing}")
endif()

set(script_text "")
set(found 0)
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(line MATCHES "^ +[0-9]+ +\\[#([^]]+)\\]$")
    set(file "${CMAKE_MATCH_1}")
    set(test_name "${TEST_PREFIX}${file}.cpp${TEST_SUFFIX}")
    append_command(add_test "${test_name}" "${TEST_EXECUTABLE}" --filenames-as-tags
                   "${TEST_SPEC}[#${file}]" ${TEST_EXTRA_ARGS})
    append_command(set_tests_properties "${test_name}" PROPERTIES WORKING_DIRECTORY
                   "${TEST_WORKING_DIR}" ${TEST_PROPERTIES})
    math(EXPR found "${found} + 1")
  endif()
endforeach()
if(found EQUAL 0)
  message(WARNING "discover_file_groups: no case of ${TEST_EXECUTABLE} matches ${TEST_SPEC}")
endif()
file(WRITE "${CTEST_FILE}" "${script_text}")
