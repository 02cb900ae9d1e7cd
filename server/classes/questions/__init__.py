"""A class's questions about its run's next move: asked, answered, revealed, asked again turned."""
