"""An app's classes: its class sessions and where other processes know them, each made at
init_app and found through the current app."""

from flask import current_app

from ..edge.keys import load_secret
from .directory import directory_for
from .passes import Passes
from .sessions import Classes

LEASE_BEATS = 2  # heartbeats a process's lease lives: one missed beat (Redis slow for a second) is no death
LEASE_FLOOR = 2  # seconds a lease lives at least


def init_app(app):
    """Give an app its own registry of class sessions."""
    app.config.setdefault("CLASS_IDLE_SECONDS", 3 * 3600)
    app.config.setdefault("CLASS_ORPHAN_SECONDS", 15 * 60)
    app.config.setdefault("CLASS_REAP_SECONDS", 30)
    app.extensions["knights_tour_classes"] = Classes(
        app.config["CLASS_IDLE_SECONDS"], app.config["CLASS_ORPHAN_SECONDS"], Passes(load_secret(app))
    )
    # With a message queue, a class's key in Redis lives CLASS_TTL_SECONDS unless its owner renews
    # it every CLASS_HEARTBEAT_SECONDS: see sharing.py.
    app.config.setdefault("CLASS_TTL_SECONDS", 20)
    app.config.setdefault("CLASS_HEARTBEAT_SECONDS", 5)
    ttl, beat = app.config["CLASS_TTL_SECONDS"], app.config["CLASS_HEARTBEAT_SECONDS"]
    # A process's lease, renewed each heartbeat, outlives a missed one: its class ends for the
    # other processes' students soon after it dies, without waiting for the class's key to expire.
    # At least LEASE_FLOOR: a busy process's beat may wait a second for Redis.
    app.config.setdefault("CLASS_LEASE_SECONDS", min(ttl, max(LEASE_BEATS * beat, LEASE_FLOOR)))
    lease, timeout = app.config["CLASS_LEASE_SECONDS"], app.config["QUEUE_TIMEOUT_SECONDS"]
    queue = app.config.get("MESSAGE_QUEUE")
    app.extensions["knights_tour_directory"] = directory_for(queue, ttl, timeout, lease)


def directory(app=None):
    """Return where an app's classes are known to other processes (nowhere, with one)."""
    return (app or current_app).extensions["knights_tour_directory"]


def classes(app=None):
    """Return the class sessions of an app (the current one by default)."""
    return (app or current_app).extensions["knights_tour_classes"]
