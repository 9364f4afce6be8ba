# Installs hls.js exactly as the lockfile pins it and copies the browser build and its licence
# next to the viewer page's other files. Run as:
#   cmake -DSOURCE_DIR=app/broadcast/viewer -DOUT_DIR=<build dir> -DNPM=<npm> -P vendor_hls.cmake
file(MAKE_DIRECTORY ${OUT_DIR})
file(COPY ${SOURCE_DIR}/package.json ${SOURCE_DIR}/package-lock.json DESTINATION ${OUT_DIR})
execute_process(
  COMMAND ${NPM} ci --ignore-scripts --no-audit --no-fund --loglevel=error
          --fetch-timeout=60000 --fetch-retries=2
  WORKING_DIRECTORY ${OUT_DIR}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(NOT result EQUAL 0 OR NOT EXISTS ${OUT_DIR}/node_modules/hls.js/dist/hls.min.js)
  message(FATAL_ERROR
    "Could not vendor hls.js for the broadcast viewer page: 'npm ci' in ${OUT_DIR} failed "
    "(${result}).\n${output}\n"
    "The build fetches hls.js (pinned with its integrity in app/broadcast/viewer/package-lock.json) "
    "from the npm registry. Check that the registry is reachable ('npm ping', 'npm config get "
    "registry', a proxy in 'npm config get https-proxy'), then build again.")
endif()
file(COPY_FILE ${OUT_DIR}/node_modules/hls.js/dist/hls.min.js ${OUT_DIR}/hls.min.js ONLY_IF_DIFFERENT)
file(COPY_FILE ${OUT_DIR}/node_modules/hls.js/LICENSE ${OUT_DIR}/hls.js-LICENSE.txt ONLY_IF_DIFFERENT)
