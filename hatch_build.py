"""Hatchling build hook: compile the optional C accelerator ``shogiban._speedups``.

The extension only speeds up the rules core (legal moves, push/pop, SFEN); shogiban works the same
without it.  So a missing compiler or missing Python headers print a warning and give a pure-Python
wheel instead of failing the install.  ``SHOGIBAN_PURE_PYTHON=1`` at build time skips the compilation.

* Regular wheels (``pip install .``, ``pip wheel .``) get the compiled module added under
  ``shogiban/`` and a platform tag.
* Editable installs (``pip install -e .``) import the package from ``src/``, so the module is
  compiled there in place (reinstall after editing the C files in ``_speedups_c/``).
* The module records the SHA-256 of its C sources as ``SOURCE_DIGEST`` (the same digest as
  ``shogiban._accelerator.source_digest``, which cannot be imported here); where the sources sit
  beside the package, shogiban refuses a module built from other sources.

setuptools is used only as a compiler driver: it knows each platform's compiler and flags.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "shogiban._speedups"
# Every ``*.c`` here is compiled into the one module, with the folder on the include path for its
# headers.  (Not named ``_speedups/``: without a compiled module, ``from shogiban import _speedups``
# would import that folder as an empty namespace package instead of failing.)
SOURCE_DIR = Path("src", "shogiban", "_speedups_c")


class SpeedupsBuildHook(BuildHookInterface):
    """Compile ``src/shogiban/_speedups_c/*.c``; on failure warn and build a pure-Python wheel."""

    PLUGIN_NAME = "custom"
    _temp: str | None = None

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._temp = None
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        package_dir = root / SOURCE_DIR.parent
        if version == "editable":
            # This interpreter's module from older sources goes (shogiban would refuse it anyway);
            # the modules built for other Python versions stay, for their own interpreters.
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                (package_dir / f"_speedups{suffix}").unlink(missing_ok=True)
        if os.environ.get("SHOGIBAN_PURE_PYTHON", "") not in ("", "0"):
            self.app.display_info("shogiban: SHOGIBAN_PURE_PYTHON is set, not compiling the C accelerator")
            return
        self._temp = tempfile.mkdtemp(prefix="shogiban-build-")
        built = _compile(root, Path(self._temp))
        if isinstance(built, str):
            self.app.display_warning(
                f"shogiban: the optional C accelerator was not built ({built}); "
                "installing the pure-Python rules core, which gives the same results more slowly"
            )
            return
        if version == "editable":
            shutil.copy2(built, package_dir / built.name)
        else:
            build_data["force_include"][str(built)] = f"shogiban/{built.name}"
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
        self.app.display_info(f"shogiban: built the C accelerator {built.name}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._temp is not None:
            shutil.rmtree(self._temp, ignore_errors=True)


def source_digest(folder: Path) -> str:
    """SHA-256 of the C sources in *folder*, exactly as ``shogiban._accelerator.source_digest``."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.iterdir() if p.suffix in (".c", ".h") and p.is_file()):
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _compile(root: Path, work: Path) -> Path | str:
    """Compile the extension under *work*; its path, or why it could not be built."""
    try:
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext
        from setuptools.errors import BaseError, CCompilerError
    except ImportError as exc:
        return f"setuptools is unavailable: {exc}"
    sources = sorted(str(SOURCE_DIR / path.name) for path in (root / SOURCE_DIR).glob("*.c"))
    if not sources:
        return f"no C sources in {SOURCE_DIR}"
    flags = ["/O2"] if sys.platform == "win32" else ["-O2"]
    extension = Extension(
        MODULE,
        sources=sources,
        include_dirs=[str(SOURCE_DIR)],
        define_macros=[("SHOGIBAN_SOURCE_DIGEST", f'"{source_digest(root / SOURCE_DIR)}"')],
        extra_compile_args=flags,
    )
    command = build_ext(Distribution({"name": "shogiban", "ext_modules": [extension]}))
    command.build_lib = str(work / "lib")
    command.build_temp = str(work / "temp")
    cwd = os.getcwd()
    try:
        os.chdir(root)  # relative source paths: object files land under build_temp, not beside them
        command.ensure_finalized()
        command.run()
    except (BaseError, CCompilerError, OSError) as exc:
        return f"{type(exc).__name__}: {exc}"
    finally:
        os.chdir(cwd)
    return Path(command.get_ext_fullpath(MODULE))
