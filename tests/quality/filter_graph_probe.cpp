#include "tests/quality/filter_graph_probe.h"

#include "app/media/av_error.h"
#include "app/media/av_ptr.h"

extern "C" {
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/pixdesc.h>
}

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace lbm::quality {
namespace {

struct AvFilterInOutDeleter {
    void operator()(AVFilterInOut* list) const { avfilter_inout_free(&list); }
};
using AvFilterInOutPtr = std::unique_ptr<AVFilterInOut, AvFilterInOutDeleter>;

std::optional<double> metadataNumber(const AVFrame& frame, const char* key) {
    const AVDictionaryEntry* entry = av_dict_get(frame.metadata, key, nullptr, 0);
    if (entry == nullptr) {
        return std::nullopt;
    }
    return std::strtod(entry->value, nullptr);
}

} // namespace

FilterGraphProbe::FilterGraphProbe(double edge_margin)
    : m_edge_margin(std::clamp(edge_margin, 0.0, 0.45)) {}

FilterGraphProbe::~FilterGraphProbe() {
    release();
}

void FilterGraphProbe::release() {
    avfilter_graph_free(&m_graph);
    m_source = nullptr;
    m_sink = nullptr;
}

bool FilterGraphProbe::build(const AVFrame& frame, QString* error) {
    release();
    const auto fail = [&](const QString& what, int code) {
        if (error != nullptr) {
            *error =
                QStringLiteral("libavfilter could not %1: %2").arg(what, media::avErrorText(code));
        }
        release();
        return false;
    };
    m_graph = avfilter_graph_alloc();
    if (m_graph == nullptr) {
        return fail(QStringLiteral("allocate a filter graph"), AVERROR(ENOMEM));
    }
    m_graph->nb_threads = 1; // one core, like the analysis it is compared with
    const char* format = av_get_pix_fmt_name(static_cast<AVPixelFormat>(frame.format));
    const QByteArray source_args =
        QStringLiteral("video_size=%1x%2:pix_fmt=%3:time_base=1/16:pixel_aspect=1/1")
            .arg(frame.width)
            .arg(frame.height)
            .arg(QString::fromLatin1(format != nullptr ? format : "none"))
            .toLatin1();
    int code = avfilter_graph_create_filter(&m_source, avfilter_get_by_name("buffer"), "in",
                                            source_args.constData(), nullptr, m_graph);
    if (code < 0) {
        return fail(QStringLiteral("create the frame source"), code);
    }
    code = avfilter_graph_create_filter(&m_sink, avfilter_get_by_name("buffersink"), "out", nullptr,
                                        nullptr, m_graph);
    if (code < 0) {
        return fail(QStringLiteral("create the frame sink"), code);
    }
    // Even rows, so the crop keeps whole 4:2:0 chroma rows.
    const int margin = 2 * static_cast<int>(std::lround(frame.height * m_edge_margin / 2.0));
    const QByteArray description = QStringLiteral("crop=w=%1:h=%2:x=0:y=%3,signalstats,blurdetect")
                                       .arg(frame.width)
                                       .arg(frame.height - 2 * margin)
                                       .arg(margin)
                                       .toLatin1();
    AvFilterInOutPtr outputs(avfilter_inout_alloc());
    AvFilterInOutPtr inputs(avfilter_inout_alloc());
    if (!outputs || !inputs) {
        return fail(QStringLiteral("allocate the graph's ends"), AVERROR(ENOMEM));
    }
    outputs->name = av_strdup("in");
    outputs->filter_ctx = m_source;
    inputs->name = av_strdup("out");
    inputs->filter_ctx = m_sink;
    AVFilterInOut* open_inputs = inputs.release();
    AVFilterInOut* open_outputs = outputs.release();
    code = avfilter_graph_parse_ptr(m_graph, description.constData(), &open_inputs, &open_outputs,
                                    nullptr);
    avfilter_inout_free(&open_inputs);
    avfilter_inout_free(&open_outputs);
    if (code < 0) {
        return fail(QStringLiteral("parse '%1'").arg(QString::fromLatin1(description)), code);
    }
    code = avfilter_graph_config(m_graph, nullptr);
    if (code < 0) {
        return fail(QStringLiteral("configure the graph"), code);
    }
    m_width = frame.width;
    m_height = frame.height;
    m_format = frame.format;
    m_next_pts = 0;
    return true;
}

std::optional<FilterGraphProbe::Measures> FilterGraphProbe::measure(const AVFrame& frame,
                                                                    QString* error) {
    if (m_graph == nullptr || frame.width != m_width || frame.height != m_height ||
        frame.format != m_format) {
        if (!build(frame, error)) {
            return std::nullopt;
        }
    }
    media::AvFramePtr input(av_frame_clone(&frame));
    media::AvFramePtr output(av_frame_alloc());
    if (!input || !output) {
        if (error != nullptr) {
            *error = QStringLiteral("Out of memory for a filter graph frame.");
        }
        return std::nullopt;
    }
    input->pts = m_next_pts++;
    int code = av_buffersrc_add_frame_flags(m_source, input.get(), 0);
    if (code >= 0) {
        code = av_buffersink_get_frame(m_sink, output.get());
    }
    if (code < 0) {
        if (error != nullptr) {
            *error = QStringLiteral("libavfilter could not measure a frame: %1")
                         .arg(media::avErrorText(code));
        }
        return std::nullopt;
    }
    Measures measures;
    measures.y_average = metadataNumber(*output, "lavfi.signalstats.YAVG").value_or(0.0);
    measures.u_average = metadataNumber(*output, "lavfi.signalstats.UAVG").value_or(0.0);
    measures.v_average = metadataNumber(*output, "lavfi.signalstats.VAVG").value_or(0.0);
    measures.blur = metadataNumber(*output, "lavfi.blur").value_or(0.0);
    if (m_next_pts > 1) {
        measures.y_difference = metadataNumber(*output, "lavfi.signalstats.YDIF");
    }
    return measures;
}

} // namespace lbm::quality
