"""gunicorn's hooks for the app's server (python -m server passes this file with --config).

gunicorn runs this file in its master process, before its worker patches the standard library
for gevent: it imports nothing of the app, whose modules the worker loads once patched.
"""


def post_worker_init(worker):
    """Refuse an address's surplus handshakes at the worker's door (see server/edge/door.py), give
    a flood's memory back once it has gone (see server/edge/heap.py), and keep the collector's full
    passes short, once the app is loaded."""
    import gc

    import gevent

    from server.edge import app_guard, door, heap

    door.install(worker)
    guard = app_guard(worker.wsgi)
    if guard is not None:
        heap.install(lambda: guard.total, gevent.spawn, gevent.sleep)
    # A full pass of the cyclic collector stops every stream while it walks every object the
    # worker holds: with a hall connected, 150-200 ms every few seconds, while connections come
    # and go. gevent's greenlet tree keeps ten frames of the stack each greenlet was spawned
    # from, a tenth of those objects, for debugging alone; and what the app loaded at start lives
    # as long as the worker, so the collector need never walk it again.
    gevent.config.track_greenlet_tree = False
    gc.freeze()
