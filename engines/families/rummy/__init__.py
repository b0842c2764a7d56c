"""The rummy family: melds (:mod:`.rules`), the draw-meld-discard turn (:mod:`.turns`), the
Python API (:mod:`.game`) and the records (:mod:`.records`) of rami, petite école and
pinacle."""
