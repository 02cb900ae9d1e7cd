"""Reading the QR codes the server draws: which text an SVG QR code encodes."""

import re

import segno


def dark_modules(svg):
    """Return the dark modules of a QR code drawn as segno draws it, as (row, column) pairs."""
    path = re.search(r'<path[^>]*class="qrline"[^>]*\bd="([^"]+)"', svg).group(1)
    x = y = 0.0
    dark = set()
    for op, dx, dy in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if op == "h":  # a run of dark modules along the line y (a stroke centred half a module down)
            dark.update((int(y), int(x) + i) for i in range(int(dx)))
            x += float(dx)
        elif op == "m":
            x, y = x + float(dx), y + float(dy)
        else:
            x, y = float(dx), float(dy)
    return dark


def encodes(svg, text):
    """Tell whether an SVG QR code (with a four-module quiet zone) encodes text."""
    for level in "lmqh":
        matrix = segno.make_qr(text, error=level, boost_error=False).matrix
        drawn = {(4 + r, 4 + c) for r, row in enumerate(matrix) for c, on in enumerate(row) if on}
        if dark_modules(svg) == drawn:
            return True
    return False
