"""A relay between the browser and a server whose traffic a test can hold, as a network that has
gone quiet holds it (nothing is closed, nothing arrives), and then let go."""

import socket
import threading

CHUNK = 65536
HOLD_WAIT = 5  # seconds hold() waits for what was on its way when it was called


class Tap:
    """A TCP relay on a free loopback port to a server's loopback port."""

    def __init__(self, port):
        self.target = ("127.0.0.1", port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        # Whether traffic flows, and how many chunks are being passed on: hold() waits for those,
        # so that nothing read before a hold arrives after it (a late chunk, on a busy machine,
        # would be an acknowledgement arriving seconds into a silence).
        self._flow = threading.Condition()
        self._flowing = True
        self._passing = 0
        self._closed = False
        self._sockets = []
        self._threads = []
        self._lock = threading.Lock()
        self._start(self._accept)

    def _start(self, target, *args):
        thread = threading.Thread(target=target, args=args, daemon=True, name="tap")
        with self._lock:
            self._threads.append(thread)
        thread.start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(self.target)
            with self._lock:
                self._sockets += [client, upstream]
                closed = self._closed
            if closed:
                client.close()
                upstream.close()
                return
            self._start(self._pump, client, upstream)
            self._start(self._pump, upstream, client)

    def _pump(self, source, sink):
        while True:
            try:
                data = source.recv(CHUNK)
            except OSError:
                data = b""
            with self._flow:  # held: what was read waits here, and the buffers fill behind it
                self._flow.wait_for(lambda: self._flowing)
                self._passing += 1
            try:
                if not data:
                    sink.shutdown(socket.SHUT_WR)
                    return
                sink.sendall(data)
            except OSError:
                return
            finally:
                with self._flow:
                    self._passing -= 1
                    self._flow.notify_all()

    def hold(self):
        """Stop passing anything on, either way, keeping every connection open; return once what
        was being passed on has gone."""
        with self._flow:
            self._flowing = False
            stopped = self._flow.wait_for(lambda: self._passing == 0, HOLD_WAIT)
        assert stopped, "a chunk being passed on did not go"

    def release(self):
        """Pass on what was held, and everything after it."""
        with self._flow:
            self._flowing = True
            self._flow.notify_all()

    def close(self):
        """Close the relay and every connection through it."""
        with self._lock:
            self._closed = True
            sockets, threads = list(self._sockets), list(self._threads)
        self.release()
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
        except OSError:
            pass
        self.listener.close()
        for each in sockets:
            try:
                each.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            each.close()
        for thread in threads:
            thread.join(5)
