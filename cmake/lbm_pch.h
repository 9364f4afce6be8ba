// The headers nearly every file of a target parses, precompiled once per target
// (cmake/LbmModule.cmake, tests/CMakeLists.txt): parsing was 84% of ui/main_window.cpp's
// compile time (-ftime-report), nearly all of it Qt's and the standard library's headers.
// Each part is taken only when the target can see it (its include path has the module's
// folder), so one header serves every layer. Sources still include what they use;
// -DLBM_PRECOMPILED_HEADERS=OFF builds without this header to check that.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#if __has_include(<QString>)
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#endif

#if __has_include(<QImage>)
#include <QColor>
#include <QImage>
#include <QPainter>
#endif

#if __has_include(<QWidget>)
#include <QLabel>
#include <QVBoxLayout>
#include <QWidget>
#endif

#if __has_include(<QChart>)
#include <QChart>
#include <QChartView>
#include <QValueAxis>
#endif

// The test suites (LBM_TEST_DATA_DIR is theirs); catch_runner.cpp, which includes Catch2
// with CATCH_CONFIG_RUNNER, is not precompiled.
#if defined(LBM_TEST_DATA_DIR) && __has_include(<catch2/catch.hpp>)
#include <catch2/catch.hpp>
#endif
