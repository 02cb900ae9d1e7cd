"""HTTP routes of students' seats (edge/seats.py): the instructor's key, the sheets of seats an
instructor makes, and the link with which a student's browser takes its seat."""

import csv
import hmac
import io
import time

from flask import Blueprint, Response, abort, redirect, request, stream_template

from .edge import seats as seating
from .pages import draw_qr, join_base, kept, seats

bp = Blueprint("rosters", __name__)


@bp.get("/instructor/<key>")
def instructor(key):
    """Let this browser hand out seats, given the server's instructor key (python -m server prints it)."""
    if not hmac.compare_digest(key.encode(), seats().instructor_key().encode()):
        abort(404)
    return kept(redirect("/", 303), seating.INSTRUCTOR_COOKIE, key, seating.MAX_AGE)


@bp.get("/seat/<signed>")
def take_seat(signed):
    """Keep a student's seat in their browser: its connections are let in however full their network is."""
    if seats().seat(signed) is None:
        return Response(
            "This seat link is not valid: ask your instructor for yours.\n", 404, mimetype="text/plain"
        )
    return kept(redirect("/", 303), seating.COOKIE, signed, seating.MAX_AGE)


def instructors_only():
    """Abort unless the request comes from a browser given the instructor key."""
    if not seats().is_instructor(request.environ):
        abort(403, "Only a browser given the instructor key may print seats: see docs/deployment.md.")


def roster_of(roster):
    """Return a roster's seats, for the instructor's browser alone (else abort)."""
    instructors_only()
    found = seats().seats(roster)
    if found is None:
        abort(404)
    return found


def seat_links(roster):
    """Return (number, link) of each of a roster's seats."""
    base = join_base() or request.host_url.rstrip("/")
    return [(seating.number(seats().seat(seat)), f"{base}/seat/{seat}") for seat in roster_of(roster)]


@bp.get("/roster/new")
def new_roster():
    """Make a sheet of ?seats= seats, and show it."""
    instructors_only()
    size = request.args.get("seats", "")
    if not size.isdigit() or not 1 <= int(size) <= seating.MAX_ROSTER:
        abort(400, f"A sheet has 1 to {seating.MAX_ROSTER:,} seats.")
    return redirect(f"/roster/{seats().roster(int(size))}", 303)


@bp.get("/roster/<roster>")
def roster_sheet(roster):
    """Show a roster's seats, each with its link and QR code, to print or hand out."""
    links = seat_links(roster)

    def cards():
        for number, link in links:
            yield number, link, draw_qr(link).decode()
            time.sleep(0)  # a greenlet's turn for the class between codes: each takes a few ms

    return stream_template("roster.html", roster=roster, size=len(links), cards=cards())


@bp.get("/roster/<roster>/seats.csv")
def roster_csv(roster):
    """Give a roster's seats as CSV (seat, link), to send each student theirs through a course's site."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seat", "link"])
    writer.writerows(seat_links(roster))
    response = Response(out.getvalue(), mimetype="text/csv")
    name = roster.partition("~")[0]
    response.headers["Content-Disposition"] = f'attachment; filename="seats-{name}.csv"'
    return response
