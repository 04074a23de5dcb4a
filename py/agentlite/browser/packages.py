"""Loading a wheel of the build on first use (dulwich for git): the start-up loads only what every visit
needs (docs/startup.md), the rest waits until a feature asks for it.

The lock file the worker booted Pyodide with lists every wheel of the build with its sha256, so
`loadPackage` finds the file in the build (served from the service worker's cache offline) and checks it.
A wrong sha256 or a missing file does not reject `loadPackage`: its error messages are collected and
raised here.
"""

from __future__ import annotations

import js  # type: ignore[import-not-found]


class PackageLoadError(RuntimeError):
    """A wheel of the build could not be loaded (a bug of the build or a damaged cache)."""


async def load_packages(names: list[str]) -> None:
    # Imported here, not with the module: the worker imports this module before its memory snapshot,
    # which must not hold a JS object (docs/startup.md).
    import pyodide_js  # type: ignore[import-not-found]
    from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

    errors: list[str] = []
    on_error = create_proxy(lambda message: errors.append(str(message)))
    quiet = create_proxy(lambda _message: None)
    try:
        options = to_js(
            {"messageCallback": quiet, "errorCallback": on_error}, dict_converter=js.Object.fromEntries
        )
        await pyodide_js.loadPackage(to_js(names), options)
    finally:
        on_error.destroy()
        quiet.destroy()
    if errors:
        raise PackageLoadError(f"loading {', '.join(names)} failed: {'; '.join(errors)}")
