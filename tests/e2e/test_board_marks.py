"""What the board draws in a square stays readable: the knight leaves its square's visit number
clear, and a hint's turn ("#1") sits inside its dashed box, clear of the line."""

import pytest

from tests.support.page import SQUARE_CENTRE, rendered, step_events

PROJECTOR = {"width": 1920, "height": 1080}

# ([row, col, grid colour, [left, top, right, bottom] as fractions of a square, [r, g, b],
# tolerance]) => the box, in device pixels from the square's top-left corner, of the pixels of
# that colour in that part of the main board's square, or null if there are none.
INK = f"""([row, col, grid, [l, t, r, b], [cr, cg, cb], tolerance]) => {{
  const centre = ({SQUARE_CENTRE});
  const here = centre([row, col, grid]), next = centre([0, 1, grid]), first = centre([0, 0, grid]);
  const canvas = document.getElementById('board');
  const ratio = canvas.width / canvas.clientWidth, cell = (next.x - first.x) * ratio;
  const x0 = Math.round(here.x * ratio - cell / 2), y0 = Math.round(here.y * ratio - cell / 2);
  const w = Math.round(cell * (r - l)), h = Math.round(cell * (b - t));
  const from = [x0 + Math.round(cell * l), y0 + Math.round(cell * t)];
  const data = canvas.getContext('2d').getImageData(from[0], from[1], w, h).data;
  let box = null;
  for (let y = 0; y < h; y++) {{
    for (let x = 0; x < w; x++) {{
      const i = 4 * (y * w + x);
      if (Math.abs(data[i] - cr) > tolerance || Math.abs(data[i + 1] - cg) > tolerance
          || Math.abs(data[i + 2] - cb) > tolerance) continue;
      const px = x + Math.round(cell * l), py = y + Math.round(cell * t);
      box = box ? [Math.min(box[0], px), Math.min(box[1], py), Math.max(box[2], px), Math.max(box[3], py)]
        : [px, py, px, py];
    }}
  }}
  return {{ box, cell }};
}}"""


def style(page, name):
    return page.evaluate(f"async () => (await import('/static/js/paint/theme.js')).STYLE.{name}")


def rgb(colour):
    return [int(colour[i : i + 2], 16) for i in (1, 3, 5)]


def ink(page, square, part, colour, tolerance):
    """Return the box of colour's pixels in part (fractions of a square) of the main board's square."""
    cols = page.evaluate("() => knightsTour.model.cols")
    row, col = divmod(square, cols)
    return page.evaluate(INK, [row, col, style(page, "grid"), part, rgb(colour), tolerance])


@pytest.fixture
def paused(open_page):
    """Return a 6x6 page paused ten moves into a naive search, on a projector."""
    page = open_page("/?rows=6&cols=6", viewport=PROJECTOR)
    step_events(page, 10)
    assert page.evaluate("() => knightsTour.model.path.length") == 10  # no backtrack yet, no dead end
    rendered(page)
    return page


def test_the_knight_leaves_its_squares_number_readable(paused):
    here = paused.evaluate("() => knightsTour.model.path.at(-1)")
    # The number sits in the square's top-left corner; the knight's white outline must not cross it.
    number = ink(paused, here, [0.02, 0.02, 0.5, 0.4], style(paused, "grayText"), 30)
    assert number["box"], "the knight's square shows no number"
    (left, top, right, bottom), cell = number["box"], number["cell"]
    around = [(left - 1) / cell, (top - 1) / cell, (right + 2) / cell, (bottom + 2) / cell]
    edge = ink(paused, here, around, style(paused, "knightEdge"), 8)
    assert edge["box"] is None, f"the knight is drawn over its square's number (its outline at {edge['box']})"


def test_a_hints_turn_sits_inside_its_dashed_box(paused):
    hints = paused.evaluate("() => knightsTour.overlay().hints")
    assert hints, "no move is left to try"
    for hint in hints:
        # Inside the dashed line (drawn at a tenth of the square, as wide as 4% of it), above the big number.
        seen = ink(paused, hint["square"], [0.13, 0.13, 0.87, 0.4], style(paused, "hint"), 40)
        box, cell = seen["box"], seen["cell"]
        assert box, f"hint #{hint['rank']} shows no turn"
        line = 0.1 * cell + max(1.5, 0.04 * cell) / 2  # the line's inner edge, from the square's side
        gap = min(box[0] - line, box[1] - line, cell - line - box[2])
        assert gap >= 2, f"hint #{hint['rank']}'s turn touches its dashed box ({gap:.1f} px apart)"
