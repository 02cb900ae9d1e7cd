"""How error messages quote the bad values they name: in full when short, cut when long."""

import reprlib

# A client may send megabytes where a number belongs; its error message quotes a line of it.
_brief = reprlib.Repr()
_brief.maxstring = _brief.maxother = 40
_brief.maxlist = _brief.maxdict = 6
shown = _brief.repr
