"""A JSON-schema checker for a remote tool's arguments: a checked subset, interpreted, never compiled.

The model's arguments are checked against the tool's `inputSchema` before anything is sent, so a wrong
call comes back to the model at once with what is wrong. The schema comes from the server, so it is
untrusted: it is read as data (no code is generated from it, no reference leaves the schema, no regular
expression of it runs), and the walk is bounded. What it checks: `type`, `enum`, `const`, `properties`,
`required`, `additionalProperties`, `items` / `prefixItems`, the size and range keywords, `multipleOf`,
`uniqueItems`, `allOf` / `anyOf` / `oneOf` / `not` and local `$ref`s (`#/$defs/...`). Everything else
(`pattern`, `format`, `if`, `patternProperties`, `unevaluated*` ...) is left to the server, which checks
again: so the checker never refuses what the schema allows (tests/unit/mcp/test_schema.py holds it to
the reference implementation), it only misses some of what the schema forbids.

The check runs when the model calls the tool, before any approval, in the worker: a schema of a few
hundred bytes whose `allOf`s name the same `$ref` twice per level would cost 2^depth steps. So every
walk has a step budget (`MAX_STEPS`: each schema visited, each pair of items compared for
`uniqueItems`); past it the check gives up and finds nothing, leaving the arguments to the server.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 64  # nested schemas and references followed; deeper is left to the server
MAX_ERRORS = 8
MAX_STEPS = 3_000  # schemas visited (and items compared) per check; past it the server decides
_DECIDED = frozenset(
    [
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "prefixItems",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "uniqueItems",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "$ref",
        "$defs",
        "definitions",
        "title",
        "description",
        "default",
        "examples",
        "$schema",
        "$id",
        "$comment",
    ]
)

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: _number(v),
    "integer": lambda v: _number(v) and (isinstance(v, int) or float(v).is_integer()),
}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def same(a: Any, b: Any) -> bool:
    """JSON equality: 1 equals 1.0, but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _number(a) and _number(b):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


class _OutOfSteps(Exception):
    """The walk spent its step budget: what it found so far is not trusted either way."""


class _Steps:
    """The step budget one check shares across its walks (the quiet probes of anyOf, oneOf, not too)."""

    def __init__(self, budget: int) -> None:
        self.left = budget

    def spend(self, count: int = 1) -> None:
        self.left -= count
        if self.left < 0:
            raise _OutOfSteps


@dataclass(frozen=True)
class Checker:
    schema: Any
    max_steps: int = MAX_STEPS

    def errors(self, instance: Any) -> list[str]:
        """What is wrong with `instance`, as `path: problem` lines (empty when nothing was found, and
        when the check ran past its step budget: the server, which checks again, decides then)."""
        found: list[str] = []
        try:
            _Walk(self.schema, found, _Steps(self.max_steps)).check(self.schema, instance, "arguments", 0)
        except (_OutOfSteps, RecursionError):
            return []
        return found[:MAX_ERRORS]


class _Walk:
    def __init__(self, root: Any, found: list[str], steps: _Steps) -> None:
        self.root = root
        self.found = found
        self.steps = steps

    def fail(self, where: str, problem: str) -> None:
        self.found.append(f"`{where}`: {problem}")

    def quiet(self, schema: Any, instance: Any, depth: int) -> bool:
        """Whether `instance` passes, without reporting (for anyOf, oneOf, not)."""
        probe = _Walk(self.root, [], self.steps)
        probe.check(schema, instance, "", depth)
        return not probe.found

    def check(self, schema: Any, instance: Any, where: str, depth: int) -> None:
        self.steps.spend()
        if depth > MAX_DEPTH or schema is True or not isinstance(schema, dict):
            if schema is False:
                self.fail(where, "no value is allowed here")
            return
        ref = schema.get("$ref")
        if isinstance(ref, str):
            target = self.resolve(ref)
            if target is not None:
                self.check(target, instance, where, depth + 1)
        before = len(self.found)
        self.check_type(schema, instance, where)
        if len(self.found) > before:
            return  # the rest would only repeat that the type is wrong
        self.check_values(schema, instance, where)
        self.check_combined(schema, instance, where, depth)
        if isinstance(instance, dict):
            self.check_object(schema, instance, where, depth)
        elif isinstance(instance, list):
            self.check_array(schema, instance, where, depth)

    def resolve(self, ref: str) -> Any:
        """A `#/...` reference inside the schema; None (not checked) for anything else."""
        if not ref.startswith("#"):
            return None
        node = self.root
        for part in ref[1:].split("/")[1:] if ref != "#" else []:
            key = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                return None
        return node

    def check_type(self, schema: dict[str, Any], instance: Any, where: str) -> None:
        wanted = schema.get("type")
        names = [wanted] if isinstance(wanted, str) else wanted if isinstance(wanted, list) else []
        known = [name for name in names if isinstance(name, str) and name in _TYPES]
        if known and len(known) == len(names) and not any(_TYPES[name](instance) for name in known):
            self.fail(where, f"must be {' or '.join(known)}")

    def check_values(self, schema: dict[str, Any], instance: Any, where: str) -> None:
        if "const" in schema and not same(schema["const"], instance):
            self.fail(where, f"must be {_short(schema['const'])}")
        choices = schema.get("enum")
        if isinstance(choices, list) and not any(same(choice, instance) for choice in choices):
            self.fail(where, "must be one of " + ", ".join(_short(c) for c in choices[:10]))
        if isinstance(instance, str):
            self.check_length(schema, len(instance), where, "characters", "Length")
        elif _number(instance):
            self.check_range(schema, instance, where)

    def check_length(self, schema: dict[str, Any], size: int, where: str, unit: str, suffix: str) -> None:
        low, high = _limit(schema, "min" + suffix), _limit(schema, "max" + suffix)
        if low is not None and size < low:
            self.fail(where, f"needs at least {low:g} {unit}")
        if high is not None and size > high:
            self.fail(where, f"allows at most {high:g} {unit}")

    def check_range(self, schema: dict[str, Any], value: float, where: str) -> None:
        low, high = _limit(schema, "minimum"), _limit(schema, "maximum")
        low_open, high_open = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        if low is not None and (value < low or (low_open is True and value == low)):
            self.fail(where, f"must be at least {low:g}" + (" (exclusive)" if low_open is True else ""))
        if high is not None and (value > high or (high_open is True and value == high)):
            self.fail(where, f"must be at most {high:g}" + (" (exclusive)" if high_open is True else ""))
        above, below = _limit(schema, "exclusiveMinimum"), _limit(schema, "exclusiveMaximum")
        if above is not None and value <= above:
            self.fail(where, f"must be more than {above:g}")
        if below is not None and value >= below:
            self.fail(where, f"must be less than {below:g}")
        step = _limit(schema, "multipleOf")
        if step is not None and step > 0 and not _multiple(value, step):
            self.fail(where, f"must be a multiple of {step:g}")

    def check_combined(self, schema: dict[str, Any], instance: Any, where: str, depth: int) -> None:
        for part in _schemas(schema.get("allOf")):
            self.check(part, instance, where, depth + 1)
        any_of = _schemas(schema.get("anyOf"))
        if any_of and not any(self.quiet(part, instance, depth + 1) for part in any_of):
            self.fail(where, "matches none of the allowed shapes (anyOf)")
        one_of = _schemas(schema.get("oneOf"))
        matched = [part for part in one_of if self.quiet(part, instance, depth + 1)]
        # A pass may be wrong when the part holds keywords left to the server: only exact ones count twice.
        if one_of and (not matched or sum(self.exact(part, depth + 1) for part in matched) > 1):
            self.fail(where, "must match exactly one of the allowed shapes (oneOf)")
        refused = schema.get("not")
        if "not" in schema and self.quiet(refused, instance, depth + 1) and self.exact(refused, depth + 1):
            self.fail(where, "matches a shape that is not allowed (not)")

    def exact(self, schema: Any, depth: int) -> bool:
        """Whether the checker decides this schema fully: every keyword in it (and in what it refers to)
        is one it checks or an annotation. Only then may a pass be trusted under `not` or `oneOf`."""
        self.steps.spend()
        if isinstance(schema, bool):
            return True
        if depth > MAX_DEPTH or not isinstance(schema, dict) or not set(schema) <= _DECIDED:
            return False
        ref = schema.get("$ref")
        if ref is not None and not (isinstance(ref, str) and self.exact(self.resolve(ref), depth + 1)):
            return False
        parts: list[Any] = [*_schemas(schema.get("allOf")), *_schemas(schema.get("anyOf"))]
        parts += [*_schemas(schema.get("oneOf")), *_schemas(schema.get("prefixItems"))]
        properties = schema.get("properties")
        parts += list(properties.values()) if isinstance(properties, dict) else []
        for key in ("not", "items", "additionalProperties"):
            if key in schema and not isinstance(schema[key], list):
                parts.append(schema[key])
        return all(self.exact(part, depth + 1) for part in parts)

    def check_object(self, schema: dict[str, Any], instance: dict[str, Any], where: str, depth: int) -> None:
        required = schema.get("required")
        for name in required if isinstance(required, list) else []:
            if isinstance(name, str) and name not in instance:
                self.fail(where, f"`{name}` is required")
        self.check_length(schema, len(instance), where, "properties", "Properties")
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        extra = schema.get("additionalProperties", True)
        patterned = "patternProperties" in schema  # not checked here: its names may be any of the rest
        for name, value in instance.items():
            inner = f"{where}.{name}"
            if name in properties:
                self.check(properties[name], value, inner, depth + 1)
            elif not patterned and extra is False:
                self.fail(where, f"`{name}` is not an allowed argument")
            elif not patterned and isinstance(extra, dict):
                self.check(extra, value, inner, depth + 1)

    def check_array(self, schema: dict[str, Any], instance: list[Any], where: str, depth: int) -> None:
        self.check_length(schema, len(instance), where, "items", "Items")
        prefix = _schemas(schema.get("prefixItems"))
        items = schema.get("items")
        if isinstance(items, list):  # the older tuple form
            prefix, items = _schemas(items), None
        for index, value in enumerate(instance):
            part = (
                prefix[index]
                if index < len(prefix)
                else items
                if "prefixItems" in schema or not prefix
                else None
            )
            if part is not None:
                self.check(part, value, f"{where}[{index}]", depth + 1)
        if schema.get("uniqueItems") is True:
            self.steps.spend(len(instance) * (len(instance) - 1) // 2)
            if any(same(a, b) for i, a in enumerate(instance) for b in instance[i + 1 :]):
                self.fail(where, "items must be unique")


def _limit(schema: dict[str, Any], key: str) -> float | None:
    value = schema.get(key)
    return value if _number(value) else None


def _schemas(value: Any) -> list[Any]:
    return [part for part in value if isinstance(part, dict | bool)] if isinstance(value, list) else []


def _multiple(value: float, step: float) -> bool:
    """As the reference implementation decides it (floating point and all), so the two agree."""
    if not isinstance(step, float):
        return value % step == 0
    quotient = value / step
    if math.isinf(quotient):
        return True  # too large to tell: left to the server
    return int(quotient) == quotient


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 40 else text[:37] + "..."
