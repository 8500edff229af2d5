"""What the OpenAPI schema says beyond what drf-spectacular reads from the views.

Every request body derives from `config.api.Input`, which refuses a field it does not know with a
400 naming it: the schema says so (`additionalProperties: false` on each object a request body
holds), so that a client generated from it, or a fuzzer, never sends one in good faith.

Requests are described apart from answers (`COMPONENT_SPLIT_REQUEST`: a text field that refuses
a blank says `minLength: 1`); a serializer only requests use keeps its own name, without the
`Request` drf-spectacular adds to tell the two apart.
"""

from collections.abc import Iterator
from typing import Any

Node = dict[str, Any]


def _refs(node: Any) -> Iterator[str]:
    """The names of the components `node` refers to, at any depth."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            yield ref.rsplit("/", 1)[-1]
        for child in node.values():
            yield from _refs(child)
    elif isinstance(node, list):
        for child in node:
            yield from _refs(child)


def _reachable(roots: list[Any], components: dict[str, Node]) -> set[str]:
    seen: set[str] = set()
    todo = [name for root in roots for name in _refs(root)]
    while todo:
        name = todo.pop()
        if name not in seen and name in components:
            seen.add(name)
            todo.extend(_refs(components[name]))
    return seen


def _closed(node: Any) -> None:
    """Every object in `node` with named properties and no word on others refuses others."""
    if isinstance(node, dict):
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        for child in node.values():
            _closed(child)
    elif isinstance(node, list):
        for child in node:
            _closed(child)


def _own_names(result: Node) -> Node:
    """`FooInputRequest` named `FooInput` again where no answer's component is `FooInput`."""
    components = result.get("components", {}).get("schemas", {})
    renames = {
        f"#/components/schemas/{name}": name.removesuffix("Request")
        for name in components
        if name.endswith("Request") and name.removesuffix("Request") not in components
    }
    _point(result, {ref: f"#/components/schemas/{new}" for ref, new in renames.items()})
    names = {ref.rsplit("/", 1)[-1]: new for ref, new in renames.items()}
    result["components"]["schemas"] = {names.get(k, k): v for k, v in components.items()}
    return result


def _point(node: Any, refs: dict[str, str]) -> None:
    """Every `$ref` in `node` that `refs` names, pointed at its new name."""
    if isinstance(node, dict):
        if node.get("$ref") in refs:
            node["$ref"] = refs[node["$ref"]]
        for child in node.values():
            _point(child, refs)
    elif isinstance(node, list):
        for child in node:
            _point(child, refs)


def close_request_bodies(result: Node, generator: Any, request: Any, public: bool) -> Node:
    """drf-spectacular's postprocessing hook: request bodies refuse fields they do not name
    (the components only requests use; inline request schemas too)."""
    components = result.get("components", {}).get("schemas", {})
    operations = [op for item in result.get("paths", {}).values() for op in item.values()]
    bodies = [
        op["requestBody"] for op in operations if isinstance(op, dict) and "requestBody" in op
    ]
    answers = [op.get("responses", {}) for op in operations if isinstance(op, dict)]
    for name in _reachable(bodies, components) - _reachable(answers, components):
        _closed(components[name])
    for body in bodies:
        for content in body.get("content", {}).values():
            if "$ref" not in content.get("schema", {}):
                _closed(content.get("schema"))
    return _own_names(result)
