"""A player driven without sockets: what it sends kept, and a skip checked against the search."""

import threading

from server.engine.graph import knight_graph
from server.engine.search import knight_tour
from tests.support.replay import path_nodes, path_of
from tests.support.waiting import wait_for


class Receiver:
    """Collects what a player sends, from the player's thread; acknowledges at once unless told to hold."""

    def __init__(self, hold=False):
        self.hold = hold
        self.done = threading.Event()
        self.summary = None
        self._batches, self._pending, self._reports = [], [], []
        self._lock = threading.Lock()

    def send(self, batch, on_ack):
        """Keep a batch; acknowledge it, unless holding."""
        with self._lock:
            self._batches.append(batch)
            if self.hold:
                self._pending.append(on_ack)
        if not self.hold:
            on_ack()

    def report(self, snapshot, on_ack):
        """Keep a progress report and acknowledge it."""
        with self._lock:
            self._reports.append(snapshot)
        on_ack()

    def finish(self, summary):
        """Keep the summary of the finished run."""
        self.summary = summary
        self.done.set()

    @property
    def batches(self):
        """Return the batches received so far."""
        with self._lock:
            return list(self._batches)

    @property
    def reports(self):
        """Return the progress reports received so far."""
        with self._lock:
            return list(self._reports)

    @property
    def events(self):
        """Return the events of every batch received so far, in order."""
        return [event for batch in self.batches for event in batch]

    def count(self):
        """Return how many events have arrived."""
        with self._lock:
            return sum(len(batch) for batch in self._batches)

    def acknowledge_first(self):
        """Acknowledge the oldest batch held back."""
        with self._lock:
            on_ack = self._pending.pop(0)
        on_ack()


SKIPS = [(5, 5010, 4985), (6, 183_635, 183_599)]  # (board side, visits, backtracks) of naive searches


def skipped_to_end(player, receiver, size, visits, backtracks):
    """Skip a playing run; check it searched to the end without sending the skipped events."""
    assert wait_for(lambda: receiver.batches)
    player.skip()
    assert receiver.done.wait(20)
    summary = receiver.summary
    assert (summary["visits"], summary["backtracks"], summary["found"]) == (visits, backtracks, True)
    assert summary["path"] == path_of(knight_tour(knight_graph(size, size), 0))
    assert summary["tour"] == summary["path"] and summary["stopped"] is None
    assert receiver.count() < 10  # the skipped events were never sent
    for report in receiver.reports:
        assert report["skipping"] and report["visits"] - report["backtracks"] == len(report["path"])
    outlined_as_searched(receiver, list(knight_tour(knight_graph(size, size), 0)))


def outlined_as_searched(receiver, events):
    """Check that the outlines of the reports and the summary, put together after the events
    sent, count the nodes skipped and give the path's nodes as the search made them."""
    sent = events[: receiver.count()]
    nodes, path = sum(1 for kind, _, _ in sent if kind == "visit"), path_nodes(sent)
    for part in [report["outline"] for report in receiver.reports] + [receiver.summary["outline"]]:
        assert part["from"] == nodes
        nodes += sum(part["stretches"][0::3])
        path = path[: part["pathFrom"]] + part["pathNodes"]
    assert nodes == receiver.summary["visits"]
    assert path == path_nodes(events)
