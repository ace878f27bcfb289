"""Where numba keeps the engine's compiled kernels: one folder, chosen by the package.

The kernels take minutes to compile, and ``make install`` compiles them once. numba's own
default puts a cache beside each source file, or in the user's cache folder, depending on what
is writable; an install that compiled into one folder served nothing to a shell that looked in
another (every README command compiled again, for minutes). So the package picks the
folder itself, before numba decorates the first kernel (numba chooses a kernel's cache folder
when the kernel is decorated):

- ``NUMBA_CACHE_DIR``, where the user sets it (non-empty), wins;
- otherwise a checkout (``pyproject.toml`` beside the package: the editable install that
  ``make install`` makes) uses its own ``.numba_cache``, whatever the working directory;
- otherwise (an install into site-packages) numba's own default stands.

The folder is set in ``os.environ`` as well, so worker processes (dask, process pools) started
from this one read the same cache.
"""

from __future__ import annotations

import os
import sys

ENV = "NUMBA_CACHE_DIR"
#: The checkout's cache folder, relative to the checkout (the Makefile's clean-cache removes it)
CHECKOUT_FOLDER = ".numba_cache"


def checkout_cache_dir() -> str | None:
    """``<checkout>/.numba_cache`` where the package runs from a checkout, else None."""
    root = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    if os.path.isfile(os.path.join(root, "pyproject.toml")):
        return os.path.join(root, CHECKOUT_FOLDER)
    return None


def cache_dir() -> str | None:
    """The folder the kernels are cached in (None: numba's own default)."""
    return os.environ.get(ENV) or checkout_cache_dir()


def choose() -> None:
    """Point numba at :func:`cache_dir` unless the user named a folder. Called on the package's
    import (``vandatta_sim/__init__.py``), so before any kernel is decorated."""
    if os.environ.get(ENV):
        return
    folder = checkout_cache_dir()
    if folder is None:
        return
    os.environ[ENV] = folder
    numba = sys.modules.get("numba")
    if numba is not None:  # imported before us: its config has read the environment already
        numba.config.CACHE_DIR = folder
