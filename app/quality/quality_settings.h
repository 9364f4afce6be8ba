#pragma once
// The thresholds that turn the per-chunk signals into flags, and how much of each frame is
// measured. The defaults are calibrated on the built-in simulator's picture under the orbit
// camera (see docs/quality.md for the numbers) and are meant as sensible starting points for
// real streams: each one names the unit it is in.

namespace lbm::quality {

struct QualityThresholds {
    // seam: the luma change across a chunk boundary divided by the typical frame-to-frame
    // change inside the two chunks around it is at least this (steady camera motion scores
    // about 1; the simulator's orbit stays below 1.2).
    double seam_score = 3.0;
    // A boundary whose mean absolute luma change is below this (8-bit levels) is never a
    // seam, however still the chunks around it are.
    double seam_min_change = 2.0;
    // With the camera's motion measured, the score divides the change the motion does not
    // explain; the boundary's plain change must then also be at least this many times the
    // chunks' median plain change (a seam changes the picture more than motion does; a
    // motion fit that slips on a dark, flat picture does not).
    double seam_plain_ratio = 1.5;
    // The smallest motion level (8-bit luma levels per frame) a seam score divides by, so a
    // still picture does not turn a small change into a large score.
    double motion_floor = 0.5;
    // freeze: two consecutive frames whose mean absolute luma difference is below this
    // (8-bit levels) are near-identical (decoded repeats of one frame differ by ~0).
    double freeze_change = 0.3;
    // freeze: at least this many near-identical frames in a row inside a chunk (one latent
    // frame is four pixel frames).
    int freeze_min_frames = 4;
    // blur: the sharpness of the chunk's last latent frame divided by the previous chunk's,
    // corrected for the camera's zoom and the expected course, is below this.
    double blur_ratio = 0.7;
    // tint: the chroma (U, V) of the chunk's last latent frame moved at least this far (8-bit
    // levels) from the previous chunk's, beyond the expected course.
    double tint_drift = 4.0;
    // blur: how the detail measure follows the camera's zoom: a picture magnified by s
    // (moving forward) shows s^-exponent of its detail per pixel. The measure is fine detail
    // over coarse structure, which a zoom thins alike (0 measured on the 3-D simulated world:
    // with 1, forward chunks read 4 % sharper and a chunk whose zoom the estimate misreads
    // as -35 % reads as blur).
    double sharpness_zoom_exponent = 0.0;
    // transition: a prompt transition whose look (mean Y, U, V) moves less than this in
    // total (8-bit levels) never visibly landed.
    double transition_min_change = 4.0;
    // transition: it has landed in the first chunk whose look has covered all but this
    // share of one chunk's step (K chunks share the change evenly): a K=1 transition must
    // cover 65% of its change in its one chunk, a K=3 one 88% by its third and less than
    // 67% by its second.
    double transition_step_tolerance = 0.35;
    // steering: a frame moves the commanded way when its measured pan along each commanded
    // axis is at least this many full-frame pixels per frame the right way (the simulator's
    // keys move the view by 4.6 to 7 px per frame)...
    double steering_min_pan_px = 0.5;
    // ... and its zoom at least this relative scale change per frame (forward over the
    // simulator's 3-D world fits +0.25 to +0.45 % a frame in daylight, the sky does not grow
    // and the ground does; +0.04 to +0.15 % while a night look darkens the ground).
    double steering_min_zoom = 0.0005;
    // action: a chunk under a moving camera command in which fewer than this share of the
    // frames move the commanded way ignores, reverses or lags the command.
    double following_min_share = 0.5;
};

struct QualitySettings {
    QualityThresholds thresholds;
    // Share of the rows at the top and at the bottom left out of every measure: captions,
    // timecodes and the simulator's barcode band live there (the title-safe idea), and they
    // change every frame without being part of the picture.
    double edge_margin = 0.10;
    // Every sample_step-th row and column of the measured window is read; 2 reads a quarter
    // of the pixels, which keeps every signal within a few percent of the full-frame value.
    int sample_step = 2;
    // QualityWorker: frames queued before pushFrame() waits (back-pressure; 240 = 20 chunks).
    int max_queued_frames = 240;
};

} // namespace lbm::quality
