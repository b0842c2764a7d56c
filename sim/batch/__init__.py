"""``python -m sim.batch GAME``: play many seeded games in parallel and keep every result.

Game ``i`` of a run with seed ``S`` depends only on ``(S, i)`` (its streams, and its seating
under ``--seating random``), so the tables are identical whatever ``--jobs``,
``--chunk-size`` or ``--backend``.  Chunks run in the game's compiled kernel when it has one
and every agent has a compiled twin, otherwise through the Python API; both give the same
tables.  Results go to a run directory (see :mod:`sim.results`), chunk by chunk, so an
interrupted run resumes with ``--resume DIR``.

:mod:`~sim.batch.spec` says what a run is, :mod:`~sim.batch.seating` who sits where,
:mod:`~sim.batch.tables` what a chunk of games leaves, :mod:`~sim.batch.backends` runs the
chunks in parallel, :mod:`~sim.batch.run` keeps a run directory, :mod:`~sim.batch.summary`
sums a run up and :mod:`~sim.batch.cli` is the command line.
"""
