"""Clips of the search, in a real Chromium: a video (MP4, or WebM where the browser encodes no
H.264; recorded in real time where it has no VideoEncoder) and an animated GIF made from the
page's model, each read back in the page, a video made on a slow machine; the board as a PNG fit
for a slide; a clip cancelled, and a clip from the event shown."""

import base64
import math
import re
import struct

from playwright.sync_api import Error, expect

from tests.support.page import READY, STEP, artifact, wait_for_events

WARNSDORFF_5X5 = 26  # events of Warnsdorff's search on 5x5 from a5: 25 visits and its "found"
TOLERANCE = 0.25  # seconds a recorded length may be off, for the frames' timers

# ([base64, type]) => what a video file holds, read back by a <video>: its length, its size, and
# how much of its middle frame is drawn (pixels that are not the paper's white).
READ_VIDEO = """async ([data, type]) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const video = document.createElement('video');
  video.muted = true;
  video.src = URL.createObjectURL(new Blob([bytes], { type }));
  await new Promise((loaded, failed) => {
    video.onloadedmetadata = loaded;
    video.onerror = () => failed(new Error(`the video does not load: ${video.error?.message}`));
  });
  const { duration, videoWidth: width, videoHeight: height } = video;
  video.currentTime = duration / 2;
  await new Promise((seeked) => { video.onseeked = seeked; });
  const canvas = Object.assign(document.createElement('canvas'), { width, height });
  const ctx = canvas.getContext('2d');
  ctx.drawImage(video, 0, 0);
  const pixels = ctx.getImageData(0, 0, width, height).data;
  let inked = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 3 * 200) inked++;
  }
  URL.revokeObjectURL(video.src);
  return { duration, width, height, inked: inked / (width * height) };
}"""

# (base64) => a GIF read back twice: as an image, and frame by frame by the ImageDecoder.
READ_GIF = """async (data) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const image = new Image();
  image.src = URL.createObjectURL(new Blob([bytes], { type: 'image/gif' }));
  await image.decode();
  const decoder = new ImageDecoder({ data: bytes, type: 'image/gif' });
  await decoder.tracks.ready;
  const frames = decoder.tracks.selectedTrack.frameCount;
  const ms = [];
  for (let i = 0; i < frames; i++) {
    const { image: frame } = await decoder.decode({ frameIndex: i });
    ms.push(frame.duration / 1000);
    frame.close(); // a frame left to the garbage collector is logged as an error
  }
  decoder.close();
  URL.revokeObjectURL(image.src);
  return { width: image.naturalWidth, height: image.naturalHeight, frames, ms };
}"""

# (base64) => a GIF's last frame, decoded: its size, and the share of drawn (not white) pixels
# in its left and right parts, above the caption.
READ_GIF_SIDES = """async (data) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const decoder = new ImageDecoder({ data: bytes, type: 'image/gif' });
  await decoder.tracks.ready;
  const last = decoder.tracks.selectedTrack.frameCount - 1;
  const { image } = await decoder.decode({ frameIndex: last });
  const width = image.displayWidth, height = image.displayHeight;
  const canvas = Object.assign(document.createElement('canvas'), { width, height });
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  image.close();
  decoder.close();
  const pixels = ctx.getImageData(0, 0, width, height).data;
  const inked = (x0, x1) => {
    let n = 0, all = 0;
    for (let y = 0; y < height * 0.8; y++) {
      for (let x = Math.floor(x0); x < x1; x++) {
        const i = 4 * (y * width + x);
        all++;
        if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 3 * 230) n++;
      }
    }
    return n / all;
  };
  return { width, height, left: inked(0, width * 0.5), right: inked(width * 0.62, width) };
}"""

# (base64) => the size of a PNG, decoded.
READ_PNG = """async (data) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  return { width: bitmap.width, height: bitmap.height };
}"""

# A browser whose encoder has no H.264 (a Chromium built without one): VP9 or VP8, in WebM.
NO_H264 = """{
  const encodes = VideoEncoder.isConfigSupported.bind(VideoEncoder);
  VideoEncoder.isConfigSupported = (config) =>
    /^avc1/.test(config.codec) ? Promise.resolve({ supported: false, config }) : encodes(config);
}"""

# A browser with no WebCodecs encoder (Firefox before 130): the video is recorded as it plays.
NO_ENCODER = "delete window.VideoEncoder;"

# A canvas's capture that passes on no frame: of a canvas never drawn on, never asked for one.
NO_FRAME_TAKEN = """const capture = HTMLCanvasElement.prototype.captureStream;
HTMLCanvasElement.prototype.captureStream = function (fps) {
  return capture.call(document.createElement('canvas'), fps);
};
CanvasCaptureMediaStreamTrack.prototype.requestFrame = function () {};"""

# An encoder that fails on the first frame it is given, as a hardware or memory fault would.
ENCODER_FAILS = """VideoEncoder.prototype.encode = function () {
  throw new DOMException('Encoding failed.', 'EncodingError');
};"""

# The Matroska elements a WebM's frames are in (Segment, Cluster), and the frames (SimpleBlock,
# BlockGroup): one a frame, for a file of one track.
WEBM_PARENTS = {0x18538067, 0x1F43B675}
WEBM_FRAMES = {0xA3, 0xA0}


def finished(page, site, query="order=warnsdorff&speed=0"):
    """Open the page with query's settings, play the search to its end, and open the clip's box."""
    page.goto(f"{site.url}/?{query}")
    page.wait_for_function(READY)
    page.get_by_role("button", name="Play").click()
    page.wait_for_function("() => knightsTour.state === 'finished'", timeout=60_000)
    page.get_by_text("Video or GIF of the search").click()


def choose(page, fmt="video", pace=50, events=None, start="the start", tree=False):
    """Choose a clip as a user would: where it starts, how many events, its pace and format, and
    whether the search tree goes beside the board (the board's own shape, by default here)."""
    page.get_by_label("The search tree beside the board").set_checked(tree)
    page.get_by_label(start, exact=True).check()
    page.get_by_label("Events", exact=True).fill("" if events is None else str(events))
    page.get_by_label("Events", exact=True).dispatch_event("change")
    page.get_by_label("Pace").select_option(str(pace))
    page.get_by_label("Format").select_option(fmt)


def make(page, timeout=60_000):
    """Press Make the clip and return the file saved: (name, bytes); wait until the page is idle."""
    with page.expect_download(timeout=timeout) as saved:
        page.get_by_role("button", name="Make the clip").click()
    name, data = saved.value.suggested_filename, open(saved.value.path(), "rb").read()
    expect(page.get_by_role("button", name="Make the clip")).to_be_enabled()
    return name, data


def read_video(page, data, kind):
    """Return what a browser reads back from a video file's bytes (see READ_VIDEO), in a page of
    its own, as someone opening the saved file would: not the page that made it, whose recorder
    and capture track may still be winding down. A file it cannot read is kept in the artifacts."""
    reader = page.context.browser.new_context()
    try:
        return reader.new_page().evaluate(READ_VIDEO, [base64.b64encode(data).decode(), kind])
    except Error as unread:
        kept = artifact(f"unread-{len(data)}.{kind.partition('/')[2]}")
        with open(kept, "wb") as file:
            file.write(data)
        held = f", {webm_frames(data)} frames in its clusters" if kind == "video/webm" else ""
        raise AssertionError(f"{unread.message} ({len(data):,} bytes{held}; kept as {kept})") from unread
    finally:
        reader.close()


def gif_frames(n, pace):
    """Return the frames and delays (ms) a GIF of n events at pace should have: events grouped so
    that each frame lasts 20 ms or more, the last frame held a second."""
    group = max(1, math.ceil(2 * pace / 100))
    frames = math.ceil(n / group) + 1
    cs = [round((j + 1) * group * 100 / pace) - round(j * group * 100 / pace) for j in range(frames - 1)]
    return frames, [10 * c for c in cs] + [1000]


def video_frames(n, pace):
    """Return the frames a video of n events at pace has: one each 1/30 s, the events' time and a
    second's hold, and one at its very end."""
    return math.ceil((n * 30 + 30 * pace) / pace) + 1


def ebml_number(data, at, marker):
    """Return the EBML variable-length number at data[at] and where it ends; with marker, as an
    element's ID (its length marker kept); without, as a size (None for "unknown")."""
    length = 9 - data[at].bit_length()
    value = int.from_bytes(data[at : at + length], "big")
    if not marker:
        value &= (1 << (7 * length)) - 1
        value = None if value == (1 << (7 * length)) - 1 else value
    return value, at + length


def webm_frames(data):
    """Return how many frames a WebM file holds: its blocks, counted through its clusters (which a
    recorder may write with no size, to be read until the next)."""
    at = count = 0
    while at < len(data):
        element, at = ebml_number(data, at, marker=True)
        if at >= len(data):
            break  # a file cut short in an element's head: its whole elements are counted
        size, at = ebml_number(data, at, marker=False)
        if element in WEBM_PARENTS:
            continue
        count += element in WEBM_FRAMES
        at += size
    return count


def mp4_frames(data):
    """Return how many frames an MP4 file's sample table (stsz) holds."""
    at = data.index(b"stsz") + 4  # then version and flags, a sample size, the sample count
    return struct.unpack(">I", data[at + 8 : at + 12])[0]


def assert_decodes(video, seconds, whole=True):
    """Check that a video read back lasts seconds (if whole: else only that it lasts), is of even
    sizes, and that its middle frame is drawn (if not whole, only not blank)."""
    if whole:
        assert abs(video["duration"] - seconds) <= TOLERANCE, (video["duration"], seconds)
    else:
        assert video["duration"] > 0, video
    assert video["width"] > 0 and video["width"] % 2 == 0 and video["height"] % 2 == 0, video
    assert video["height"] > video["width"] * 0.9, "a square board, its caption under it"
    assert video["inked"] > (0.2 if whole else 0), f"the middle frame is drawn: {video}"


def test_a_video_of_the_search_from_its_start(page, site):
    finished(page, site)
    choose(page, "video", pace=50)
    expect(page.get_by_label("Format").locator("option").first).to_have_text("Video (MP4)")
    # Encoded, not recorded: made faster than it plays.
    expect(page.locator("#clip-plan")).to_have_text("A video of 26 events in MP4, 1.5 s long.")
    name, data = make(page)
    assert name == "knights-tour-5x5-from-a5.mp4"
    assert len(data) > 10_000 and data[4:8] == b"ftyp", "an MP4 (ISO base media) file"
    assert mp4_frames(data) == video_frames(WARNSDORFF_5X5, 50), "every frame, muxed"
    video = read_video(page, data, "video/mp4")
    assert_decodes(video, WARNSDORFF_5X5 / 50 + 1)
    expect(page.locator("#clip-note")).to_have_text(
        re.compile(rf"Saved {name}: {video['width']} × {video['height']} pixels, 1\.5 s, [\d,]+ KB\.")
    )
    page.screenshot(path=artifact("clip_video_saved.png"))


def test_a_browser_that_encodes_no_h264_gets_a_webm(page, site):
    page.context.add_init_script(NO_H264)
    finished(page, site)
    expect(page.get_by_label("Format").locator("option").first).to_have_text("Video (WebM)")
    choose(page, "video", pace=100)
    expect(page.locator("#clip-plan")).to_have_text("A video of 26 events in WebM, 1.3 s long.")
    name, data = make(page)
    assert name == "knights-tour-5x5-from-a5.webm"
    assert data[:4] == b"\x1a\x45\xdf\xa3", "a WebM (Matroska) file"
    assert_decodes(read_video(page, data, "video/webm"), WARNSDORFF_5X5 / 100 + 1)
    assert webm_frames(data) == video_frames(WARNSDORFF_5X5, 100), "every frame, muxed"


def test_a_browser_with_no_video_encoder_records_the_video(page, site):
    page.context.add_init_script(NO_ENCODER)
    finished(page, site)
    choose(page, "video", pace=50)
    expect(page.locator("#clip-plan")).to_have_text(
        "A video of 26 events in WebM, 1.5 s long. It is recorded as it plays, so making it takes as "
        "long, and on a busy machine it may come out shorter. "
        "Open the page at https:// or on localhost for an exact clip."
    )
    with page.expect_download() as saved:
        page.get_by_role("button", name="Make the clip").click()
        expect(page.locator("#clip-note")).to_have_text("Recording a video of 26 events in WebM…")
    name, data = saved.value.suggested_filename, open(saved.value.path(), "rb").read()
    assert name == "knights-tour-5x5-from-a5.webm"
    assert data[:4] == b"\x1a\x45\xdf\xa3", "a WebM (Matroska) file"
    # Not whole: a recorder that falls behind real time (a busy machine) drops frames, the last
    # ones with the video's end, or stamps them late, and the video lasts longer; its middle may
    # then be early in the search. That is why the page encodes where it can.
    assert_decodes(read_video(page, data, "video/webm"), WARNSDORFF_5X5 / 50 + 1, whole=False)


AGAIN = "Try again, or make a GIF."


def refused_video(page, site, script, note, timeout=5_000):
    """Make a video of the finished 5x5 search in a page with script run first, which must
    refuse it with note and save nothing; return the list the page's downloads go to from then on."""
    page.context.add_init_script(script)
    finished(page, site)
    choose(page, "video", pace=50)
    downloads = []
    page.on("download", lambda download: downloads.append(download.suggested_filename))
    page.get_by_role("button", name="Make the clip").click()
    expect(page.locator("#clip-note")).to_have_text(note, timeout=timeout)
    expect(page.get_by_role("button", name="Make the clip")).to_be_enabled()
    assert downloads == []
    return downloads


def test_a_recording_that_kept_no_frame_is_not_saved(page, site):
    # A recorder that is handed no frame (as one whose encoder never caught up before it stopped)
    # writes a file of headers alone, which plays as nothing.
    frames = video_frames(WARNSDORFF_5X5, 50)
    note = f"The video came out incomplete (0 of {frames} frames): nothing was saved. {AGAIN}"
    refused_video(page, site, NO_ENCODER + NO_FRAME_TAKEN, note, timeout=20_000)


def test_a_video_the_encoder_fails_on_is_not_saved(page, site):
    note = f"The browser could not encode the video (Encoding failed.): nothing was saved. {AGAIN}"
    downloads = refused_video(page, site, ENCODER_FAILS, note)
    expect(page.get_by_role("progressbar", name="Making the clip")).to_be_hidden()
    # The next file the page saves is the next clip: the failed one never comes.
    choose(page, "gif", pace=500)
    name, _ = make(page)
    assert downloads == [name]


def test_a_video_made_on_a_slow_machine_keeps_every_frame(page, site):
    finished(page, site)
    choose(page, "video", pace=50)
    # A teacher's laptop in a lecture: the page's main thread runs six times slower than here.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 6})
    try:
        name, data = make(page, timeout=120_000)
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        cdp.detach()
    assert data[4:8] == b"ftyp", "an MP4 (ISO base media) file"
    assert mp4_frames(data) == video_frames(WARNSDORFF_5X5, 50), "no frame lost"
    assert_decodes(read_video(page, data, "video/mp4"), WARNSDORFF_5X5 / 50 + 1)


def test_an_animated_gif_of_the_search(page, site):
    finished(page, site)
    pace = 100  # 10 ms an event: two events a frame, each frame 20 ms
    choose(page, "gif", pace=pace)
    frames, delays = gif_frames(WARNSDORFF_5X5, pace)
    expect(page.locator("#clip-plan")).to_contain_text(f"A GIF of 26 events in {frames} frames")
    name, data = make(page)
    assert name == "knights-tour-5x5-from-a5.gif"
    assert data[:6] == b"GIF89a"
    gif = page.evaluate(READ_GIF, base64.b64encode(data).decode())
    assert gif["frames"] == frames == 14, gif
    assert gif["ms"] == delays, "each frame lasts 20 ms, as written; the last is held a second"
    assert 400 <= max(gif["width"], gif["height"]) <= 600, gif
    expect(page.locator("#clip-note")).to_contain_text(f"{frames} frames")


def test_a_gif_with_the_search_tree_beside_the_board(page, site):
    finished(page, site, "order=naive&rows=5&cols=5&speed=0")
    choose(page, "gif", pace=500, events=2000, tree=True)
    _, data = make(page)
    shown = page.evaluate(READ_GIF_SIDES, base64.b64encode(data).decode())
    # The board on the left, the tree of its 2,000 events on the right, in a 16:9-ish frame.
    assert shown["width"] > 1.4 * shown["height"], shown
    assert shown["left"] > 0.3 and shown["right"] > 0.2, shown
    choose(page, "gif", pace=500, events=2000, tree=False)
    _, data = make(page)
    alone = page.evaluate(READ_GIF_SIDES, base64.b64encode(data).decode())
    assert alone["height"] == shown["height"] and alone["width"] < 0.7 * shown["width"], (alone, shown)


def test_the_board_as_png_is_sharp_enough_for_a_slide(page, site):
    finished(page, site)
    width = page.locator("#board").bounding_box()["width"]
    with page.expect_download() as saved:
        page.get_by_role("button", name="Board as PNG").click()
    data = open(saved.value.path(), "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    size = struct.unpack(">II", data[16:24])
    image = page.evaluate(READ_PNG, base64.b64encode(data).decode())
    assert (image["width"], image["height"]) == size
    assert image["width"] >= 2 * width and max(size) >= 1600, (size, width)
    expect(page.locator("#share-note")).to_have_text(
        f"The board was saved as a PNG image of {size[0]} × {size[1]} pixels, with its coordinates."
    )


def test_a_phones_png_is_as_large_as_a_laptops(page, site):
    page.set_viewport_size({"width": 390, "height": 844})
    finished(page, site)
    width = page.locator("#board").bounding_box()["width"]
    assert width < 400
    with page.expect_download() as saved:
        page.get_by_role("button", name="Board as PNG").click()
    size = struct.unpack(">II", open(saved.value.path(), "rb").read()[16:24])
    assert max(size) >= 1600 and size[0] >= 2 * width, (size, width)


def test_a_cancelled_video_saves_nothing(page, site):
    finished(page, site)
    choose(page, "video", pace=1)  # 27 s of video: time to cancel it
    downloads = []
    page.on("download", lambda download: downloads.append(download.suggested_filename))
    page.get_by_role("button", name="Make the clip").click()
    progress = page.get_by_role("progressbar", name="Making the clip")
    expect(progress).to_be_visible()
    expect(page.get_by_role("button", name="Make the clip")).to_be_hidden()
    expect(page.get_by_label("Format")).to_be_disabled()
    page.wait_for_function("() => knightsTour.store.clip.progress > 0")
    page.get_by_role("button", name="Cancel", exact=True).click()
    expect(page.locator("#clip-note")).to_have_text("The clip was cancelled: nothing was saved.")
    expect(progress).to_be_hidden()
    expect(page.get_by_role("button", name="Make the clip")).to_be_enabled()
    expect(page.get_by_label("Format")).to_be_enabled()
    assert downloads == []
    # The next file the page saves is the next clip: the cancelled one never comes.
    choose(page, "gif", pace=500)
    name, _ = make(page)
    assert downloads == [name] == ["knights-tour-5x5-from-a5.gif"]


def test_a_clip_from_the_event_shown(page, site):
    finished(page, site)
    for events in range(WARNSDORFF_5X5 - 1, WARNSDORFF_5X5 - 7, -1):
        page.get_by_role("button", name="Step back").click()
        wait_for_events(page, events)
    choose(page, "video", pace=20, start="here (the event shown)")
    expect(page.get_by_label("Events", exact=True)).to_have_attribute("placeholder", "all 6")
    name, data = make(page)
    assert name.endswith(".mp4")
    assert_decodes(read_video(page, data, "video/mp4"), 6 / 20 + 1)
    shown = page.evaluate("() => knightsTour.model.events")
    assert shown == WARNSDORFF_5X5 - 6, "the page's own board did not move"
    # Fewer events than there are: the first ones from here.
    choose(page, "video", pace=20, events=2, start="here (the event shown)")
    expect(page.locator("#clip-plan")).to_contain_text("A video of 2 events in MP4, 1.1 s long")
    _, data = make(page)
    assert_decodes(read_video(page, data, "video/mp4"), 2 / 20 + 1)


def test_the_clip_needs_events_of_the_knights_board(page, site):
    make_button = page.get_by_role("button", name="Make the clip")
    page.get_by_text("Video or GIF of the search").click()
    expect(make_button).to_be_disabled()
    expect(page.locator("#clip-plan")).to_have_text(
        "Play or step the search first: a clip shows the events the page has received."
    )
    page.get_by_role("button", **STEP).click()
    wait_for_events(page, 1)
    expect(make_button).to_be_enabled()
    page.get_by_label("here (the event shown)").check()
    expect(make_button).to_be_disabled()
    expect(page.locator("#clip-plan")).to_contain_text("Nothing comes after the event shown")
    page.get_by_label("the start", exact=True).check()
    expect(make_button).to_be_enabled()
    page.get_by_label("The textbook's example graph (A to F)").check()
    page.get_by_role("button", name="End this search and change").click()
    expect(make_button).to_be_disabled()
    expect(page.locator("#clip-plan")).to_have_text(
        "Clips show the knight's board; the example graph has none."
    )
    # Nor a picture of the board: the graph is drawn by another view.
    expect(page.get_by_role("button", name="Board as PNG")).to_be_disabled()
