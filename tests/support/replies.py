"""The server's answers as tests expect them."""


def refused(code, sentence, **values):
    """Return the negative acknowledgement of a request refused with code and sentence."""
    return {"ok": False, "code": code, "error": sentence, **({"values": values} if values else {})}
