# Stand-in (our own text): one tool, listed as the pinned file lists its classes.
from .calculate import Lookup

ALL_TOOLS = [
    Lookup,
]
