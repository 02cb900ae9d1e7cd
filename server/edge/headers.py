"""Which pages another page may frame: the embed, any (or the sites named); the rest, none."""

from flask import request

# The routes made for iframes. Every other response refuses frames, so that no site can lay the
# page under its own buttons (clickjacking) with a class's controls on it.
FRAMEABLE = {"views.embed"}
# Routes that send a policy of their own (the code lab's sandbox: pages/codelab.py).
OWN_POLICY = {"codelab.sandbox"}


def init_app(app):
    """Send every response's framing headers."""

    @app.after_request
    def frame_headers(response):
        if request.endpoint in FRAMEABLE:
            # EMBED_ANCESTORS: the sites allowed to frame the embed. With none named, no policy at
            # all: `frame-ancestors *` would refuse a course page opened from disk (file:), a data:
            # page and about:blank, whose origins no source matches.
            if app.config["EMBED_ANCESTORS"]:
                ancestors = " ".join(app.config["EMBED_ANCESTORS"])
                response.headers["Content-Security-Policy"] = f"frame-ancestors {ancestors}"
        elif request.endpoint not in OWN_POLICY:
            response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
            # For browsers that predate frame-ancestors.
            response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "strict-origin-when-cross-origin"
        return response
