"""BLEU's conventions as one typed value: the reference's parameters and every
adapter's declared profile."""

from __future__ import annotations

from typing import Any

import attrs

from metricdiff.errors import ConventionError
from metricdiff.profiles.axes import AXES


def _choice(axis_name: str) -> Any:
    """An attrs field for a choice axis: the paper's value by default, validated."""
    axis = AXES[axis_name]
    return attrs.field(default=axis.paper, validator=attrs.validators.in_(axis.values))


@attrs.frozen
class BleuOptions:
    """Every BLEU convention, named as in docs/conventions.md; the defaults follow
    Papineni et al. (2002) and, for smoothing, Chen & Cherry (2014)."""

    tokenize: str = _choice("tokenize")
    lowercase: str = _choice("lowercase")
    lowercase_stage: str = _choice("lowercase_stage")
    entities: str = _choice("entities")
    max_order: int = attrs.field(default=4)
    weights: tuple[float, ...] | None = attrs.field(default=None)
    ref_length: str = _choice("ref_length")
    closest_tie: str = _choice("closest_tie")
    empty_bp: str = _choice("empty_bp")
    smoothing: str = _choice("smoothing")
    smooth_value: float | None = attrs.field(default=None)
    smooth_orders: str = _choice("smooth_orders")
    empty_order: str = _choice("empty_order")
    all_zero: str = _choice("all_zero")
    level: str = _choice("level")
    empty_reference: str = _choice("empty_reference")
    empty_policy: str = _choice("empty_policy")

    @max_order.validator
    def _check_order(self, _attribute: object, value: int) -> None:
        if value < 1:
            raise ConventionError(f"max_order must be at least 1, got {value}")

    @weights.validator
    def _check_weights(self, _attribute: object, value: tuple[float, ...] | None) -> None:
        if value is not None and len(value) != self.max_order:
            raise ConventionError(
                f"{len(value)} weights given for max_order={self.max_order}"
            )

    def order_weights(self) -> tuple[float, ...]:
        """The weights w_n for n = 1..N (uniform means 1/N each)."""
        if self.weights is None:
            return (1.0 / self.max_order,) * self.max_order
        return self.weights
