"""Only the compiled part of the build; everything else is in pyproject.toml.

The Contraband, Precious Cargo and Cornish Smuggler observations for the RL
adapters have C versions, and Merchants Cove's has its fastest-changing part in C; the
OpenSpiel adapter makes its tensor lists in C. They are
optional: without a C compiler the install still succeeds, and each encoder
uses its pure-Python path, which gives the same vector, only slower
(and the OpenSpiel adapter its Python lists). The table server compares
views in C to send only their changed fields (``server/_same_json.c``;
without it, ``marshal`` bytes decide, slower).
"""

from setuptools import Extension, setup

ENCODERS = "src/freetrader/adapters/encoders"


def compiled_encoder(name: str, depends: tuple[str, ...] | None = None) -> Extension:
    return Extension(
        f"freetrader.adapters.encoders.{name}",
        [f"{ENCODERS}/{name}.c"],
        depends=[f"{ENCODERS}/{h}" for h in (depends if depends is not None else
                                             ("_fastobs.h", f"{name.removesuffix('_fast')}_layout.h"))],
        # no fused multiply-add: every value must round exactly as the Python reference rounds it
        extra_compile_args=["-O2", "-ffp-contract=off"],
        optional=True,
    )


# _float_lists: the OpenSpiel adapter's tensor lists (float32 bytes -> Python floats), for every game
setup(ext_modules=[compiled_encoder("_contraband_fast"), compiled_encoder("_precious_cargo_fast"),
                   compiled_encoder("_merchants_cove_fast"), compiled_encoder("_cornish_smuggler_fast"),
                   compiled_encoder("_float_lists", ()),
                   Extension("freetrader.server._same_json", ["src/freetrader/server/_same_json.c"],
                             extra_compile_args=["-O2"], optional=True)])
