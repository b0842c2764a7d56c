"""Set-up shared by the whole suite: the hypothesis profiles.

The profile is chosen once, here, before any test module is imported (a test's own
``@settings(max_examples=...)`` keeps its count and takes everything else from the profile):

* ``default``: no deadline (the first example of a property test pays numba's compilation,
  and a whole game can take longer than hypothesis's 200 ms), no example database (nothing
  is written under ``.hypothesis/``, so parallel workers and CI clones share no state), and
  no ``too_slow`` health check for the same reason as the deadline.
* ``ci``: the default, plus the same examples on every run (``derandomize``: a red CI run is
  the code's fault and replays as it failed) and the reproduction blob of a failure printed.
  Chosen when the ``CI`` variable is set (CI's ``.ci/run`` runs with ``CI=true``).

``HYPOTHESIS_PROFILE=NAME`` picks a profile explicitly, e.g. ``HYPOTHESIS_PROFILE=ci pytest``
to replay locally the examples that CI ran."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", settings.get_profile("default"), derandomize=True, print_blob=True)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                      or ("ci" if os.environ.get("CI") else "default"))
