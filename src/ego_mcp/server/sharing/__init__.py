"""One embedded store, any number of local stdio clients: the holder, its socket, the
relays, and what a hand-over replays (see ``holder``)."""
