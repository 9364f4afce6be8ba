#include "app/media/recording_reader.h"

#include "app/media/av_error.h"
#include "app/media/av_ptr.h"
#include "app/media/ffmpeg_limits.h"
#include "app/media/fmp4_box_scanner.h"

#include <QDir>

namespace lbm::media {
namespace {

// Decoded frames kept around the last position: stepping back through them costs nothing,
// and at 832x480 they hold about 19 MB.
constexpr std::size_t kRecentFrames = 32;

} // namespace

RecordingReader::RecordingReader() = default;

RecordingReader::~RecordingReader() {
    close();
}

bool RecordingReader::open(const QString& path) {
    close();
    limitFfmpegAllocations();
    m_path = path;
    return index();
}

void RecordingReader::close() {
    if (m_codec != nullptr) {
        avcodec_free_context(&m_codec);
    }
    m_file.close();
    m_samples.clear();
    m_recent.clear();
    m_last_sent = -1;
}

bool RecordingReader::isOpen() const {
    return m_codec != nullptr;
}

int RecordingReader::refresh() {
    const QString path = m_path;
    if (!path.isEmpty()) {
        open(path);
    }
    return frameCount();
}

bool RecordingReader::index() {
    const QString shown = QDir::toNativeSeparators(m_path);
    m_file.setFileName(m_path);
    if (!m_file.open(QIODevice::ReadOnly)) {
        m_error =
            QStringLiteral("Cannot read the recording %1: %2.").arg(shown, m_file.errorString());
        return false;
    }
    // Only whole boxes: a recording still being written ends in a half-written fragment.
    Fmp4BoxScanner scanner;
    while (!scanner.failed()) {
        const QByteArray block = m_file.read(1024 * 1024);
        if (block.isEmpty()) {
            break;
        }
        scanner.consume(reinterpret_cast<const uint8_t*>(block.constData()), block.size());
    }
    const std::int64_t playable_end = scanner.playableEnd();

    AVFormatContext* raw = nullptr;
    const QByteArray native = QFile::encodeName(m_path);
    int status =
        avformat_open_input(&raw, native.constData(), av_find_input_format("mov"), nullptr);
    AvInputFormatContextPtr format(raw);
    if (status < 0 || avformat_find_stream_info(format.get(), nullptr) < 0) {
        m_error = QStringLiteral("Cannot open the recording %1: %2.")
                      .arg(shown, status < 0 ? avErrorText(status) : QStringLiteral("no stream"));
        m_file.close();
        return false;
    }
    const int stream = av_find_best_stream(format.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (stream < 0) {
        m_error = QStringLiteral("The recording %1 holds no video.").arg(shown);
        m_file.close();
        return false;
    }
    // One pass over the packets: where each frame's sample lies. The samples are read from
    // the file itself later, so nothing decoded or compressed stays in memory.
    AvPacketPtr packet(av_packet_alloc());
    while (av_read_frame(format.get(), packet.get()) >= 0) {
        if (packet->stream_index == stream && packet->pos >= 0 &&
            packet->pos + packet->size <= playable_end) {
            m_samples.push_back(
                {packet->pos, packet->size, (packet->flags & AV_PKT_FLAG_KEY) != 0});
        }
        av_packet_unref(packet.get());
    }
    const AVCodecParameters* parameters = format->streams[stream]->codecpar;
    const AVCodec* codec = avcodec_find_decoder(parameters->codec_id);
    m_codec = codec ? avcodec_alloc_context3(codec) : nullptr;
    if (m_codec == nullptr || avcodec_parameters_to_context(m_codec, parameters) < 0) {
        m_error = QStringLiteral("No decoder for the recording %1.").arg(shown);
        close();
        return false;
    }
    // One thread and low delay: a frame comes out for each sample sent, so a position is
    // exactly the frames decoded from its keyframe.
    m_codec->thread_count = 1;
    m_codec->flags |= AV_CODEC_FLAG_LOW_DELAY;
    if ((status = avcodec_open2(m_codec, codec, nullptr)) < 0) {
        m_error =
            QStringLiteral("Cannot decode the recording %1: %2.").arg(shown, avErrorText(status));
        close();
        return false;
    }
    m_error.clear();
    return true;
}

int RecordingReader::keyframeAtOrBefore(int index) const {
    for (int n = index; n >= 0; --n) {
        if (m_samples[static_cast<std::size_t>(n)].keyframe) {
            return n;
        }
    }
    return 0;
}

std::optional<DecodedFrame> RecordingReader::frame(int index) {
    if (!isOpen() || index < 0 || index >= frameCount()) {
        m_error = QStringLiteral("Frame %1 is not in the recording (%2 frames).")
                      .arg(index)
                      .arg(frameCount());
        return std::nullopt;
    }
    for (const auto& [at, decoded] : m_recent) {
        if (at == index) {
            return decoded;
        }
    }
    // Continue from the decoder's position when that reaches index without passing a
    // keyframe; otherwise start again at the keyframe.
    const int keyframe = keyframeAtOrBefore(index);
    if (m_last_sent < keyframe - 1 || m_last_sent >= index) {
        avcodec_flush_buffers(m_codec);
        m_last_sent = keyframe - 1;
    }
    if (!decodeThrough(index)) {
        return std::nullopt;
    }
    for (auto it = m_recent.rbegin(); it != m_recent.rend(); ++it) {
        if (it->first == index) {
            return it->second;
        }
    }
    m_error = QStringLiteral("Frame %1 of the recording did not decode.").arg(index);
    return std::nullopt;
}

bool RecordingReader::decodeThrough(int index) {
    AvPacketPtr packet(av_packet_alloc());
    AvFramePtr picture(av_frame_alloc());
    while (m_last_sent < index) {
        const int next = m_last_sent + 1;
        const Sample& sample = m_samples[static_cast<std::size_t>(next)];
        if (av_new_packet(packet.get(), sample.size) < 0 || !m_file.seek(sample.position) ||
            m_file.read(reinterpret_cast<char*>(packet->data), sample.size) != sample.size) {
            m_error = QStringLiteral("Cannot read frame %1 of the recording: %2.")
                          .arg(next)
                          .arg(m_file.errorString());
            av_packet_unref(packet.get());
            return false;
        }
        if (sample.keyframe) {
            packet->flags |= AV_PKT_FLAG_KEY;
        }
        const int sent = avcodec_send_packet(m_codec, packet.get());
        av_packet_unref(packet.get());
        m_last_sent = next;
        if (sent < 0) {
            m_error =
                QStringLiteral("Frame %1 of the recording: %2.").arg(next).arg(avErrorText(sent));
            return false;
        }
        while (avcodec_receive_frame(m_codec, picture.get()) >= 0) {
            FrameTag tag;
            tag.global_frame_number = next;
            m_recent.emplace_back(next, DecodedFrame(picture.get(), tag));
            ++m_frames_decoded;
            if (m_recent.size() > kRecentFrames) {
                m_recent.pop_front();
            }
            av_frame_unref(picture.get());
        }
    }
    return true;
}

} // namespace lbm::media
