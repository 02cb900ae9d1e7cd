"""The lab's exercises from the chapter: each a starting code and the engine's search it should match."""

# The textbook's own code (Listings 1 to 3 and orderByAvail), as it is printed, with the lab's
# main: the board and the start square come from the page.
BOOK = """from pythonds.graphs import Graph

def knightGraph(bdSize):
    ktGraph = Graph()
    for row in range(bdSize):
       for col in range(bdSize):
           nodeId = posToNodeId(row,col,bdSize)
           newPositions = genLegalMoves(row,col,bdSize)
           for e in newPositions:
               nid = posToNodeId(e[0],e[1],bdSize)
               ktGraph.addEdge(nodeId,nid)
    return ktGraph

def posToNodeId(row, column, board_size):
    return (row * board_size) + column

def genLegalMoves(x,y,bdSize):
    newMoves = []
    moveOffsets = [(-1,-2),(-1,2),(-2,-1),(-2,1),
                   ( 1,-2),( 1,2),( 2,-1),( 2,1)]
    for i in moveOffsets:
        newX = x + i[0]
        newY = y + i[1]
        if legalCoord(newX,bdSize) and \\
                        legalCoord(newY,bdSize):
            newMoves.append((newX,newY))
    return newMoves

def legalCoord(x,bdSize):
    if x >= 0 and x < bdSize:
        return True
    else:
        return False

def knightTour(n,path,u,limit):
        u.setColor('gray')
        path.append(u)
        if n < limit:
            nbrList = list(u.getConnections())
            i = 0
            done = False
            while i < len(nbrList) and not done:
                if nbrList[i].getColor() == 'white':
                    done = knightTour(n+1, path, nbrList[i], limit)
                i = i + 1
            if not done:  # prepare to backtrack
                path.pop()
                u.setColor('white')
        else:
            done = True
        return done

def orderByAvail(n):
    resList = []
    for v in n.getConnections():
        if v.getColor() == 'white':
            c = 0
            for w in v.getConnections():
                if w.getColor() == 'white':
                    c = c + 1
            resList.append((c,v))
    resList.sort(key=lambda x: x[0])
    return [y[1] for y in resList]

# The lab calls main with the page's board and start square.
def main(rows, cols, start):
    graph = knightGraph(rows)
    return knightTour(0, [], graph.getVertex(start), rows * cols - 1)
"""

# Each exercise: the engine's ordering (and closed, all_tours) whose search the student's should
# match event for event; every one starts from the book's code, and the page says what to change.
EXERCISES = (
    # The book's search as printed: each square's moves in the order genLegalMoves lists them.
    {"id": "book", "order": "moves", "closed": False, "allTours": False},
    # The third edition's Listing 3: sorted(u.get_neighbors()), the lowest square first.
    {"id": "naive", "order": "naive", "closed": False, "allTours": False},
    # orderByAvail in place of getConnections: Warnsdorff's rule, ties in the book's move order.
    {"id": "warnsdorff", "order": "warnsdorff", "closed": False, "allTours": False},
    # A tour whose last square is a knight's move from the first: on 6x6 from b6 the book's move
    # order finds one in 370,695 events (from a6, not in three million).
    {
        "id": "closed",
        "order": "moves",
        "closed": True,
        "allTours": False,
        "board": {"rows": 6, "cols": 6, "start": 1},
    },
    # Every tour from the start square, the search going on after each: 304 on 5x5 from a5.
    {
        "id": "all",
        "order": "moves",
        "closed": False,
        "allTours": True,
        "board": {"rows": 5, "cols": 5, "start": 0},
    },
)


def exercises():
    """Return the exercises as the page takes them (each starts from the book's code, given once)."""
    return list(EXERCISES)
