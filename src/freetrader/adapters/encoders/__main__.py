"""``python -m freetrader.adapters.encoders [--docs] [--headers]``: write the files generated from the layouts."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import generated_docs, layout_headers


def main() -> None:
    ap = argparse.ArgumentParser(description="Write the observation docs and the compiled encoders' layout headers.")
    ap.add_argument("--docs", action="store_true", help="write docs/reference/observations.md (run from the repo root)")
    ap.add_argument("--headers", action="store_true", help="write adapters/encoders/_<game>_layout.h")
    args = ap.parse_args()
    if args.docs:
        Path("docs/reference/observations.md").write_text(generated_docs())
    if args.headers:
        for path, text in layout_headers().items():
            path.write_text(text)


if __name__ == "__main__":
    main()
