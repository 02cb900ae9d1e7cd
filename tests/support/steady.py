"""Watching the boards hold still in a browser: each box's resizes, and any frame painted empty."""

RUN = "rows=6&cols=6&speed=60"  # a naive 6x6 search at 60 moves a second: hints come and go

# Count the resizes of each board's box and canvas once the run has started, and look at the
# canvases as each frame is painted: a canvas re-sized and left unpainted shows no board (its
# pixels are transparent). A frame's resize observers run after its animation callbacks, just
# before its paint: the canvases are looked at there, and in a task queued by each animation
# frame, which runs once that frame is painted.
WATCH = """(ids) => {
  const watch = { resizes: {}, frames: 0, empty: 0, ready: 0 }, emptyFrames = new Set();
  const canvases = [...document.querySelectorAll('.lane:not([hidden]) canvas')];
  const blank = (canvas) => {
    const { width: w, height: h } = canvas;
    const ctx = canvas.getContext('2d');
    // The corners of the margin and the middle of the board: painted whatever the position.
    const points = [[1, 1], [w - 2, h - 2], [w >> 1, h >> 1]];
    return points.some(([x, y]) => ctx.getImageData(x, y, 1, 1).data[3] === 0);
  };
  const look = () => {
    if (canvases.some(blank)) emptyFrames.add(watch.frames);
    watch.empty = emptyFrames.size;
  };
  for (const id of ids) {
    watch.resizes[id] = 0;
    let first = true; // an observer reports the size it finds when it starts: not a resize
    new ResizeObserver(() => {
      if (first) { first = false; watch.ready++; }
      else { watch.resizes[id]++; look(); }
    }).observe(document.getElementById(id));
  }
  const painted = new MessageChannel();
  painted.port1.onmessage = look;
  const tick = () => {
    watch.frames++;
    painted.port2.postMessage(null);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.steady = watch;
}"""
IDS = ["board-frame", "board-box", "board", "board-box-second", "board-second"]
# Each observer first reports the size it finds: a change before that report would be folded into
# it, and not counted.
READY = "(n) => window.steady.ready === n"
