"""The shedding family: compiled hand and discard-pile rules (:mod:`.rules`), the Python API
(:mod:`.game`) and the records (:mod:`.records`) of huit américain, menteur, nain jaune and
l'empereur."""
