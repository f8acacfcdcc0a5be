"""Exact chance arithmetic: expectations, means and opponent-model mixes.

Every search that averages (expectiminimax, expectimax, Star1, max-n's chance
nodes) computes through this module, so the same children give the same
number to the last bit whichever search asks.

Preconditions: numbers are ``int``, ``Fraction`` or ``float`` (a decimal in
the input), probabilities non-negative and summing to 1 (the loader checks).

Exactness rules (contract section 1, "Numbers"):

* ints and fractions stay exact: a sum is taken over integer weights on the
  probabilities' common denominator and divided once (an ``int`` operation
  costs nanoseconds, a ``Fraction`` one microseconds);
* once a decimal takes part, the sum is taken over the decimals *as written*
  (``0.1`` is 1/10, not the binary float) and rounded to a float once, so
  ``0.1*1 + 0.2*2 + 0.7*3`` is ``2.6``, as a hand calculation says, and never
  ``2.5999999999999996``; a float never enters an exact answer.

Reference: Python's :mod:`fractions` and :mod:`decimal` documentation (why
``Fraction(0.1)`` is not 1/10, and exact ``Decimal`` contexts).
"""

from __future__ import annotations

from decimal import Context, Decimal, Inexact
from fractions import Fraction
from math import lcm
from typing import Any, Iterable, Sequence

from ..core.numbers import INF, NEG_INF, Number, normalize

__all__ = [
    "expected_value",
    "expected_vector",
    "uniform_mean",
    "mix",
    "unscale",
    "chance_weights",
    "divide",
    "as_written",
    "decide",
]


def expected_value(terms: Iterable[tuple[Number, Number]]) -> Number:
    """``sum(p * v)``: exact for ints and fractions; a float once a decimal enters.

    Exact sums are taken in integers: each product ``p * v`` as a numerator
    over ``p``'s denominator times ``v``'s, all over their common denominator,
    and divided once (a ``Fraction`` operation costs microseconds, an ``int``
    one nanoseconds). With decimals the sum is taken over the decimals as
    written and rounded once (``0.1*1 + 0.2*2 + 0.7*3`` is ``2.6``, not
    ``2.5999999999999996``), so a student's hand calculation and the tool agree.
    """
    pairs = terms if isinstance(terms, list) else list(terms)
    common = 1
    products = []
    for p, v in pairs:
        if p.__class__ is float or v.__class__ is float:
            return _decimal_sum(pairs)
        denominator = p.denominator * v.denominator  # type: ignore[union-attr]
        common = lcm(common, denominator)
        products.append((p.numerator * v.numerator, denominator))  # type: ignore[union-attr]
    return unscale(sum([numerator * (common // denominator) for numerator, denominator in products]), common)


def expected_vector(vectors: Sequence[tuple[Number, ...]], probabilities: Sequence[Number]) -> tuple[Number, ...]:
    """The component-wise expectation of payoff vectors (max-n's chance nodes),
    each component summed as :func:`expected_value` sums a two-player node."""
    return tuple(
        expected_value([(p, vector[component]) for p, vector in zip(probabilities, vectors)])
        for component in range(len(vectors[0]))
    )


def uniform_mean(values: Sequence[Number]) -> Number:
    """The mean as a uniform chance node computes it: ``sum((1/n) * v)``.

    Summed the same way as a chance node without ``p``, so an opponent model,
    an expectimax ``min`` node and an untyped-probability chance node over the
    same values agree to the last bit, also in floating point.
    """
    share = Fraction(1, len(values))
    return expected_value((share, v) for v in values)


def mix(share: Number, optimal: Number, mean: Number) -> Number:
    """An opponent model's value: ``(1 - share) * optimal + share * mean``."""
    if share == 0:
        return optimal
    if share == 1:
        return mean
    if share.__class__ is float or optimal.__class__ is float or mean.__class__ is float:
        return _decimal_sum([(1 - as_written(share), optimal), (share, mean)])  # type: ignore[operator]
    return normalize((1 - share) * optimal + share * mean)


def unscale(total: Number, scale: int) -> Number:
    """``total / scale``, exact for ints and fractions, an int when whole."""
    if scale == 1:
        return normalize(total) if total.__class__ is Fraction else total
    if total.__class__ is int:
        return total // scale if total % scale == 0 else Fraction(total, scale)  # type: ignore[operator]
    if total.__class__ is float:
        return total / scale
    return normalize(total / scale)


def chance_weights(probabilities: Sequence[Number]) -> tuple[int, list[Number]]:
    """``(scale, weights)`` with ``p_i = weights[i] / scale``: integer weights over the
    common denominator for exact probabilities; the probabilities themselves
    (scale 1) when any is a decimal."""
    if any(p.__class__ is float for p in probabilities):
        return 1, list(probabilities)
    scale = lcm(*[p.denominator for p in probabilities])  # type: ignore[union-attr]
    return scale, [p.numerator * (scale // p.denominator) for p in probabilities]  # type: ignore[union-attr]


def divide(numerator: Number, denominator: Number) -> Number:
    """Exact division for ints and fractions (``int / int`` would be a float)."""
    if numerator.__class__ is int and denominator.__class__ is int:
        if numerator % denominator == 0:  # type: ignore[operator]
            return numerator // denominator  # type: ignore[operator]
        return Fraction(numerator, denominator)  # type: ignore[arg-type]
    if isinstance(numerator, float) or isinstance(denominator, float):
        return numerator / denominator
    return normalize(Fraction(numerator) / denominator)


def as_written(number: Number) -> Number:
    """A decimal as the exact fraction it is written as (0.1 is 1/10); other numbers,
    and the infinities, unchanged."""
    if number.__class__ is float and number not in (INF, NEG_INF):
        return Fraction(repr(number))
    return number


#: 100 significant digits, and a rounding is an error (Inexact is trapped): the
#: sums below are exact or not taken in Decimal at all.
_EXACT = Context(prec=100, traps=[Inexact])
#: the one division by the common denominator, carried far below a float's precision
_DECIMALS = Context(prec=100)


def _decimal_sum(pairs: list[tuple[Number, Number]]) -> float:
    """``sum(p * v)`` over the decimals the floats print as, rounded once to a float.

    Exact until that rounding: every number is a numerator (an integer, or the
    decimal a float prints as) over an integer denominator (a Fraction's own,
    else 1), the products are added over their common denominator, and only
    then divided. A uniform 1/3 of 5, -4.0 and -1 is 0.0, not the -3e-100 that
    rounding each 1/3 to 100 digits gives. C-implemented ``Decimal`` arithmetic
    is several times faster than ``Fraction``; when the digits do not fit (huge
    integers), Fractions do it.
    """
    common = 1
    for p, v in pairs:
        common = lcm(common, _denominator(p) * _denominator(v))
    try:
        add, multiply = _EXACT.add, _EXACT.multiply
        total = Decimal(0)
        for p, v in pairs:
            term = multiply(_numerator(p), _numerator(v))
            spread = common // (_denominator(p) * _denominator(v))
            total = add(total, term if spread == 1 else multiply(term, Decimal(spread)))
        return float(total if common == 1 else _DECIMALS.divide(total, Decimal(common)))
    except Inexact:
        exact = sum((as_written(p) * as_written(v) for p, v in pairs), Fraction(0))
        return float(exact)  # type: ignore[arg-type]


def _numerator(number: Number) -> Decimal:
    """A number's numerator as a Decimal: a float as the decimal it prints as
    (``0.1`` is 1/10, not 0.1000000000000000055...)."""
    if number.__class__ is float:
        return Decimal(repr(number))
    if isinstance(number, Fraction):  # Star1's exact bounds too
        return Decimal(number.numerator)
    return Decimal(number)  # type: ignore[arg-type]


def _denominator(number: Number) -> int:
    return number.denominator if isinstance(number, Fraction) else 1


def decide(maximizing: bool, share: Number | None, children: Sequence[Number]) -> tuple[int, Number, dict[str, Any] | None]:
    """A decision node over its children's exact values: ``(position chosen, value, detail)``.

    The first best child (max or min, as the node's side says); with an
    opponent model's ``share``, the value mixes that optimum with the mean,
    and the detail says so (``random``, ``optimal``, ``mean``).
    """
    optimal = max(children) if maximizing else min(children)
    position = children.index(optimal)
    if share is None:
        return position, optimal, None
    mean = uniform_mean(children)
    return position, mix(share, optimal, mean), {"random": share, "optimal": optimal, "mean": mean}
