# SPDX-License-Identifier: MIT
"""The built-in USI engine with another evaluation vector (for tools/spsa_eval.py).

    PYTHONPATH=src python tools/spsa_engine.py --params '{"tempo": 25, ...}' [server options]
    SHOGIBAN_EVAL_PARAMS='{"tempo": 25}' PYTHONPATH=src python tools/spsa_engine.py [server options]

The parameters are JSON: an object of :class:`~shogiban.engine.evaluate.EvalParams` fields (lists
for tuples); fields left out keep the dataclass defaults.  ``--params`` wins over the environment.
The rest of the command line goes to ``shogiban.usi.server``.

evaluate.py builds its tables, and search.py hands them to the C search, at import, from the
module's ``DEFAULT_PARAMS``; many names (and default arguments) are bound to those tables then.
Replacing them afterwards would miss some, so :func:`install` changes the one assignment instead:
an import hook compiles evaluate.py with ``DEFAULT_PARAMS = EvalParams(**overrides)``, before any
engine module is imported.  One process, one vector: two vectors play in two processes.
"""

from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import json
import os
import sys
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ENV = "SHOGIBAN_EVAL_PARAMS"
MODULE = "shogiban.engine.evaluate"
_INJECTED = "_SPSA_PARAMS"


def encode(values: Mapping[str, Any]) -> str:
    """*values* (EvalParams fields, e.g. ``dataclasses.asdict(params)``) as compact JSON."""
    return json.dumps(dict(values), separators=(",", ":"), sort_keys=True)


def decode(text: str, known: Collection[str] | None = None) -> dict[str, int | tuple[int, ...]]:
    """The EvalParams keyword arguments of :func:`encode`'s JSON (lists back to tuples).

    It imports nothing of the engine (evaluate.py must be imported after :func:`install`), so
    the field names are checked against *known* when given, else by ``EvalParams(**...)``.

    :raises ValueError: for anything but an object of (known) fields with int or int-list values.
    """
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object of EvalParams fields")
    out: dict[str, int | tuple[int, ...]] = {}
    for name, value in data.items():
        if known is not None and name not in known:
            raise ValueError(f"unknown EvalParams field {name!r}")
        if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            out[name] = tuple(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            out[name] = value
        else:
            raise ValueError(f"field {name!r}: expected an int or a list of ints, got {value!r}")
    return out


def patch_source(source: str) -> ast.Module:
    """evaluate.py's syntax tree with its ``DEFAULT_PARAMS = ...`` replaced by
    ``EvalParams(**_SPSA_PARAMS)``.

    :raises ValueError: when there is not exactly one such top-level assignment.
    """
    tree = ast.parse(source)
    hits = [node for node in tree.body if isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["DEFAULT_PARAMS"]]
    if len(hits) != 1:
        raise ValueError(f"expected one 'DEFAULT_PARAMS = ...' in {MODULE}, found {len(hits)}")
    call = ast.Call(ast.Name("EvalParams", ast.Load()), [], [ast.keyword(None, ast.Name(_INJECTED, ast.Load()))])
    hits[0].value = ast.copy_location(call, hits[0].value)
    return ast.fix_missing_locations(tree)


class _Loader(importlib.abc.Loader):
    def __init__(self, origin: str, overrides: Mapping[str, Any]) -> None:
        self.origin = origin
        self.overrides = dict(overrides)

    def exec_module(self, module: ModuleType) -> None:
        # Compiled from source on purpose: a cached .pyc would bring the default vector back.
        tree = patch_source(Path(self.origin).read_text(encoding="utf-8"))
        module.__dict__[_INJECTED] = self.overrides
        exec(compile(tree, self.origin, "exec"), module.__dict__)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, overrides: Mapping[str, Any]) -> None:
        self.overrides = overrides

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname != MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(spec.origin, self.overrides), origin=spec.origin)


def install(overrides: Mapping[str, Any]) -> None:
    """Make the next import of evaluate.py use ``EvalParams(**overrides)`` as DEFAULT_PARAMS.

    :raises RuntimeError: when evaluate.py is already imported (its tables would be the old ones).
    """
    if MODULE in sys.modules:
        raise RuntimeError(f"{MODULE} is already imported: install the parameters first")
    sys.meta_path.insert(0, _Finder(overrides))


def split_argv(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """(the ``--params`` value or None, the other arguments)."""
    rest: list[str] = []
    params: str | None = None
    items = list(argv)
    i = 0
    while i < len(items):
        if items[i] == "--params" and i + 1 < len(items):
            params, i = items[i + 1], i + 2
            continue
        if items[i].startswith("--params="):
            params = items[i].partition("=")[2]
        else:
            rest.append(items[i])
        i += 1
    return params, rest


def main(argv: Sequence[str] | None = None) -> int:
    params_text, rest = split_argv(sys.argv[1:] if argv is None else argv)
    if params_text is None:
        params_text = os.environ.get(ENV)
    if params_text:
        overrides = decode(params_text)
        install(overrides)
    from shogiban.usi.server import main as server_main

    if params_text:
        from shogiban.engine import evaluate

        if any(getattr(evaluate.DEFAULT_PARAMS, name) != value for name, value in overrides.items()):
            raise RuntimeError("the evaluation parameters were not installed")
    return server_main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
