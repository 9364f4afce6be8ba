#pragma once
// Workload files and the JSON a workload turns into: the seed's load_workload (overrides,
// fallbacks, Python's int()/float()/str() coercions, its validation order and messages),
// describe, and the benchmark's --image
// resolver that inlines a local file as a data: URL.
//
// Errors: the seed's ValueError texts are thrown as lbm::MetricError word for word
// ("A workload file must contain a JSON object.", "camera_action_script[0] must hold ...").
// Failures the seed leaves to Python itself (unreadable file, invalid JSON, int("abc"),
// a missing after_chunk) are lbm::report::ReportError with a message naming the file or
// field. Both derive from std::exception; what() is the user-facing text.
//
// One coercion cannot match Python exactly: Qt 6 parses 5.0 as the integer 5, so a prompt
// written as the number 5.0 becomes "5" where Python's str() gives "5.0". Numeric fields are
// unaffected.

#include "metrics/camera_script.h"
#include "metrics/prompt_update.h"
#include "metrics/workload.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>

namespace lbm::report {

// The most chunks a workload can ask for. Each chunk adds at least "[[],[],[]]," to
// session.start's camera_action_script and the server refuses a session.start over 4 MiB
// (protocol.md), so more can never run. Checked before a script is built: a file naming
// 6e18 chunks made the builder's reserve() throw std::length_error past every caller.
inline constexpr long long kMaxWorkloadChunks = 4LL * 1024 * 1024 / 11;

// Turns a workload's image field into an http(s):// or data: URL (the seed's image_resolver).
// An empty function means "use the text as it is", as the seed does without a resolver.
using ImageResolver = std::function<QString(const QString& image)>;

// CLI flags that win over the file when set (the seed's overrides with None left out).
struct WorkloadOverrides {
    std::optional<QString> prompt;
    std::optional<QString> negative_prompt;
    std::optional<int> width;
    std::optional<int> height;
    std::optional<int> fps;
    std::optional<long long> seed;
    std::optional<double> flow_shift;
};

// load_workload(path, image_resolver=, overrides=). Throws MetricError / ReportError.
lbm::Workload loadWorkloadFile(const QString& path, const WorkloadOverrides& overrides = {},
                               ImageResolver resolver = {});
// The same from an already parsed document (what the file would hold).
lbm::Workload loadWorkloadDocument(const QJsonObject& document,
                                   const WorkloadOverrides& overrides = {},
                                   ImageResolver resolver = {});

// Workload.describe().
QJsonObject describeWorkload(const lbm::Workload& workload);

// The benchmark's --image handling: http://, https:// and data: pass through; a readable
// local file becomes data:<mime>;base64,<bytes> with the MIME type from the extension
// (image/png when unknown). Anything else throws ReportError
// "--image is neither a URL nor a readable file: VALUE".
QString resolveImageReference(const QString& image);
// The MIME type resolveImageReference uses for a file name ("image/png" when unknown).
QString imageMimeTypeForPath(const QString& path);

} // namespace lbm::report
