// The broadcast viewer: plays the session's LL-HLS stream with hls.js (or the browser's own
// HLS where there is no MediaSource, as on older iPhones) and shows the live feed (server-sent
// events from the monitor's engine): the state line, the counters and the latency chart the
// window shows, and the prompt and camera events. Everything is read-only and relative to this
// page's URL, which carries the broadcast's token.
"use strict";

const $ = id => document.getElementById(id);
const video = $("video");
const chart = new LatencyChart($("chart"));
// What the page shows, for people and for the browser test (read through the DevTools protocol).
const viewer = window.lbmViewer = {
  session: 0, playlist: null, chunks: 0, expected: 0, state: "", text: "", finished: false,
  hlsStarted: false, joining: false, joinedAt: null, errors: [], interactions: {}, framesReceived: 0, muxFps: 16,
  rejoins: 0, rejoinedAt: null,
  // The player, for tests that drive hls.js's events.
  player: () => hls,
};
let hls = null, sinceChunkAt = null;

function formatMs(ms) {
  if (ms === null || ms === undefined) return "–";
  return ms >= 10000 ? (ms / 1000).toFixed(1) + " s" : Math.round(ms) + " ms";
}

function onSession(data) {
  stopPlayer();
  Object.assign(viewer, { session: data.session, playlist: data.playlist, chunks: 0,
    expected: data.chunks_expected, finished: false, interactions: {}, framesReceived: 0,
    muxFps: data.mux_fps || 16, rejoins: 0, rejoinedAt: null });
  chart.reset(data.deadline_ms, data.warmup_chunks);
  $("events").innerHTML = '<li class="empty">No prompt or camera move yet.</li>';
  $("chunks").textContent = `0 / ${data.chunks_expected}`;
  $("picture-note").textContent = "The picture appears once the first chunk has arrived.";
}

function onChunk(data) {
  viewer.chunks = Math.max(viewer.chunks, data.i + 1);
  viewer.framesReceived += data.frames;
  chart.addChunk({ i: data.i, ms: data.inter_arrival_ms, late: data.late });
  $("chunks").textContent = `${viewer.chunks} / ${viewer.expected}`;
  sinceChunkAt = null;
  if (!hls && !viewer.hlsStarted) startPlayer();
}

function onInteraction(data) {
  const known = viewer.interactions[data.id];
  viewer.interactions[data.id] = data;
  if (data.started_chunk !== undefined && (!known || known.started_chunk === undefined)) {
    chart.addMark(data.started_chunk, data.kind);
  }
  const list = $("events");
  list.querySelector(".empty")?.remove();
  let item = list.querySelector(`[data-id="${CSS.escape(data.id)}"]`);
  if (!item) {
    item = document.createElement("li");
    item.dataset.id = data.id;
    list.prepend(item);
  }
  item.textContent = "";
  const kind = document.createElement("span");
  kind.className = "kind";
  kind.textContent = data.kind === "prompt" ? "▲ prompt" : "◆ camera";
  item.append(kind, data.summary ? `${data.summary} — ${data.state}` : data.state);
  item.title = data.progress;
  // Why it failed, on the page itself: a phone has no tooltip to hover.
  if (data.state === "failed" && data.progress) {
    const why = document.createElement("div");
    why.className = "why";
    why.textContent = data.progress;
    item.append(why);
  }
}

function onState(data) {
  Object.assign(viewer, { state: data.state, text: data.text, chunks: Math.max(viewer.chunks, data.chunks),
    expected: data.chunks_expected, finished: data.state === "finished" });
  const line = $("state");
  line.textContent = data.text;
  line.className = "state" + (data.stalled ? " stalled" : "") +
    (data.state === "finished" ? (data.text.startsWith("FAILED") ? " failed" : " finished") : "");
  document.title = `${data.text} — LingBot broadcast`;
  $("chunks").textContent = `${viewer.chunks} / ${data.chunks_expected}`;
  const underruns = $("underruns");
  underruns.textContent = data.underrun_in_progress ? `${data.underruns} (in progress)` : `${data.underruns}`;
  underruns.className = "value" + (data.underruns > 0 ? " bad" : "");
  $("late").textContent = `${data.late}`;
  $("percentiles").textContent = data.p50_ms === null ? "–"
    : `${formatMs(data.p50_ms)} / ${formatMs(data.p95_ms)} / ${formatMs(data.p99_ms)}`;
  $("ttfc").textContent = formatMs(data.ttfc_ms);
  if (data.state === "streaming" && data.since_last_chunk_s !== null && viewer.chunks > 0) {
    sinceChunkAt = performance.now() - data.since_last_chunk_s * 1000;
  } else {
    sinceChunkAt = null;
    chart.setWaiting(null);
  }
  if (data.chunks > 0 && !hls && !viewer.hlsStarted) startPlayer();
}

// The chunk in flight grows between feed messages.
setInterval(() => {
  if (sinceChunkAt !== null) chart.setWaiting(performance.now() - sinceChunkAt);
  // How much video the monitor has received that this page has not shown yet (hls.js's own
  // latency estimate assumes a steadily growing live edge, which bursty chunks are not).
  const behind = viewer.framesReceived / viewer.muxFps - video.currentTime;
  $("latency").textContent = !hls || video.ended || !(behind >= 0) ? "–" : behind.toFixed(1) + " s";
}, 100);

async function startPlayer() {
  if (!viewer.playlist) return;
  viewer.hlsStarted = true;
  const session = viewer.session;
  // No re-encode means a picture can only start at a keyframe, and the server's encoder makes
  // one per 250 frames: the player starts loading at the newest one (start.json) and the page
  // joins the live edge as below.
  let start = -1;
  try {
    const response = await fetch(viewer.playlist.replace("live.m3u8", "start.json"), { cache: "no-store" });
    // A finished session plays from its beginning, as video on demand.
    if (response.ok) {
      const where = await response.json();
      start = where.ended ? 0 : where.keyframe_s;
    }
  } catch (error) { viewer.errors.push(String(error)); }
  if (session !== viewer.session) return;
  if (window.Hls && Hls.isSupported()) {
    // A world model's chunks come in bursts and late ones are common: after a stall, keep
    // the target latency (hls.js would add a second per stall) and catch up at up to 1.5x.
    hls = new Hls({ lowLatencyMode: true, startPosition: start, backBufferLength: 30,
      liveSyncOnStallIncrease: 0, maxLiveSyncPlaybackRate: 1.5,
      manifestLoadingMaxRetry: 6, levelLoadingMaxRetry: 6, pLoader: blockingReloadLoader() });
    hls.on(Hls.Events.ERROR, (event, data) => {
      // What failed, where and when (read by the tests when something does).
      const where = data.frag ? ` seg ${data.frag.sn}${data.part ? "." + data.part.index : ""}` : "";
      viewer.errors.push(`${data.type}: ${data.details}${where} at ${video.currentTime.toFixed(2)} s` +
        (data.error ? ` (${data.error.message})` : ""));
      if (data.details === Hls.ErrorDetails.BUFFER_APPEND_NO_PROGRESS && data.parent === "main") {
        // Not from inside hls.js's own event dispatch, and only for the player that reported.
        const player = hls;
        setTimeout(() => { if (hls === player) rejoinLivePicture(); }, 0);
        return;
      }
      if (!data.fatal) return;
      if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
      else { stopPlayer(); setTimeout(startPlayer, 2000); }
    });
    viewer.joining = true;
    video.classList.add("joining");
    $("picture-note").textContent = "Joining the live picture…";
    hls.on(Hls.Events.FRAG_BUFFERED, joinLiveEdge);
    hls.on(Hls.Events.LEVEL_UPDATED, joinLiveEdge);
    hls.loadSource(viewer.playlist);
    hls.attachMedia(video);
  } else if (video.canPlayType("application/vnd.apple.mpegurl")) {
    $("picture-note").textContent = "";
    video.src = viewer.playlist;
    playVideo();
  } else {
    $("picture-note").textContent = "This browser plays neither Media Source nor HLS video.";
  }
}

// hls.js gives up on a blocking playlist reload after 0.8 target durations (0.8 s here) and
// reloads without directives; a world model is often silent longer than that (a slow block, a
// stall it rides out), and after such a reload hls.js could load the next segment's parts
// before the previous segment's last, so Media Source dropped every frame up to the next
// keyframe and the picture stopped for good. The server answers a held reload within
// max_block_ms (10 s, app/broadcast/broadcast_settings.h) whatever happens, so the page waits
// for it that long, plus slack; every other request keeps hls.js's own limits.
const BLOCKING_RELOAD_WAIT_MS = 12000;

function blockingReloadLoader() {
  const Base = Hls.DefaultConfig.loader;
  return class BlockingReloadLoader extends Base {
    load(context, config, callbacks) {
      if (context.deliveryDirectives) {
        const wait = BLOCKING_RELOAD_WAIT_MS;
        const policy = { ...config.loadPolicy, maxTimeToFirstByteMs: wait, maxLoadTimeMs: wait };
        config = { ...config, timeout: wait, loadPolicy: policy };
      }
      super.load(context, config, callbacks);
    }
  };
}

// Media Source cannot start a picture from a frame that is not a keyframe when it is appended,
// but it can seek to one inside a buffered range (the browser decodes from the keyframe before
// it and drops the frames up to the target). So the player holds at the newest keyframe while
// hls.js loads from there to the live edge, then seeks to hls.js's live sync position (the
// edge minus PART-HOLD-BACK) and plays: a late viewer starts as close to the edge as one who
// was there from the start, instead of trailing it by up to 250 frames.
function joinLiveEdge() {
  if (!viewer.joining || !hls || !video.buffered.length) return;
  const details = hls.latestLevelDetails;
  const sync = hls.liveSyncPosition;
  if (details && details.live && sync !== null) {
    // The buffered range at (or within a part after) the player's position must reach the sync
    // position, within a part too: the newest part may still be loading while the playlist
    // already lists it.
    const slack = details.partTarget || details.targetduration;
    const now = video.currentTime;
    let end = null;
    for (let i = 0; i < video.buffered.length; i++) {
      if (video.buffered.start(i) <= now + slack && video.buffered.end(i) >= now) end = video.buffered.end(i);
    }
    if (end === null || end < sync - slack) return;
    // Only a viewer further behind than hls.js catches up by itself skips frames: within two
    // target durations it plays up to 1.5x fast until it is at the edge, and one who opened
    // the page before the session sees its first frames.
    const target = Math.min(sync, end - 0.05);
    if (target > now + 2 * details.targetduration) {
      // The picture shows once the browser has decoded its way to the target.
      viewer.joining = false;
      video.addEventListener("seeked", showLivePicture, { once: true });
      video.currentTime = target;
      return;
    }
  }
  viewer.joining = false;
  showLivePicture();
}

function showLivePicture() {
  if (!hls) return; // stopped meanwhile (a new session)
  viewer.joinedAt = performance.timeOrigin + performance.now();
  video.classList.remove("joining");
  $("picture-note").textContent = "";
  playVideo();
}

function playVideo() {
  video.play().catch(() => { $("picture-note").textContent = "Tap the picture to start it."; });
}

// A part appended after one that never was (hls.js has done so after a playlist reload it
// had to retry) leaves a hole in decode order: Media Source drops every frame up to the next
// keyframe, 250 frames on, so the buffer stops growing and the picture would stay still. While
// the session is live the page joins the live picture again from the newest keyframe, as a
// late viewer does (a second or two of "Joining…"), at most once in 10 s.
function rejoinLivePicture() {
  const now = performance.now();
  if (viewer.finished || (viewer.rejoinedAt !== null && now - viewer.rejoinedAt < 10000)) return false;
  viewer.rejoinedAt = now;
  viewer.rejoins += 1;
  stopPlayer();
  startPlayer();
  return true;
}

// A picture that stops while newer video has arrived is joined again whatever stopped it. The
// holes above are the cause seen so far, reported by hls.js; once in a suite run a late viewer's
// picture stopped for good with no report at all (2026-12-05, cause not found). So the page
// also watches the picture itself: playing, not paused, not at its end, the session live, the
// time unmoved for STUCK_PICTURE_MS while the monitor has sent more than STUCK_AHEAD_S of video
// after it. A world model's own silence does not count: then there is no newer video.
const STUCK_PICTURE_MS = 3000;
const STUCK_AHEAD_S = 3;
let watchedTime = -1, watchedSince = 0;
setInterval(() => {
  const now = performance.now();
  const watching = hls && viewer.joinedAt !== null && !video.paused && !video.ended && !viewer.finished;
  if (!watching || video.currentTime !== watchedTime) {
    watchedTime = video.currentTime;
    watchedSince = now;
    return;
  }
  const ahead = viewer.framesReceived / viewer.muxFps - video.currentTime;
  if (now - watchedSince >= STUCK_PICTURE_MS && ahead > STUCK_AHEAD_S) {
    const stopped = `picture stopped at ${video.currentTime.toFixed(2)} s for ` +
      `${((now - watchedSince) / 1000).toFixed(1)} s with ${ahead.toFixed(1)} s of newer video`;
    watchedSince = now;
    if (rejoinLivePicture()) viewer.errors.push(stopped + ": joining again");
  }
}, 250);

function stopPlayer() {
  if (hls) { hls.destroy(); hls = null; }
  video.playbackRate = 1; // the next player starts at normal speed (hls.js sets its catch-up)
  viewer.hlsStarted = false;
  viewer.joining = false;
  viewer.joinedAt = null;
  video.classList.remove("joining");
  video.removeAttribute("src");
}

video.addEventListener("click", playVideo);

const feed = new EventSource("events");
feed.addEventListener("session", event => onSession(JSON.parse(event.data)));
feed.addEventListener("chunk", event => onChunk(JSON.parse(event.data)));
feed.addEventListener("interaction", event => onInteraction(JSON.parse(event.data)));
feed.addEventListener("state", event => onState(JSON.parse(event.data)));
feed.addEventListener("error", () => {
  if (!viewer.finished) $("state").textContent = "reconnecting to the broadcast…";
});
