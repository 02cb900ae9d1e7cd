"""Run a student's code: define it, call its main(rows, cols, start), and hand the events of its
search on in batches, checked, with where it first parts from the engine's search."""

import sys
import time
import traceback
import types

from . import book
from .trace import Mistake, Reference, Trace

FILENAME = "<your code>"
# The book's search recurses once a square: a 32 x 32 board is 1,024 frames deep.
RECURSION = 1200


def visit(square):
    """Return the event of a visit to square, for a student's generator to yield."""
    return ("visit", square)


def backtrack(square):
    """Return the event of a backtrack from square, for a student's generator to yield."""
    return ("backtrack", square)


class Halted(Exception):
    """The page asked for no more events (a browser that cannot hold the search has had enough)."""


class Problem(Exception):
    """The student's code could not run on: why (a sentence's id on the page), line (in the
    student's code, or None), and text (Python's own words)."""

    def __init__(self, why, line=None, text=""):
        super().__init__(why)
        self.why, self.line, self.text = why, line, text


def student_line(error):
    """Return the line of the student's code where error was raised (its deepest frame there)."""
    if isinstance(error, SyntaxError) and error.filename == FILENAME:
        return error.lineno
    lines = [
        frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == FILENAME
    ]
    return lines[-1] if lines else None


def define(code):
    """Run the student's code's definitions; return its main. The book's import of its Graph
    (pythonds and pythonds3) finds the lab's."""
    graphs = types.ModuleType("graphs")
    graphs.Graph, graphs.Vertex = book.Graph, book.Vertex
    for name in ("pythonds", "pythonds3"):
        package = types.ModuleType(name)
        package.graphs = graphs
        sys.modules[name], sys.modules[f"{name}.graphs"] = package, graphs
    names = {
        "__name__": "__lab__",
        "visit": visit,
        "backtrack": backtrack,
        "Graph": book.Graph,
        "Vertex": book.Vertex,
    }
    try:
        exec(compile(code, FILENAME, "exec"), names)
    except SyntaxError as error:
        raise Problem("lab.syntax", error.lineno, f"{type(error).__name__}: {error.msg}") from None
    except Exception as error:
        raise Problem(
            "lab.error", student_line(error), "".join(traceback.format_exception_only(error)).strip()
        ) from None
    main = names.get("main")
    if not callable(main):
        raise Problem("lab.noMain")
    return main


class Run:
    """One run of a student's code on a board: events go to hand(codes, lines) in batches of
    `batch` (hand returns the next batch's size), and the run's end is summed up by result()."""

    def __init__(self, code, rows, cols, start, order, *, closed=False, all_tours=False):
        self.code = code
        self.board = (rows, cols, start)
        self.trace = Trace(rows, cols, start, closed)
        self.reference = Reference(rows, cols, start, order, closed, all_tours)
        self.lines = {}  # the line of the student's code each kind of event was last made on
        self.returned = None
        self.problem = None
        self.seconds = 0.0  # the search's own time, from the first definition to the end

    def _hand(self, last=False):
        codes = self.trace.take()
        if not codes:
            return
        self.reference.check(codes)
        self.trace.batch = self.hand(codes, dict(self.lines))
        if self.trace.batch < 1 and not last:
            raise Halted

    def go(self, hand, batch=256):
        """Run the search to its end (or its first problem), handing its events on."""
        self.hand, self.trace.batch = hand, batch
        heard = self.trace.hearer(self._hand)
        lines, frame = self.lines, sys._getframe

        def colour_changed(kind, square):
            # The student's frame: this hook's caller is Vertex.setColor, whose caller is theirs.
            lines[kind] = frame(2).f_lineno
            heard(kind, square)

        rows, cols, start = self.board
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, RECURSION))
        book.Vertex.heard = colour_changed
        began = time.perf_counter()
        try:
            main = define(self.code)
            self.returned = main(rows, cols, start)
            if isinstance(self.returned, types.GeneratorType):
                self._follow(self.returned, heard)
        except Problem as problem:
            self.problem = problem
        except Halted:
            self.problem = Problem("lab.halted")
        except Mistake as mistake:
            made = "backtrack" if mistake.why == "lab.notTheEnd" else "visit"
            self.problem = Problem(mistake.why, self.lines.get(made))
            self.problem.mistake = mistake
        except RecursionError as error:
            self.problem = Problem("lab.recursion", student_line(error), f"RecursionError: {error}")
        except Exception as error:
            text = "".join(traceback.format_exception_only(error)).strip()
            self.problem = Problem("lab.error", student_line(error), text)
        finally:
            book.Vertex.heard = staticmethod(book._unheard)
            sys.setrecursionlimit(limit)
            self.seconds = time.perf_counter() - began
        self._hand(last=True)
        if self.problem is None:
            self.reference.finish()
        return self.result()

    def _follow(self, events, heard):
        """Take the events a student's generator yields: visit(square) and backtrack(square)."""
        lines = self.lines
        for event in events:
            kind, square = event if type(event) is tuple and len(event) == 2 else (None, None)
            frame = events.gi_frame
            if kind not in ("visit", "backtrack"):
                raise Problem("lab.notAnEvent", frame.f_lineno if frame else None, repr(event)[:80])
            if frame is not None:
                lines[kind] = frame.f_lineno
            heard(kind, square)

    def result(self):
        """Return the run's end: its counts, its path, and where it first parted from the engine's."""
        trace, reference = self.trace, self.reference
        problem = self.problem
        return {
            "events": trace.events,
            "tours": trace.tours,
            "path": list(trace.path),
            "tour": trace.last_tour,
            "returned": self.returned if isinstance(self.returned, (bool, int)) else None,
            "seconds": self.seconds,
            "order": reference.order,
            "matched": reference.matched,
            "differs": list(reference.differs) if reference.differs else None,
            "problem": None
            if problem is None
            else {
                "why": problem.why,
                "line": problem.line,
                "text": problem.text,
                "at": getattr(getattr(problem, "mistake", None), "at", None),
                "code": getattr(getattr(problem, "mistake", None), "code", None),
            },
        }
