#include "app/media/remux.h"

#include "app/media/av_error.h"
#include "app/media/av_ptr.h"
#include "app/media/ffmpeg_limits.h"
#include "app/media/fmp4_box_scanner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace lbm::media {
namespace {

constexpr int kIoBufferBytes = 256 * 1024;

// The recording seen through a window that ends at its last whole fragment, so the demuxer
// never meets a half-written sample.
struct LimitedFileInput {
    QFile file;
    qint64 limit = 0;

    static int read(void* opaque, uint8_t* buffer, int size) {
        auto* input = static_cast<LimitedFileInput*>(opaque);
        const qint64 left = input->limit - input->file.pos();
        if (left <= 0) {
            return AVERROR_EOF;
        }
        const qint64 got =
            input->file.read(reinterpret_cast<char*>(buffer), std::min<qint64>(size, left));
        if (got < 0) {
            return AVERROR(EIO);
        }
        return got == 0 ? AVERROR_EOF : static_cast<int>(got);
    }

    static int64_t seek(void* opaque, int64_t offset, int whence) {
        auto* input = static_cast<LimitedFileInput*>(opaque);
        if (whence & AVSEEK_SIZE) {
            return input->limit;
        }
        qint64 target = offset;
        switch (whence & ~AVSEEK_FORCE) {
        case SEEK_SET:
            break;
        case SEEK_CUR:
            target = input->file.pos() + offset;
            break;
        case SEEK_END:
            target = input->limit + offset;
            break;
        default:
            return AVERROR(EINVAL);
        }
        if (target < 0 || target > input->limit || !input->file.seek(target)) {
            return AVERROR(EINVAL);
        }
        return target;
    }
};

// 0666 less the process's umask, read from /proc (umask(2) cannot be read without setting it,
// which would race with other threads creating files); 0644 when it cannot be read.
std::filesystem::perms newFilePermissions() {
    QFile status(QStringLiteral("/proc/self/status"));
    unsigned mask = 022;
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : status.readAll().split('\n')) {
            if (line.startsWith("Umask:")) {
                bool ok = false;
                const unsigned value = line.mid(6).trimmed().toUInt(&ok, 8);
                mask = ok ? value : mask;
            }
        }
    }
    return static_cast<std::filesystem::perms>(0666U & ~mask);
}

RemuxResult failure(RemuxResult result, const QString& message) {
    result.ok = false;
    result.error = message;
    return result;
}

} // namespace

RemuxResult remuxToMp4(const QString& m4s_path, const QString& mp4_path) {
    limitFfmpegAllocations();
    RemuxResult result;
    const QString shown_input = QDir::toNativeSeparators(m4s_path);
    const QString shown_output = QDir::toNativeSeparators(mp4_path);

    LimitedFileInput input;
    input.file.setFileName(m4s_path);
    if (!input.file.open(QIODevice::ReadOnly)) {
        return failure(result, QStringLiteral("Cannot read the recording %1: %2.")
                                   .arg(shown_input, input.file.errorString()));
    }
    result.input_bytes_total = input.file.size();

    // Find the longest prefix made of whole boxes (a trailing moof without its mdat is
    // dropped too).
    Fmp4BoxScanner scanner;
    QByteArray block;
    while (!scanner.failed()) {
        block = input.file.read(1024 * 1024);
        if (block.isEmpty()) {
            break;
        }
        scanner.consume(reinterpret_cast<const uint8_t*>(block.constData()), block.size());
    }
    input.limit = scanner.playableEnd();
    result.input_bytes_used = input.limit;
    result.input_truncated = input.limit < result.input_bytes_total;
    if (scanner.completeMediaBoxes() == 0) {
        const QString reason = scanner.failed()
                                   ? scanner.errorString()
                                   : QStringLiteral("it holds no complete video fragment");
        return failure(result,
                       QStringLiteral("Cannot convert %1 to MP4: %2.").arg(shown_input, reason));
    }
    input.file.seek(0);

    auto* in_buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
    AvIoContextPtr in_io(in_buffer == nullptr
                             ? nullptr
                             : avio_alloc_context(in_buffer, kIoBufferBytes, 0, &input,
                                                  &LimitedFileInput::read, nullptr,
                                                  &LimitedFileInput::seek));
    if (!in_io) {
        av_free(in_buffer);
        return failure(result,
                       QStringLiteral("Out of memory while converting %1.").arg(shown_input));
    }
    AVFormatContext* raw_input = avformat_alloc_context();
    if (raw_input == nullptr) {
        return failure(result,
                       QStringLiteral("Out of memory while converting %1.").arg(shown_input));
    }
    raw_input->pb = in_io.get();
    raw_input->flags |= AVFMT_FLAG_CUSTOM_IO;
    const int opened =
        avformat_open_input(&raw_input, nullptr, av_find_input_format("mov"), nullptr);
    AvInputFormatContextPtr in_format(raw_input);
    if (opened < 0) {
        return failure(result, QStringLiteral("Cannot read %1 as fragmented MP4: %2.")
                                   .arg(shown_input, avErrorText(opened)));
    }
    const int video_index =
        av_find_best_stream(in_format.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (video_index < 0) {
        return failure(result, QStringLiteral("%1 has no video track.").arg(shown_input));
    }
    AVStream* in_stream = in_format->streams[video_index];

    const QFileInfo target(mp4_path);
    QTemporaryFile staging(target.absolutePath() % QStringLiteral("/.") % target.fileName() %
                           QStringLiteral(".XXXXXX.part"));
    if (!staging.open()) {
        return failure(result, QStringLiteral("Cannot write %1: %2; choose a path in a writable "
                                              "directory with free space.")
                                   .arg(shown_output, staging.errorString()));
    }
    const QByteArray staging_path = QFile::encodeName(staging.fileName());
    staging.close(); // libavformat reopens it by name (faststart reads it back to move moov)

    AVFormatContext* raw_output = nullptr;
    const int allocated =
        avformat_alloc_output_context2(&raw_output, nullptr, "mp4", staging_path.constData());
    AvOutputFormatContextPtr out_format(raw_output);
    if (allocated < 0 || !out_format) {
        return failure(
            result, QStringLiteral("Cannot create the MP4 muxer: %1.").arg(avErrorText(allocated)));
    }
    AVStream* out_stream = avformat_new_stream(out_format.get(), nullptr);
    if (out_stream == nullptr ||
        avcodec_parameters_copy(out_stream->codecpar, in_stream->codecpar) < 0) {
        return failure(
            result, QStringLiteral("Cannot set up the MP4 video track for %1.").arg(shown_output));
    }
    out_stream->codecpar->codec_tag = 0;
    out_stream->time_base = in_stream->time_base;
    out_stream->avg_frame_rate = in_stream->avg_frame_rate;
    out_stream->r_frame_rate = in_stream->r_frame_rate;

    const int io_opened = avio_open(&out_format->pb, staging_path.constData(), AVIO_FLAG_WRITE);
    if (io_opened < 0) {
        return failure(result, QStringLiteral("Cannot write %1: %2; choose a writable directory.")
                                   .arg(shown_output, avErrorText(io_opened)));
    }
    AVDictionary* raw_options = nullptr;
    av_dict_set(&raw_options, "movflags", "+faststart", 0);
    const int header = avformat_write_header(out_format.get(), &raw_options);
    AvDictionaryPtr options(raw_options);
    if (header < 0) {
        return failure(
            result,
            QStringLiteral("Cannot start writing %1: %2.").arg(shown_output, avErrorText(header)));
    }

    AvPacketPtr packet(av_packet_alloc());
    if (!packet) {
        return failure(result,
                       QStringLiteral("Out of memory while converting %1.").arg(shown_input));
    }
    for (;;) {
        const int read = av_read_frame(in_format.get(), packet.get());
        if (read == AVERROR_EOF) {
            break;
        }
        if (read < 0) {
            // The window ends at a box boundary, so this is damage inside a fragment: keep
            // what was copied so far, as the decoder would show it.
            result.input_truncated = true;
            break;
        }
        if (packet->flags & AV_PKT_FLAG_CORRUPT) {
            result.input_truncated = true;
        }
        if (packet->stream_index != video_index) {
            av_packet_unref(packet.get());
            continue;
        }
        av_packet_rescale_ts(packet.get(), in_stream->time_base, out_stream->time_base);
        packet->stream_index = out_stream->index;
        packet->pos = -1;
        const int written = av_interleaved_write_frame(out_format.get(), packet.get());
        av_packet_unref(packet.get());
        if (written < 0) {
            return failure(result, QStringLiteral("Cannot write %1: %2; free some disk space or "
                                                  "choose another path.")
                                       .arg(shown_output, avErrorText(written)));
        }
        ++result.packets_written;
    }
    if (result.packets_written == 0) {
        return failure(
            result,
            QStringLiteral("Cannot convert %1 to MP4: no frame could be read.").arg(shown_input));
    }
    const int trailer = av_write_trailer(out_format.get());
    const int closed = avio_closep(&out_format->pb);
    if (trailer < 0 || closed < 0) {
        return failure(result,
                       QStringLiteral("Cannot finish %1: %2; free some disk space or choose "
                                      "another path.")
                           .arg(shown_output, avErrorText(trailer < 0 ? trailer : closed)));
    }
    // The staging file was created private (0600, as temporary files are); the finished MP4
    // gets what any new file of the user's gets: 0666 less the umask.
    std::error_code permitted;
    std::filesystem::permissions(std::filesystem::path(staging_path.toStdString()),
                                 newFilePermissions(), std::filesystem::perm_options::replace,
                                 permitted);
    std::error_code renamed;
    std::filesystem::rename(std::filesystem::path(staging_path.toStdString()),
                            std::filesystem::path(QFile::encodeName(mp4_path).toStdString()),
                            renamed);
    if (renamed) {
        return failure(result, QStringLiteral("Cannot move the finished MP4 into place at %1: %2.")
                                   .arg(shown_output, QString::fromStdString(renamed.message())));
    }
    result.ok = true;
    return result;
}

} // namespace lbm::media
