"""Only the compiled part of the build; everything else is in pyproject.toml.

The Contraband, Precious Cargo and Cornish Smuggler observations for the RL
adapters have C versions, and Merchants Cove's has its fastest-changing part in C; the
OpenSpiel adapter makes its tensor lists in C, and every adapter its action masks. They are
optional: without a C compiler the install still succeeds, and each encoder
uses its pure-Python path, which gives the same vector, only slower
(and the OpenSpiel adapter its Python lists). The table server compares
views in C to send only their changed fields (``server/_same_json.c``;
without it, ``marshal`` bytes decide, slower).

All of them use only the stable ABI of CPython 3.11 (``Py_LIMITED_API``), so
the build is one ``cp311-abi3`` wheel that installs on CPython 3.11, 3.12,
3.13 and later (not on a free-threaded build, which has no stable ABI; it
gets the sdist and, with a compiler, a build of its own, or the Python paths).
"""

from setuptools import Extension, setup

ENCODERS = "src/freetrader/adapters/encoders"
#: the oldest CPython whose stable ABI the extensions use (requires-python's floor)
LIMITED_API = [("Py_LIMITED_API", "0x030B0000")]


def compiled_encoder(name: str, depends: tuple[str, ...] | None = None) -> Extension:
    return Extension(
        f"freetrader.adapters.encoders.{name}",
        [f"{ENCODERS}/{name}.c"],
        depends=[f"{ENCODERS}/{h}" for h in (depends if depends is not None else
                                             ("_fastobs.h", f"{name.removesuffix('_fast')}_layout.h"))],
        # no fused multiply-add: every value must round exactly as the Python reference rounds it
        extra_compile_args=["-O2", "-ffp-contract=off"],
        define_macros=LIMITED_API,
        py_limited_api=True,
        optional=True,
    )


# _float_lists: the OpenSpiel adapter's tensor lists (float32 bytes -> Python floats), for every game;
# _action_masks: a position's legal indices and mask in one call (Catalogue.legal_mask)
setup(ext_modules=[compiled_encoder("_contraband_fast"), compiled_encoder("_precious_cargo_fast"),
                   compiled_encoder("_merchants_cove_fast"), compiled_encoder("_cornish_smuggler_fast"),
                   compiled_encoder("_float_lists", ()), compiled_encoder("_action_masks", ()),
                   Extension("freetrader.server._same_json", ["src/freetrader/server/_same_json.c"],
                             extra_compile_args=["-O2"], define_macros=LIMITED_API, py_limited_api=True,
                             optional=True)],
      # the wheel's tag says so: cp311-abi3, for every CPython from 3.11 on
      options={"bdist_wheel": {"py_limited_api": "cp311"}})
