"""The textbook's Graph and Vertex, in both of its editions' spellings, whose colour changes are
a search's events: a vertex turned gray is a visit, a gray vertex turned white a backtrack."""


def _unheard(kind, key):
    """Take an event while no search is being watched."""


class Vertex:
    """A vertex of the book's Graph: its key, its connections in the order they were added, a colour."""

    # Told of each visit and backtrack: (kind, key); the runner sets it while a search runs.
    heard = staticmethod(_unheard)

    def __init__(self, key):
        self.id = key
        self.connectedTo = {}
        self._color = "white"
        self.distance = 0
        self.pred = None

    def addNeighbor(self, nbr, weight=0):
        self.connectedTo[nbr] = weight

    def getConnections(self):
        return self.connectedTo.keys()

    def getId(self):
        return self.id

    def getWeight(self, nbr):
        return self.connectedTo[nbr]

    def getColor(self):
        return self._color

    def setColor(self, color):
        was, self._color = self._color, color
        if color == "gray" and was != "gray":
            Vertex.heard("visit", self.id)
        elif was == "gray" and color != "gray":
            Vertex.heard("backtrack", self.id)

    def setDistance(self, d):
        self.distance = d

    def getDistance(self):
        return self.distance

    def setPred(self, p):
        self.pred = p

    def getPred(self):
        return self.pred

    # The third edition's spellings (pythonds3): the same vertex.
    key = property(getId)
    color = property(getColor, setColor)
    add_neighbor = addNeighbor
    get_neighbors = getConnections
    get_neighbor = getWeight
    get_key = getId
    get_color = getColor
    set_color = setColor

    def __lt__(self, other):
        return self.id < other.id

    def __repr__(self):
        return f"Vertex({self.id!r})"


class Graph:
    """The book's directed graph of Vertex objects, made by adding edges."""

    def __init__(self):
        self.vertList = {}
        self.numVertices = 0

    def addVertex(self, key):
        self.numVertices += 1
        vertex = self.vertList[key] = Vertex(key)
        return vertex

    def getVertex(self, key):
        return self.vertList.get(key)

    def __contains__(self, key):
        return key in self.vertList

    def addEdge(self, f, t, cost=0):
        if f not in self.vertList:
            self.addVertex(f)
        if t not in self.vertList:
            self.addVertex(t)
        self.vertList[f].addNeighbor(self.vertList[t], cost)

    def getVertices(self):
        return self.vertList.keys()

    def __iter__(self):
        return iter(self.vertList.values())

    add_vertex = addVertex
    get_vertex = getVertex
    add_edge = addEdge
    get_vertices = getVertices
