"""The address students join at: python -m server's choice, printed and handed to the page."""

import json
import re
import socket
from urllib.request import urlopen

import pytest

from server import __main__ as cli

LAN = "192.0.2.10"  # a documentation address (RFC 5737) standing for the machine's own
LAN6 = "2001:db8::10"


class Probe:
    """A UDP socket that routes as a machine with the given addresses would, sending nothing."""

    def __init__(self, addresses):
        self.addresses = addresses  # by family: the source address, or None for no route
        self.connected = []

    def __call__(self, family, kind):
        assert kind == socket.SOCK_DGRAM
        probe = self

        class Socket:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def connect(self, target):
                probe.connected.append(target)
                if probe.addresses.get(family) is None:
                    raise OSError(101, "Network is unreachable")

            def getsockname(self):
                return (probe.addresses[family], 40000)

        return Socket()


def join(argv, probe):
    """Return the join address python -m server would give for a command line."""
    return cli.join_url(cli.parse(argv), probe)


def test_listening_everywhere_gives_the_address_the_default_route_leaves_from():
    probe = Probe({socket.AF_INET: LAN})
    assert join(["--host", "0.0.0.0"], probe) == f"http://{LAN}:5000"
    assert join(["--host", "::", "--port", "8000"], probe) == f"http://{LAN}:8000"
    # Only to documentation addresses: the route is looked up, never used.
    assert {target[0] for target in probe.connected} == {"192.0.2.1"}


def test_a_machine_with_only_ipv6_gives_its_ipv6_address():
    probe = Probe({socket.AF_INET: None, socket.AF_INET6: LAN6})
    assert join(["--host", "::"], probe) == f"http://[{LAN6}]:5000"


def test_a_machine_off_every_network_gives_its_name(monkeypatch):
    monkeypatch.setattr(cli.socket, "gethostname", lambda: "lecture-laptop")
    assert join(["--host", "0.0.0.0"], Probe({})) == "http://lecture-laptop:5000"
    # A route that leads only back to the machine itself reaches nobody else either.
    loopback = Probe({socket.AF_INET: "127.0.0.1", socket.AF_INET6: "fe80::1%eth0"})
    assert join(["--host", "0.0.0.0"], loopback) == "http://lecture-laptop:5000"


def test_listening_on_one_address_gives_that_address():
    nothing = Probe({})
    assert join(["--host", "198.51.100.4", "--port", "8080"], nothing) == "http://198.51.100.4:8080"
    assert join(["--host", "2001:db8::4"], nothing) == "http://[2001:db8::4]:5000"
    assert join([], nothing) == "http://127.0.0.1:5000"
    assert nothing.connected == []


def test_public_url_wins_and_a_proxy_leaves_it_to_the_page():
    probe = Probe({socket.AF_INET: LAN})
    given = ["--host", "0.0.0.0", "--public-url", "https://tour.example.org/"]
    assert join(given, probe) == "https://tour.example.org"
    assert join(["--port", "8000", "--proxies", "1"], probe) is None
    assert (
        join(["--proxies", "1", "--public-url", "https://tour.example.org"], probe)
        == "https://tour.example.org"
    )
    assert probe.connected == []


@pytest.mark.parametrize("url", ["tour.example.org", "ftp://tour.example.org", "http://", "http://a/?x=1"])
def test_public_url_must_be_an_http_address(url, capsys):
    with pytest.raises(SystemExit):
        cli.parse(["--public-url", url])
    assert "--public-url" in capsys.readouterr().err


def test_the_app_is_given_the_join_address(monkeypatch):
    monkeypatch.setattr(cli, "lan_address", lambda probe=None: LAN)
    command = cli.gunicorn_command(cli.parse(["--host", "0.0.0.0", "--port", "8000"]))
    config = re.fullmatch(r"server:create_app\((.*)\)", command[-1]).group(1)
    assert f"'PUBLIC_URL': 'http://{LAN}:8000'" in config


def test_main_prints_where_to_open_and_where_students_join(monkeypatch, capsys):
    monkeypatch.setattr(cli, "lan_address", lambda probe=None: LAN)
    replaced = []
    monkeypatch.setattr(cli.os, "execv", lambda path, argv: replaced.append(argv))
    monkeypatch.setattr(cli, "instructor_key", lambda: "KEY")
    cli.main(["--host", "0.0.0.0", "--port", "8000"])
    assert capsys.readouterr().out == (
        f"Knight's Tour Live: open http://127.0.0.1:8000/ in a browser; students open http://{LAN}:8000/\n"
        f"Instructors: to print students' seats, open http://{LAN}:8000/instructor once and enter the key"
        " KEY\n"
    )
    cli.main(["--host", "::1"])
    assert capsys.readouterr().out == (
        "Knight's Tour Live: open http://[::1]:5000/ in a browser\n"
        "Instructors: to print students' seats, open http://[::1]:5000/instructor once and enter the key"
        " KEY\n"
    )
    assert len(replaced) == 2 and replaced[0][1:3] == ["-m", "gunicorn"]


def test_the_production_server_hands_the_public_url_to_its_page(production):
    server = production("--public-url", "http://198.51.100.7:5000")
    assert "students open http://198.51.100.7:5000/" in server.log()
    with urlopen(server.url + "/", timeout=10) as response:
        page = response.read().decode()
    limits = re.search(r'<script type="application/json" id="limits">(.*?)</script>', page).group(1)
    assert json.loads(limits)["joinBase"] == "http://198.51.100.7:5000"
