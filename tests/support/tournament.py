"""A class tournament as a page that took every event would show it: shared by the tests and bench/."""


def standings(received):
    """Return ({entry id: row}, open) of the tournament told in received, (event, payload) pairs
    in order: its last 'tournament' (or a class_state's), then the news of that tournament (entries
    removed dropped)."""
    state, entries = None, {}
    for name, payload in received:
        if name == "tournament" or (name == "class_state" and payload.get("tournament")):
            state = dict(payload if name == "tournament" else payload["tournament"])
            entries = {row["id"]: dict(row) for row in state["entries"]}
        elif name == "tournament_news" and state and payload["tournament"] == state["tournament"]:
            state["open"] = payload["open"]
            entries.update({row["id"]: dict(row) for row in payload["entries"]})
            for id in payload.get("removed", []):
                entries.pop(id, None)
            for id, index, code, backtracks in payload["cells"]:
                row = entries[id]
                row["outcomes"] = row["outcomes"][:index] + code + row["outcomes"][index + 1 :]
                row["backtracks"] = [*row["backtracks"][:index], backtracks, *row["backtracks"][index + 1 :]]
    return entries, (state or {}).get("open")
