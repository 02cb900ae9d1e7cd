"""Run the server: python -m server [--host H] [--port P]."""

import argparse

from . import create_app, socketio
from .serving import RequestHandler


def main(argv=None):
    """Parse the command line, print the URL to open and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=5000, help="port to listen on")
    parser.add_argument("--debug", action="store_true", help="reload on code changes")
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="also let pages from this origin connect (repeatable); by default only this server's own",
    )
    parser.add_argument(
        "--message-queue",
        metavar="URL",
        help="a redis:// URL, for several server processes to share classes (see the README)",
    )
    args = parser.parse_args(argv)
    app = create_app({"CORS_ORIGINS": args.allow_origin, "MESSAGE_QUEUE": args.message_queue})
    address = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"Knight's Tour Live: open http://{address}:{args.port}/ in a browser", flush=True)
    socketio.run(
        app,
        host=args.host,
        port=args.port,
        debug=args.debug,
        allow_unsafe_werkzeug=True,
        request_handler=RequestHandler,
    )


if __name__ == "__main__":
    main()
