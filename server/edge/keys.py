"""The app's secrets: each from its setting, or kept in its instance folder (made on first use)."""

import os
import secrets
from pathlib import Path

SECRET_FILE = "class-secret"  # signs the classes' passes and the browsers' badges


def load_secret(app, setting="CLASS_SECRET", name=SECRET_FILE, make=lambda: secrets.token_bytes(32)):
    """Return the app's setting, or the secret kept in its instance folder as name (made if missing)."""
    if app.config.get(setting):
        return app.config[setting].encode()
    path = Path(app.instance_path) / name
    try:
        return path.read_bytes()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        secret = make()
        try:
            # Created exclusively, readable by this user only: two processes starting at once
            # must end up with the same secret, the first one's.
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as out:
                out.write(secret)
        except FileExistsError:
            return path.read_bytes()
        return secret
