"""The code lab's Python: a student's own search, run in the student's browser (Pyodide, in a
sandboxed worker), never on the server.

book.py holds the textbook's Graph and Vertex, whose colour changes are the search's events;
trace.py checks those events and compares them with the engine's; runner.py runs the student's
code and hands its events on in batches.
"""
