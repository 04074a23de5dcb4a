"""The argument checker never refuses what a schema allows, and finds what it claims to: held to the
reference implementation (jsonschema, test extras) on generated schemas and values."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.mcp import schema as schema_module
from agentlite.mcp.schema import MAX_STEPS, Checker, same
from buildsys.bench.bench_mcp_hostile import hostile_schemas

jsonschema = pytest.importorskip("jsonschema")

scalars = (
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False) | st.text(max_size=4)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abcd"), inner, max_size=4),
    max_leaves=12,
)
TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"]


def _leaf() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.sampled_from(TYPES).map(lambda t: {"type": t}),
        st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True).map(lambda t: {"type": t}),
        st.lists(scalars, min_size=1, max_size=3).map(lambda e: {"enum": e}),
        scalars.map(lambda c: {"const": c}),
        st.integers(0, 3).map(lambda n: {"minLength": n}),
        st.integers(0, 3).map(lambda n: {"maxLength": n}),
        st.integers(-3, 3).map(lambda n: {"minimum": n}),
        st.integers(-3, 3).map(lambda n: {"exclusiveMaximum": n}),
        st.sampled_from([1, 2, 0.5]).map(lambda n: {"multipleOf": n}),
        st.integers(0, 3).map(lambda n: {"maxItems": n}),
        st.integers(0, 2).map(lambda n: {"minProperties": n}),
        st.just({"uniqueItems": True}),
        st.just({"pattern": "^a"}),  # left to the server
        st.just({"format": "email"}),  # left to the server
        st.just({"$ref": "#/$defs/x"}),  # the root's definition (`rooted`)
    )


def _composed(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties = st.dictionaries(st.sampled_from("abcd"), inner, max_size=3)
    return st.one_of(
        st.builds(
            lambda p, r, extra: {
                "type": "object",
                "properties": p,
                "required": r,
                "additionalProperties": extra,
            },
            properties,
            st.lists(st.sampled_from("abcd"), max_size=2, unique=True),
            st.one_of(st.booleans(), inner),
        ),
        inner.map(lambda s: {"items": s}),
        st.builds(lambda p, s: {"prefixItems": p, "items": s}, st.lists(inner, max_size=2), inner),
        st.lists(inner, min_size=1, max_size=3).map(lambda s: {"anyOf": s}),
        st.lists(inner, min_size=1, max_size=3).map(lambda s: {"oneOf": s}),
        st.lists(inner, min_size=1, max_size=3).map(lambda s: {"allOf": s}),
        inner.map(lambda s: {"not": s}),
        st.builds(lambda p, q: {**p, **q}, _leaf(), _leaf()),
    )


bodies = st.recursive(_leaf() | st.booleans(), _composed, max_leaves=6)
schemas = st.builds(
    lambda body, target: {"$defs": {"x": target}, "allOf": [body]},
    bodies,
    _leaf().filter(lambda s: "$ref" not in s),
)


def reference_errors(schema: Any, value: Any) -> bool:
    return not jsonschema.Draft202012Validator(schema).is_valid(value)


@settings(max_examples=300, deadline=None)
@given(schemas, values)
def test_the_checker_never_refuses_a_valid_value(schema: Any, value: Any) -> None:
    if Checker(schema).errors(value):
        assert reference_errors(schema, value), (schema, value)


def _checked_only(schema: Any) -> bool:
    """Whether the schema uses only keywords the checker checks exactly (no pattern, no format)."""
    text = repr(schema)
    return "pattern" not in text and "format" not in text


@settings(max_examples=300, deadline=None)
@given(schemas, values)
def test_the_checker_finds_what_the_reference_finds_for_the_keywords_it_checks(
    schema: Any, value: Any
) -> None:
    if _checked_only(schema):
        assert bool(Checker(schema).errors(value)) == reference_errors(schema, value), (schema, value)


@given(values, values)
def test_json_equality_matches_the_reference(a: Any, b: Any) -> None:
    assert same(a, b) == jsonschema.Draft202012Validator({"const": a}).is_valid(b)


def test_errors_say_where_and_what() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["a", "b"],
        "additionalProperties": False,
    }
    errors = Checker(schema).errors({"a": "x", "tags": ["ok", 3], "zzz": 1})
    assert "`arguments`: `b` is required" in errors
    assert "`arguments.a`: must be integer" in errors
    assert "`arguments.tags[1]`: must be string" in errors
    assert "`arguments`: `zzz` is not an allowed argument" in errors


def test_a_reference_loop_or_a_remote_reference_ends_quietly() -> None:
    looping = {"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}
    assert Checker(looping).errors({"x": 1}) == []
    assert Checker({"$ref": "http://169.254.169.254/schema"}).errors(1) == []


def test_a_keyword_left_to_the_server_is_never_trusted_under_not_or_one_of() -> None:
    """`pattern` is not checked here: its pass is a guess, which `not` or `oneOf` must not turn into
    a refusal."""
    assert Checker({"not": {"anyOf": [{"pattern": "^a"}]}}).errors("") == []
    assert Checker({"oneOf": [{"pattern": "^a"}, {"type": "string"}]}).errors("b") == []
    assert Checker({"not": {"type": "string"}}).errors("") != []
    assert Checker({"oneOf": [{"type": "string"}, {"maxLength": 3}]}).errors("ab") != []


# --- hostile schemas: the check costs a bounded number of steps, whatever the schema --------------------


@pytest.mark.parametrize("name", sorted(hostile_schemas()))
def test_a_hostile_schema_is_checked_within_the_step_budget(name: str) -> None:
    """Each pair of the corpus (buildsys/bench/bench_mcp_hostile.py) would take 2^30 steps or more checked
    naively; counted, the walk stops at MAX_STEPS and leaves the arguments to the server."""
    schema, argument = hostile_schemas()[name]
    steps: list[int] = []
    original = schema_module._Steps.spend

    def counting(self: Any, count: int = 1) -> None:
        steps.append(count)
        original(self, count)

    schema_module._Steps.spend = counting  # type: ignore[method-assign]
    try:
        found = Checker(schema).errors(argument)
    finally:
        schema_module._Steps.spend = original  # type: ignore[method-assign]
    assert sum(steps) <= MAX_STEPS + max(steps)
    assert found == [] or name == "deep_nesting"


@settings(max_examples=60, deadline=None)
@given(
    levels=st.integers(1, 60),
    width=st.integers(1, 4),
    combinator=st.sampled_from(["allOf", "anyOf", "oneOf"]),
)
def test_doubled_references_cost_at_most_the_step_budget(levels: int, width: int, combinator: str) -> None:
    defs = {f"d{i}": {combinator: [{"$ref": f"#/$defs/d{i + 1}"}] * width} for i in range(levels)}
    schema = {"$ref": "#/$defs/d0", "$defs": {**defs, f"d{levels}": {"type": "string"}}}
    checker = Checker(schema, max_steps=500)
    spent = schema_module._Steps(500)
    walk = schema_module._Walk(schema, [], spent)
    with contextlib.suppress(schema_module._OutOfSteps):
        walk.check(schema, 1, "arguments", 0)
    assert spent.left >= -width * 4  # it stopped at the budget, give or take one step's parts
    # within the budget, a refusal is the reference's; past it, nothing is refused
    found = checker.errors(1)
    assert found == [] or reference_errors(schema, 1)


def test_a_small_schema_still_finds_what_is_wrong_within_the_budget() -> None:
    schema, _ = hostile_schemas()["deep_nesting"]
    assert Checker(schema).errors({"v": {"k": 3}}) != []
