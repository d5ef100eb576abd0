"""Install-time build of the native engine (the rest of the metadata is in pyproject.toml).

cffi compiles ``tapology/rules/native/engine.c`` into the package.  Where no C compiler is found the install goes on
without it: the engine is then compiled on first use, or the rule engine's Python path runs (``tapology perft --json``
says which engine ran, and why).
"""

from setuptools import setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when the C engine does not compile."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers
            print(f"warning: the native engine was not built at install time ({exc}); it is compiled on first use")

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(f"warning: the native engine was not built at install time ({exc}); it is compiled on first use")


setup(cffi_modules=["tapology/rules/native/ffibuild.py:ffi"], cmdclass={"build_ext": OptionalBuildExt})
