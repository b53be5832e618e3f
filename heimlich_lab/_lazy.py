"""Names a package exports but imports only when first used (PEP 562).

``import heimlich_lab`` then costs little, and a part of the kit (the game-agnostic
:mod:`heimlich_lab.inference.core`) can be imported without the rest.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(namespace: dict, exports: Mapping[str, str],
                 subpackages: Iterable[str] = ()) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of the module whose ``globals()`` is ``namespace``.

    ``exports`` maps a public name to the module (relative to the module's package) that defines it;
    ``subpackages`` are submodules reachable as attributes before anyone imported them.

    >>> ns = {"__name__": "heimlich_lab", "__package__": "heimlich_lab"}
    >>> getattr_, dir_ = lazy_exports(ns, {"Rules": "rules"})
    >>> getattr_("Rules").__name__, "Rules" in ns, dir_()
    ('Rules', True, ['Rules', '__name__', '__package__'])
    >>> getattr_("Nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'heimlich_lab' has no attribute 'Nothing'
    """
    module, package = namespace["__name__"], namespace["__package__"]
    subpackages = frozenset(subpackages)

    def __getattr__(name: str) -> Any:
        if name in subpackages:
            return import_module(f".{name}", package)
        if name not in exports:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(import_module(f".{exports[name]}", package), name)
        namespace[name] = value  # found directly from now on
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__
