"""Only the compiled part of the build; everything else is in pyproject.toml.

The Contraband observation for the RL adapters has a C version. It is
optional: without a C compiler the install still succeeds, and the encoder
uses its pure-Python path, which gives the same vector, only slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "freetrader.adapters.encoders._contraband_fast",
            ["src/freetrader/adapters/encoders/_contraband_fast.c"],
            # no fused multiply-add: every value must round exactly as the Python reference rounds it
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
