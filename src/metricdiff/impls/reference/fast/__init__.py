"""Fast paths of the reference: each computes what a definition of ``reference/``
computes, faster, and is held equal to it by a property test; none is the definition."""
