// The latency chart: one bar per chunk (its inter-arrival time), green on time and red past
// the deadline line, warmup chunks shaded, prompt (▲) and camera (◆) marks above the chunk
// they started in, and the chunk in flight as a hollow bar growing with the wait. Follows the
// newest chunks once they no longer fit. A plain canvas: no library, no build step.
"use strict";

class LatencyChart {
  constructor(canvas) {
    this.canvas = canvas;
    this.chunks = [];       // {i, ms, late}
    this.marks = new Map(); // chunk -> Set of "prompt" | "camera"
    this.deadlineMs = 750;
    this.warmup = 6;
    this.waitingMs = null;  // the chunk in flight, ms since the last one
    this.maxBars = 120;
    new ResizeObserver(() => this.draw()).observe(canvas);
  }
  reset(deadlineMs, warmup) {
    this.chunks = []; this.marks = new Map(); this.waitingMs = null;
    this.deadlineMs = deadlineMs; this.warmup = warmup; this.draw();
  }
  addChunk(chunk) { this.chunks.push(chunk); this.waitingMs = null; this.draw(); }
  setWaiting(ms) { this.waitingMs = ms; this.draw(); }
  addMark(chunk, kind) {
    if (!this.marks.has(chunk)) this.marks.set(chunk, new Set());
    this.marks.get(chunk).add(kind); this.draw();
  }
  draw() {
    const canvas = this.canvas, ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (!width || !height) return;
    canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio);
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const left = 44, right = 6, top = 16, bottom = 18;
    const plotW = width - left - right, plotH = height - top - bottom;
    const shown = this.chunks.slice(-this.maxBars);
    const slots = Math.max(16, shown.length + 1);
    let maxMs = this.deadlineMs * 1.5;
    for (const c of shown) maxMs = Math.max(maxMs, c.ms);
    if (this.waitingMs !== null) maxMs = Math.max(maxMs, this.waitingMs);
    maxMs *= 1.08;
    const y = ms => top + plotH - (ms / maxMs) * plotH;
    const slotW = plotW / slots, barW = Math.max(1, slotW * 0.75);
    const first = shown.length ? shown[0].i : 0;
    const x = i => left + (i - first) * slotW + (slotW - barW) / 2;

    g.font = "11px system-ui, sans-serif"; g.fillStyle = "#9aa0a6"; g.strokeStyle = "#2c3036";
    g.textAlign = "right"; g.textBaseline = "middle";
    const step = niceStep(maxMs / 4);
    for (let ms = 0; ms <= maxMs; ms += step) {
      g.beginPath(); g.moveTo(left, y(ms)); g.lineTo(width - right, y(ms)); g.stroke();
      g.fillText(ms >= 1000 ? (ms / 1000).toFixed(1) + " s" : Math.round(ms) + " ms", left - 4, y(ms));
    }
    if (first < this.warmup) {            // warmup chunks are outside the steady statistics
      const shadeX = x(first) - (slotW - barW) / 2;
      g.fillStyle = "rgba(255,255,255,0.05)";
      g.fillRect(shadeX, top, (this.warmup - first) * slotW, plotH);
      // Named, so the shading does not read as part of the axis label below it.
      g.fillStyle = "#9aa0a6"; g.textAlign = "left"; g.textBaseline = "top";
      g.fillText("warmup", shadeX + 4, top + 4);
    }
    for (const c of shown) {
      g.fillStyle = c.late ? "#e53935" : "#4caf50";
      g.fillRect(x(c.i), y(c.ms), barW, y(0) - y(c.ms));
      const kinds = this.marks.get(c.i);
      if (kinds) {
        g.fillStyle = "#e6e6e6"; g.textAlign = "center"; g.textBaseline = "bottom";
        g.fillText([...kinds].map(k => k === "prompt" ? "▲" : "◆").join(""), x(c.i) + barW / 2, top);
      }
    }
    if (this.waitingMs !== null) {        // the chunk in flight: hollow, amber then red
      const next = shown.length ? shown[shown.length - 1].i + 1 : 0;
      g.strokeStyle = this.waitingMs > this.deadlineMs ? "#e53935"
        : this.waitingMs > 0.8 * this.deadlineMs ? "#ffb300" : "#9aa0a6";
      g.strokeRect(x(next) + 0.5, y(this.waitingMs), barW - 1, y(0) - y(this.waitingMs));
    }
    g.strokeStyle = "#f5f5f5"; g.setLineDash([5, 4]);
    g.beginPath(); g.moveTo(left, y(this.deadlineMs)); g.lineTo(width - right, y(this.deadlineMs)); g.stroke();
    g.setLineDash([]);
    g.fillStyle = "#9aa0a6"; g.textAlign = "left"; g.textBaseline = "alphabetic";
    g.fillText(shown.length ? `chunks ${first}–${shown[shown.length - 1].i}` : "no chunk yet", left, height - 4);
  }
}

function niceStep(raw) {
  const power = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}
