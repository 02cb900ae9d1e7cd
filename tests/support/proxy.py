"""nginx in front of several app servers, set up as docs/deployment.md says."""

import os
import shutil
import subprocess
from urllib.request import urlopen

from .servers import start_listening, stop_processes

# The setup of docs/deployment.md ("More than one process"), on loopback ports of a test's own.
CONFIG = """
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
{user}
events {{ worker_connections 1024; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;

    map $cookie_knights_route $knights_route {{
        ""      $request_id;
        default $cookie_knights_route;
    }}
    upstream knights_tour {{
        hash $knights_route consistent;
        {servers}
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://knights_tour;
            add_header Set-Cookie "{cookie}";
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 120s;
        }}
    }}
}}
"""


COOKIE = "knights_route=$knights_route; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax"


def nginx_binary():
    """Return the path of nginx (often in /usr/sbin, off an ordinary user's PATH), or None."""
    return shutil.which("nginx", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"]))


class Nginx:
    """nginx spreading browsers over some app servers (their ports), on a free port."""

    def __init__(self, directory, ports):
        binary = nginx_binary()
        if binary is None:
            raise AssertionError("nginx is not installed: run `make test`, which installs it")
        self.directory = directory
        servers = "\n        ".join(f"server 127.0.0.1:{port};" for port in ports)
        # Started as root, nginx's workers would run as nobody, who cannot reach the test's files.
        user = "user root;" if os.geteuid() == 0 else ""

        def command(port):
            config = directory / "nginx.conf"
            text = CONFIG.format(dir=directory, user=user, servers=servers, port=port, cookie=COOKIE)
            config.write_text(text)
            return [binary, "-p", str(directory), "-c", str(config)]

        log = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.process, self.port = start_listening(command, **log)
        self.url = f"http://127.0.0.1:{self.port}"

    def browser(self):
        """Load the page as a new browser does; return the Cookie header it then sends: every
        cookie it was given (nginx's route, the page's badge)."""
        with urlopen(self.url + "/", timeout=10) as response:
            cookies = response.headers.get_all("Set-Cookie")
        return {"Cookie": "; ".join(cookie.split(";")[0] for cookie in cookies)}

    def close(self):
        """Stop nginx at once."""
        stop_processes([self.process])
