"""HTTP routes of students' seats (edge/seats.py): the instructor's key, the sheets of seats an
instructor makes, and the link with which a student's browser takes its seat."""

import csv
import io
import ipaddress
import re
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    abort,
    make_response,
    redirect,
    render_template,
    request,
)

from ..edge import app_seats
from ..edge import seats as seating
from . import join_base, kept

bp = Blueprint("rosters", __name__)


def same_site():
    """Abort a form sent from another site's page (a page of this server sends its own Origin)."""
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        abort(403, "This form is sent from this server's own pages only.")


@bp.route("/instructor", methods=["GET", "POST"])
def instructor():
    """Ask for the instructor key (python -m server prints it), and let a browser that gives it
    make sheets of seats; a form, so that the key is in no address, history or log."""
    wrong = False
    if request.method == "POST":
        same_site()
        if app_seats().is_key(request.form.get("key")):  # back here, to say so and where to go
            return kept(
                redirect("/instructor", 303),
                seating.INSTRUCTOR_COOKIE,
                app_seats().instructor_cookie(),
                seating.MAX_AGE,
            )
        wrong = True
    held = app_seats().is_instructor(request.environ)
    return no_store(
        make_response(render_template("instructor.html", wrong=wrong, held=held), 403 if wrong else 200)
    )


@bp.route("/seat/<signed>", methods=["GET", "POST"])
def take_seat(signed):
    """Offer a student their seat, and keep it in their browser once they take it: a button, so
    that no other site's link can swap a browser's seat for another without its student knowing."""
    seat = app_seats().seat(signed)
    if seat is None:
        return Response(
            "This seat link is not valid: ask your instructor for yours.\n", 404, mimetype="text/plain"
        )
    if request.method == "POST":
        same_site()
        return kept(redirect("/", 303), seating.COOKIE, signed, seating.MAX_AGE)
    held = app_seats().of(request.environ)
    page = render_template(
        "seat.html",
        number=seating.number(seat),
        held=seating.number(held) if held else None,
        same=held == seat,
    )
    return no_store(make_response(page))


def no_store(response):
    """Return response, kept by no cache: what it shows gives a seat, or asks for the key."""
    response.cache_control.no_store = True
    return response


def instructors_only():
    """Abort unless the request comes from a browser given the instructor key."""
    if not app_seats().is_instructor(request.environ):
        abort(403, "Only a browser given the instructor key may print seats: enter it at /instructor first.")


def roster_of(roster):
    """Return a roster's seats, for the instructor's browser alone (else abort)."""
    instructors_only()
    found = app_seats().seats(roster)
    if found is None:
        abort(404)
    return found


def link_base():
    """Return the address a sheet's links begin with: the one students open (python -m server's choice)."""
    return join_base() or request.host_url.rstrip("/")


def seat_links(roster):
    """Return (number, link) of each of a roster's seats."""
    base = link_base()
    return [(number, f"{base}/seat/{seat}") for number, seat in roster_of(roster)]


def this_machine_only(base):
    """Tell whether an address names the server's own machine, which students' devices cannot reach."""
    host = urlsplit(base).hostname or ""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@bp.get("/roster/new")
def new_roster():
    """Make a sheet of ?seats= seats, and show it."""
    instructors_only()
    size = request.args.get("seats", "")
    if not re.fullmatch(r"[0-9]{1,4}", size) or not 1 <= int(size) <= seating.MAX_ROSTER:
        abort(400, f"A sheet has 1 to {seating.MAX_ROSTER:,} seats.")
    return redirect(f"/roster/{app_seats().roster(int(size))}", 303)


@bp.get("/roster/<roster>")
def roster_sheet(roster):
    """Show a roster's seats, each with its link, to print or hand out; the page draws their QR
    codes (static/js/seats/sheet.js), so that a sheet costs the worker no more than a page."""
    links = seat_links(roster)
    base = link_base()
    page = render_template(
        "roster.html", roster=roster, size=len(links), links=links, base=base, local=this_machine_only(base)
    )
    return no_store(Response(page))


@bp.get("/roster/<roster>/seats.csv")
def roster_csv(roster):
    """Give a roster's seats as CSV (seat, link), to send each student theirs through a course's site."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seat", "link"])
    writer.writerows(seat_links(roster))
    response = no_store(Response(out.getvalue(), mimetype="text/csv"))
    name = roster.partition("~")[0]
    response.headers["Content-Disposition"] = f'attachment; filename="seats-{name}.csv"'
    return response
