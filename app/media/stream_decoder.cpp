#include "app/media/stream_decoder.h"

#include "app/media/av_error.h"
#include "app/media/av_ptr.h"
#include "app/media/ffmpeg_limits.h"
#include "app/media/fmp4_box_scanner.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>

namespace lbm::media {
namespace {

constexpr int kIoBufferBytes = 64 * 1024;
// A corrupt stream can fail every frame; past this many messages only the count grows.
constexpr int kMaxReportedErrors = 20;

} // namespace

// Everything the decoder thread owns. Declared so that the demuxer is closed before the
// AVIOContext it reads from is freed.
struct StreamDecoder::Worker {
    struct PacketOrigin {
        qint64 stream_offset = -1;
        qint64 pts = AV_NOPTS_VALUE;
    };

    StreamDecoder& owner;
    Fmp4BoxScanner scanner;
    bool stream_ended = false;
    AvIoContextPtr io;
    AvInputFormatContextPtr format;
    AvCodecContextPtr codec;
    AvPacketPtr packet;
    AvFramePtr frame;
    AVStream* stream = nullptr; // owned by format
    qint64 next_sequence = 0;
    qint64 first_pts = AV_NOPTS_VALUE;
    std::map<qint64, PacketOrigin> in_flight; // sequence -> where the packet came from

    explicit Worker(StreamDecoder& decoder)
        : owner(decoder) {}

    static int readPacket(void* opaque, uint8_t* buffer, int size) {
        auto* worker = static_cast<Worker*>(opaque);
        if (worker->scanner.failed()) {
            return AVERROR_INVALIDDATA;
        }
        const int copied = worker->owner.m_bytes.read(buffer, size);
        if (copied < 0) {
            return AVERROR_EXIT;
        }
        if (copied == 0) {
            worker->stream_ended = true;
            return AVERROR_EOF;
        }
        const qint64 offset_before = worker->scanner.bytesConsumed();
        if (!worker->scanner.consume(buffer, copied)) {
            // Hand over the good bytes in front of the bad box header; the next call fails.
            const qint64 valid = worker->scanner.errorOffset() - offset_before;
            return valid > 0 ? static_cast<int>(valid) : AVERROR_INVALIDDATA;
        }
        return copied;
    }

    static int interrupted(void* opaque) {
        return static_cast<Worker*>(opaque)->owner.m_bytes.isAborted() ? 1 : 0;
    }

    QString chunkNameAt(qint64 offset) const {
        const auto span = owner.m_bytes.chunkAtOffset(offset);
        return span ? QString::fromStdString(span->info.name())
                    : QStringLiteral("byte %1").arg(offset);
    }

    // The message for a demuxer failure: the box scanner knows more than libavformat.
    QString containerError(int code) const {
        if (scanner.failed()) {
            return chunkNameAt(scanner.errorOffset()) % QStringLiteral(": ") %
                   avErrorText(AVERROR_INVALIDDATA) % QStringLiteral(" (") % scanner.errorString() %
                   QStringLiteral(")");
        }
        if (stream_ended && scanner.insideBox()) {
            return truncationError();
        }
        const qint64 position = format && format->pb ? avio_tell(format->pb) : 0;
        return chunkNameAt(std::max<qint64>(position - 1, 0)) % QStringLiteral(": ") %
               avErrorText(code) % QStringLiteral(" (while demuxing the fragmented MP4)");
    }

    QString truncationError() const {
        return chunkNameAt(scanner.currentBoxOffset()) %
               QStringLiteral(": the stream ended inside a box that starts at byte %1; the last "
                              "fragment is incomplete")
                   .arg(scanner.currentBoxOffset());
    }

    bool open() {
        auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
        if (buffer == nullptr) {
            owner.reportError(QStringLiteral("out of memory allocating the decoder's I/O buffer"),
                              true);
            return false;
        }
        // write_flag 0 and no seek callback: a forward-only stream (seekable = 0), so the mov
        // demuxer neither probes the end for mfra nor seeks back.
        io.reset(avio_alloc_context(buffer, kIoBufferBytes, 0, this, &Worker::readPacket, nullptr,
                                    nullptr));
        if (!io) {
            av_free(buffer);
            owner.reportError(QStringLiteral("out of memory allocating the decoder's I/O context"),
                              true);
            return false;
        }
        io->seekable = 0;

        AVFormatContext* raw = avformat_alloc_context();
        if (raw == nullptr) {
            owner.reportError(QStringLiteral("out of memory allocating the demuxer"), true);
            return false;
        }
        raw->pb = io.get();
        raw->flags |= AVFMT_FLAG_CUSTOM_IO;
        raw->interrupt_callback = AVIOInterruptCB{&Worker::interrupted, this};
        // Naming the demuxer skips probing, which would read up to probesize bytes (and so
        // wait for several chunks) before the first frame could decode. With empty_moov the
        // header is complete at the first mdat, so opening needs only chunk 0's start.
        const AVInputFormat* mov = av_find_input_format("mov");
        const int opened = avformat_open_input(&raw, nullptr, mov, nullptr);
        format.reset(raw); // avformat_open_input frees and nulls raw on failure
        if (opened < 0) {
            if (opened == AVERROR_EXIT || owner.m_bytes.isAborted()) {
                return false;
            }
            if (stream_ended && !scanner.failed() && !scanner.insideBox()) {
                owner.reportError(
                    QStringLiteral(
                        "the stream ended after %1 bytes, before its init segment (ftyp + "
                        "moov) and first fragment were complete")
                        .arg(scanner.bytesConsumed()),
                    true);
            } else {
                owner.reportError(containerError(opened), true);
            }
            return false;
        }
        // No avformat_find_stream_info: the avcC in moov already carries everything the
        // decoder needs, and probing would block for frames that have not arrived.
        const int index = av_find_best_stream(format.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
        if (index < 0) {
            owner.reportError(
                chunkNameAt(0) % QStringLiteral(": the init segment has no video track"), true);
            return false;
        }
        stream = format->streams[index];
        const AVCodec* decoder = avcodec_find_decoder(stream->codecpar->codec_id);
        if (decoder == nullptr) {
            owner.reportError(
                QStringLiteral("this FFmpeg build has no decoder for %1")
                    .arg(QString::fromUtf8(avcodec_get_name(stream->codecpar->codec_id))),
                true);
            return false;
        }
        codec.reset(avcodec_alloc_context3(decoder));
        if (!codec || avcodec_parameters_to_context(codec.get(), stream->codecpar) < 0) {
            owner.reportError(QStringLiteral("cannot configure the %1 decoder")
                                  .arg(QString::fromUtf8(decoder->name)),
                              true);
            return false;
        }
        codec->pkt_timebase = stream->time_base;
        codec->thread_count = owner.m_options.thread_count;
        if (owner.m_options.low_latency) {
            codec->thread_type = FF_THREAD_SLICE;
            codec->flags |= AV_CODEC_FLAG_LOW_DELAY;
        } else {
            codec->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
        }
        // A damaged slice fails its packet instead of being silently concealed, so the
        // error can be reported against the chunk that carried it.
        codec->err_recognition |= AV_EF_EXPLODE;
        const int codec_opened = avcodec_open2(codec.get(), decoder, nullptr);
        if (codec_opened < 0) {
            owner.reportError(QStringLiteral("cannot open the %1 decoder: %2")
                                  .arg(QString::fromUtf8(decoder->name), avErrorText(codec_opened)),
                              true);
            return false;
        }
        packet.reset(av_packet_alloc());
        frame.reset(av_frame_alloc());
        if (!packet || !frame) {
            owner.reportError(QStringLiteral("out of memory allocating decoder buffers"), true);
            return false;
        }
        return true;
    }

    // Receives every frame the decoder has ready. False when the consumer aborted.
    bool receiveFrames() {
        for (;;) {
            const int received = avcodec_receive_frame(codec.get(), frame.get());
            if (received == AVERROR(EAGAIN) || received == AVERROR_EOF) {
                return true;
            }
            if (received < 0) {
                reportDecodeError(-1, received);
                return true;
            }
            const bool delivered = deliver();
            av_frame_unref(frame.get());
            if (!delivered) {
                return false;
            }
        }
    }

    bool deliver() {
        // The packet's sequence number rode through the decoder in pts (see decodePacket).
        const qint64 sequence =
            frame->pts != AV_NOPTS_VALUE ? frame->pts : frame->best_effort_timestamp;
        PacketOrigin origin;
        if (auto it = in_flight.find(sequence); it != in_flight.end()) {
            origin = it->second;
            in_flight.erase(in_flight.begin(), std::next(it));
        }
        FrameTag tag;
        tag.global_frame_number = sequence;
        if (const auto span = owner.m_bytes.chunkForFrame(sequence)) {
            tag.chunk = span->info;
            tag.index_in_chunk = static_cast<int>(sequence - span->first_frame);
        } else {
            owner.m_frames_unexpected.fetch_add(1);
        }
        if (origin.stream_offset >= 0) {
            if (const auto carrier = owner.m_bytes.chunkAtOffset(origin.stream_offset)) {
                tag.carried_by_transport_index = carrier->info.transport_index;
            }
        }
        if (origin.pts != AV_NOPTS_VALUE && first_pts != AV_NOPTS_VALUE) {
            tag.pts_s = static_cast<double>(origin.pts - first_pts) * av_q2d(stream->time_base);
        }
        if (frame->decode_error_flags != 0 || (frame->flags & AV_FRAME_FLAG_CORRUPT)) {
            owner.m_frames_corrupt.fetch_add(1);
            owner.reportError(chunkNameAt(origin.stream_offset) %
                                  QStringLiteral(": frame %1 decoded with errors and was concealed")
                                      .arg(sequence),
                              false);
        }
        if (const auto generation = tag.generationIndex()) {
            std::lock_guard lock(owner.m_status_mutex);
            ++owner.m_frames_per_chunk[*generation];
        }
        DecodedFrame decoded(frame.get(), tag);
        if (owner.m_options.frame_observer) {
            owner.m_options.frame_observer(decoded);
        }
        if (!owner.m_options.queue_frames) {
            owner.m_frames_decoded.fetch_add(1);
            return !owner.m_bytes.isAborted();
        }
        const auto pushed = owner.m_frames->push(std::move(decoded));
        if (pushed == BoundedFrameQueue::PushResult::Aborted) {
            return false;
        }
        owner.m_frames_decoded.fetch_add(1);
        if (pushed == BoundedFrameQueue::PushResult::QueuedAfterEmpty || tag.isFirstOfChunk() ||
            tag.isLastOfChunk()) {
            emit owner.framesAvailable();
        }
        return true;
    }

    void reportDecodeError(qint64 sequence, int code) {
        owner.m_frames_corrupt.fetch_add(1);
        qint64 offset = -1;
        if (auto it = in_flight.find(sequence); it != in_flight.end()) {
            offset = it->second.stream_offset;
            in_flight.erase(it);
        }
        const QString where = offset >= 0 ? chunkNameAt(offset) : QStringLiteral("stream");
        const QString which =
            sequence >= 0 ? QStringLiteral("frame %1").arg(sequence) : QStringLiteral("a frame");
        owner.reportError(where % QStringLiteral(": ") % avErrorText(code) %
                              QStringLiteral(" (H.264 decoder rejected ") % which %
                              QStringLiteral(")"),
                          false);
    }

    // Sends one demuxed packet, receiving frames first whenever the decoder is full.
    bool decodePacket() {
        const qint64 sequence = next_sequence++;
        in_flight[sequence] = PacketOrigin{packet->pos, packet->pts};
        if (first_pts == AV_NOPTS_VALUE && packet->pts != AV_NOPTS_VALUE) {
            first_pts = packet->pts;
        }
        // Stream order is decode order (the server's x264 has no B-frames), so the packet's
        // sequence number is the global frame number. Carried in pts it survives decoder
        // threading and tells exactly which frame a rejected packet would have been.
        packet->pts = sequence;
        packet->dts = sequence;
        for (;;) {
            const int sent = avcodec_send_packet(codec.get(), packet.get());
            if (sent == AVERROR(EAGAIN)) {
                if (!receiveFrames()) {
                    return false;
                }
                continue;
            }
            if (sent < 0) {
                reportDecodeError(sequence, sent);
            }
            break;
        }
        return receiveFrames();
    }

    DecoderState run() {
        if (!open()) {
            return owner.m_bytes.isAborted() ? DecoderState::Aborted : DecoderState::Failed;
        }
        for (;;) {
            const int read = av_read_frame(format.get(), packet.get());
            if (read == AVERROR_EXIT || owner.m_bytes.isAborted()) {
                return DecoderState::Aborted;
            }
            if (!scanner.failed() && (read == AVERROR_EOF || (read < 0 && stream_ended))) {
                break;
            }
            if (read < 0) {
                owner.reportError(containerError(read), true);
                // Frames already inside the decoder are still good: drain them.
                drain();
                return owner.m_bytes.isAborted() ? DecoderState::Aborted : DecoderState::Failed;
            }
            // A sample cut short by the end of the stream: the truncation is reported below
            // rather than as a decode error of half a frame.
            const bool cut_short = (packet->flags & AV_PKT_FLAG_CORRUPT) && stream_ended;
            const bool ours = packet->stream_index == stream->index && !cut_short;
            const bool keep_going = !ours || decodePacket();
            av_packet_unref(packet.get());
            if (!keep_going) {
                return DecoderState::Aborted;
            }
        }
        if (scanner.insideBox()) {
            owner.reportError(truncationError(), false);
        }
        if (!drain()) {
            return DecoderState::Aborted;
        }
        return DecoderState::Finished;
    }

    bool drain() {
        if (avcodec_send_packet(codec.get(), nullptr) < 0) {
            return true;
        }
        return receiveFrames();
    }
};

StreamDecoder::StreamDecoder(const DecoderOptions& options, QObject* parent)
    : QObject(parent)
    , m_options(options)
    , m_frames(options.picture_queue
                   ? options.picture_queue
                   : std::make_shared<BoundedFrameQueue>(options.frame_queue_capacity)) {
    limitFfmpegAllocations();
    m_thread = std::thread([this] { run(); });
}

StreamDecoder::~StreamDecoder() {
    abort();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

void StreamDecoder::pushChunk(const ChunkIdentity& info, const QByteArray& bytes) {
    m_bytes.append(info, bytes);
}

void StreamDecoder::finish() {
    m_bytes.finish();
}

void StreamDecoder::abort() {
    m_bytes.abort();
    m_frames->abort();
}

std::optional<DecodedFrame> StreamDecoder::popFrame(int timeout_ms) {
    return m_frames->pop(timeout_ms);
}

bool StreamDecoder::isDrained() const {
    std::lock_guard lock(m_status_mutex);
    return m_state != DecoderState::Running && m_frames->isDrained();
}

bool StreamDecoder::hasEnded() const {
    std::lock_guard lock(m_status_mutex);
    return m_state != DecoderState::Running;
}

bool StreamDecoder::waitForEnd(int timeout_ms) const {
    std::unique_lock lock(m_status_mutex);
    return m_status_changed.wait_for(lock, std::chrono::milliseconds(std::max(timeout_ms, 0)),
                                     [&] { return m_state != DecoderState::Running; });
}

std::map<qint64, qint64> StreamDecoder::framesPerChunk() const {
    std::lock_guard lock(m_status_mutex);
    return m_frames_per_chunk;
}

DecoderStats StreamDecoder::stats() const {
    const ChunkByteQueue::Counters bytes = m_bytes.counters();
    DecoderStats stats;
    {
        std::lock_guard lock(m_status_mutex);
        stats.state = m_state;
        stats.error_count = m_error_count;
        stats.first_error = m_first_error;
    }
    stats.chunks_pushed = bytes.chunks;
    stats.bytes_pushed = bytes.bytes_pushed;
    stats.bytes_read = bytes.bytes_read;
    stats.bytes_pending = bytes.bytes_pending;
    stats.bytes_pending_high_water = bytes.bytes_pending_high_water;
    stats.frames_expected = bytes.frames_expected;
    stats.frames_decoded = m_frames_decoded.load();
    stats.frames_corrupt = m_frames_corrupt.load();
    stats.frames_unexpected = m_frames_unexpected.load();
    stats.frames_queued = m_frames->size();
    stats.frames_queued_high_water = m_frames->highWater();
    stats.frame_queue_capacity = m_frames->capacity();
    return stats;
}

void StreamDecoder::run() {
    DecoderState final_state = DecoderState::Aborted;
    {
        Worker worker(*this);
        final_state = worker.run();
    }
    endWith(final_state);
}

void StreamDecoder::reportError(const QString& message, bool fatal) {
    int count = 0;
    {
        std::lock_guard lock(m_status_mutex);
        count = ++m_error_count;
        if (m_first_error.isEmpty()) {
            m_first_error = message;
        }
    }
    if (fatal || count <= kMaxReportedErrors) {
        emit errorOccurred(message);
    } else if (count == kMaxReportedErrors + 1) {
        emit errorOccurred(QStringLiteral("further decode errors are counted but not reported"));
    }
}

void StreamDecoder::endWith(DecoderState state) {
    // The state is final before the queue reports its end, so a consumer that sees the end
    // also sees how decoding ended.
    {
        std::lock_guard lock(m_status_mutex);
        m_state = state;
    }
    m_status_changed.notify_all();
    if (state == DecoderState::Aborted) {
        m_frames->abort();
    } else {
        m_frames->close();
    }
    emit ended();
}

} // namespace lbm::media
