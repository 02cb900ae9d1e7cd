"""A stopping server's goodbye: every page connected here is told, then its connection closed.

A page told so shows at once that the server is restarting or has stopped, and reconnects as
after any lost connection; without it, a page would learn only when its socket was cut (after
gunicorn's graceful wait) or when its pings went unanswered.
"""

import signal
import time

from ..extension import socketio

STOPPING = "server_stopping"
REASON = "the server is stopping"
FLUSH_SECONDS = 0.5  # the longest wait for the goodbyes to leave before the process goes on stopping
# The worker's signals that stop it: SIGTERM (gunicorn's graceful stop), SIGQUIT and SIGINT (its quick one).
SIGNALS = (signal.SIGTERM, signal.SIGQUIT, signal.SIGINT)


def say_goodbye(app):
    """Tell every page connected to this process that the server is stopping; close their connections."""
    if socketio.server is None:
        return
    sockets = list(socketio.server.eio.sockets.values())
    if not sockets:
        return
    with app.app_context():
        # To this process's pages only: another process sharing the queue is not stopping.
        socketio.emit(STOPPING, {"reason": REASON}, namespace="/", ignore_queue=True)
        for each in sockets:
            # The goodbye is queued before the close: the writer sends both, then ends.
            each.close(wait=False)
    deadline = time.monotonic() + FLUSH_SECONDS
    while time.monotonic() < deadline and any(not each.queue.empty() for each in sockets):
        time.sleep(0.01)  # under gevent, lets the writers run


def install(app):
    """Say goodbye before the gevent worker handles a signal that stops it (gunicorn set its
    handlers before loading the app)."""
    for number in SIGNALS:
        then = signal.getsignal(number)
        if not callable(then):
            continue
        signal.signal(number, _handler(app, then))


def _handler(app, then):
    def on_signal(number, frame):
        # Out of the signal handler, as gunicorn's own gevent worker does: the goodbye blocks.
        socketio.start_background_task(_goodbye_then, app, then, number, frame)

    return on_signal


def _goodbye_then(app, then, number, frame):
    try:
        say_goodbye(app)
    finally:
        then(number, frame)
