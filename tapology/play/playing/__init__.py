"""Playing games: the terminal session, computer players, transcripts and the referee."""
