"""Regenerate ``smtourney_example/auction_pb2.py`` (and its ``.pyi``) from ``auction.proto``.

    python tests/example_game/generate.py

The import of ``smtourney/v1/bot.proto`` is pointed at the SDK's modules (``sdk.protocol.v1``).
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "smtourney_example"
ROOT = HERE.parent.parent


def main() -> None:
    import grpc_tools
    from grpc_tools import protoc

    bin_dir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "protoc",
            f"-I{PACKAGE / 'proto'}",
            f"-I{ROOT / 'proto'}",
            f"-I{Path(grpc_tools.__file__).parent / '_proto'}",
            f"--plugin=protoc-gen-mypy={bin_dir / 'protoc-gen-mypy'}",
            f"--python_out={tmp}",
            f"--mypy_out={tmp}",
            "auction.proto",
        ]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        for name in ("auction_pb2.py", "auction_pb2.pyi"):
            text = (Path(tmp) / name).read_text()
            text = re.sub(r"^(from|import) smtourney\.v1", r"\1 sdk.protocol.v1", text, flags=re.MULTILINE)
            (PACKAGE / name).write_text(text)


if __name__ == "__main__":
    main()
