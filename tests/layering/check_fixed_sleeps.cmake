# No test sleeps for a fixed time to prove that something did or did not happen: such a test
# passes on a fast machine and fails on a loaded one, or passes whatever the code does. Tests
# wait for a condition instead (QTest::qWaitFor, QSignalSpy::wait, a deadline loop on an
# observable). A fixed wait that proves nothing (pacing a slow consumer, letting a screenshot
# paint) says so on its line with a "not a proof:" comment and its reason. Run as:
# cmake -DSOURCE_DIR=... -P check_fixed_sleeps.cmake
cmake_policy(SET CMP0007 NEW)
file(GLOB_RECURSE sources ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.h)
set(bad "")
foreach(source IN LISTS sources)
  file(STRINGS ${source} lines
       REGEX "(qWait\\([0-9]|qSleep\\(|sleep_for\\(|msleep\\(|usleep\\(|[^_]sleep\\()")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "not a proof:")
      file(RELATIVE_PATH relative ${SOURCE_DIR} ${source})
      string(STRIP "${line}" line)
      string(REPLACE ";" "," line "${line}")
      list(APPEND bad "${relative}: ${line}")
    endif()
  endforeach()
endforeach()
if(bad)
  list(JOIN bad "\n  " listing)
  message(FATAL_ERROR "Fixed sleeps in tests (wait for a condition instead, or mark a wait "
                      "that proves nothing with '// not a proof: <why>'):\n  ${listing}")
endif()
