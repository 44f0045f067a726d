"""Everything an adapter author needs, from one place: the adapter interface and
what an adapter declares, the options and result types it takes and returns, the
one spelling of references, and the errors it raises.

A package that ships its own adapter imports from here (and registers the class
under the entry-point group ``metricdiff.adapters``: docs/own-implementation.md);
every other module of metricdiff is internal and may change between releases.
"""

from metricdiff.cases.case import References
from metricdiff.errors import (
    AdapterUnavailable,
    ConventionError,
    InvalidOutput,
    MissingReferenceError,
    UnsupportedOption,
)
from metricdiff.impls import ENTRY_POINT_GROUP
from metricdiff.impls.base import ANY, Adapter, Cases, Requests, Scored
from metricdiff.impls.declarations import Cost, Declared, Isolated, Package, Tolerance
from metricdiff.profiles import BleuOptions, RougeOptions
from metricdiff.statistics import BleuResult, RougeResult

__all__ = [
    "ANY",
    "ENTRY_POINT_GROUP",
    "Adapter",
    "AdapterUnavailable",
    "BleuOptions",
    "BleuResult",
    "Cases",
    "ConventionError",
    "Cost",
    "Declared",
    "InvalidOutput",
    "Isolated",
    "MissingReferenceError",
    "Package",
    "References",
    "Requests",
    "RougeOptions",
    "RougeResult",
    "Scored",
    "Tolerance",
    "UnsupportedOption",
]
