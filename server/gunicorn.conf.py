"""gunicorn's hooks for the app's server (python -m server passes this file with --config).

gunicorn runs this file in its master process, before its worker patches the standard library
for gevent: it imports nothing of the app, whose modules the worker loads once patched.
"""


def post_worker_init(worker):
    """Refuse an address's surplus handshakes at the worker's door (see server/edge/door.py)."""
    from server.edge import door

    door.install(worker)
