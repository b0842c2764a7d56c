"""The war core (La bataille, La super-bataille): one trick engine the two games configure.
See :mod:`.rules`."""
