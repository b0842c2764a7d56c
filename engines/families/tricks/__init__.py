"""The trick-taking family: compiled trick rules (:mod:`.rules`) and the Python API over them
(:mod:`.game`), shared by rikiki, vicaire, the belotes, the tarots and the avoidance games."""
