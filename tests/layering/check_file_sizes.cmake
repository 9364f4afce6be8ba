# No source file in app/ or ui/ over LIMIT lines (issue 13): a file that long has stopped
# having one job. Run as: cmake -DSOURCE_DIR=... -DLIMIT=600 -P check_file_sizes.cmake
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h
     ${SOURCE_DIR}/ui/*.cpp ${SOURCE_DIR}/ui/*.h)
set(too_long "")
foreach(source IN LISTS sources)
  # Newlines, not file(STRINGS), which would skip the empty lines.
  file(READ ${SOURCE_DIR}/${source} text)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines count)
  if(count GREATER LIMIT)
    list(APPEND too_long "${source} (${count} lines)")
  endif()
endforeach()
list(LENGTH sources checked)
if(too_long)
  list(JOIN too_long "\n  " listing)
  message(FATAL_ERROR "Over ${LIMIT} lines; split by responsibility:\n  ${listing}")
endif()
message(STATUS "${checked} files in app/ and ui/, none over ${LIMIT} lines")
